"""One case against one started SUT: the conversation loaded into the upstream, the driver run within the
case's bounds, the checks and the evidence rules applied, giving a CaseResult and its view. Whatever the
SUT does, the case ends by its deadline with a result."""

from __future__ import annotations

import base64
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from harness.catalog import Case, judged_claims, relayed_gates
from harness.drivers import (
    CaseContext,
    CaseTooBig,
    Driver,
    DriverError,
    DriverTimeout,
    SUTProfile,
    short_traceback,
)
from harness.events import Event
from harness.judge import (
    CANCEL_BOUND_S,
    CaseView,
    build_view,
    judge,
    roll_up,
    support,
    unsupported_reason,
)
from harness.runner._exit import dead_before, ended_by_sut
from harness.runner._gate_budget import GateBudget
from harness.runner._state import Limits
from harness.runner._summary import summarise_timeline
from harness.timeline import Entry, Timeline
from harness.verdict import CaseResult, Status

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

    The case is driven with its gates' waits (``GateBudget``) and handed to the judge (``judge.judge``).
    The SUT's doing is evidence, a FAIL finding or TIMEOUT; a harness-side problem is ERROR with its whole
    traceback. Nothing here raises for a SUT's sake. A SUT that goes away is ``_exit``'s to judge.
    """
    result = new_result(case, profile)
    if (unsupported := support(case, profile)) is not None:
        unsupported.into(result)
        return result, None, True
    timeline, model = Timeline(), profile.model_for(case.dialect, case.variant, case.provider)
    budget = GateBudget.of(relayed_gates(case, profile, case.conversation(model)), limits)
    result.gate_wait_s = budget.wait
    asked = limits.settings
    ctx = CaseContext(
        case,
        upstream.base_url,
        timeline,
        client_cls(),
        model,
        asked.timeout,
        max_bytes=asked.max_bytes,
        provider=case.provider.name,
    )
    t0 = time.monotonic()
    alive, too_big = _served(case, profile, driver, upstream, budget.conversation, ctx, result)
    result.duration_s = time.monotonic() - t0
    view = build_view(case, timeline, profile.abilities, names, **judged_claims(case, profile))
    if ended_by_sut(driver, timeline, result):  # (its view is the preflight's evidence, not a parity twin)
        _keep_timeline(result, view, keep)
        return result, view, False
    result.first_byte_s = first_byte(view)
    judged = too_big is not None or result.status == Status.OK
    if judged:
        judge(view, case.scenario, profile, too_big=too_big).into(result)
    budget.learn(view, result.findings if judged else [])  # (the round learns; a shortened wait is said)
    _keep_timeline(result, view, keep)
    return result, view, alive


def _keep_timeline(result: CaseResult, view: CaseView, keep: Keep) -> None:
    if keep == "all" or (keep == "failures" and failed(result)):
        result.timeline = serialize_timeline(view.entries)
    elif keep == "failures":
        result.timeline_summary = summarise_timeline(view.entries)


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
    if (dead := driver.exited()) is not None:  # (a neighbour in flight killed it: not this case's doing)
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
        alive = profile.abilities.survives_a_stuck_case or not profile.keep_alive
    except DriverTimeout as exc:
        result.status, result.error = Status.TIMEOUT, str(exc)
        alive = profile.abilities.survives_a_stuck_case
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


def first_byte(view: CaseView) -> float | None:
    """Seconds from the first client request to the first bytes (or event) the client got back."""
    requests = view.of("client", "request")
    sent = requests[0].t if requests else None
    got = min((g[0].t for g in (view.of("client", "chunk"), view.of("client", "event")) if g), default=None)
    return None if sent is None or got is None else (got - sent) / 1e9


def failed(result: CaseResult) -> bool:
    """Does ``keep_timelines="failures"`` keep this result's timeline? When it fails even under
    ``--strict`` (so a NON_STRICT case has its evidence whichever way the run is read)."""
    return result.fails(strict=True)


def set_verdicts(result: CaseResult) -> None:
    """``result``'s verdicts rolled up again from its findings (after the parity pass adds some)."""
    result.stream, result.cleanup = roll_up(result.findings)


def serialize_timeline(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    if not entries:
        return []
    t0 = entries[0].t
    out: list[dict[str, Any]] = []
    for e in entries:
        item: dict[str, Any] = {
            "t_ms": round((e.t - t0) / 1e6, 3),
            "side": e.side,
            "act": e.act,
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
    """The event's type and its fields that say something (every field of an event is a plain value; the
    channel follows from the type)."""
    d: dict[str, Any] = {"type": type(ev).__name__}
    d.update((k, v) for k, v in asdict(ev).items() if k != "channel" and v not in (None, ""))
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
