"""Each fault, seen from a raw-socket client: exactly that fault reaches the wire, and is recorded."""

from __future__ import annotations

import pytest

from harness.dialects import Frame
from harness.events import Notice
from harness.upstream import (
    Disconnect,
    EmitFrames,
    Gate,
    HttpError,
    MalformedFrame,
    MockUpstream,
    Raw,
    Script,
    Stall,
    UnknownEvent,
)
from tests.upstream._rawclient import RawResponse, raw_request

CHAT = "/v1/chat/completions"
R1 = Frame('{"choices":[{"index":0,"delta":{"reasoning_content":"思考"}}]}', tags=frozenset({"reasoning"}))
T1 = Frame('{"choices":[{"index":0,"delta":{"content":"Hi"}}]}', tags=frozenset({"text"}))
DONE = Frame("[DONE]", tags=frozenset({"terminal"}))
R1_SSE = ('data: {"choices":[{"index":0,"delta":{"reasoning_content":"思考"}}]}\n\n').encode()
T1_SSE = b'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'


def faults(up: MockUpstream) -> list[str]:
    return [e.info["fault"] for e in up.timeline.select("upstream", "fault")]


def test_http_error_exact_status_and_body(up: MockUpstream) -> None:
    body = b'{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}'
    up.load(Script("openai-chat", (HttpError(429, body),), headers=(("retry-after", "2"),)))
    r = raw_request(up.base_url, CHAT, {"stream": True})
    assert (r.status, r.body, r.complete) == (429, body, True)
    assert r.headers["content-type"] == "application/json"
    assert r.headers["retry-after"] == "2"
    assert faults(up) == ["http-429"]


def test_http_error_not_first_is_a_server_error_and_an_abort(up: MockUpstream) -> None:
    up.load(Script("openai-chat", (EmitFrames((R1,)), HttpError(500, b"x"))))
    r = raw_request(up.base_url, CHAT, {"stream": True})
    assert (r.status, r.complete, r.eof) == (0, False, True)
    (err,) = up.timeline.select("upstream", "server-error")
    assert "HttpError must be the first step" in err.info["error"]


def test_clean_stream_for_comparison(up: MockUpstream) -> None:
    up.load(Script("openai-chat", (EmitFrames((R1, T1, DONE)),)))
    r = raw_request(up.base_url, CHAT, {"stream": True})
    assert (r.status, r.complete) == (200, True)
    assert r.body == R1_SSE + T1_SSE + b"data: [DONE]\n\n"
    assert r.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert len(up.timeline.select("upstream", "response-end")) == 1


@pytest.mark.parametrize(
    ("step", "expected_body", "fault"),
    [
        (Disconnect(), R1_SSE, "disconnect-now (abort)"),
        (Disconnect("after-bytes", 7), R1_SSE + T1_SSE[:7], "disconnect-after-bytes (abort)"),
        (Disconnect("inside-frame"), R1_SSE + T1_SSE[: len(T1_SSE) // 2], "disconnect-inside-frame (abort)"),
    ],
)
def test_disconnect_partial_bytes_then_eof(
    up: MockUpstream, step: Disconnect, expected_body: bytes, fault: str
) -> None:
    up.load(Script("openai-chat", (EmitFrames((R1,)), step, EmitFrames((T1, DONE)))))
    r = raw_request(up.base_url, CHAT, {"stream": True})
    assert r.status == 200
    assert (r.body, r.complete, r.eof) == (expected_body, False, True)
    assert faults(up)[-1] == fault
    assert not up.timeline.select("upstream", "response-end")


def test_disconnect_inside_utf8_code_point(up: MockUpstream) -> None:
    up.load(Script("openai-chat", (Disconnect("inside-utf8"), EmitFrames((R1, DONE)))))
    r = raw_request(up.base_url, CHAT, {"stream": True})
    cut = R1_SSE.index("思".encode()) + 1
    assert (r.body, r.complete, r.eof) == (R1_SSE[:cut], False, True)
    assert r.body[-1] == 0xE6  # the lead byte of 思, alone
    with pytest.raises(UnicodeDecodeError):
        r.body.decode()


def test_stall_holds_until_the_client_leaves(up: MockUpstream) -> None:
    up.load(Script("openai-chat", (EmitFrames((R1,)), Stall(timeout=30), EmitFrames((DONE,)))))
    reads: list[bytes] = []

    def on_read(data: bytes, resp: RawResponse) -> bool:
        reads.append(data)
        if resp.body != R1_SSE:
            return False
        # the stall fault is recorded once the frame is out: then the client leaves
        return up.timeline.wait_for("upstream", "fault", timeout=5) is not None

    r = raw_request(up.base_url, CHAT, {"stream": True}, on_read=on_read)
    assert r.body == R1_SSE
    assert not r.complete
    gone = up.timeline.wait_for("upstream", "disconnect", timeout=5)
    assert gone is not None
    assert faults(up) == ["stall"]
    assert not up.timeline.select("upstream", "write", None)[1:]


def test_stall_timeout_aborts(up: MockUpstream) -> None:
    up.load(Script("openai-chat", (EmitFrames((R1,)), Stall(timeout=0.05))))
    r = raw_request(up.base_url, CHAT, {"stream": True})
    assert (r.body, r.complete, r.eof) == (R1_SSE, False, True)
    assert faults(up) == ["stall", "stall-timeout (abort)"]


def test_malformed_frame_bytes(up: MockUpstream) -> None:
    up.load(Script("openai-chat", (EmitFrames((R1,)), MalformedFrame(), EmitFrames((DONE,)))))
    r = raw_request(up.base_url, CHAT, {"stream": True})
    assert r.body == R1_SSE + b'data: {"choices": [{"delta": {"content": "tru\n\ndata: [DONE]\n\n'
    assert faults(up) == ["malformed-frame"]
    (w,) = [e for e in up.timeline.select("upstream", "write") if "malformed" in e.info["tags"]]
    assert w.info["frame"] == 1


def test_unknown_event_in_the_transport_framing(up: MockUpstream) -> None:
    up.load(Script("openai-chat", (UnknownEvent(), EmitFrames((DONE,)))))
    r = raw_request(up.base_url, CHAT, {"stream": True})
    assert r.body == b'event: thinkwire.unknown\ndata: {"type":"thinkwire.unknown"}\n\ndata: [DONE]\n\n'
    up.load(Script("ollama", (UnknownEvent(data='{"type":"x"}'),), stream=True))
    r = raw_request(up.base_url, "/api/chat", {})
    assert (r.body, r.headers["content-type"]) == (b'{"type":"x"}\n', "application/x-ndjson")


@pytest.mark.parametrize(
    ("terminator", "tail"),
    [("normal", b"data: [DONE]\n\n"), ("missing", b""), ("doubled", b"data: [DONE]\n\ndata: [DONE]\n\n")],
)
def test_terminator(up: MockUpstream, terminator: str, tail: bytes) -> None:
    up.load(Script("openai-chat", (EmitFrames((R1, DONE)),), terminator=terminator))  # type: ignore[arg-type]
    r = raw_request(up.base_url, CHAT, {"stream": True})
    assert (r.body, r.complete) == (R1_SSE + tail, True)


def test_each_write_arrives_as_its_own_read(up: MockUpstream) -> None:
    """Split UTF-8 and split CRLF reach the client split: one chunked write per piece, and the server
    only writes the next piece once the client reported the previous read (a gate, not a sleep)."""
    split_utf8 = [b'data: {"d":"\xe6\x80', b'\x9d\xe8\x80\x83"}\n\n']
    split_crlf = [b'data: {"a":1}\r', b"\n", b"\r", b'\ndata: {"a":2}\r\n\r\n']
    pieces = split_utf8 + split_crlf
    steps: list[object] = [Gate(events=1, timeout=5)]  # the head's read
    for i, p in enumerate(pieces):
        steps += [Raw((p,)), Gate(events=i + 2, timeout=5)]
    up.load(Script("openai-chat", tuple(steps), stream=True))  # type: ignore[arg-type]

    def on_read(data: bytes, resp: RawResponse) -> None:
        up.client.observe(Notice("read", repr(data)))

    r = raw_request(up.base_url, CHAT, {"stream": True}, on_read=on_read)
    assert r.complete
    chunked = [f"{len(p):x}\r\n".encode() + p + b"\r\n" for p in pieces]
    assert r.reads == [*chunked, b"0\r\n\r\n"]
    assert [e.data for e in up.timeline.select("upstream", "write")] == pieces
    assert len(up.timeline.select("upstream", "gate-open")) == len(pieces) + 1
    assert not up.timeline.select("upstream", "gate-timeout")
