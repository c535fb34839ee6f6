"""Record through the proxy while a client reads, replay, and get the same bytes in the same chunks;
the proxy is proven not to buffer: the upstream withholds its last frame until the client (behind the
proxy) has observed the first one."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx

from harness.dialects import get_dialect
from harness.events import End, ReasoningDelta, TextDelta
from harness.recording import Recorder, conversation_from_cassette, read_cassette
from harness.timeline import Timeline
from harness.upstream import ClientSide, Conversation, Emit, Gate, MockUpstream, Script

BODY = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}


def raw_reads(base_url: str, body: bytes) -> list[bytes]:
    """The body chunks as a raw socket receives them (chunked framing undone by h11)."""
    import h11

    host, port = base_url.removeprefix("http://").split(":")
    conn = h11.Connection(h11.CLIENT)
    out = []
    with socket.create_connection((host, int(port))) as s:
        s.sendall(
            conn.send(
                h11.Request(
                    method="POST",
                    target="/v1/chat/completions",
                    headers=[
                        ("host", "x"),
                        ("content-length", str(len(body))),
                        ("content-type", "application/json"),
                    ],
                )
            )
        )
        s.sendall(conn.send(h11.Data(data=body)) + conn.send(h11.EndOfMessage()))
        while True:
            ev = conn.next_event()
            if ev is h11.NEED_DATA:
                conn.receive_data(s.recv(65536))
                continue
            if isinstance(ev, h11.Data):
                out.append(bytes(ev.data))
            if isinstance(ev, h11.EndOfMessage | h11.ConnectionClosed):
                return out


def test_record_then_replay_is_byte_identical_and_unbuffered(tmp_path: Path) -> None:
    script = Script(
        "openai-chat",
        (
            Emit((ReasoningDelta("思考 first"),)),
            Gate(reasoning="first", timeout=3.0),
            Emit((ReasoningDelta(" second"), TextDelta("ok"), End())),
        ),
        variant="reasoning_content",
        chunking="utf8-split",
    )
    tl, client = Timeline(), ClientSide()
    with MockUpstream() as up:
        up.load(Conversation((script,)), timeline=tl, client=client)
        out = tmp_path / "rec.jsonl"
        with Recorder(up.base_url, out) as rec:
            observer = get_dialect("openai-chat").observer()
            got: list[bytes] = []
            with httpx.stream("POST", rec.base_url + "/v1/chat/completions", json=BODY) as resp:
                for chunk in resp.iter_raw():
                    got.append(chunk)
                    for ev in observer.feed(chunk):
                        client.observe(ev)
        assert tl.select("upstream", "gate-open"), "the proxy buffered: the gate never opened"
        assert not tl.select("upstream", "gate-timeout")
        cassette = read_cassette(out)
        recorded = [c.data for c in cassette.exchanges[0].chunks]
        assert b"".join(recorded) == b"".join(got)
        upstream_writes = [e.data for e in tl.select("upstream", "write")]
        assert b"".join(upstream_writes) == b"".join(recorded)
        # replay: the same bytes in the same chunks
        replay_tl = Timeline()
        up.load(conversation_from_cassette(cassette), timeline=replay_tl, client=ClientSide())
        replayed = raw_reads(up.base_url, b'{"model":"m","stream":true}')
        assert b"".join(replayed) == b"".join(recorded)
        # one socket write per recorded chunk: the boundaries the client may see are the recorded ones
        assert [e.data for e in replay_tl.select("upstream", "write")] == recorded
