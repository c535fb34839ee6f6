"""A passing case's timeline summary: the same whether made from the timeline's entries (``thinkwire
run``) or from its serialized form (the pytest plugin's session report)."""

from __future__ import annotations

from harness.events import ReasoningDelta
from harness.runner._case_run import serialize_timeline
from harness.runner._summary import summarise_serialized, summarise_timeline
from harness.timeline import Timeline


def test_serialized_and_live_summaries_agree() -> None:
    tl = Timeline()
    tl.add("client", "request", data=b'{"model":"m"}', t=1_000_000)
    for i in range(5):  # a byte-wise stream: one write per byte, tagged by its frame
        tl.add_writes("upstream", 0, [2_000_000 + i * 1000], [b"x"], [frozenset({"reasoning"})], [0])
    tl.add("upstream", "write", data=b"\xff\xfe" * 3000, t=3_000_000)  # binary, cut at 4 KiB when kept
    tl.add("client", "event", event=ReasoningDelta("hi"), t=4_500_000, turn=1)
    entries = tl.entries()
    live, kept = summarise_timeline(entries), summarise_serialized(serialize_timeline(entries))
    assert kept == live
    assert live["entries"] == 8
    assert live["duration_ms"] == 3.5
    rows = {(r["side"], r["act"], r["what"], r["turn"]): (r["n"], r["bytes"]) for r in live["rows"]}
    assert rows[("upstream", "write", "reasoning", 0)] == (5, 5)
    assert rows[("upstream", "write", "", 0)] == (1, 6000)  # the whole size, not the 4 KiB kept
    assert rows[("client", "event", "ReasoningDelta", 1)] == (1, 0)


def test_empty_timeline() -> None:
    empty = {"entries": 0, "duration_ms": 0.0, "rows": []}
    assert summarise_serialized([]) == summarise_timeline([]) == empty
