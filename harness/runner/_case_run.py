"""One case against one started SUT: the conversation loaded into the upstream, the driver run within the
case's bounds, the checks and the evidence rules applied, giving a CaseResult and its view. Whatever the
SUT does, the case ends by its deadline with a result."""

from __future__ import annotations

import base64
import dataclasses
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from harness.catalog import Case, expect_findings, judged_claims, relayed_gates
from harness.drivers import (
    CaseContext,
    CaseTooBig,
    Driver,
    DriverError,
    DriverTimeout,
    SUTProfile,
    cli_unsupported,
    short_traceback,
)
from harness.events import Event, ReasoningDelta, TextDelta
from harness.judge import CANCEL_BOUND_S, CaseView, build_view, case_checks, premise_findings, weigh
from harness.runner._exit import dead_before, ended_by_sut, sut_exit
from harness.runner._gate_wait import shortened_note
from harness.runner._state import Limits
from harness.runner._summary import summarise_timeline
from harness.timeline import Entry, Timeline
from harness.verdict import Axis, CaseResult, Finding, Status, Verdict, worst

if TYPE_CHECKING:
    from harness.runner._options import Keep
    from harness.upstream import ClientSide, Conversation, LiveUpstream

__all__ = [
    "failed",
    "first_byte",
    "new_result",
    "run_case",
    "serialize_timeline",
    "set_verdicts",
    "unsupported_reason",
    "with_gate_timeout",
]


def new_result(case: Case, profile: SUTProfile) -> CaseResult:
    return CaseResult(
        case_id=case.id,
        scenario_id=case.scenario.id,
        requirement=case.scenario.requirement,
        category=case.scenario.category,
        sut=profile.name,
        axes=case.axes(),
    )


def run_case(
    case: Case,
    profile: SUTProfile,
    driver: Driver,
    upstream: LiveUpstream,
    client_cls: type[ClientSide],
    limits: Limits,
    keep: Keep,
    names: Mapping[str, str] | None = None,
) -> tuple[CaseResult, CaseView | None, bool]:
    """The case through ``driver`` -> (its result, its view for the parity pass, whether the SUT is
    still usable for the next case). ``names``: the run's routing tokens -> case ids.

    The SUT's doing is evidence, a FAIL finding or TIMEOUT; a harness-side problem is ERROR with its whole
    traceback. Nothing here raises for a SUT's sake. A SUT that goes away is ``_exit``'s to judge.
    """
    result = new_result(case, profile)
    unsupported = unsupported_reason(case, profile)
    if unsupported:
        result.stream, result.cleanup = Verdict.UNSUPPORTED, Verdict.NOT_APPLICABLE
        result.findings.append(Finding("support", Verdict.UNSUPPORTED, message=unsupported))
        return result, None, True
    timeline = Timeline()
    client = client_cls()
    provider = case.provider
    model = profile.model_for(case.dialect, case.variant, provider)
    conversation = relayed_gates(case, profile, case.conversation(model))
    asked, live = limits.settings, limits.live
    gates = asked.gate_timeout if asked.gate_timeout is not None else limits.measured.gate_timeout
    if gates is not None and asked.gate_timeout is None and live.load is not None:
        gates = min(live.load.gate_timeout(gates), asked.timeout)
    if gates is not None:
        conversation = with_gate_timeout(conversation, gates, at_least=asked.gate_timeout is None)
    full = longest_gate(conversation)
    short = _shortened(limits, full)
    if short is not None:
        conversation = with_gate_timeout(conversation, short)
    result.gate_wait_s = longest_gate(conversation)
    ctx = CaseContext(
        case, upstream.base_url, timeline, client, model, asked.timeout, max_bytes=asked.max_bytes,
        provider=provider.name,
    )
    t0 = time.monotonic()
    alive, too_big = _served(case, profile, driver, upstream, conversation, ctx, result)
    result.duration_s = time.monotonic() - t0
    view = build_view(case, timeline, profile.caps, names, **judged_claims(case, profile))
    if ended_by_sut(driver, timeline, result):  # (its view is the preflight's evidence, not a parity twin)
        _keep_timeline(result, view, keep)
        return result, view, False
    result.first_byte_s = first_byte(view)
    if live.load is not None and not any(t.gates_scripted for t in view.turns):
        relay = relay_time(view)
        if relay is not None:
            live.load.add(relay)
    if live.learning is not None:
        live.learning.learn(view, shortened=short is not None)
    if too_big is not None:
        result.findings = [
            Finding(
                "size",
                Verdict.FAIL,
                message=f"the SUT sent more than {too_big.limit} bytes in one case (reading stopped)",
                expected=f"at most {too_big.limit} bytes (--max-bytes)",
                actual=f"first bytes: {too_big.head[:200]!r}",
            )
        ]
        set_verdicts(result)
    elif result.status == Status.OK:
        findings = [c(view) for c in case_checks() if not usage_off(c.name, profile)]
        judged = weigh(view, findings)
        if judged.error:
            result.status, result.error = Status.ERROR, judged.error
        else:
            result.findings = premise_findings(view, findings + judged.findings)
            result.findings += expect_findings(case.scenario, result.findings)
            if short is not None and full is not None and live.learning is not None:
                _say_shortened(result.findings, short, full, live.learning.buffered)
            set_verdicts(result)
    _keep_timeline(result, view, keep)
    return result, view, alive


def _keep_timeline(result: CaseResult, view: CaseView, keep: Keep) -> None:
    if keep == "all" or (keep == "failures" and failed(result)):
        result.timeline = serialize_timeline(view.entries)
    elif keep == "failures":
        result.timeline_summary = summarise_timeline(view.entries)


def _shortened(limits: Limits, full: float | None) -> float | None:
    """The shortened wait for the case's gates (None: they wait in full): only when the run has
    learned that the SUT buffers, and never where the user set the gates' timeout."""
    live = limits.live
    if full is None or live.learning is None or limits.settings.gate_timeout is not None:
        return None
    load = live.load.median() if live.load is not None else None
    return live.learning.short(full, limits.measured.relay, load)


def _say_shortened(findings: list[Finding], short: float, full: float, seen: int) -> None:
    """The ``incremental`` FAIL a gate decided after a shortened wait says so (same verdict)."""
    for k, f in enumerate(findings):
        if f.check == "incremental" and f.verdict == Verdict.FAIL and "gate timed out" in (f.actual or ""):
            findings[k] = dataclasses.replace(f, message=f.message + shortened_note(short, full, seen))


def _served(
    case: Case,
    profile: SUTProfile,
    driver: Driver,
    upstream: LiveUpstream,
    conversation: Conversation,
    ctx: CaseContext,
    result: CaseResult,
) -> tuple[bool, CaseTooBig | None]:
    """The conversation served (routed by the case's token) for as
    long as the driver runs the case and a cancel's disconnect may take; -> (the SUT is still alive,
    the byte cap it overran). A SUT's failure becomes ``result``'s status, never an exception; a SUT
    found dead is not served (``_exit.dead_before``)."""
    if (dead := sut_exit(driver)) is not None:  # (a neighbour in flight killed it: not this case's doing)
        dead_before(result, dead, driver.stderr_tail())
        return False, None
    upstream.route(case.token, conversation, ctx.timeline, ctx.client)  # its requests carry its token
    try:
        too_big, alive = _drive(driver, ctx, profile, result)
        cancels = ctx.timeline.select("client", "cancel") if _cancels(case) else []
        if cancels:
            ctx.timeline.wait_for("upstream", "disconnect", timeout=CANCEL_BOUND_S, after=cancels[0].t)
    finally:
        upstream.unroute(case.token)
    return alive, too_big


def unsupported_reason(case: Case, profile: SUTProfile) -> str:
    """Why the SUT is not judged on ``case`` ("" when it is): a dialect or variant it does not claim, a
    scenario not for its kind, a conversation its prompt input cannot carry, a client read timeout it
    declares it does not keep alive (``stream_keepalive``), or a strict provider whose semantics it
    does not claim (``providers``)."""
    if not profile.claims(case.dialect, case.variant):
        return f"the SUT does not claim {case.dialect}:{case.variant}"
    if not case.scenario.for_kind(profile.kind):
        return f"scenario does not apply to {profile.kind} SUTs"
    continues = bool(profile.continue_words)
    if profile.caps.prompted and (why := cli_unsupported(case.turns, profile.input, continues)):
        return why
    if case.scenario.client_read_timeout is not None and not profile.stream_keepalive:
        return (
            "the SUT declares that it does not keep its client's stream alive while the upstream is "
            "silent (profile stream_keepalive = false)"
        )
    provider = case.provider.name
    if case.provider_rules != "lenient" and not profile.claims_provider(provider):
        claimed = ", ".join(profile.providers or ())
        return (
            f"the SUT does not claim {provider}'s semantics (profile providers = [{claimed}]): "
            f"the {case.provider_rules} passback rules do not apply"
        )
    return ""


def _cancels(case: Case) -> bool:
    return any(t.cancel is not None for t in case.turns)


def _drive(
    driver: Driver, ctx: CaseContext, profile: SUTProfile, result: CaseResult
) -> tuple[CaseTooBig | None, bool]:
    """``driver.run(ctx)``, what it raised put into ``result`` (status, error, the SUT's stderr tail)
    -> (the byte cap it hit, whether the SUT is still usable)."""
    alive = True
    too_big: CaseTooBig | None = None
    try:
        driver.run(ctx)
    except CaseTooBig as exc:
        too_big = exc
        alive = profile.caps.survives_a_stuck_case or not profile.keep_alive
    except DriverTimeout as exc:
        result.status, result.error = Status.TIMEOUT, str(exc)
        alive = profile.caps.survives_a_stuck_case
    except DriverError as exc:
        result.status, result.error = Status.ERROR, str(exc)
        alive = False
    except Exception as exc:
        result.status = Status.ERROR
        result.error = "harness error (a thinkwire bug, not the SUT's):\n" + short_traceback(exc)
    if result.status != Status.OK:
        tail = driver.stderr_tail()
        if tail and tail not in result.error:
            result.error += f"\n--- SUT stderr (tail) ---\n{tail}"
    return too_big, alive


def usage_off(check: str, profile: SUTProfile) -> bool:
    """``usage`` applies only where the SUT reports usage (profile ``usage``; CLIs default to off)."""
    return check == "usage" and not profile.reports_usage


def relay_time(view: CaseView) -> float | None:
    """Seconds from the upstream's first write of a turn to the last reasoning or text the client got
    in that turn, the longest over the turns (None: no turn has both). In an ungated case the upstream
    writes its whole stream at once, so this is how long the SUT took to hand all of it on: at least
    what it takes to hand on the one delta a gate waits for."""
    writes: dict[int, int] = {}
    for w in view.of("upstream", "write"):
        writes.setdefault(w.turn, w.t)
    got: dict[int, int] = {}
    for e in view.of("client", "event"):
        if isinstance(e.event, ReasoningDelta | TextDelta):
            got[e.turn] = e.t
    spans = [got[turn] - t for turn, t in writes.items() if turn in got and got[turn] >= t]
    return max(spans) / 1e9 if spans else None


def first_byte(view: CaseView) -> float | None:
    """Seconds from the first client request to the first bytes (or event) the client got back."""
    requests = view.of("client", "request")
    sent = requests[0].t if requests else None
    got = min((g[0].t for g in (view.of("client", "chunk"), view.of("client", "event")) if g), default=None)
    return None if sent is None or got is None else (got - sent) / 1e9


def with_gate_timeout(conversation: Conversation, seconds: float, *, at_least: bool = False) -> Conversation:
    """The conversation with every gate's timeout set to ``seconds`` (``at_least``: raised to it,
    never lowered below what the scenario asked for)."""
    from dataclasses import replace as dc_replace

    from harness.upstream import Gate, Step

    def fix(step: Step) -> Step:
        if not isinstance(step, Gate):
            return step
        value = max(step.timeout, seconds) if at_least else seconds
        return dc_replace(step, timeout=value)

    scripts = tuple(dc_replace(s, steps=tuple(fix(st) for st in s.steps)) for s in conversation.scripts)
    return dc_replace(conversation, scripts=scripts)


def longest_gate(conversation: Conversation) -> float | None:
    """The longest timeout of the conversation's gates, as they will wait (None: no gate)."""
    from harness.upstream import Gate

    waits = [st.timeout for s in conversation.scripts for st in s.steps if isinstance(st, Gate)]
    return max(waits, default=None)


def failed(result: CaseResult) -> bool:
    """Does ``keep_timelines="failures"`` keep this result's timeline? When it fails even under
    ``--strict`` (so a NON_STRICT case has its evidence whichever way the run is read)."""
    return result.fails(strict=True)


def set_verdicts(result: CaseResult) -> None:
    result.stream = worst([f.verdict for f in result.findings if f.axis == Axis.STREAM])
    result.cleanup = worst(
        [f.verdict for f in result.findings if f.axis == Axis.CLEANUP], default=Verdict.PASS
    )


def serialize_timeline(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    if not entries:
        return []
    t0 = entries[0].t
    out: list[dict[str, Any]] = []
    for e in entries:
        item: dict[str, Any] = {
            "t_ms": round((e.t - t0) / 1e6, 3),
            "side": e.side,
            "kind": e.kind,
            "turn": e.turn,
        }
        if e.data:
            raw = e.data[:4096]
            try:
                item["text"] = raw.decode()
            except UnicodeDecodeError:
                item["base64"] = base64.b64encode(raw).decode()
            if len(e.data) > 4096:
                item["truncated"] = len(e.data)
        if e.event is not None:
            item["event"] = _event_dict(e.event)
        if e.info:
            item["info"] = {k: _plain(v) for k, v in e.info.items() if k != "headers"}
        out.append(item)
    return out


def _event_dict(ev: Event) -> dict[str, Any]:
    from dataclasses import fields

    d: dict[str, Any] = {"type": type(ev).__name__}
    for f in fields(ev):
        if f.name == "channel":
            continue
        v = getattr(ev, f.name)
        if v not in (None, ""):
            d[f.name] = v
    return d


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _plain(v: Any) -> Any:
    """JSON-ready copy of a timeline ``info`` value (called ~300 times per case: exact types first)."""
    if type(v) in _ATOMS or isinstance(v, str | int | float | bool) or v is None:
        return v
    if isinstance(v, bytes):
        return v.decode(errors="replace")[:2000]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple | set | frozenset):
        return [_plain(x) for x in v]
    return repr(v)[:2000]
