"""The HTTP front door (``harness.drivers._http.FrontDoor``) over its own client, against raw loopback
servers: a cancel gate met closes the connection at once (the SUT sees the client go) and it is never
reused; a whole answer's connection carries the next case; a SUT that never answers ends at the
deadline as a TIMEOUT; a body cut short is the SUT's transport error, recorded."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable

import pytest
from _raw_server import RawServer, read_request

from harness.drivers._base import CaseContext, DriverTimeout
from harness.drivers._http import FrontDoor
from harness.events import Message, ReasoningDelta, StreamError
from harness.runner import load_cases
from harness.timeline import Timeline
from harness.upstream import ClientSide

CANCEL = "errors-cancellation/client-cancel[openai-chat:reasoning_content/frames]"
HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
FRAME = b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"Thinking"}}]}\n\n'
DONE = b"data: [DONE]\n\n"


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


def _case() -> object:
    (case,) = [c for c in load_cases([CANCEL]) if c.id == CANCEL]
    return case


def _front(port: int) -> FrontDoor:
    return FrontDoor(f"http://127.0.0.1:{port}", dialect="openai-chat", variant="reasoning_content", path="")


def _ctx(case: object, timeout: float = 10.0) -> CaseContext:
    return CaseContext(case, "http://127.0.0.1:9", Timeline(), ClientSide(), "m", timeout)


def _send(front: FrontDoor, ctx: CaseContext, cancel: bool = False) -> object:
    gate = ctx.case.turns[0].cancel if cancel else None
    return front.send(ctx, 0, [Message.user("hi")], gate)


def test_a_cancel_gate_met_closes_the_connection_and_the_next_case_opens_another(
    serve: Callable[..., RawServer],
) -> None:
    left = threading.Event()

    def holds_the_stream(conn: socket.socket, _: int) -> None:
        read_request(conn)
        conn.sendall(HEAD + _chunk(FRAME))
        conn.settimeout(10)
        if conn.recv(1) == b"":  # the stream stays open until the client goes
            left.set()

    server = serve(holds_the_stream)
    front, case = _front(server.port), _case()
    try:
        ctx = _ctx(case)
        out = _send(front, ctx, cancel=True)
        assert out.cancelled  # type: ignore[attr-defined]
        assert left.wait(10)
        assert [e.act for e in ctx.timeline.select("client", "cancel")] == ["cancel"]
        _send(front, _ctx(case), cancel=True)
    finally:
        front.close()
    assert server.accepted == 2


def test_a_whole_answer_leaves_its_connection_to_the_next_case(serve: Callable[..., RawServer]) -> None:
    def answers(conn: socket.socket, _: int) -> None:
        while read_request(conn) is not None:
            conn.sendall(HEAD + _chunk(FRAME) + _chunk(DONE) + b"0\r\n\r\n")

    server = serve(answers)
    front, case = _front(server.port), _case()
    try:
        outs = [_send(front, _ctx(case)) for _ in range(3)]
    finally:
        front.close()
    for out in outs:
        assert [e for e in out.events if isinstance(e, ReasoningDelta)] == [ReasoningDelta("Thinking")]  # type: ignore[attr-defined]
    assert server.accepted == 1


def test_a_sut_that_never_answers_ends_at_the_deadline(serve: Callable[..., RawServer]) -> None:
    stop = threading.Event()

    def silent(conn: socket.socket, _: int) -> None:
        read_request(conn)
        stop.wait(10)

    server = serve(silent)
    front = _front(server.port)
    ctx = _ctx(_case(), timeout=0.3)
    try:
        with pytest.raises(DriverTimeout, match="no answer yet"):
            _send(front, ctx)
    finally:
        stop.set()
        front.close()
    assert [e.info["error"] for e in ctx.timeline.select("client", "error")] == [
        "deadline: connection closed by thinkwire"
    ]


def test_a_body_cut_short_is_the_suts_transport_error(serve: Callable[..., RawServer]) -> None:
    def cuts(conn: socket.socket, _: int) -> None:
        read_request(conn)
        conn.sendall(HEAD + _chunk(FRAME))  # then closes: no last chunk

    server = serve(cuts)
    front = _front(server.port)
    ctx = _ctx(_case())
    try:
        out = _send(front, ctx)
    finally:
        front.close()
    errors = [e for e in out.events if isinstance(e, StreamError)]  # type: ignore[attr-defined]
    assert len(errors) == 1
    assert errors[0].message.startswith("transport error: WireError(")
    assert "inside the answer's body" in ctx.timeline.select("client", "error")[0].info["error"]
