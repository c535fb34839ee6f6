"""Evidence before verdicts: what a case must have observed before any check may call it PASS. These are pure
functions of the case view, like the checks, and missing evidence is never PASS."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.dialects import LENIENT
from harness.events import StreamError
from harness.judge import CaseView, TurnView
from harness.timeline import Entry
from harness.verdict import Finding, Verdict

__all__ = ["Judgement", "required_checks", "weigh"]


@dataclass(slots=True)
class Judgement:
    """What the evidence says beyond the checks: an ERROR text (nothing can be judged) and/or findings."""

    error: str = ""
    findings: list[Finding] = field(default_factory=list)


def required_checks(view: CaseView) -> dict[str, str]:
    """Check name -> why the scenario makes it applicable to this case (N/A there is missing evidence)."""
    case, out = view.case, {}
    turns = case.turns
    faulted = [v.faulted for v in view.turns]  # the view's: a perturbation can make a turn faulted too
    if case.stream and any(
        v.gates_scripted and not faulted[i] and turns[i].cancel is None for i, v in enumerate(view.turns)
    ):
        out["incremental"] = "the scenario scripts a gate on a streamed turn"
    if case.provider_rules != LENIENT and len(turns) > 1:
        rules = case.provider_rules
        out["passback"] = f"the scenario continues the conversation under the strict {rules} rules"
    if any(t.cancel is not None for t in turns):
        out["cancellation"] = "the client cancels in this scenario"
    if case.scenario.outcome in ("error", "either") and any(faulted):
        out["error-propagation"] = "the scenario scripts an upstream failure"
    if any(t.events() and not faulted[i] and t.replay is None for i, t in enumerate(turns)):
        out["delivery"] = "the upstream answers with content"
    if view.abilities.cleanup_watched and case.scenario.category == "cleanup":
        out["cleanup"] = "a cleanup scenario on a SUT whose processes and session dir are watched"
    return out


def _completed(t: TurnView, goes_on: bool = False) -> bool:
    """A turn after which a correct conversation goes on (so the next turn's request is required);
    ``goes_on``: the next turn starts with a new user message, so a cancelled turn counts too."""
    if t.cancelled and goes_on:
        return t.reached and not t.rejected
    return t.reached and not t.rejected and not t.faulted and not t.cancelled and not t.client_saw_error


def weigh(view: CaseView, findings: list[Finding]) -> Judgement:
    """The evidence rules, given the checks' findings (``findings``) for the same view.

    A case's required evidence comes from its scenario. The upstream received each scripted turn's request
    that the conversation should reach, in the mode the case asked for; a streaming case whose SUT asked
    the upstream for a whole body fake-streams. The client observed an answer, and every check the scenario
    makes applicable could judge.

    Missing evidence caused by the SUT is a FAIL finding, ``evidence``; an unreachable SUT is ERROR; a
    mock-internal failure is ERROR, never a SUT verdict.
    """
    out = Judgement()
    harness_errors = _server_errors(view, sut=False)
    if harness_errors:
        out.error = "mock upstream internal error (a thinkwire bug, not the SUT's):\n" + str(
            harness_errors[0].info.get("error", "")
        )
        return out
    sut_requests = _server_errors(view, sut=True)
    if sut_requests:
        e = sut_requests[0]
        out.findings.append(
            Finding(
                "evidence",
                Verdict.FAIL,
                message=f"turn {e.turn}: the SUT sent a request the conversation has no answer for",
                expected="one upstream request per scripted turn, on the dialect's path",
                actual=str(e.info.get("error", ""))[:300],
                evidence=(view.index_of(e),),
            )
        )
    first = view.turns[0] if view.turns else None
    if first is not None and not first.reached:
        if not first.observed:
            why = "; ".join(str(e.info.get("error", "")) for e in first.client_errors)[:300]
            out.error = "nothing observed: the SUT never answered and never called the upstream" + (
                f" ({why})" if why else ""
            )
            return out
        out.findings.append(_no_upstream(view, first))
        return out
    out.findings += _missing_turn(view) + _turn_evidence(view)
    if not out.findings and not any(f.verdict == Verdict.FAIL for f in findings):
        out.findings += _not_judged(view, findings)
    return out


def _server_errors(view: CaseView, *, sut: bool) -> list[Entry]:
    """The mock's ``server-error`` entries caused by the SUT (``sut``) or by thinkwire itself."""
    return [e for e in view.of("upstream", "server-error") if (e.info.get("cause") == "sut") == sut]


def _missing_turn(view: CaseView) -> list[Finding]:
    """The first turn a correct conversation would have reached but the upstream never saw."""
    for prev, t in zip(view.turns, view.turns[1:], strict=False):
        # a prompted SUT's later prompt is the driver's to give: a turn that starts with a new user
        # message is not a request it failed to send
        goes_on = view.case.turns[t.turn].user is not None
        prompt = view.abilities.prompted and goes_on
        if _completed(prev, goes_on) and not t.reached and not prompt:
            return [_no_upstream(view, t)]
    return []


def _turn_evidence(view: CaseView) -> list[Finding]:
    """The first turn that fake-streamed, or whose answer the client never observed."""
    for t in view.turns:
        mode = t.mode
        if view.case.stream and mode is not None and mode.info.get("asked_stream") is False:
            return [
                Finding(
                    "evidence",
                    Verdict.FAIL,
                    message=f"turn {t.turn}: the SUT fake-streams: its client asked for a stream, but it "
                    "asked the upstream for one whole body",
                    expected='a streaming upstream request (e.g. "stream": true)',
                    actual="a non-streaming upstream request",
                    evidence=(view.index_of(mode),),
                )
            ]
        if t.reached and not t.observed and not t.cancelled and _shows(view, t):
            return [_unobserved(view, t)]
    return []


def _not_judged(view: CaseView, findings: list[Finding]) -> list[Finding]:
    """The first check the scenario makes applicable that said N/A: missing evidence, never PASS."""
    by_name = {f.check: f for f in findings}
    for name, why in required_checks(view).items():
        f = by_name.get(name)
        if f is not None and f.verdict == Verdict.NOT_APPLICABLE:
            return [
                Finding(
                    "evidence",
                    Verdict.FAIL,
                    message=f"{name} applies here ({why}) but could not judge: {f.message}",
                    expected=f"evidence for {name}",
                    actual=f.message,
                )
            ]
    return []


def _shows(view: CaseView, t: TurnView) -> bool:
    """The turn's answer has something its client can see: reasoning or text, or tool calls where the
    front door shows them (a plain-text CLI's tool-call turn with no text shows nothing, rightly)."""
    if view.abilities.shows_tool_calls or t.expected_reasoning or t.expected_text:
        return True
    return not t.expected.tool_calls


def _unobserved(view: CaseView, t: TurnView) -> Finding:
    return Finding(
        "evidence",
        Verdict.FAIL,
        message=f"turn {t.turn}: the upstream answered, but the client observed nothing",
        expected="an answer through the front door",
        actual="no status, no bytes, no event",
        evidence=view.cite(t.writes[:1], t.writes[-1:]),
    )


def _no_upstream(view: CaseView, t: TurnView) -> Finding:
    """The FAIL of a turn the upstream never saw, saying what the client got instead: the SUT's
    exception, an error it answered, or an answer (canned or cached)."""
    if t.raised:
        said = str(t.raised[0].info.get("error", "an exception"))[:300]
        where = t.raised[0].info.get("where")
        msg = f"turn {t.turn}: the SUT raised {said} before calling the upstream" + (
            f" ({where})" if where else ""
        )
        actual = "an exception, and no upstream request"
    elif t.client_saw_error:
        said = "; ".join(e.message for e in t.client_events if isinstance(e, StreamError))
        said = said[:300] or f"HTTP {t.status}"
        msg = f"turn {t.turn}: the SUT answered an error ({said}) without calling the upstream"
        actual = "an error, and no upstream request"
    elif t.observed:
        msg = f"turn {t.turn}: the SUT answered without calling the upstream (a canned or cached answer)"
        actual = "an answer, and no upstream request"
    else:
        msg = f"turn {t.turn}: the upstream never received this turn's request"
        actual = "no upstream request"
    client = [e for e in view.entries if e.side == "client" and e.turn == t.turn and e.act != "chunk"]
    return Finding(
        "evidence",
        Verdict.FAIL,
        message=msg,
        expected="an upstream request for this turn",
        actual=actual,
        evidence=view.cite(client),
    )
