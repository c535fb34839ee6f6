"""Content checks: delivery, no-duplication, channel-separation, utf8-integrity and ordering. Each reads the
fates computed in ``_view`` and judges only its own fate."""

from __future__ import annotations

from dataclasses import dataclass

from harness.events import (
    End,
    ReasoningBlock,
    ReasoningDelta,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
)
from harness.judge._base import check, judged_turns, na, no_turn
from harness.judge._view import CaseView, TurnView
from harness.timeline import Entry
from harness.verdict import Finding, Verdict

__all__: list[str] = []


def _short(s: str, n: int = 80) -> str:
    return repr(s if len(s) <= n else s[: n - 3] + "...")


@check("delivery", "Reasoning, answer text and tool calls reach the client, complete and unaltered.")
def delivery(view: CaseView) -> Finding:
    turns = judged_turns(view)
    if not turns:
        return na("delivery", no_turn(view))
    diffs = [d for t in turns for d in _differences(view, t)]
    if not diffs:
        return Finding("delivery", Verdict.PASS)
    if len(diffs) == 1:
        (d,) = diffs
        return Finding("delivery", Verdict.FAIL, message=d.message, expected=d.expected, actual=d.actual,
                       evidence=d.evidence)  # fmt: skip
    return Finding(
        "delivery",
        Verdict.FAIL,
        message="; ".join(d.message for d in diffs),
        expected="; ".join(f"{d.what}: {d.expected}" for d in diffs),
        actual="; ".join(f"{d.what}: {d.actual}" for d in diffs),
        evidence=tuple(sorted({i for d in diffs for i in d.evidence})),
        data={"differences": [d.message for d in diffs]},
    )


@dataclass(frozen=True, slots=True)
class _Difference:
    what: str  # "turn 0 reasoning"
    message: str
    expected: str
    actual: str
    evidence: tuple[int, ...]  # the timeline entries it cites


def _differences(view: CaseView, t: TurnView) -> list[_Difference]:
    """Every way one turn's delivery differs from what the upstream sent: reasoning, answer text
    (unless the reasoning moved into it: channel-separation's), tool calls."""
    out: list[_Difference] = []
    rf, tf = t.reasoning_fate, t.text_fate
    # Reasoning the upstream withheld because the request did not ask for it is not delivery's: the
    # premise says who did not ask (request-contract for a gateway whose client asked).
    unsent = t.mode is not None and t.mode.info.get("reasoning") is False
    unsent = unsent and any(e.turn == t.turn for e in view.of("upstream", "withheld"))
    if rf == "dropped" and not unsent:
        why = "reasoning never reached the client"
        cited = view.cite(t.writes_of("reasoning"), t.events_of(End, StreamError))
        what, msg = f"turn {t.turn} reasoning", f"turn {t.turn}: {why}"
        out.append(_Difference(what, msg, _short(t.expected_reasoning), "(no reasoning)", cited))
    elif rf == "altered":
        cited = view.cite(t.writes_of("reasoning"), t.events_of(ReasoningDelta))
        what, msg = f"turn {t.turn} reasoning", f"turn {t.turn}: reasoning altered"
        out.append(_Difference(what, msg, _short(t.expected_reasoning), _short(t.reasoning), cited))
    if tf in ("dropped", "altered") and rf not in ("moved", "leaked"):
        text = f"turn {t.turn}: answer text {tf}"
        cited = view.cite(t.writes_of("text"), t.events_of(TextDelta, End))
        out.append(_Difference(f"turn {t.turn} text", text, _short(t.expected_text), _short(t.text), cited))
    want = [(c.name, c.arguments) for c in t.expected.tool_calls]
    got = [(c.name, c.arguments) for c in t.tool_calls]
    if view.abilities.shows_tool_calls and want != got and _norm(want) != _norm(got):
        calls = f"turn {t.turn}: tool calls differ"
        cited = view.cite(t.writes_of("tool"), t.events_of(ToolCallDelta))
        out.append(_Difference(f"turn {t.turn} tool calls", calls, str(want), str(got), cited))
    return out


def _norm(calls: list[tuple[str, str]]) -> list[tuple[str, object]]:
    import json

    out: list[tuple[str, object]] = []
    for name, args in calls:
        try:
            out.append((name, json.loads(args or "{}")))
        except ValueError:
            out.append((name, args))
    return out


@check(
    "no-duplication",
    "Reasoning and text each arrive exactly once (no replay of *.done repeats).",
    premise=True,
)
def no_duplication(view: CaseView) -> Finding:
    turns = judged_turns(view)
    if not turns:
        return na("no-duplication", no_turn(view))
    for t in turns:
        for what, fate_, exp, got in (
            ("reasoning", t.reasoning_fate, t.expected_reasoning, t.reasoning),
            ("text", t.text_fate, t.expected_text, t.text),
        ):
            if fate_ == "duplicated":
                delta_type = ReasoningDelta if what == "reasoning" else TextDelta
                return Finding(
                    "no-duplication",
                    Verdict.FAIL,
                    message=f"turn {t.turn}: {what} {_repeated(exp, got)}",
                    expected=_short(exp),
                    actual=_short(got, 160),
                    evidence=view.cite(t.events_of(delta_type), limit=16),
                )
    mirrored = [n for t in turns for n in t.notices if n.code == "mirrored"]
    if mirrored:
        return Finding(
            "no-duplication",
            Verdict.INFO,
            message=f"reasoning mirrored in several fields of one delta (read once): {mirrored[0].detail}",
        )
    return Finding("no-duplication", Verdict.PASS)


def _repeated(expected: str, got: str) -> str:
    """What a duplicated delivery shows: the upstream's text n times, or once with something more."""
    times = got.count(expected)
    if times > 1:
        return f"delivered {times}x"
    extra = got.replace(expected, "", 1)
    return f"delivered once plus {len(extra)} character(s) the upstream never sent: {_short(extra, 40)}"


_DELTA = {"reasoning": ReasoningDelta, "answer": TextDelta}


@check(
    "channel-separation",
    "Reasoning never appears in the public answer, the answer never in reasoning (only a leading <think> "
    "tag is reasoning), and redacted thinking data in neither.",
    premise=True,
)
def channel_separation(view: CaseView) -> Finding:
    turns = judged_turns(view)
    if not turns:
        return na("channel-separation", no_turn(view))
    for t in turns:
        if "exposed" in (t.reasoning_fate, t.text_fate):
            where = "reasoning" if t.reasoning_fate == "exposed" else "answer"
            shown = t.reasoning if where == "reasoning" else t.text
            return Finding(
                "channel-separation",
                Verdict.FAIL,
                message=f"turn {t.turn}: redacted thinking data delivered as {where} text (it is opaque, "
                "for passback only)",
                expected="redacted data kept out of what users see (passed back, never shown)",
                actual=f"{where} {_short(shown)}",
                evidence=view.cite(t.writes_of("redacted"), t.events_of(_DELTA[where])),
            )
        if t.reasoning_fate == "moved" or t.text_fate == "intruded":
            return Finding(
                "channel-separation",
                Verdict.FAIL,
                message=f"turn {t.turn}: reasoning delivered as answer text",
                expected=f"reasoning {_short(t.expected_reasoning)}",
                actual=f"text {_short(t.text)}",
                evidence=view.cite(t.writes_of("reasoning"), t.events_of(TextDelta)),
            )
        if view.relayed and t.reasoning:
            return Finding(
                "channel-separation",
                Verdict.FAIL,
                message=f"turn {t.turn}: reasoning markup split out of the content, though the SUT's profile "
                "does not claim to parse it (parses)",
                expected=f"text {_short(t.expected_text)} (the markup relayed verbatim)",
                actual=f"reasoning {_short(t.reasoning)}",
                evidence=view.cite(t.writes_of("reasoning"), t.events_of(ReasoningDelta)),
            )
        if t.reasoning_fate in ("leaked", "intruded") or t.text_fate == "moved":
            return Finding(
                "channel-separation",
                Verdict.FAIL,
                message=f"turn {t.turn}: {_extra_reasoning(view, t)}",
                expected=f"text {_short(t.expected_text)}",
                actual=f"reasoning {_short(t.reasoning)}",
                evidence=view.cite(t.writes_of("text"), t.events_of(ReasoningDelta)),
            )
        if t.expected_reasoning and "<think>" in t.text and "<think>" not in t.expected_text:
            return Finding(
                "channel-separation",
                Verdict.FAIL,
                message=f"turn {t.turn}: <think> tags in answer",
                expected=_short(t.expected_text),
                actual=_short(t.text),
                evidence=view.cite(t.events_containing("<think>", TextDelta)),
            )
    inline = [n for t in turns for n in t.notices if n.code == "inline-think"]
    if inline:
        return Finding(
            "channel-separation",
            Verdict.NON_STRICT,
            message="reasoning arrived as inline <think> tags inside content; read as reasoning only "
            "because the SUT's profile declares inline_think = true",
            expected="reasoning in a structured field (delta.reasoning / reasoning_content)",
            actual=inline[0].detail,
        )
    if view.relayed:
        return Finding(
            "channel-separation",
            Verdict.PASS,
            message="reasoning markup relayed verbatim in the content, as the SUT claims (its profile's "
            "parses does not name this markup): judged as a relay",
        )
    return Finding("channel-separation", Verdict.PASS)


def _extra_reasoning(view: CaseView, t: TurnView) -> str:
    """What the reasoning the client saw beyond this turn's holds: an earlier turn's reasoning again
    (the framework repeated a previous call's), the answer text, or text the upstream never sent."""
    earlier = [
        p.turn
        for p in view.turns[: t.turn]
        if p.expected_reasoning.strip()
        and p.expected_reasoning.strip() in t.reasoning
        and p.expected_reasoning.strip() not in t.expected_reasoning
    ]
    if earlier:
        return (
            f"the reasoning of turn {earlier[-1]} delivered again as this turn's reasoning (a previous "
            "call's reasoning repeated)"
        )
    if t.text_fate == "moved" or t.reasoning_fate == "intruded" or _answer_in(t.expected_text, t.reasoning):
        return "answer text delivered as reasoning"
    return "reasoning the upstream never sent in this turn delivered as reasoning"


def _answer_in(answer: str, reasoning: str) -> bool:
    probe = answer.strip()[:24]
    return bool(probe) and probe in reasoning


@check("utf8-integrity", "Multi-byte UTF-8 split across chunks arrives intact (no U+FFFD).", premise=True)
def utf8_integrity(view: CaseView) -> Finding:
    turns = judged_turns(view)
    if not turns:
        return na("utf8-integrity", no_turn(view))
    for t in turns:
        bad = [n for n in t.notices if n.code in ("sse-invalid-utf8", "invalid-utf8")]
        if t.reasoning_fate == "corrupted" or t.text_fate == "corrupted" or bad:
            got = t.reasoning if t.reasoning_fate == "corrupted" else t.text
            return Finding(
                "utf8-integrity",
                Verdict.FAIL,
                message=f"turn {t.turn}: U+FFFD or invalid UTF-8",
                expected="no replacement characters",
                actual=_short(got),
                evidence=view.cite(t.events_containing("\ufffd", ReasoningDelta, TextDelta)),
            )
    return Finding("utf8-integrity", Verdict.PASS)


def _kinds(blocks: tuple[object, ...], calls: bool = True) -> list[str]:
    """The order of a message's block kinds; ``calls``: tool calls count (the client can see them)."""
    out: list[str] = []
    for b in blocks:
        if isinstance(b, ReasoningBlock):
            if not b.text:
                continue  # signature-only / redacted: not every front door carries it
            k = "reasoning"
        elif isinstance(b, TextBlock):
            if not b.text:
                continue
            k = "text"
        elif isinstance(b, ToolCallBlock) and calls:
            k = "tool_call"
        else:
            continue
        if not out or out[-1] != k:
            out.append(k)
    return out


def _firsts(entries: list[Entry]) -> list[Entry]:
    """The first entry of each run of one event type: where the order changes."""
    return [e for i, e in enumerate(entries) if i == 0 or type(entries[i - 1].event) is not type(e.event)]


@check(
    "ordering",
    "Reasoning precedes the answer and tool calls of the same message; interleaving is preserved.",
    premise=True,
)
def ordering(view: CaseView) -> Finding:
    turns = [t for t in judged_turns(view) if t.reasoning_fate in ("ok", "none")]
    if not turns:
        return na("ordering", "no turn with reasoning delivered to judge")
    for t in turns:
        want = _kinds(t.expected.content, view.abilities.shows_tool_calls)
        got = _kinds(t.delivered.content, view.abilities.shows_tool_calls)
        if len(want) < 2:
            continue
        if got != want:
            return Finding(
                "ordering",
                Verdict.FAIL,
                message=f"turn {t.turn}: blocks out of order",
                expected=" -> ".join(want),
                actual=" -> ".join(got),
                evidence=view.cite(_firsts(t.events_of(ReasoningDelta, TextDelta, ToolCallDelta))),
            )
    return Finding("ordering", Verdict.PASS)
