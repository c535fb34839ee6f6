"""``Timeline.add_write`` and ``add_writes``, the upstream's per-write record: kept as a tuple or a run
of columns, read back as the very entries ``add`` would have made, in order, and waking ``wait_for``
like ``add`` does."""

from __future__ import annotations

import threading
import time

from harness.runner._run import serialize_timeline
from harness.timeline import Entry, Timeline


def _fields(e: Entry) -> tuple[object, ...]:
    return (e.side, e.act, e.data, e.event, e.turn, dict(e.info))


def test_add_write_reads_back_as_the_entry_add_makes() -> None:
    tags = frozenset({"text", "reasoning"})
    by_add, by_write = Timeline(), Timeline()
    by_add.add("upstream", "write", data=b"data: 1\n\n", turn=2, tags=sorted(tags), frame=7)
    by_write.add_write("upstream", b"data: 1\n\n", turn=2, tags=tags, frame=7)
    (a,), (w,) = by_add.entries(), by_write.entries()
    assert _fields(w) == _fields(a)
    assert w.info["tags"] == ["reasoning", "text"]
    assert serialize_timeline([w]) == serialize_timeline([a])


def test_defaults_match_a_raw_write() -> None:
    tl = Timeline()
    tl.add_write("upstream", b"raw")
    (e,) = tl.select("upstream", "write")
    assert (e.turn, dict(e.info)) == (0, {"tags": [], "frame": None})


def test_mixed_adds_keep_their_order_and_count() -> None:
    tl = Timeline()
    tl.add("upstream", "request", turn=0)
    for i in range(3):
        tl.add_write("upstream", b"%d" % i, frame=i)
    assert len(tl) == 4  # counted before anyone read them
    tl.add("upstream", "response-end", turn=0)
    assert [(e.act, e.data) for e in tl] == [
        ("request", b""),
        ("write", b"0"),
        ("write", b"1"),
        ("write", b"2"),
        ("response-end", b""),
    ]
    first = tl.entries()
    assert all(x is y for x, y in zip(first, tl.entries(), strict=True))  # built once: same objects
    assert [e.info["frame"] for e in tl.select(act="write")] == [0, 1, 2]


def test_wait_for_is_woken_by_add_write() -> None:
    tl = Timeline()
    got: list[Entry | None] = []
    waiter = threading.Thread(target=lambda: got.append(tl.wait_for("upstream", "write", timeout=30)))
    waiter.start()
    deadline = time.monotonic() + 30
    while not tl._waiting and time.monotonic() < deadline:  # until the waiter is inside wait_for
        threading.Event().wait(0.001)
    tl.add_write("upstream", b"x", frame=0)
    waiter.join(30)
    assert [e.data if e else None for e in got] == [b"x"]


def test_a_run_of_writes_reads_back_as_its_writes_one_by_one() -> None:
    tags = [frozenset({"reasoning"}), frozenset({"reasoning"}), frozenset({"text", "terminal"})]
    by_run, by_write = Timeline(), Timeline()
    by_run.add_writes("upstream", 1, [10, 11, 12], [b"a", b"b", b"c"], tags, range(4, 7))
    for d, g, f in zip([b"a", b"b", b"c"], tags, range(4, 7), strict=True):
        by_write.add_write("upstream", d, turn=1, tags=g, frame=f)
    assert len(by_run) == 3  # a run counts its writes before anyone read them
    assert [_fields(e) for e in by_run.entries()] == [_fields(e) for e in by_write.entries()]
    assert [e.t for e in by_run.entries()] == [10, 11, 12]


def test_a_run_records_only_the_writes_that_were_made() -> None:
    tl = Timeline()  # the peer left at the third write: two times for three writes
    tl.add_writes("upstream", 0, [5, 6], [b"a", b"b", b"c"], [frozenset()] * 3, [0, 1, 2])
    assert [e.data for e in tl.entries()] == [b"a", b"b"]


def test_a_ring_keeps_its_limit_in_writes_when_they_come_as_runs() -> None:
    tl = Timeline(limit=5)
    for k in range(4):
        tl.add_writes("upstream", 0, [k * 3 + i for i in range(3)], [b"x"] * 3, [frozenset()] * 3, [0, 1, 2])
    assert [e.t for e in tl.entries()] == [7, 8, 9, 10, 11]
