"""``thinkwire show``'s text: one case's verdicts, each finding with the entries it cites, each turn's sent
and received text, and the whole timeline as a two-lane swimlane. It is layout only, from a result that
kept its whole timeline, for a passing case as for a failing one."""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from typing import Any

from harness.events import assemble
from harness.report._common import entry_channel, entry_text, outcome
from harness.verdict import CaseResult, Finding, Verdict

__all__ = ["case_choices", "render_show"]

_LANE = 56  # characters of the client lane
_TEXT = {"ReasoningDelta": "text", "TextDelta": "text", "ToolCallDelta": "arguments"}


def render_show(r: CaseResult, case: Any = None) -> str:
    """The whole text for case ``r``; ``case`` (a :class:`~harness.catalog.Case`): what its upstream's
    script sent in each turn is shown beside what the client got.

    The entries a finding cites are numbered as in results.json, by ``evidence`` index, and marked in the
    swimlane.
    """
    expected = [_sent(t.events()) for t in case.turns] if case is not None else []
    out = [f"{r.case_id}: {outcome(r)}", f"  -> {r.requirement}", f"  stream {r.stream.value}, "
           f"cleanup {r.cleanup.value}, status {r.status.value}, {r.duration_s * 1000:.0f} ms"]
    if r.error:
        out.append(f"  error: {r.error.strip()}")
    out += ["", "checks:"]
    cited: dict[int, list[str]] = {}
    for f in r.findings:
        out += _finding(f, r.timeline)
        for i in f.evidence:
            cited.setdefault(i, []).append(f.check)
    out += ["", "turns (what the upstream sent | what the client got):"]
    out += _turns(r.timeline, expected)
    out += ["", f"timeline ({len(r.timeline)} entries; * cited by a finding):"]
    out += _swimlane(r.timeline, cited)
    out += ["", f"reproduce: {r.reproduce}"]
    return "\n".join(out) + "\n"


def _finding(f: Finding, timeline: list[dict[str, Any]]) -> list[str]:
    lines = [f"  [{f.check}] {f.verdict.value}" + (f": {f.message}" if f.message else "")]
    if f.expected:
        lines.append(f"      expected: {f.expected}")
    if f.actual:
        lines.append(f"      actual:   {f.actual}")
    for i in f.evidence:
        if 0 <= i < len(timeline):
            e = timeline[i]
            lines.append(f"      #{i} {e.get('side')} {e.get('act')}: {_one_line(entry_text(e, 160))}")
    if not f.evidence and f.verdict in (Verdict.PASS, Verdict.INFO):
        lines.append("      judged on the turns and timeline below (no entry singled out)")
    return lines


def _sent(events: Any) -> dict[str, str]:
    m = assemble(events)
    return {"reasoning": m.reasoning, "text": m.text,
            "tool_calls": "".join(c.name + c.arguments for c in m.tool_calls)}


def _turns(timeline: list[dict[str, Any]], expected: list[dict[str, str]]) -> list[str]:
    got: dict[int, dict[str, str]] = {}
    for e in timeline:
        ev = e.get("event")
        if e.get("side") != "client" or not isinstance(ev, dict):
            continue
        field = _TEXT.get(str(ev.get("type")))
        if field is None:
            continue
        key = {"ReasoningDelta": "reasoning", "TextDelta": "text"}.get(str(ev["type"]), "tool_calls")
        part = str(ev.get(field) or "") if key != "tool_calls" else str(ev.get("name") or "") + str(
            ev.get("arguments") or "")
        row = got.setdefault(int(e.get("turn", 0)), {})
        row[key] = row.get(key, "") + part
    lines: list[str] = []
    for n in sorted(set(got) | set(range(len(expected)))):
        want = expected[n] if n < len(expected) else {}
        have = got.get(n, {})
        lines.append(f"  turn {n}:")
        for key in ("reasoning", "text", "tool_calls"):
            if want.get(key) or have.get(key):
                same = "  (same)" if want.get(key, "") == have.get(key, "") else ""
                lines.append(f"    {key:10} {_quote(want.get(key, ''))} | {_quote(have.get(key, ''))}{same}")
    return lines


def _swimlane(timeline: list[dict[str, Any]], cited: dict[int, list[str]]) -> list[str]:
    lines = [f"  {'#':>5}  {'t ms':>9} {'turn':>4}  {'client':<{_LANE}} | upstream"]
    for i, e in enumerate(timeline):
        what = _cell(e)
        client, upstream = (what, "") if e.get("side") == "client" else ("", what)
        mark = "*" if i in cited else " "
        by = f"  <- {', '.join(cited[i])}" if i in cited else ""
        t = float(e.get("t_ms", 0.0))
        lines.append(f"{mark} {i:>5}  {t:9.2f} {e.get('turn', 0):>4}  {client:<{_LANE}} | {upstream}{by}")
    return lines


def _cell(e: dict[str, Any]) -> str:
    """One entry in its lane: its act, its channel when it carries content, and its content."""
    act = str(e.get("act", ""))
    ev = e.get("event")
    if isinstance(ev, dict):
        body = {k: v for k, v in ev.items() if k != "type" and v not in (None, "")}
        text = f"{ev.get('type')} {json.dumps(body, ensure_ascii=False)}"
    else:
        channel = entry_channel(e)
        text = f"{act}" + (f" [{channel}]" if channel != "meta" else "") + f" {entry_text(e, 200)}"
    return _one_line(text)[: _LANE if e.get("side") == "client" else 100]


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _quote(s: str, n: int = 48) -> str:
    return repr(s if len(s) <= n else s[: n - 3] + "...") if s else "-"


def case_choices(pattern: str, matched: Sequence[str], every: Sequence[str] = (), shown: int = 12) -> str:
    """Why ``show PATTERN`` names no one case, and what to give instead: the case ids ``pattern`` matched
    (a scenario id matches each of its cases), or, when it matched none, the nearest ids of ``every``."""
    if matched:
        scenarios = {i.split("[", 1)[0] for i in matched}
        n = len(matched)
        what = f"is a scenario of {n} cases" if scenarios == {pattern} else f"matches {n} cases"
        more = len(matched) - shown
        tail = [f"  ... and {more} more (thinkwire list --cases '{pattern}')"] if more > 0 else []
        listed = [f"  {i}" for i in matched[:shown]]
        return "\n".join([f"show: {pattern!r} {what}; name one:", *listed, *tail])
    names = sorted({*every, *(i.split("[", 1)[0] for i in every)})
    near = difflib.get_close_matches(pattern, names, n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(near)}?" if near else "see thinkwire list --by-scenario"
    return f"show: no case {pattern!r}; {hint}"
