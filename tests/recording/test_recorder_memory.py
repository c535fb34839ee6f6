"""The recorder keeps no per-exchange state once an exchange has ended: memory stays flat however many
requests pass through it (issue 14: long-running servers stay flat). Measured in a process of its
own: tracemalloc counts every thread's allocations, and in a shared pytest-xdist worker what other
tests left running counted too (once 998 B/request, where the recorder alone grows ~100)."""

from __future__ import annotations

import gc
import subprocess
import sys
import tracemalloc
from pathlib import Path

from _rec_helpers import exchange

from harness.net import Request, Responder, Server
from harness.recording import Recorder, read_cassette

FRAMES = [b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"r"}}]}\n\n'] * 20
FRAMES.append(b"data: [DONE]\n\n")
BODY = b'{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'


async def _upstream(request: Request, responder: Responder) -> None:
    """A stateless upstream: whatever grows is the recorder's."""
    await responder.start(200, [("content-type", "text/event-stream")])
    for frame in FRAMES:
        await responder.write(frame)
    await responder.end()


def _traced() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


WARMUP, MEASURED = 300, 300  # (measured here: ~80 B/request over the first 300, then flat +-40)


def _measure(out: Path) -> int:
    """The traced memory the recorder grew by over ``MEASURED`` requests, after ``WARMUP``."""
    with Server(_upstream) as up, Recorder(up.base_url, out) as rec:
        for _ in range(WARMUP):
            assert exchange(rec.base_url, "/v1/chat/completions", BODY)[2]
        tracemalloc.start()
        try:
            before = _traced()
            for _ in range(MEASURED):
                assert exchange(rec.base_url, "/v1/chat/completions", BODY)[2]
            after = _traced()
        finally:
            tracemalloc.stop()
        assert rec.in_flight == 0
    return after - before


def test_recorder_memory_stays_flat_over_many_requests(tmp_path: Path) -> None:
    out = tmp_path / "c.jsonl"
    proc = subprocess.run(
        [sys.executable, __file__, str(out)], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    growth = int(proc.stdout.split()[-1])
    print(f"recorder: {growth} bytes over {MEASURED} requests ({growth / MEASURED:.1f} B/request)")
    # serve grew 6.7 KB per request before issue 14; a kept Request (head + body) is ~600 B
    assert growth < 256 * MEASURED, f"{growth / MEASURED:.0f} bytes per request"
    cassette = read_cassette(out)
    assert len(cassette.exchanges) == WARMUP + MEASURED
    assert all(ex.end == "complete" and ex.body == b"".join(FRAMES) for ex in cassette.exchanges)


if __name__ == "__main__":  # the measurement, in a process of its own
    print(_measure(Path(sys.argv[1])))
