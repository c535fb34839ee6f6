"""The mock upstream's WebSocket mode, the Responses API's ``/v1/responses`` socket. Every ``response.create``
message is one request of the conversation, dispatched and planned like an HTTP POST and executed by the
same executor, its SSE frames sent as one text message each."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from harness._json import dumps_compact, loads
from harness.net import Request, Responder, WsServerSide, put_each
from harness.upstream._dispatch import ConversationState, dispatch

__all__ = ["previous_response_id", "serve_websocket"]

_READ = 65536


def previous_response_id(message: str) -> str | None:
    """The ``previous_response_id`` a ``response.create`` message names (None: none, or no such message)."""
    try:
        body = loads(message)
    except ValueError:
        return None
    previous = body.get("previous_response_id") if isinstance(body, dict) else None
    return previous if isinstance(previous, str) and previous else None


class _Conn:
    """One socket: the wsproto session, the writer, and what the reader task saw."""

    def __init__(self, side: WsServerSide, writer: asyncio.StreamWriter) -> None:
        self.side = side
        self.writer = writer
        self.closed = asyncio.Event()
        self.peer_closed_at: int | None = None
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.responses: list[str] = []

    def gone(self) -> None:
        if self.peer_closed_at is None:
            self.peer_closed_at = time.monotonic_ns()
        self.closed.set()
        self.inbox.put_nowait(None)

    async def read(self, reader: asyncio.StreamReader, leftover: bytes) -> None:
        data = leftover
        try:
            while True:
                messages, reply = self.side.receive(data) if data else ([], b"")
                if reply and not self.writer.transport.is_closing():
                    self.writer.write(reply)
                for m in messages:
                    self.inbox.put_nowait(m)
                if self.side.closed:
                    break
                data = await reader.read(_READ)
                if not data:
                    self.side.receive(b"")
                    break
        except ConnectionError:
            pass
        self.gone()


class _WsResponder:
    """What the plan executor writes to (a :class:`~harness.net.Responder`'s interface), over the
    socket: complete SSE events become text messages; an error status becomes an ``error`` message."""

    def __init__(self, conn: _Conn) -> None:
        self.conn = conn
        self.closed = conn.closed
        self.status: int | None = None
        self.started = self.ended = self.aborted = False
        self._buf = b""
        self.response_ids: list[str] = []

    @property
    def peer_closed_at(self) -> int | None:
        return self.conn.peer_closed_at

    @property
    def peer_closed(self) -> bool:
        return self.conn.peer_closed_at is not None

    async def start(
        self, status: int, headers: Any = (), framing: str = "chunked", length: Any = None
    ) -> None:
        self.started, self.status = True, status

    def put_all(self, datas: Sequence[bytes], times: list[int]) -> tuple[int, bool]:
        return put_each(self, datas, times)

    def put(self, data: bytes) -> bool:
        transport = self.conn.writer.transport
        if self.aborted or transport.is_closing():
            raise ConnectionResetError("connection closed")
        self._buf += data
        if self.status is not None and self.status >= 400:
            return False  # an error body: sent whole by end()
        while b"\n\n" in self._buf:
            event, self._buf = self._buf.split(b"\n\n", 1)
            lines = [ln[5:].lstrip(b" ") for ln in event.split(b"\n") if ln.startswith(b"data:")]
            if not lines:
                continue
            text = b"\n".join(lines).decode("utf-8", errors="replace")
            self._note(text)
            transport.write(self.conn.side.text(text))
        return transport.get_write_buffer_size() > 0

    def _note(self, text: str) -> None:
        if '"response.created"' in text:
            with contextlib.suppress(ValueError, AttributeError):
                rid = loads(text)["response"]["id"]
                self.response_ids.append(str(rid))

    async def drain(self) -> None:
        await self.conn.writer.drain()

    async def end(self) -> None:
        if self.ended or self.aborted:
            return
        self.ended = True
        if self.status is not None and self.status >= 400:
            try:
                error = loads(self._buf).get("error")
            except (ValueError, AttributeError):
                error = None
            if not isinstance(error, dict):
                error = {"type": "server_error", "message": self._buf.decode(errors="replace")[:500]}
            message = dumps_compact({"type": "error", "status": self.status, "error": error})
            self.conn.writer.write(self.conn.side.text(message))
            await self.conn.writer.drain()

    def abort(self) -> None:
        if not self.aborted:
            self.aborted = True
            self.conn.writer.transport.abort()
            self.conn.closed.set()

    def mark_peer_gone(self) -> None:
        self.conn.gone()


async def serve_websocket(
    get_state: Callable[[str], tuple[ConversationState, tuple[tuple[str, str], ...]]],
    req: Request,
    resp: Responder,
    execute: Any,
) -> None:
    """Serve one upgraded connection until the peer closes it; ``get_state(message)``: the message's
    conversation and the other conversations' tokens it carried (the server's routing); ``execute``
    runs a plan (the server's).

    The connection keeps what the real API keeps, the ids of the responses it produced. With ``store:
    false`` only the most recent one can be chained by ``previous_response_id``; with ``store: true`` any
    the mock produced; anything else is ``previous_response_not_found``. One response runs at a time per
    socket, messages that arrive meanwhile wait their turn, and the peer's close ends the response in
    flight.
    """
    assert resp.upgrade is not None
    reader, writer, leftover = resp.upgrade
    conn = _Conn(WsServerSide(req.headers, req.target), writer)
    writer.write(conn.side.accept())
    await writer.drain()
    reading = asyncio.create_task(conn.read(reader, leftover))
    try:
        while True:
            message = await conn.inbox.get()
            if message is None:
                return
            await _one(*get_state(message), conn, req, message, execute)
    finally:
        reading.cancel()
        with contextlib.suppress(BaseException):
            await reading
        writer.transport.abort()


async def _one(
    state: ConversationState,
    foreign: tuple[tuple[str, str], ...],
    conn: _Conn,
    req: Request,
    message: str,
    execute: Any,
) -> None:
    from harness.dialects.openai_responses.websocket import not_found_rejection, ws_error

    try:
        body = loads(message)
    except ValueError:
        body = None
    if not isinstance(body, dict) or body.get("type") != "response.create":
        error = {"type": "invalid_request_error", "code": "unknown_event", "message": "Unknown event type."}
        conn.writer.write(conn.side.text(ws_error(400, error)))
        return
    request = {k: v for k, v in body.items() if k != "type"} | {"stream": True}
    previous = body.get("previous_response_id")
    reject = None
    if isinstance(previous, str) and previous:
        known = state.responses if body.get("store") is not False else conn.responses[-1:]
        if previous not in known:
            reject = not_found_rejection(previous)
    turn, plan = dispatch(
        state,
        method="WS",
        target=req.target,
        headers=req.headers,
        body=dumps_compact(request).encode(),
        t=time.monotonic_ns(),
        conn=req.conn,
        foreign=foreign,
        reject=reject,
    )
    out = _WsResponder(conn)
    await execute(plan, out, state.timeline, state.client, turn)
    conn.responses += out.response_ids
    with state.lock:
        state.responses += out.response_ids
