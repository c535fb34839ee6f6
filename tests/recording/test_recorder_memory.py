"""The recorder keeps no per-exchange state once an exchange has ended: memory stays flat however many
requests pass through it (issue 14: long-running servers stay flat)."""

from __future__ import annotations

import gc
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


def test_recorder_memory_stays_flat_over_many_requests(tmp_path: Path) -> None:
    out = tmp_path / "c.jsonl"
    warmup, measured = 300, 300  # (measured here: ~80 B/request over the first 300, then flat +-40)
    with Server(_upstream) as up, Recorder(up.base_url, out) as rec:
        for _ in range(warmup):
            assert exchange(rec.base_url, "/v1/chat/completions", BODY)[2]
        tracemalloc.start()
        try:
            before = _traced()
            for _ in range(measured):
                assert exchange(rec.base_url, "/v1/chat/completions", BODY)[2]
            after = _traced()
        finally:
            tracemalloc.stop()
        assert rec.in_flight == 0
    growth = after - before
    print(f"recorder: {growth} bytes over {measured} requests ({growth / measured:.1f} B/request)")
    # serve grew 6.7 KB per request before issue 14; a kept Request (head + body) is ~600 B
    assert growth < 256 * measured, f"{growth / measured:.0f} bytes per request"
    cassette = read_cassette(out)
    assert len(cassette.exchanges) == warmup + measured
    assert all(ex.end == "complete" and ex.body == b"".join(FRAMES) for ex in cassette.exchanges)
