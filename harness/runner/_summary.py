"""A passing case's timeline, summarised: per side, act, what and turn, a count, bytes and time span. A case
that did not pass keeps its whole timeline as evidence; a passing one keeps this summary, unless the run
keeps every timeline with ``--keep-timelines``."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import Any

from harness.timeline import Entry

__all__ = ["summarise_serialized", "summarise_timeline"]


def _what(e: Entry) -> str:
    """What an entry carried: its event's type, or a write's tags (``reasoning``, ``text+terminal``)."""
    if e.event is not None:
        return type(e.event).__name__
    tags = e.info.get("tags") if e.act == "write" else None
    return "+".join(str(t) for t in tags) if tags else ""


def summarise_timeline(entries: Sequence[Entry]) -> dict[str, Any]:
    """``{"entries": N, "duration_ms": ms, "rows": [{side, act, what, turn, n, bytes, first_ms,
    last_ms}, ...]}``: rows in the order of their first entry; times since the first entry.

    Measured on the reference gateway's 486 passing cases: 142,316 entries, 134,396 of them upstream writes
    because the per-byte chunkings write one byte at a time, gave 32 MB of results.json. Their summaries
    take about 0.7 MB.
    """
    if not entries:
        return _summary({}, 0, 0.0)
    t0 = entries[0].t
    # The hot loop of a passing case: keyed by what each entry shares with its neighbours (its event's
    # class, a write's tags list, shared by the writes of one frame), named once per distinct key.
    raw: dict[tuple[Any, ...], list[Any]] = {}
    for e in entries:
        ev = e.event
        what: Any = type(ev) if ev is not None else id(e.info.get("tags")) if e.act == "write" else None
        key = (e.side, e.act, what, e.turn)
        row = raw.get(key)
        if row is None:
            raw[key] = [1, len(e.data), e.t, e.t, e]
        else:
            row[0] += 1
            row[1] += len(e.data)
            row[3] = e.t
    rows: _Rows = {}
    for (side, act, _, turn), (n, size, first, last, e) in raw.items():
        key = (side, act, _what(e), turn)
        row = rows.get(key)
        if row is None:
            rows[key] = [n, size, (first - t0) / 1e6, (last - t0) / 1e6]
        else:  # (two tag lists with the same tags; two event classes of one name)
            row[0] += n
            row[1] += size
            row[3] = max(row[3], (last - t0) / 1e6)
    return _summary(rows, len(entries), (entries[-1].t - t0) / 1e6)


def summarise_serialized(items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """:func:`summarise_timeline` of a timeline already serialized (``serialize_timeline``'s dicts,
    whose data is cut at 4 KiB: ``truncated`` keeps the whole size)."""

    def what(item: Mapping[str, Any]) -> str:
        event = item.get("event")
        if event:
            return str(event.get("type", ""))
        tags = (item.get("info") or {}).get("tags") if item.get("act") == "write" else None
        return "+".join(str(t) for t in tags) if tags else ""

    def size(item: Mapping[str, Any]) -> int:
        if "truncated" in item:
            return int(item["truncated"])
        if "text" in item:
            return len(str(item["text"]).encode())
        return len(base64.b64decode(item["base64"])) if "base64" in item else 0

    rows: dict[tuple[str, str, str, int], list[Any]] = {}
    for i in items:
        key = (str(i["side"]), str(i["act"]), what(i), int(i.get("turn", 0)))
        ms = float(i["t_ms"])
        row = rows.setdefault(key, [0, 0, ms, ms])
        row[0] += 1
        row[1] += size(i)
        row[3] = ms
    return _summary(rows, len(items), float(items[-1]["t_ms"]) if items else 0.0)


_Rows = dict[tuple[str, str, str, int], list[Any]]


def _summary(rows: _Rows, entries: int, duration_ms: float) -> dict[str, Any]:
    """The summary of ``rows`` ((side, act, what, turn) -> [n, bytes, first_ms, last_ms])."""
    return {
        "entries": entries,
        "duration_ms": round(duration_ms, 3),
        "rows": [
            {
                "side": side,
                "act": act,
                "what": what,
                "turn": turn,
                "n": n,
                "bytes": size,
                "first_ms": round(first, 3),
                "last_ms": round(last, 3),
            }
            for (side, act, what, turn), (n, size, first, last) in rows.items()
        ],
    }
