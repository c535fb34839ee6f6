"""Mock upstream streaming: frames/s to one loopback client vs a plain asyncio server writing the same
pre-encoded frames one write each (the limit); gate round trip (frame written -> observed -> next frame
released), p50/p99. Measured in one run, reported as ratios."""

from __future__ import annotations

import asyncio
import socket
import statistics
import threading
import time

N_FRAMES = 20_000
FRAME = b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"tok"}}]}\n\n'


def _read_all(port: int, path: str = "/v1/chat/completions") -> tuple[int, float]:
    body = b'{"model":"m","stream":true,"messages":[]}'
    req = (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    t0 = time.perf_counter()
    total = 0
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(req)
        while chunk := s.recv(1 << 16):
            total += len(chunk)
    return total, time.perf_counter() - t0


def _raw_server() -> tuple[int, threading.Thread, asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    port_box: list[int] = []

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
            await server.serve_forever()

    t = threading.Thread(target=lambda: loop.run_until_complete(main()), daemon=True)
    t.start()
    ready.wait()
    return port_box[0], t, loop


def run() -> str:
    from harness.dialects import Frame
    from harness.timeline import Timeline
    from harness.upstream import ClientSide, Conversation, EmitFrames, MockUpstream, Script

    port, _, loop = _raw_server()
    _read_all(port)
    raw_bytes, raw_s = _read_all(port)
    frame = Frame('{"choices":[{"index":0,"delta":{"reasoning_content":"tok"}}]}')
    script = Script("openai-chat", (EmitFrames((frame,) * N_FRAMES),), terminator="missing")
    up = MockUpstream()
    t_start = time.perf_counter()
    up.start()
    started = time.perf_counter() - t_start
    up.load(Conversation((script, script)), timeline=Timeline(), client=ClientSide())
    _read_all(up.port if hasattr(up, "port") else int(up.base_url.rsplit(":", 1)[1]))
    tw_bytes, tw_s = _read_all(int(up.base_url.rsplit(":", 1)[1]))
    # gate round trip: frame written -> client observes -> gate opens -> next frame written
    from harness.events import ReasoningDelta
    from harness.upstream import Emit, Gate

    n = 200
    steps: list[object] = []
    for i in range(n):
        steps += [Emit((ReasoningDelta(f"<{i}>"),)), Gate(reasoning=f"<{i}>", timeout=2.0)]
    tl = Timeline()
    client = ClientSide()
    up.load(
        Conversation((Script("openai-chat", tuple(steps), variant="reasoning_content"),)),  # type: ignore[arg-type]
        timeline=tl,
        client=client,
    )
    from harness.dialects import get_dialect

    obs = get_dialect("openai-chat").observer()
    import httpx

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
    rtt = sorted((o - w) / 1e6 for w, o in zip(writes, opens, strict=False) if o >= w)
    t_stop = time.perf_counter()
    up.stop()
    stopped = time.perf_counter() - t_stop
    loop.call_soon_threadsafe(loop.stop)
    raw_fps = N_FRAMES / raw_s
    tw_fps = N_FRAMES / tw_s
    p50 = statistics.median(rtt) if rtt else float("nan")
    p99 = rtt[int(len(rtt) * 0.99) - 1] if rtt else float("nan")
    return "\n".join(
        [
            "## Mock upstream streaming",
            "",
            f"{N_FRAMES} chat frames, one write each, to one loopback client (raw socket reader).",
            "",
            "| server | frames/s | ratio to the limit |",
            "|---|---:|---:|",
            f"| plain asyncio server, pre-encoded bytes (the limit) | {raw_fps:,.0f} | 1.00 |",
            f"| thinkwire MockUpstream (EmitFrames) | {tw_fps:,.0f} | {tw_fps / raw_fps:.2f} |",
            "",
            f"Bytes read: {raw_bytes:,} (raw) vs {tw_bytes:,} (thinkwire, chunked framing).",
            f"Lifecycle: start {started * 1000:.2f} ms, stop {stopped * 1000:.2f} ms "
            "(target: start + stop <= 3 ms).",
            f"Gate round trip over {len(rtt)} gates (frame written -> client observed -> gate opened): "
            f"p50 {p50:.3f} ms, p99 {p99:.3f} ms.",
            "",
        ]
    )


if __name__ == "__main__":
    print(run())
