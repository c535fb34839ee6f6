"""Mock upstream streaming: frames/s to one loopback client vs a plain asyncio server writing the same
pre-encoded frames one write + drain each (the limit); lifecycle (start, stop); gate round trip (frame
written -> observed -> next frame released), p50/p99. Measured in one run, reported as ratios.

Both servers answer the same raw-socket client, in interleaved rounds (the order alternating), each
round after a ``gc.collect()``; the best round of each counts: on a shared 2-core machine the noise
only ever slows a round down."""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

N_FRAMES = 20_000
ROUNDS = 15
LIFECYCLES = 9
FRAME = b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"tok"}}]}\n\n'


@dataclass(frozen=True)
class Round:
    """One response read to EOF: bytes, seconds from sending the request to the first bytes of the
    response and to EOF."""

    nbytes: int
    first: float
    total: float

    @property
    def fps(self) -> float:
        """Frames/s end to end: the request sent -> EOF (planning included)."""
        return N_FRAMES / self.total

    @property
    def streaming_fps(self) -> float:
        """Frames/s once the response has started: first bytes -> EOF."""
        return N_FRAMES / (self.total - self.first)


def _read_all(port: int, path: str = "/v1/chat/completions") -> Round:
    body = b'{"model":"m","stream":true,"messages":[]}'
    req = (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    t0 = time.perf_counter()
    first = 0.0
    total = 0
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(req)
        while chunk := s.recv(1 << 16):
            if not total:
                first = time.perf_counter() - t0
            total += len(chunk)
    return Round(total, first, time.perf_counter() - t0)


def _read_elsewhere(port: int) -> Round:
    """:func:`_read_all` in a client process of its own, as a SUT is: a client thread in this process
    would hold the GIL against the server it measures (the server's every Python step would then count
    twice, once for itself and once for the client it stalls)."""
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.upstream_stream", "--client", str(port)],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return Round(**json.loads(out))


def _raw_server() -> tuple[int, Callable[[], None]]:
    """The limit: one ``writer.write`` + ``await writer.drain()`` per pre-encoded frame. Returns the
    port and a function stopping the server and its thread."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    port_box: list[int] = []
    done = asyncio.Event()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
        for _ in range(N_FRAMES):
            writer.write(FRAME)
            await writer.drain()
        writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port_box.append(server.sockets[0].getsockname()[1])
        ready.set()
        async with server:
            await done.wait()

    t = threading.Thread(target=lambda: loop.run_until_complete(main()), daemon=True)
    t.start()
    ready.wait()

    def stop() -> None:
        loop.call_soon_threadsafe(done.set)
        t.join(10)
        loop.close()

    return port_box[0], stop


def _streaming() -> tuple[list[Round], list[Round]]:
    """Interleaved rounds against both servers (plain, thinkwire): each one a fresh thinkwire case."""
    from harness.dialects import Frame
    from harness.timeline import Timeline
    from harness.upstream import ClientSide, Conversation, EmitFrames, MockUpstream, Script

    frame = Frame('{"choices":[{"index":0,"delta":{"reasoning_content":"tok"}}]}')
    script = Script("openai-chat", (EmitFrames((frame,) * N_FRAMES),), terminator="missing")
    raw_port, stop_raw = _raw_server()
    raw: list[Round] = []
    tw: list[Round] = []
    with MockUpstream() as up:

        def plain() -> Round:
            return _read_elsewhere(raw_port)

        def thinkwire() -> Round:
            up.load(Conversation((script,)), timeline=Timeline(), client=ClientSide())
            return _read_elsewhere(up.port)

        plain()  # warm-up
        thinkwire()
        for i in range(ROUNDS):
            for run in (plain, thinkwire) if i % 2 == 0 else (thinkwire, plain):
                gc.collect()
                (raw if run is plain else tw).append(run())
    stop_raw()
    return raw, tw


def _lifecycle() -> tuple[list[float], list[float]]:
    """Seconds for ``start()`` and for ``stop()`` of a fresh MockUpstream, ``LIFECYCLES`` times."""
    from harness.upstream import MockUpstream

    starts, stops = [], []
    for _ in range(LIFECYCLES):
        up = MockUpstream()
        gc.collect()
        t0 = time.perf_counter()
        up.start()
        starts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        up.stop()
        stops.append(time.perf_counter() - t0)
    return starts, stops


def _gate_round_trips(n: int = 200) -> list[float]:
    """Milliseconds from a frame's write to the gate opening on the client having observed it."""
    import httpx

    from harness.dialects import get_dialect
    from harness.events import ReasoningDelta
    from harness.timeline import Timeline
    from harness.upstream import ClientSide, Conversation, Emit, Gate, MockUpstream, Script, Step

    steps: list[Step] = []
    for i in range(n):
        steps += [Emit((ReasoningDelta(f"<{i}>"),)), Gate(reasoning=f"<{i}>", timeout=2.0)]
    tl = Timeline()
    client = ClientSide()
    obs = get_dialect("openai-chat").observer()
    with MockUpstream() as up:
        up.load(
            Conversation((Script("openai-chat", tuple(steps), variant="reasoning_content"),)),
            timeline=tl,
            client=client,
        )
        with httpx.stream(
            "POST",
            up.base_url + "/v1/chat/completions",
            json={"model": "m", "stream": True, "messages": []},
            timeout=30,
        ) as resp:
            for chunk in resp.iter_raw():
                for ev in obs.feed(chunk):
                    client.observe(ev)
    writes = [e.t for e in tl.select("upstream", "write")]
    opens = [e.t for e in tl.select("upstream", "gate-open")]
    return sorted((o - w) / 1e6 for w, o in zip(writes, opens, strict=False) if o >= w)


def _ms(values: list[float]) -> str:
    return f"best {min(values) * 1000:.2f} ms, median {statistics.median(values) * 1000:.2f} ms"


def run() -> str:
    raw, tw = _streaming()
    starts, stops = _lifecycle()
    rtt = _gate_round_trips()
    raw_best = max(raw, key=lambda r: r.fps)
    tw_best = max(tw, key=lambda r: r.fps)
    raw_stream = max(r.streaming_fps for r in raw)
    tw_stream = max(r.streaming_fps for r in tw)
    tw_first = min(r.first for r in tw)
    raw_med = statistics.median(r.fps for r in raw)
    tw_med = statistics.median(r.fps for r in tw)
    p50 = statistics.median(rtt) if rtt else float("nan")
    p99 = rtt[int(len(rtt) * 0.99) - 1] if rtt else float("nan")
    ratio = tw_best.fps / raw_best.fps
    # paired: each round ran both servers back to back, so a slow spell of the machine hits both
    paired = statistics.median(t.fps / r.fps for r, t in zip(raw, tw, strict=True))
    paired_stream = statistics.median(t.streaming_fps / r.streaming_fps for r, t in zip(raw, tw, strict=True))
    return "\n".join(
        [
            "## Mock upstream streaming",
            "",
            f"{N_FRAMES:,} chat frames, one write each, to one loopback client (a raw socket reader "
            f"in a process of its own, as a SUT is; the same for both servers). {ROUNDS} interleaved "
            "rounds per server (order alternating, `gc.collect()` before each, a fresh `load()` per "
            "thinkwire round); best round shown, "
            "median in brackets; the ratios are best against best, and in brackets the median of the "
            "per-round ratios (both servers ran back to back in a round). End to end: request sent -> "
            "EOF, so thinkwire's planning (encoding every frame) counts; streaming (frame by frame): "
            "first response bytes -> EOF.",
            "",
            "| server | frames/s end to end | ratio | frames/s streaming | ratio |",
            "|---|---:|---:|---:|---:|",
            f"| plain asyncio server, pre-encoded bytes, write + drain (the limit) | "
            f"{raw_best.fps:,.0f} ({raw_med:,.0f}) | 1.00 | {raw_stream:,.0f} | 1.00 |",
            f"| thinkwire MockUpstream (EmitFrames) | {tw_best.fps:,.0f} ({tw_med:,.0f}) | "
            f"{ratio:.2f} ({paired:.2f}) | {tw_stream:,.0f} | {tw_stream / raw_stream:.2f} "
            f"({paired_stream:.2f}) |",
            "",
            f"thinkwire vs the limit, frame by frame (streaming): **{tw_stream / raw_stream:.2f}x** "
            f"(per-round median {paired_stream:.2f}x; target >= 0.9x); end to end {ratio:.2f}x "
            f"(median {paired:.2f}x). Time to the first response bytes (request handling and planning "
            f"every frame, which the limit does not do): {tw_first * 1000:.1f} ms for {N_FRAMES:,} frames.",
            f"Bytes read: {raw_best.nbytes:,} (raw) vs {tw_best.nbytes:,} (thinkwire, chunked framing).",
            f"Lifecycle over {LIFECYCLES} fresh servers: start {_ms(starts)}; stop {_ms(stops)} "
            "(target: start + stop <= 3 ms).",
            f"Gate round trip over {len(rtt)} gates (frame written -> client observed -> gate opened): "
            f"p50 {p50:.3f} ms, p99 {p99:.3f} ms.",
            "",
        ]
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--client"]:
        print(json.dumps(asdict(_read_all(int(sys.argv[2])))))
    else:
        print(run())
