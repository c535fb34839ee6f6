"""Readable ``assert`` output for thinkwire objects: diffs, the short form of case results, and the normalised
timeline that snapshots store. It is separate so the pytest plugin and the snapshot extension share one way
of showing a result."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = [
    "case_lines",
    "explain_difference",
    "finding_lines",
    "mask",
    "normalise",
    "normalise_events",
    "results_repr",
    "shorten",
    "timeline_lines",
]

_IDS = re.compile(
    r"\b(?:rs|msg|fc|call|toolu|resp|req|chatcmpl|gen|sig|tooluse)_[A-Za-z0-9_-]+\b"
    r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
)


def _mask(text: str) -> str:
    return _IDS.sub(lambda m: m.group(0).split("_", 1)[0] + "_<id>" if "_" in m.group(0) else "<uuid>", text)


def normalise_events(events: Iterable[Any]) -> list[str]:
    """One line per coalesced event: ``channel Type: text`` (how deltas were split is masked)."""
    from dataclasses import fields, is_dataclass

    from harness.events import coalesce

    lines = []
    for ev in coalesce(list(events)):
        if not is_dataclass(ev):
            continue
        parts = []
        for f in fields(ev):
            if f.name in ("channel", "item"):
                continue
            v = getattr(ev, f.name)
            if v not in (None, ""):
                parts.append(f"{f.name}={_mask(repr(v))}")
        lines.append(f"{ev.channel.value:9} {type(ev).__name__}: {', '.join(parts)}")
    return lines


def normalise(obj: Any) -> list[str]:
    """A timeline, a CaseResult, a RunResult or a sequence of events -> stable lines for snapshots.

    Ids and times are masked and channels kept, so two runs of the same case compare equal. A case
    result is its verdicts, each failing check's message, expected and seen, and its kept timeline.
    """
    from harness.timeline import Timeline

    if isinstance(obj, Timeline):
        return timeline_lines(obj)
    if hasattr(obj, "results") and hasattr(obj, "sut"):
        return [line for r in obj.results for line in normalise(r)]
    if hasattr(obj, "case_id") and hasattr(obj, "findings"):
        return finding_lines(obj) + timeline_lines(obj.timeline or ())
    items = list(obj)
    if items and all(isinstance(e, dict) and "side" in e for e in items):
        return timeline_lines(items)
    return normalise_events(items)


def _reasons(r: Any) -> list[str]:
    """Why a case did not pass, one line each: its failing findings (``[check] VERDICT: message``),
    else its status and the first line of its error, else its verdicts."""
    said = [f"[{f.check}] {f.verdict.value}: {_first(f.message)}" for f in r.failing()]
    if r.status.value != "OK":
        said.insert(0, f"{r.status.value}: {_first(r.error) or 'no error text'}")
    return said or [f"stream {r.stream.value}, cleanup {r.cleanup.value}"]


def _first(text: str, limit: int = 300) -> str:
    line = text.strip().split("\n", 1)[0] if text else ""
    return shorten(line, limit)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a word boundary, with ``…`` where it was cut."""
    if len(text) <= limit:
        return text
    cut = text[: max(limit - 1, 1)]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


def case_lines(r: Any, width: int | None = None) -> list[str]:
    """A case that did not pass, for a person: ``× case id``, each failing check with its message, the
    expected and the seen value, the reproduce line. ``width``: each message, expected and seen cut at
    a word to that many characters (whole when None)."""

    def said(text: str) -> str:
        flat = " ".join(text.split())
        return shorten(flat, width) if width else flat

    lines = [f"× {r.case_id}"]
    if r.status.value != "OK":
        lines.append(f"  {r.status.value}: {said(_first(r.error, 10**6)) or 'no error text'}")
    for f in r.failing():
        lines.append(f"  [{f.check}] {f.verdict.value}: {said(f.message)}".rstrip())
        seen = (("expected", f.expected), ("seen", f.actual))
        lines += [f"    {name}: {said(value)}" for name, value in seen if value]
    if len(lines) == 1:
        lines.append(f"  stream {r.stream.value}, cleanup {r.cleanup.value}")
    return lines + ([f"  reproduce: {r.reproduce}"] if r.reproduce else [])


REPR_LIMIT = 230
"""pytest shows a repr of up to 240 characters whole (it cuts a longer one in its middle)."""


def results_repr(results: Sequence[Any], limit: int = REPR_LIMIT) -> str:
    """A list of case results on one line, as pytest shows it in a failed ``assert not ...``: how many,
    then the first case and its first reason, cut at a word; where the rest is said by pytest's
    assertion text of ``assert result.unexpected == []`` and by the plugin's section beneath.
    """
    if not results:
        return "[]"
    head = f"[{len(results)} case(s): "
    more = f"; and {len(results) - 1} more, listed below]" if len(results) > 1 else "]"
    first = results[0]
    body = f"{first.case_id}: {_reasons(first)[0]}"
    if first.reproduce and len(results) == 1:
        body += f" (reproduce: {first.reproduce})"
    return head + shorten(body, limit - len(head) - len(more)) + more


def _is_events(x: Any) -> bool:
    from harness.events import Channel

    return (
        isinstance(x, Sequence)
        and not isinstance(x, str | bytes)
        and bool(x)
        and all(isinstance(getattr(e, "channel", None), Channel) for e in x)
    )


def explain_difference(left: Any, right: Any) -> list[str] | None:
    """Lines for pytest when comparing event sequences, timelines or findings; None otherwise.

    The pytest plugin's assertrepr hook calls this.
    """
    from harness.timeline import Timeline

    if not (_is_events(left) and _is_events(right)) and not (
        isinstance(left, Timeline) and isinstance(right, Timeline)
    ) and not (hasattr(left, "findings") and hasattr(right, "findings")):
        return None
    a, b = normalise(left), normalise(right)
    diff = list(difflib.unified_diff(a, b, "left", "right", lineterm="", n=2))
    return (
        ["thinkwire streams differ (coalesced, ids masked):", *diff[2:]]
        if diff
        else [
            "thinkwire streams are equal once coalesced: they differ only in how deltas were split or in ids"
        ]
    )


# -- the timeline a snapshot stores ------------------------------------------------------------------
_DASH_IDS = re.compile(r"\b(chatcmpl|msg|resp|gen|req|run|call|rs|fc)-[A-Za-z0-9_-]+")
_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s)\b|\b(\w+_(?:ms|s))=\d+(?:\.\d+)?")
_QUIET_ACTS = frozenset({"mode"})  # how the mock chose to answer: the case says that, not the SUT
_QUIET_INFO = frozenset({"frame", "tags", "attempt", "headers", "pid", "port", "conn", "traceback"})
"""Transport bookkeeping and a traceback (its paths are this machine's): not what a user sees."""
_JOINED = {"ReasoningDelta": "text", "TextDelta": "text"}


def mask(text: str) -> str:
    """``text`` with what changes from run to run masked: ids (``call_<id>``, ``chatcmpl-<id>``, uuids)
    and durations (``<ms>``)."""
    text = _DASH_IDS.sub(lambda m: m.group(1) + "-<id>", _mask(text))
    return _DURATION.sub(lambda m: f"{m.group(1)}=<t>" if m.group(1) else "<t>", text)


def _flat(text: str) -> str:
    return mask(text.rstrip("\n").replace("\r", "\\r").replace("\n", "\\n"))


def _event_fields(ev: Any) -> dict[str, Any]:
    """An event as its type and fields: a timeline's dict form, or an Event dataclass."""
    if isinstance(ev, dict):
        return dict(ev)
    from dataclasses import fields, is_dataclass

    if not is_dataclass(ev):
        return {"type": type(ev).__name__}
    out: dict[str, Any] = {"type": type(ev).__name__}
    for f in fields(ev):
        if f.name not in ("channel", "item"):
            out[f.name] = getattr(ev, f.name)
    return out


def _joined(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive reasoning or text deltas joined: how a stream was split is not what a user sees."""
    out: list[dict[str, Any]] = []
    for ev in events:
        key = _JOINED.get(str(ev.get("type")))
        last = out[-1] if out else None
        if key and last is not None and last.get("type") == ev.get("type"):
            last[key] = str(last.get(key, "")) + str(ev.get(key, ""))
        else:
            out.append(dict(ev))
    return out


def _event_line(ev: dict[str, Any]) -> str:
    parts = [f"{k}={mask(repr(v))}" for k, v in ev.items() if k != "type" and v not in (None, "")]
    return f"{ev.get('type')}: {', '.join(parts)}".rstrip(": ")


def _info_text(info: Any) -> str:
    if not isinstance(info, dict):
        return ""
    return " ".join(f"{k}={_flat(str(v))}" for k, v in sorted(info.items()) if k not in _QUIET_INFO)


def _entry_dicts(obj: Any) -> list[dict[str, Any]]:
    """A Timeline's entries in the dict form a case result keeps (``t_ms`` left out)."""
    from harness.timeline import Timeline

    if not isinstance(obj, Timeline):
        return [dict(e) for e in obj]
    out = []
    for e in obj.entries():
        item: dict[str, Any] = {"side": e.side, "act": e.act, "turn": e.turn}
        if e.data:
            item["text"] = e.data.decode(errors="replace")
        if e.event is not None:
            item["event"] = _event_fields(e.event)
        if e.info:
            item["info"] = dict(e.info)
        out.append(item)
    return out


def timeline_lines(entries: Iterable[Any]) -> list[str]:
    """A timeline (a case result's kept entries, or a Timeline) as stable lines: turn by turn, what the
    upstream got and wrote, then what the SUT's client saw, with ids and durations masked and deltas
    joined. Each side is in its own order; how the two interleaved is timing, left out."""
    dicts = _entry_dicts(entries)
    lines: list[str] = []
    for turn in sorted({int(d.get("turn", 0)) for d in dicts}):
        lines.append(f"turn {turn}")
        here = [d for d in dicts if int(d.get("turn", 0)) == turn and d.get("act") not in _QUIET_ACTS]
        for side in ("upstream", "client"):
            events: list[dict[str, Any]] = []
            for d in (d for d in here if d.get("side") == side):
                if d.get("act") == "event" and "event" in d:
                    events.append(_event_fields(d["event"]))
                    continue
                lines += [f"  {side} {_event_line(ev)}" for ev in _joined(events)]
                events = []
                text = d.get("text") or (f"<{len(d['base64'])} base64 chars>" if d.get("base64") else "")
                said = " ".join(filter(None, [_info_text(d.get("info")), _flat(str(text))]))
                lines.append(f"  {side} {d.get('act')} {said}".rstrip())
            lines += [f"  {side} {_event_line(ev)}" for ev in _joined(events)]
    return lines


def finding_lines(result: Any) -> list[str]:
    """A case's verdicts and, for each check that did not pass, its message, expected and seen."""
    lines = [
        f"{result.case_id}: stream={result.stream.value} cleanup={result.cleanup.value} "
        f"status={result.status.value}"
    ]
    for f in result.findings:
        if f.check == "timing":
            continue
        lines.append(f"  {f.check}: {f.verdict.value}")
        if f.failed:
            lines += [f"    {name}: {_flat(value)}" for name, value in
                      (("message", f.message), ("expected", f.expected), ("seen", f.actual)) if value]
    return lines
