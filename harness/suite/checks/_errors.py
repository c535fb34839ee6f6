"""Error checks: error-propagation, sut-error, passback (the strict upstream's 400), cancellation.

Rule: an upstream failure must reach the client as a failure; a failure the upstream never sent is the
SUT's own (reported once, with its exception and traceback as evidence); a lost passback is reported
once, with whether the SUT surfaced the provider's 400 or hid it (worse).
"""

from __future__ import annotations

from harness.dialects import LENIENT
from harness.events import End, StreamError
from harness.suite._verdict import Axis, Finding, Verdict
from harness.suite.checks._base import check, na, served_turns
from harness.suite.checks._view import CaseView, TurnView
from harness.timeline import Entry

__all__: list[str] = []


@check(
    "error-propagation",
    "Upstream HTTP errors and mid-stream errors reach the client as errors, never as a clean stop.",
)
def error_propagation(view: CaseView) -> Finding:
    faulted = [t for t in view.turns if t.faulted and t.reached and not t.cancelled]
    if view.case.scenario.outcome != "error" or not faulted:
        return na("error-propagation", "no upstream error scripted")
    for t in faulted:
        if not t.client_saw_error:
            clean = "a clean end" if t.ends else "no error"
            return Finding(
                "error-propagation",
                Verdict.FAIL,
                message=f"turn {t.turn}: the upstream failed but the client saw {clean}",
                expected="an error (HTTP status >= 400, an error frame, or a broken stream)",
                actual=f"status {t.status}, events: {[type(e).__name__ for e in t.client_events][:8]}",
                evidence=view.cite(t.faults, t.writes[-1:], t.events_of(End), _client(view, t.turn, "end")),
            )
    return Finding("error-propagation", Verdict.PASS)


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
                message=f"turn {t.turn}: the SUT raised {e.info.get('error', '?')}",
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


@check(
    "passback",
    "Reasoning that the provider requires back (reasoning_content, thinking blocks with "
    "signatures, reasoning items, thought signatures) is carried into the continuation unaltered.",
)
def passback(view: CaseView) -> Finding:
    if view.case.profile == LENIENT or len(view.turns) < 2:
        return na("passback", "no strict continuation in this case")
    reached = [t for t in view.turns[1:] if t.reached]
    if not reached:
        return na("passback", "the conversation never reached a continuation")
    for t in reached:
        if t.rejected:
            return _rejected(view, t)
    # A continuation answers the tool calls of the turn before it. When none of them reached the
    # client, the SUT had nothing to pass back: the request was thinkwire's own continuation (the
    # tool results of calls the client never saw), and its acceptance proves nothing.
    carried = [t for t in reached if _calls_reached_the_client(view.turns[t.turn - 1])]
    if not carried:
        hidden = [t.turn - 1 for t in reached if view.turns[t.turn - 1].expected.tool_calls]
        return na("passback", _nothing_carried(hidden))
    return Finding("passback", Verdict.PASS, message=f"{len(carried)} continuation(s) accepted")


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


def _rejected(view: CaseView, t: TurnView) -> Finding:
    e = t.rejected[0]
    diffs = e.info.get("differences", ())
    surfaced = (
        "surfaced the provider's error to its client"
        if t.client_saw_error
        else ("HID the provider's error (its client saw no error)")
    )
    return Finding(
        "passback",
        Verdict.FAIL,
        message=f"turn {t.turn}: the strict upstream ({view.case.profile}) rejected the continuation "
        f"with {e.info.get('status')} ({e.info.get('rule', '?')}); the SUT {surfaced}",
        expected="; ".join(f"{d[0]} = {d[2]!r}" for d in diffs) or "reasoning passed back",
        actual="; ".join(f"{d[0]} = {d[1]!r}" for d in diffs) or str(e.info.get("body", ""))[:200],
        evidence=(view.index_of(e),),
        data={"surfaced": t.client_saw_error},
    )


def _client(view: CaseView, turn: int, kind: str) -> list[Entry]:
    return [e for e in view.entries if e.side == "client" and e.kind == kind and e.turn == turn]


CANCEL_BOUND_S = 1.5


@check(
    "cancellation",
    "After the client aborts, the SUT closes its upstream connection promptly.",
    axis=Axis.CLEANUP,
)
def cancellation(view: CaseView) -> Finding:
    cancelled = [t for t in view.turns if t.cancelled]
    if not cancelled:
        return na("cancellation", "the client did not cancel", Axis.CLEANUP)
    cancel_t = min(e.t for e in view.entries if e.side == "client" and e.kind == "cancel")
    closes = [e for e in view.entries if e.side == "upstream" and e.kind == "disconnect" and e.t >= cancel_t]
    ended = [e for e in view.entries if e.side == "upstream" and e.kind == "response-end" and e.t >= cancel_t]
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
        evidence=view.cite([e for e in view.entries if e.side == "client" and e.kind == "cancel"], ended),
    )
