"""Error checks: error-propagation, sut-error, passback, request-contract, retry and cancellation. An upstream
failure must reach the client as a failure, and a failure the upstream never sent is the SUT's own."""

from __future__ import annotations

import itertools
from typing import Any

from harness.dialects import LENIENT, get_dialect
from harness.events import End, StreamError
from harness.judge._base import check, na, served_turns
from harness.judge._view import CaseView, TurnView
from harness.timeline import Entry
from harness.verdict import Axis, Finding, Verdict

__all__: list[str] = []


@check(
    "error-propagation",
    "Upstream HTTP errors and mid-stream errors reach the client as errors, never as a clean stop.",
)
def error_propagation(view: CaseView) -> Finding:
    faulted = [t for t in view.turns if t.faulted and t.reached and not t.cancelled and not t.replayed]
    if view.case.scenario.outcome not in ("error", "either") or not faulted:
        return na("error-propagation", "no upstream error scripted")
    for t in faulted:
        if not t.client_saw_error and not _broken_end(t):
            clean = "a clean end" if t.ends else "no error"
            return Finding(
                "error-propagation",
                Verdict.FAIL,
                message=f"turn {t.turn}: the upstream failed but the client saw {clean}",
                expected="an error (HTTP status >= 400, an error frame, or a broken stream)",
                actual=f"status {t.status}, events: {[type(e).__name__ for e in t.client_events][:8]}",
                evidence=view.cite(t.faults, t.writes[-1:], t.events_of(End), _client(view, t.turn, "end")),
            )
    broken_ends = [b for t in faulted if not t.client_saw_error and (b := _broken_end(t))]
    if broken_ends:
        return Finding(
            "error-propagation",
            Verdict.PASS,
            message=f"the client saw the stream break off as the upstream's did ({broken_ends[0]})",
        )
    return Finding("error-propagation", Verdict.PASS)


_BROKEN = ("sse-unterminated", "no-terminator")
"""The front-door observer's notices of a stream its client saw break off: EOF inside an event, EOF before
the terminator. A client sees them as the error they are (WHATWG drops the unfinished event; a client
waiting for ``[DONE]`` / ``message_stop`` knows the answer is incomplete)."""


def _broken_end(t: TurnView) -> str:
    """How the client saw turn ``t``'s stream break off ("" where it ended cleanly or not at all): the
    observer's own notices, so a relay that delivers the upstream's broken end as it came has shown its
    client the error, while one that closes it cleanly (a terminator of its own) has hidden it."""
    if t.ends:
        return ""
    notes = [f"{n.code}: {n.detail}" if n.detail else n.code for n in t.notices if n.code in _BROKEN]
    return "; ".join(notes)


# A failure the upstream never sent is reported once, with the SUT's exception and traceback as evidence.
@check(
    "sut-error",
    "The SUT never fails a turn the upstream served correctly (raises, answers an error status, or "
    "breaks its stream); the exception or error is the evidence.",
)
def sut_error(view: CaseView) -> Finding:
    turns = served_turns(view)
    if not turns:
        return na("sut-error", "no turn the upstream served as scripted")
    for t in turns:
        if not t.client_saw_error:
            continue
        if t.raised:
            e = t.raised[0]
            return Finding(
                "sut-error",
                Verdict.FAIL,
                message=f"turn {t.turn}: the SUT raised {e.info.get('error', '?')}"
                + (f" ({e.info['where']})" if e.info.get("where") else ""),
                expected="the upstream's answer, delivered",
                actual=str(e.info.get("traceback", "")),
                evidence=(view.index_of(e),),
            )
        detail = t.errors[0].message if t.errors else f"HTTP {t.status}"
        return Finding(
            "sut-error",
            Verdict.FAIL,
            message=f"turn {t.turn}: the SUT failed a turn the upstream served correctly",
            expected="the upstream's answer, delivered",
            actual=f"status {t.status}: {detail[:300]}",
            evidence=view.cite(t.client_errors, t.events_of(StreamError), _client(view, t.turn, "status")),
        )
    return Finding("sut-error", Verdict.PASS)


# passback and request-contract judge the strict upstream's 400: passback for reasoning lost on the way
# back, request-contract for a request the provider refuses outright. Each owns the rejections of one
# ``Rejection.family``; ``passback-fidelity`` in ``_fidelity`` owns those of ``fidelity``. A lost passback is
# reported once, with whether the SUT surfaced the provider's 400 or hid it, which is worse.
@check(
    "passback",
    "Reasoning that the provider requires back (reasoning_content, thinking blocks with "
    "signatures, reasoning items, thought signatures) is carried into the continuation unaltered.",
)
def passback(view: CaseView) -> Finding:
    if view.case.provider_rules == LENIENT or len(view.turns) < 2:
        return na("passback", "no strict continuation in this case")
    reached = [t for t in view.turns[1:] if t.reached]
    if not reached:
        return na("passback", "the conversation never reached a continuation")
    for t in reached:
        if t.rejections("passback"):
            return rejected("passback", view, t, t.rejections("passback")[0])
    # A continuation answers the tool calls of the turn before it. When none of them reached the
    # client, the SUT had nothing to pass back: the request was thinkwire's own continuation (the
    # tool results of calls the client never saw), and its acceptance proves nothing.
    # A prompted SUT (a CLI agent) makes its tool continuations itself: each is its own, seen or not.
    carried = [
        t for t in reached if view.abilities.prompted or _calls_reached_the_client(view.turns[t.turn - 1])
    ]
    if not carried:
        hidden = [t.turn - 1 for t in reached if view.turns[t.turn - 1].expected.tool_calls]
        return na("passback", _nothing_carried(hidden))
    others = sum(1 for t in reached if t.rejected)
    note = f"; {others} rejected for another rule (its own check reports it)" if others else ""
    return Finding("passback", Verdict.PASS, message=f"{len(carried)} continuation(s) accepted{note}")


def _calls_reached_the_client(prev: TurnView) -> bool:
    """The client saw the tool calls the upstream sent in this turn (or there were none to see: a
    continuation after a plain answer still carries that answer's reasoning)."""
    want = {c.name for c in prev.expected.tool_calls}
    return not want or bool(want & {c.name for c in prev.tool_calls})


def _nothing_carried(hidden: list[int]) -> str:
    turns = ", ".join(str(n) for n in hidden)
    return (
        f"the tool call(s) of turn {turns} never reached the client, so no continuation carried "
        "anything of the SUT's back (thinkwire continued the conversation on its own; delivery "
        "reports the lost call)"
    )


def rejected(name: str, view: CaseView, t: TurnView, e: Entry) -> Finding:
    """The FAIL of check ``name`` for a strict upstream's rejection ``e`` of turn ``t`` (each check owns
    the rejections of one ``Rejection.family``): the rule, the provider's status, whether the SUT surfaced
    the error to its client or hid it (worse), the differences as Expected / Actual."""
    surfaced = (
        "surfaced the provider's error to its client"
        if t.client_saw_error
        else "HID the provider's error (its client saw no error)"
    )
    what = "continuation" if t.turn else "request"
    default = "a request the provider accepts" if name == "request-contract" else "reasoning passed back"
    expected, actual = _sides(e, default)
    echo = _echo_note(view, t.turn) if name == "passback" else ""
    status = e.info.get("status")
    if isinstance(status, int) and status < 400:  # a refusal in a 200 (Gemini's finishReason)
        how, surfaced = f"refused the {what} in a {status} answer without content", "got an empty answer back"
    else:
        how = f"rejected the {what} with {status}"
    return Finding(
        name,
        Verdict.FAIL,
        message=f"turn {t.turn}: the strict upstream ({view.case.provider_rules}) {how} "
        f"({e.info.get('rule', '?')}); the SUT {surfaced}{echo}",
        expected=expected,
        actual=actual,
        evidence=(view.index_of(e),),
        data={"surfaced": t.client_saw_error},
    )


@check(
    "request-contract",
    "The SUT's upstream requests follow the provider's current request contract (the thinking mode the "
    "model accepts: adaptive on models that refuse enabled; Vertex's anthropic_version in the body); the "
    "strict upstream's 400 is the evidence.",
)
def request_contract(view: CaseView) -> Finding:
    if view.case.provider_rules == LENIENT:
        return na("request-contract", "a lenient upstream has no request contract")
    rules = _request_rules(view)
    if not rules:
        rules = view.case.provider_rules
        return na("request-contract", f"the provider rules {rules} enforce no request contract rule")
    reached = [t for t in view.turns if t.reached]
    if not reached:
        return na("request-contract", "the upstream received no request")
    for t in reached:
        if t.rejections("request"):
            return rejected("request-contract", view, t, t.rejections("request")[0])
    return Finding(
        "request-contract",
        Verdict.PASS,
        message=f"{len(reached)} request(s) accepted under {', '.join(rules)}",
    )


def _request_rules(view: CaseView) -> tuple[str, ...]:
    """The rules of ``family="request"`` the case's provider rules enforce (its ``request_rules``):
    without one, an accepted request proves nothing about the contract."""
    rules = get_dialect(view.case.dialect).provider_rules().get(view.case.provider_rules)
    return rules.request_rules if rules is not None else ()


def _echo_note(view: CaseView, turn: int) -> str:
    """What thinkwire's client sent the reasoning back in, and why (the front-door request's note): a
    carrier the SUT did not stream its reasoning in is thinkwire's choice, said as such."""
    requests = _client(view, turn, "request")
    info = requests[0].info if requests else {}
    if "echo_why" not in info:
        return ""
    sent, streamed = list(info.get("echo") or ()), list(info.get("streamed") or ())
    shown = ", ".join(sent) or "no reasoning field"
    if streamed and set(sent) != set(streamed):
        return (
            f" (thinkwire's client sent the reasoning back in {shown}, {info['echo_why']}; the SUT had "
            f"streamed it in {', '.join(streamed)})"
        )
    if sent:
        return (
            f" (thinkwire's client sent the reasoning back in {shown}, {info['echo_why']}: the SUT "
            "lost it on the way upstream)"
        )
    return f" (thinkwire's client sent {shown} back: {info['echo_why']})"


def _sides(rejected: Any, default: str) -> tuple[str, str]:
    """Expected / Actual of a strict upstream's rejection: its differences, else the default and body."""
    diffs = rejected.info.get("differences", ())
    expected = "; ".join(f"{d[0]} = {d[2]!r}" for d in diffs) or default
    actual = "; ".join(f"{d[0]} = {d[1]!r}" for d in diffs) or str(rejected.info.get("body", ""))[:200]
    return expected, actual


@check(
    "retry",
    "A SUT may retry a failed upstream request only before any output reached its client, and waits at "
    "least the Retry-After the provider asked for; after partial output it surfaces the error (a retry "
    "then replays the answer: duplicated reasoning).",
)
def retry(view: CaseView) -> Finding:
    turns = [t for t in view.turns if t.attempts_scripted]
    if not turns:
        return na("retry", "no failed attempt scripted before a turn's answer")
    retries = 0
    for t in turns:
        reqs = sorted(t.requests, key=lambda e: e.t)
        if t.replayed:
            first = next(e for e in reqs if e.info.get("attempt", 0) > 0)
            return Finding(
                "retry",
                Verdict.FAIL,
                message=f"turn {t.turn}: the SUT retried the upstream request after output of the failed "
                "attempt had reached its client (the retry replays the answer)",
                expected="after partial output: the upstream error surfaced, no retry",
                actual=f"retry #{first.info.get('attempt')}; client saw {_short(t.reasoning or t.text)}",
                evidence=(view.index_of(first),),
            )
        for prev, nxt in itertools.pairwise(reqs):
            retries += 1
            wait = _retry_after(view, t.turn, int(prev.info.get("attempt", 0)))
            gap = (nxt.t - prev.t) / 1e9
            if wait is not None and gap < wait:
                return Finding(
                    "retry",
                    Verdict.FAIL,
                    message=f"turn {t.turn}: the SUT retried {gap * 1000:.0f} ms after a {wait:g} s "
                    "Retry-After",
                    expected=f"the retry at least {wait:g} s after the failed request (Retry-After)",
                    actual=f"{gap:.3f} s",
                    evidence=(view.index_of(nxt),),
                )
    if not retries:
        return Finding("retry", Verdict.PASS, message="no retry: the failure went to the client")
    return Finding("retry", Verdict.PASS, message=f"{retries} retry(ies), each before any output, as asked")


def _retry_after(view: CaseView, turn: int, attempt: int) -> float | None:
    """The Retry-After (seconds) the scripted failed attempt asked for, if any."""
    spec = view.case.turns[turn]
    if attempt >= len(spec.attempts):
        return None
    from harness.upstream import ProviderHttpError

    first = spec.attempts[attempt][0] if spec.attempts[attempt] else None
    return first.retry_after if isinstance(first, ProviderHttpError) else None


def _short(s: str, n: int = 60) -> str:
    return repr(s if len(s) <= n else s[: n - 3] + "...")


def _client(view: CaseView, turn: int, act: str) -> list[Entry]:
    return view.by_key.get(("client", act, turn), [])


CANCEL_BOUND_S = 1.5


def _upstream_over(e: Entry) -> bool:
    """An upstream entry that ends its answer's connection or response: the SUT left, the answer was
    whole, or the mock aborted it (a stall that timed out)."""
    aborted = e.act == "fault" and "abort" in str(e.info.get("fault", ""))
    return e.side == "upstream" and (e.act in ("disconnect", "response-end") or aborted)


@check(
    "cancellation",
    "After the client aborts, the SUT closes its upstream connection promptly.",
    axis=Axis.CLEANUP,
)
def cancellation(view: CaseView) -> Finding:
    cancelled = [t for t in view.turns if t.cancelled]
    if not cancelled:
        return na("cancellation", "the client did not cancel", Axis.CLEANUP)
    cancel_t = min(e.t for e in view.entries if e.side == "client" and e.act == "cancel")
    closes = [e for e in view.entries if e.side == "upstream" and e.act == "disconnect" and e.t >= cancel_t]
    ended = [e for e in view.entries if e.side == "upstream" and e.act == "response-end" and e.t >= cancel_t]
    over = [e for e in view.entries if e.t < cancel_t and e.turn == cancelled[0].turn and _upstream_over(e)]
    if over and not closes and not ended:  # the premise (an upstream still streaming at the cancel) failed
        t0, what = view.entries[0].t, f"{over[0].act} {over[0].info.get('fault', '')}".strip()
        return na(
            "cancellation",
            f"the upstream's answer had already ended ({what} at {(over[0].t - t0) / 1e6:.0f} ms) when the "
            f"client cancelled at {(cancel_t - t0) / 1e6:.0f} ms: nothing was left to close (a late cancel: "
            "the client saw the reasoning it cancels on only then)",
            Axis.CLEANUP,
        )
    if closes:
        ms = (closes[0].t - cancel_t) / 1e6
        return Finding(
            "cancellation", Verdict.PASS, Axis.CLEANUP, f"upstream closed {ms:.1f} ms after cancel"
        )
    return Finding(
        "cancellation",
        Verdict.UNCLEAN,
        Axis.CLEANUP,
        message="the SUT kept its upstream connection open after the client cancelled",
        expected=f"upstream connection closed within {CANCEL_BOUND_S}s of the cancel",
        actual="read the upstream to its end" if ended else "still open",
        evidence=view.cite([e for e in view.entries if e.side == "client" and e.act == "cancel"], ended),
    )
