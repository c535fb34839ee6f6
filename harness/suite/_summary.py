"""A passing case's timeline, summarised: per side, kind, what and turn, a count, bytes and time span.

Rule: a case that did not pass keeps its whole timeline (its evidence points into it); a passing one
keeps this summary instead, unless the run keeps every timeline (``--keep-timelines``). Measured on the
reference gateway's 486 passing cases: 142,316 entries, 134,396 of them upstream writes (the per-byte
chunkings write one byte at a time), 32 MB of results.json; their summaries take about 0.7 MB.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.timeline import Entry

__all__ = ["summarise_timeline"]


def _what(e: Entry) -> str:
    """What an entry carried: its event's type, or a write's tags (``reasoning``, ``text+terminal``)."""
    if e.event is not None:
        return type(e.event).__name__
    tags = e.info.get("tags") if e.kind == "write" else None
    return "+".join(str(t) for t in tags) if tags else ""


def summarise_timeline(entries: Sequence[Entry]) -> dict[str, Any]:
    """``{"entries": N, "duration_ms": ms, "rows": [{side, kind, what, turn, n, bytes, first_ms,
    last_ms}, ...]}``: rows in the order of their first entry; times since the first entry."""
    if not entries:
        return {"entries": 0, "duration_ms": 0.0, "rows": []}
    t0 = entries[0].t
    rows: dict[tuple[str, str, str, int], list[Any]] = {}
    for e in entries:
        key = (e.side, e.kind, _what(e), e.turn)
        row = rows.get(key)
        if row is None:
            rows[key] = [1, len(e.data), e.t, e.t]
        else:
            row[0] += 1
            row[1] += len(e.data)
            row[3] = e.t
    return {
        "entries": len(entries),
        "duration_ms": round((entries[-1].t - t0) / 1e6, 3),
        "rows": [
            {
                "side": side,
                "kind": kind,
                "what": what,
                "turn": turn,
                "n": n,
                "bytes": size,
                "first_ms": round((first - t0) / 1e6, 3),
                "last_ms": round((last - t0) / 1e6, 3),
            }
            for (side, kind, what, turn), (n, size, first, last) in rows.items()
        ],
    }
