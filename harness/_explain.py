"""Readable ``assert`` output for thinkwire objects: diffs, the short form of case results, and the normalised
timeline that snapshots store. It is separate so the pytest plugin and the snapshot extension share one way
of showing a result."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["case_lines", "explain_difference", "normalise", "normalise_events", "results_repr"]

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

    Ids and times are masked and channels kept, so two runs of the same case compare equal.
    """
    from harness.timeline import Timeline

    if isinstance(obj, Timeline):
        lines: list[str] = []
        turns = sorted({e.turn for e in obj.entries()})
        for turn in turns:
            lines.append(f"turn {turn}:")
            reqs = list(obj.select("upstream", "request", turn))
            for r in reqs:
                lines.append(
                    f"  upstream request {r.info.get('method', '')} {_mask(str(r.info.get('path', '')))}"
                )
            for kind in ("rejected", "gate-timeout", "disconnect"):
                for e in obj.select("upstream", kind, turn):
                    lines.append(f"  upstream {kind} {e.info.get('status', '')}".rstrip())
            lines += ["  " + line for line in normalise_events(obj.client_events(turn))]
        return lines
    if hasattr(obj, "results") and hasattr(obj, "sut"):
        return [line for r in obj.results for line in normalise(r)]
    if hasattr(obj, "case_id") and hasattr(obj, "findings"):
        head = [
            f"{obj.case_id}: stream={obj.stream.value} cleanup={obj.cleanup.value} status={obj.status.value}"
        ]
        return head + [f"  {f.check}: {f.verdict.value}" for f in obj.findings if f.check != "timing"]
    return normalise_events(obj)


def _reasons(r: Any) -> list[str]:
    """Why a case did not pass, one line each: its failing findings (``[check] VERDICT: message``),
    else its status and the first line of its error, else its verdicts."""
    said = [f"[{f.check}] {f.verdict.value}: {_first(f.message)}" for f in r.failing()]
    if r.status.value != "OK":
        said.insert(0, f"{r.status.value}: {_first(r.error) or 'no error text'}")
    return said or [f"stream {r.stream.value}, cleanup {r.cleanup.value}"]


def _first(text: str, limit: int = 300) -> str:
    line = text.strip().split("\n", 1)[0] if text else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def case_lines(r: Any) -> list[str]:
    """A case that did not pass, for a person: ``× case id``, why (one line a reason), the reproduce
    line."""
    lines = [f"× {r.case_id}", *(f"  {why}" for why in _reasons(r))]
    return lines + ([f"  reproduce: {r.reproduce}"] if r.reproduce else [])


def results_repr(results: Sequence[Any]) -> str:
    """A list of case results on one line, as pytest shows it in a failed ``assert not ...``: how many,
    then each case, its first reason and its reproduce line.

    This is what ``assert not result.unexpected`` shows: case, check, message and the reproduce line.
    """
    if not results:
        return "[]"
    parts = [
        f"{r.case_id}: {_reasons(r)[0]}" + (f" (reproduce: {r.reproduce})" if r.reproduce else "")
        for r in results
    ]
    return f"[{len(results)} case(s): " + "; ".join(parts) + "]"


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
