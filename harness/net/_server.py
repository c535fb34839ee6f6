"""A small generic HTTP/1.1 server, asyncio in a background thread with h11, where the handler controls every
byte and every socket write. The mock upstream, the recorder and the replayer all serve through it.

Usage::

    async def handler(request: Request, responder: Responder) -> None:
        await responder.start(200, [("content-type", "text/event-stream")])
        await responder.write(b"data: 1\\n\\n")   # exactly one socket write, then drain
        await responder.end()

    with Server(handler) as server:
        httpx.get(server.base_url + "/x")
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from time import monotonic_ns as _now
from types import TracebackType
from typing import Any, Literal

import h11

from harness.net._upgrade import is_websocket_upgrade

__all__ = ["Handler", "Request", "Responder", "Server", "chunk", "put_each"]

Framing = Literal["chunked", "close", "length"]

MAX_HEAD = 64 * 1024
MAX_BODY = 64 * 1024 * 1024
IDLE_TIMEOUT = 300.0
READ_SIZE = 65536


_SIZES = tuple(b"%x\r\n" % n for n in range(4096))
"""Chunk-size lines of the pieces most frames are (a lookup: 30% less than formatting each)."""


def chunk(data: bytes) -> bytes:
    """One non-empty body piece in chunked transfer coding: lowercase hex size, CRLF, data, CRLF (what
    h11's ``send(Data(...))`` returns). One join instead of h11's event processing, which cost as much
    as the socket write itself."""
    n = len(data)
    return b"".join((_SIZES[n] if n < 4096 else b"%x\r\n" % n, data, b"\r\n"))


@dataclass(frozen=True, slots=True)
class Request:
    """One complete HTTP request. ``headers`` keep their original case and order."""

    method: str
    target: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    conn: int
    arrived: int
    """``time.monotonic_ns()`` when the request head was complete."""
    http_version: str = "1.1"

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]

    @property
    def query(self) -> str:
        return self.target.split("?", 1)[1] if "?" in self.target else ""

    def header(self, name: str, default: str | None = None) -> str | None:
        low = name.lower()
        for k, v in self.headers:
            if k.lower() == low:
                return v
        return default


class Responder:
    """Writes one response. ``start`` sends the head; ``write`` sends a body piece in the chosen framing
    (one socket write each); ``end`` finishes; ``abort`` cuts the connection at once.

    Each ``write`` is one ``transport.write``; TCP_NODELAY is on. h11 picks the framing, but chunks are
    framed by :func:`chunk`. ``upgrade`` hands the handler the socket of a WebSocket upgrade. ``abort`` may
    cut inside a frame or a code point. ``closed`` is set when a reader task sees the peer's EOF.
    """

    def __init__(
        self,
        conn: h11.Connection,
        writer: asyncio.StreamWriter,
        request: Request,
        direct: socket.socket | None = None,
    ) -> None:
        self._conn = conn
        self._writer = writer
        self._direct = direct
        """The connection's socket (a dup of its fd) for :meth:`put`'s writes while the transport
        holds nothing back: one ``send``, not the transport's bookkeeping around it."""
        self.request = request
        self.closed = asyncio.Event()
        """Set when the peer closed the connection (EOF or reset) or the connection was aborted."""
        self.peer_closed_at: int | None = None
        self.started = False
        self.ended = False
        self.aborted = False
        self.framing: Framing = "chunked"
        self.status: int | None = None
        self._transport = writer.transport
        self._chunked: bool | None = None
        """Body pieces go out in chunked coding: None until h11 framed the first one."""
        self.upgrade: tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes] | None = None
        """A WebSocket upgrade request: the connection's reader, writer and the bytes read past the
        request; the handler owns the socket from here (no watcher reads it) until it returns."""

    @property
    def peer_closed(self) -> bool:
        return self.peer_closed_at is not None

    async def start(
        self,
        status: int,
        headers: Sequence[tuple[str, str]] = (),
        framing: Framing = "chunked",
        length: int | None = None,
    ) -> None:
        """Send the status line and headers. ``chunked`` and ``length`` go through h11; ``close``
        (HTTP/1.0-style, body ends with the connection) writes the head itself."""
        if self.started:
            raise RuntimeError("response already started")
        self.started, self.framing, self.status = True, framing, status
        hdrs = [
            (k, v)
            for k, v in headers
            if k.lower() not in ("content-length", "transfer-encoding", "connection")
        ]
        if framing == "length":
            if length is None:
                raise ValueError("framing='length' needs length=")
            hdrs.append(("content-length", str(length)))
        elif framing == "chunked":
            hdrs.append(("transfer-encoding", "chunked"))
        if framing == "close":
            reason = _reason(status)
            head = f"HTTP/1.1 {status} {reason}\r\n".encode()
            head += b"".join(f"{k}: {v}\r\n".encode() for k, v in hdrs)
            head += b"connection: close\r\n\r\n"
            await self._send(head)
            return
        data = self._conn.send(h11.Response(status_code=status, headers=hdrs, reason=_reason(status)))
        await self._send(data or b"")

    async def write(self, data: bytes) -> None:
        """One body piece: exactly one socket write (chunk header included), then back-pressure."""
        if self.put(data):
            await self._writer.drain()

    def put(self, data: bytes) -> bool:
        """:meth:`write` without the wait, for a caller streaming many pieces: the one socket write,
        then True when the caller must ``await`` :meth:`drain` before the next (bytes left buffered, or
        the write failed). Most writes leave nothing buffered: no coroutine for them."""
        if not self.started:
            raise RuntimeError("write() before start()")
        if not data:
            return False
        out = chunk(data) if self._chunked else self._frame(data)
        transport = self._transport  # _put, inlined: this runs once per frame of every stream
        if self.aborted or transport.is_closing():
            raise ConnectionResetError("connection closed")
        direct = self._direct
        if direct is not None and not transport.get_write_buffer_size():
            # Nothing queued: the same single send the transport would make, minus its bookkeeping
            # (measured: half the cost of a frame's write); what the kernel does not take now waits,
            # in order, in the transport's buffer.
            try:
                sent = direct.send(out)
            except (BlockingIOError, InterruptedError):
                sent = 0
            if sent == len(out):
                return False
            out = out[sent:]
        transport.write(out)
        return bool(transport.get_write_buffer_size()) or transport.is_closing()

    def put_all(self, datas: Sequence[bytes], times: list[int]) -> tuple[int, bool]:
        """:meth:`put` for a run of pieces, one socket write each, the monotonic time of each write
        appended to ``times`` just before it is made (the write that raised included). Stops after a
        write that left bytes buffered, or before a write once the peer has left. Returns (pieces
        handed to the socket, the caller must ``await`` :meth:`drain` now). A stream's hot path:
        per piece, its chunk framing, one ``send`` and the time, without a call per piece."""
        transport, direct, add = self._transport, self._direct, times.append
        if direct is None or self._chunked is not True or self.aborted:
            return put_each(self, datas, times)
        # Nothing here awaits: the peer's EOF, a close or a drained buffer (loop callbacks) cannot
        # change while the run goes out, so they are checked once, not per piece.
        if self.peer_closed_at is not None:
            return 0, False
        if transport.is_closing():
            raise ConnectionResetError("connection closed")
        queued = bool(transport.get_write_buffer_size())
        sizes, send = _SIZES, direct.send
        for n, data in enumerate(datas):
            add(_now())
            if not data:
                continue
            size = len(data)
            out = b"".join((sizes[size] if size < 4096 else b"%x\r\n" % size, data, b"\r\n"))
            if not queued:
                try:
                    sent = send(out)
                except (BlockingIOError, InterruptedError):
                    sent = 0
                if sent == len(out):
                    continue
                out = out[sent:]
            transport.write(out)  # the rest waits, in order, in the transport's buffer
            if transport.get_write_buffer_size() or transport.is_closing():
                return n + 1, True
            queued = False
        return len(datas), False

    async def drain(self) -> None:
        """Wait until the peer has taken what :meth:`put` left buffered (raises if the write failed)."""
        await self._writer.drain()

    def _frame(self, data: bytes) -> bytes:
        """A body piece's wire bytes when :func:`chunk` is not known to apply. h11 decides the framing
        (an HTTP/1.0 peer or a HEAD request get no chunked coding); once it framed a piece exactly as
        :func:`chunk` does, the rest skip h11: body data leaves its state machine unchanged."""
        if self.framing == "close":
            return data
        out = self._conn.send(h11.Data(data=data)) or b""
        if self.framing == "chunked" and self._chunked is None:
            self._chunked = out == chunk(data)
        return out

    async def write_raw(self, data: bytes) -> None:
        """Bytes straight to the socket, bypassing the framing (e.g. a truncated chunk header)."""
        await self._send(data)

    async def end(self) -> None:
        """Finish the response (the zero-length chunk for chunked; close for ``close`` framing)."""
        if self.ended or self.aborted:
            return
        self.ended = True
        if self.framing == "close":
            self._writer.close()
            return
        data = self._conn.send(h11.EndOfMessage()) or b""
        await self._send(data)

    def abort(self) -> None:
        """Close the connection abruptly (RST where possible); bytes already written stay written."""
        if self.aborted:
            return
        self.aborted = True
        transport = self._writer.transport
        # A plain close (FIN) after the partial bytes: an RST could make the peer's kernel discard
        # bytes it already received, and the point of a disconnect fault is that they arrive.
        if transport.get_write_buffer_size():
            transport.close()  # buffered bytes are flushed first, then the socket closes
        else:
            transport.abort()
        self.closed.set()

    async def _send(self, data: bytes) -> None:
        if self._put(data):
            await self._writer.drain()

    def _put(self, data: bytes) -> bool:
        """One ``transport.write``. True when draining has work: bytes left buffered (wait for the
        peer: back-pressure) or the write failed (drain yields and raises). Otherwise drain would
        return at once: skipping it saves a coroutine per frame."""
        if not data:
            return False
        transport = self._transport
        if self.aborted or transport.is_closing():
            raise ConnectionResetError("connection closed")
        transport.write(data)
        return transport.get_write_buffer_size() > 0 or transport.is_closing()

    def mark_peer_gone(self) -> None:
        """Record that the peer left (EOF, reset, or a write that failed); sets :attr:`closed`."""
        if self.peer_closed_at is None:
            self.peer_closed_at = time.monotonic_ns()
        self.closed.set()


def _dup(sock: object) -> socket.socket | None:
    """A socket on a duplicate of the connection's fd (non-blocking, like the original: the flag
    belongs to the shared file description), or None."""
    fileno = getattr(sock, "fileno", None)
    if fileno is None:
        return None
    try:
        return socket.socket(fileno=os.dup(fileno()))
    except OSError:
        return None


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Status"


Handler = Callable[[Request, Responder], Awaitable[None]]


@dataclass
class _Conn:
    id: int
    task: asyncio.Task[None]
    writer: asyncio.StreamWriter


class Server:
    """``Server(handler, host="127.0.0.1", port=0)``: ``start()`` -> base URL; ``stop()``; a context
    manager. The handler runs on the server's own event loop thread.

    Pipelined requests are served in order; connections are independent tasks. ``stop()`` leaves no thread,
    socket or fd behind. Head size, body size and idle keep-alive time are bounded.
    """

    def __init__(self, handler: Handler, host: str = "127.0.0.1", port: int = 0) -> None:
        self.handler = handler
        self.host = host
        self.port = port
        self.base_url = ""
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._conns: dict[int, _Conn] = {}
        self._ids = itertools.count(1)
        self._ready = threading.Event()
        self._error: BaseException | None = None

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> str:
        if self._thread is not None:
            return self.base_url
        self._ready.clear()
        self._thread = threading.Thread(
            target=self._run, name=f"thinkwire-net-{id(self):x}", daemon=True
        )
        self._thread.start()
        self._ready.wait(10.0)
        if self._error is not None or not self.base_url:
            self._thread.join(5.0)
            self._thread = None
            raise RuntimeError(f"server failed to start on {self.host}:{self.port}: {self._error!r}")
        return self.base_url

    def stop(self) -> None:
        thread, loop = self._thread, self.loop
        if thread is None or loop is None:
            return
        with contextlib.suppress(RuntimeError):
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop)
        thread.join(10.0)
        self._thread = None
        self.loop = None
        self.base_url = ""

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def connections(self) -> int:
        """Open connections right now."""
        return len(self._conns)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        try:
            try:
                self._server = loop.run_until_complete(
                    asyncio.start_server(self._accept, self.host, self.port, limit=MAX_HEAD)
                )
            except BaseException as exc:  # reported by start()
                self._error = exc
                self._ready.set()
                return
            sock = self._server.sockets[0]
            host, port = sock.getsockname()[:2]
            self.port = port
            shown = f"[{host}]" if ":" in host else host
            self.base_url = f"http://{shown}:{port}"
            self._ready.set()
            loop.run_forever()
        finally:
            # A connection accepted while the server shut down has a task that never registered in
            # _conns: cancel whatever is left and let it end (its ``finally`` closes its socket) before
            # the loop closes, as asyncio.run does; else it dies pending, with a traceback on stderr.
            with contextlib.suppress(Exception):
                left = asyncio.all_tasks(loop)
                for task in left:
                    task.cancel()
                loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        conns = list(self._conns.values())
        for c in conns:
            c.task.cancel()
        for c in conns:
            with contextlib.suppress(BaseException):
                await c.task
        for c in conns:
            c.writer.transport.abort()
        for _ in range(3):  # let connection_lost callbacks close the sockets before the loop stops
            await asyncio.sleep(0)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        self._conns.clear()
        asyncio.get_running_loop().stop()

    # -- connections -----------------------------------------------------------------------------
    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        cid = next(self._ids)
        task = asyncio.current_task()
        assert task is not None
        self._conns[cid] = _Conn(cid, task, writer)
        direct = _dup(sock)
        try:
            await self._serve(cid, reader, writer, direct)
        except (ConnectionError, asyncio.IncompleteReadError, h11.ProtocolError):
            pass
        except asyncio.CancelledError:
            # stop() cancels connection tasks; end quietly (asyncio 3.11 logs a cancelled client task)
            pass
        finally:
            self._conns.pop(cid, None)
            writer.close()
            if direct is not None:
                direct.close()

    async def _serve(
        self,
        cid: int,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        direct: socket.socket | None = None,
    ) -> None:
        conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
        while True:
            request = await self._read_request(cid, conn, reader, writer)
            if request is None:
                return
            responder = Responder(conn, writer, request, direct)
            if is_websocket_upgrade(request.headers):
                responder.upgrade = (reader, writer, conn.trailing_data[0])
                with contextlib.suppress(ConnectionError):
                    await self.handler(request, responder)
                return  # the handler owned the socket: it is done with it
            watcher = asyncio.create_task(self._watch(conn, reader, responder))
            try:
                await self.handler(request, responder)
            except asyncio.CancelledError:
                responder.abort()
                raise
            except Exception:
                if not responder.started and not responder.aborted:
                    body = b"thinkwire.net: handler failed\n"
                    with contextlib.suppress(Exception):
                        await responder.start(
                            500, [("content-type", "text/plain")], framing="length", length=len(body)
                        )
                        await responder.write(body)
                        await responder.end()
                responder.abort()
            finally:
                watcher.cancel()
                with contextlib.suppress(BaseException):
                    await watcher
            if responder.aborted or responder.peer_closed or responder.framing == "close":
                return
            if not responder.ended:
                if not responder.started:
                    await responder.start(500, [], framing="length", length=0)
                await responder.end()
            if conn.our_state is h11.MUST_CLOSE or conn.their_state is h11.MUST_CLOSE:
                return
            try:
                conn.start_next_cycle()
            except h11.LocalProtocolError:
                return

    async def _read_request(
        self, cid: int, conn: h11.Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> Request | None:
        head: h11.Request | None = None
        body = bytearray()
        arrived = 0
        while True:
            try:
                event = conn.next_event()
            except h11.RemoteProtocolError as exc:
                await self._bad_request(conn, writer, exc)
                return None
            if event is h11.NEED_DATA:
                try:
                    async with asyncio.timeout(IDLE_TIMEOUT):
                        data = await reader.read(READ_SIZE)
                except (TimeoutError, ConnectionError):
                    return None
                conn.receive_data(data)
                continue
            if event is h11.PAUSED or isinstance(event, h11.ConnectionClosed):
                return None
            if isinstance(event, h11.Request):
                head, arrived = event, time.monotonic_ns()
            elif isinstance(event, h11.Data):
                body += event.data
                if len(body) > MAX_BODY:
                    return None
            elif isinstance(event, h11.EndOfMessage):
                assert head is not None
                return Request(
                    method=head.method.decode("latin-1"),
                    target=head.target.decode("latin-1"),
                    headers=tuple(
                        (k.decode("latin-1"), v.decode("latin-1")) for k, v in head.headers.raw_items()
                    ),
                    body=bytes(body),
                    conn=cid,
                    arrived=arrived,
                    http_version=head.http_version.decode("latin-1"),
                )

    async def _bad_request(
        self, conn: h11.Connection, writer: asyncio.StreamWriter, exc: Exception
    ) -> None:
        body = f"bad request: {exc}\n".encode()
        with contextlib.suppress(Exception):
            writer.write(
                conn.send(
                    h11.Response(
                        status_code=400,
                        headers=[("content-type", "text/plain"), ("content-length", str(len(body)))],
                    )
                )
                or b""
            )
            writer.write(conn.send(h11.Data(data=body)) or b"")
            writer.write(conn.send(h11.EndOfMessage()) or b"")
            await writer.drain()

    async def _watch(
        self, conn: h11.Connection, reader: asyncio.StreamReader, responder: Responder
    ) -> None:
        """While a response is being written: keep reading, hand pipelined bytes to h11, and notice EOF."""
        try:
            while True:
                data = await reader.read(READ_SIZE)
                if not data:
                    with contextlib.suppress(h11.ProtocolError, RuntimeError):
                        conn.receive_data(b"")
                    responder.mark_peer_gone()
                    return
                conn.receive_data(data)
        except ConnectionError:
            responder.mark_peer_gone()


def put_each(resp: Any, datas: Sequence[bytes], times: list[int]) -> tuple[int, bool]:
    """``resp.put_all`` as one ``resp.put`` per piece (any responder with ``put``, ``peer_closed_at``)."""
    for n, data in enumerate(datas):
        if resp.peer_closed_at is not None:
            return n, False
        times.append(_now())
        if resp.put(data):
            return n + 1, True
    return len(datas), False
