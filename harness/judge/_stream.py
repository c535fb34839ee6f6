"""Stream checks: incremental delivery by causal gates, termination, usage, and timing as information. They
judge how the stream arrived rather than what it said, so they sit apart from the content checks."""

from __future__ import annotations

from harness.events import End, ReasoningDelta, TextDelta, Usage
from harness.judge._base import check, judged_turns, na, no_turn
from harness.judge._view import CaseView
from harness.verdict import Finding, Verdict

__all__: list[str] = []


# Incrementality is proven only by gates: the upstream withholds the next frame until the client has
# observed the previous one.
@check(
    "incremental",
    "Reasoning reaches the client while the upstream is still streaming it: every "
    "gate (the upstream withholding the next frame until the client saw the previous delta) opens.",
    premise=True,
)
def incremental(view: CaseView) -> Finding:
    if not view.case.stream:
        return na("incremental", "non-streaming request")
    turns = [t for t in judged_turns(view) if t.reasoning_fate not in ("dropped", "moved")]
    for t in turns:
        if t.gates_scripted and len(t.gate_waits) < t.gates_scripted:
            if t.mode is not None and not t.mode.info.get("stream"):
                return na("incremental", f"turn {t.turn}: the upstream answered whole (see evidence)")
            return Finding(
                "incremental",
                Verdict.FAIL,
                message=f"turn {t.turn}: a scripted gate was never reached: the upstream stream stopped "
                "before it",
                expected=f"{t.gates_scripted} gate(s) reached",
                actual=f"{len(t.gate_waits)} reached",
                evidence=view.cite(t.gate_waits, t.writes[-1:]),
            )
    gated = [t for t in turns if t.gate_timeouts or t.gate_opens]
    if not gated:
        return na("incremental", "no gate in this case")
    for t in gated:
        if t.gate_timeouts:
            e = t.gate_timeouts[0]
            cond = e.info.get("condition", "?")
            return Finding(
                "incremental",
                Verdict.FAIL,
                message=f"turn {t.turn}: the gate's condition ({cond}) never held "
                f"while the upstream held the next frame for {e.info.get('timeout', '?')}s",
                expected=f"{cond}, before the upstream continues",
                actual=f"gate timed out after {e.info.get('timeout', '?')}s; withheld: "
                f"{str(e.info.get('withheld', '?'))[:120]}; client had seen: "
                f"{str(e.info.get('seen', '?'))[:120]}",
                evidence=view.cite([e], t.gate_waits[:1], t.events_of(ReasoningDelta)[:1]),
            )
    return Finding(
        "incremental", Verdict.PASS, message=f"{sum(len(t.gate_opens) for t in gated)} gate(s) opened"
    )


def _run_start(view: CaseView, turn: int) -> int:
    """The turn whose user message started ``turn``'s run (a prompted SUT's prompt; tool continuations
    follow it)."""
    return max(i for i in range(turn + 1) if i == 0 or view.case.turns[i].user is not None)


@check(
    "termination",
    "A streamed answer ends properly, exactly once ([DONE] / message_stop / "
    "response.completed), with nothing after it.",
)
def termination(view: CaseView) -> Finding:
    if not view.case.stream:
        return na("termination", "non-streaming request")
    turns = judged_turns(view)
    if not turns:
        return na("termination", no_turn(view))
    if view.abilities.prompted:  # one stream per run (a prompt and its tool continuations): it ends once
        turns = list({_run_start(view, t.turn): t for t in turns}.values())  # after the run's last turn
    for t in turns:
        mates = [u for u in view.turns if _run_start(view, u.turn) == _run_start(view, t.turn)]
        mates = mates if view.abilities.prompted else [t]
        ends = [e for u in mates for e in u.ends]
        notices = [n for u in mates for n in u.notices]
        codes = {n.code for n in notices}
        if "data-after-end" in codes or len(ends) > 1:
            return Finding(
                "termination",
                Verdict.FAIL,
                message=f"turn {t.turn}: data after the end of stream",
                expected="one terminator",
                actual=f"{len(ends)} end(s); notices {sorted(codes)}",
                evidence=view.cite(t.events_of(End), t.chunks[-1:]),
            )
        if not ends or "no-terminator" in codes:
            return Finding(
                "termination",
                Verdict.FAIL,
                message=f"turn {t.turn}: stream ended without terminator",
                expected="a proper terminator",
                actual="EOF without one",
                evidence=view.cite(t.writes_of("terminal"), t.chunks[-1:]),
            )
    return Finding("termination", Verdict.PASS)


_COUNTS = ("input_tokens", "reasoning_tokens", "output_tokens", "total_tokens")
_REPORTED = ("input_tokens", "reasoning_tokens")
"""Counts judged by presence in any report; output and total are judged by the client's last one."""


def _final(usages: list[Usage], name: str) -> int | None:
    """The count the client ends up with: the last report of it (every dialect's usage reports are
    cumulative: Anthropic's ``message_delta`` carries the turn's output so far, Gemini's
    ``usageMetadata`` and the Responses ``response.completed`` the whole turn's). A total no report
    carries is input plus output, as the observers derive it where the wire has none (Anthropic's): a
    client that keeps both counts lost no total."""
    found = next((v for u in reversed(usages) if (v := getattr(u, name)) is not None), None)
    if found is None and name == "total_tokens":
        inp, out = _final(usages, "input_tokens"), _final(usages, "output_tokens")
        return inp + out if inp is not None and out is not None else None
    return found


@check(
    "usage",
    "Token counts the upstream reports survive the SUT as its client sees them: reasoning tokens, the "
    "input tokens a first frame such as message_start carries, and the final output and total tokens "
    "(cumulative reports are not added up: Anthropic's message_delta already counts message_start's).",
)
def usage(view: CaseView) -> Finding:
    turns = [
        t
        for t in judged_turns(view)
        if t.expected_usage and any(getattr(t.expected_usage, name) for name in _COUNTS)
    ]
    sent = [t for t in turns if t.mode is None or t.mode.info.get("usage") is not False]
    if turns and not sent:  # as the real API: a stream carries usage only where the request asks
        return na("usage", "the upstream sent no usage: the SUT's request did not ask for it")
    turns = sent
    if not turns:
        return na("usage", "the upstream reports no token counts here")
    for t in turns:
        exp = t.expected_usage
        assert exp is not None
        for name in _COUNTS:
            want = getattr(exp, name)
            got = [getattr(u, name) for u in t.usages]
            reported = name in _REPORTED  # any report carries it (input: message_start's)
            if not want or (want in got if reported else _final(t.usages, name) == want):
                continue
            seen = [(u.input_tokens, u.reasoning_tokens, u.output_tokens, u.total_tokens) for u in t.usages]
            lost = all(g is None for g in got) and (reported or _final(t.usages, name) is None)
            return Finding(
                "usage",
                Verdict.FAIL,
                message=f"turn {t.turn}: {name.replace('_', ' ')} count {'lost' if lost else 'wrong'}",
                expected=f"{name}={want}" + ("" if reported else " (the final report)"),
                actual=f"usage seen: {seen or 'none'} (input, reasoning, output, total)",
                evidence=view.cite(t.writes_of("usage"), t.events_of(Usage)),
            )
    return Finding("usage", Verdict.PASS)


# A timing figure never decides a verdict.
@check(
    "timing",
    "Informational: time to first reasoning and text token, client reads vs upstream writes.",
    premise=True,
)
def timing(view: CaseView) -> Finding:
    """Milliseconds since the case's first request: the first reasoning and the first text the client
    saw, and the end of its last turn (the first End is only turn 0's: a tool-call turn ends before
    the next turn's text, which read as ``ttft_text_ms=207.95, end_ms=64.41``). A figure with nothing
    to measure is left out, not printed as None."""
    requests = view.of("client", "request")
    if not requests:
        return na("timing", "nothing was sent")
    t0 = requests[0].t
    events = view.of("client", "event")

    def at(event_type: type, last: bool = False) -> float | None:
        times = [(e.t - t0) / 1e6 for e in events if isinstance(e.event, event_type)]
        return (times[-1] if last else times[0]) if times else None

    measured = {
        "ttft_reasoning_ms": at(ReasoningDelta),
        "ttft_text_ms": at(TextDelta),
        "end_ms": at(End, last=True),
    }
    data: dict[str, float | int] = {k: v for k, v in measured.items() if v is not None}
    data["client_reads"] = len(view.of("client", "chunk"))
    data["upstream_writes"] = len(view.of("upstream", "write"))
    msg = ", ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in data.items())
    return Finding("timing", Verdict.INFO, message=msg, data=data)
