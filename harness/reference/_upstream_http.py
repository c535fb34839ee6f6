"""The reference gateway's upstream client: HTTP/1.1 over asyncio streams and h11, keep-alive.

Rule: a response body is handed on piece by piece as it arrives (``aiter_raw``: what each read got,
or each HTTP chunk, transfer coding removed), never buffered; leaving ``stream()`` before the body
ended closes the connection (the upstream sees the client go), a body read to its end returns the
connection to the pool; a pooled connection the upstream closed meanwhile is not used again. Failures are
:class:`UpstreamUnreachable` (no response at all) or :class:`UpstreamBroken` (the body broke off);
like httpx, a request is never sent twice (the mock upstream counts every request). Measured (py-spy):
the gateway spent more than half its time in httpx's layers (httpcore, anyio) around the same h11.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import h11

from harness._json import dumps_compact

__all__ = ["UpstreamBroken", "UpstreamError", "UpstreamHTTP", "UpstreamResponse", "UpstreamUnreachable"]

READ_SIZE = 65536


class UpstreamError(Exception):
    """The upstream could not be used."""


class UpstreamUnreachable(UpstreamError):
    """No response: the connection could not be made, or broke before the response head."""


class UpstreamBroken(UpstreamError):
    """The response body broke off (the connection closed or the framing was invalid)."""


@dataclass(slots=True)
class _Conn:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    h11: h11.Connection = field(default_factory=lambda: h11.Connection(h11.CLIENT))

    def usable(self) -> bool:
        return not self.writer.transport.is_closing() and not self.reader.at_eof()

    def close(self) -> None:
        self.writer.transport.abort()


class UpstreamResponse:
    """A response whose head arrived; its body is read with :meth:`aiter_raw` or :meth:`aread`."""

    def __init__(self, conn: _Conn, head: h11.Response, timeout: float) -> None:
        self.status_code = head.status_code
        self.headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in head.headers]
        self._conn = conn
        self._timeout = timeout
        self.complete = False

    async def aiter_raw(self, *, per_chunk: bool = False) -> AsyncIterator[bytes]:
        """The body, one piece per socket read: every chunk that read completed, joined (a stream
        sent a byte per chunk costs one hand-on per read, not one per byte). ``per_chunk``: one piece
        per HTTP chunk instead, as httpx's ``iter_raw`` hands them on (for a reader whose bug shows at
        the chunk boundaries the upstream made, whatever the socket coalesced)."""
        conn = self._conn
        pieces: list[bytes] = []
        while not self.complete:
            try:
                event = self._next()
            except UpstreamBroken:  # what came before the break is handed on first
                if pieces:
                    yield b"".join(pieces)
                raise
            if event is h11.NEED_DATA:
                if pieces:
                    yield b"".join(pieces)
                    pieces.clear()
                try:
                    async with asyncio.timeout(self._timeout):
                        data = await conn.reader.read(READ_SIZE)
                except (OSError, TimeoutError) as exc:
                    raise UpstreamBroken(f"reading the upstream body: {exc!r}") from None
                conn.h11.receive_data(data)
            elif isinstance(event, h11.Data):
                pieces.append(event.data)
                if per_chunk:
                    yield b"".join(pieces)
                    pieces.clear()
            elif isinstance(event, h11.EndOfMessage):
                self.complete = True
        if pieces:
            yield b"".join(pieces)

    async def aread(self) -> bytes:
        return b"".join([piece async for piece in self.aiter_raw()])

    def _next(self) -> Any:
        try:
            return self._conn.h11.next_event()
        except h11.RemoteProtocolError as exc:
            raise UpstreamBroken(f"the upstream body broke off: {exc}") from None


class UpstreamHTTP:
    """``UpstreamHTTP(base_url)``; ``async with client.stream(method, path, json=, headers=) as r``;
    ``await client.aclose()``. Used on one event loop."""

    def __init__(self, base_url: str, *, connect: float = 5.0, read: float = 300.0) -> None:
        self.base_url = base_url
        parts = urlsplit(base_url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"the reference gateway's upstream must be an http:// URL, not {base_url!r}")
        self.host, self.port = parts.hostname, parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.authority = parts.netloc
        self.connect_timeout, self.read_timeout = connect, read
        self._idle: list[_Conn] = []

    async def aclose(self) -> None:
        for conn in self._idle:
            conn.close()
        self._idle.clear()

    @contextlib.asynccontextmanager
    async def stream(
        self, method: str, path: str, *, json: Any = None, headers: Mapping[str, str] | None = None
    ) -> AsyncIterator[UpstreamResponse]:
        body = dumps_compact(json).encode() if json is not None else b""
        hdrs = [("host", self.authority), ("content-length", str(len(body)))]
        if json is not None:
            hdrs.append(("content-type", "application/json"))
        hdrs += [(k, v) for k, v in (headers or {}).items() if k.lower() not in ("host", "content-length")]
        request = h11.Request(method=method, target=self.prefix + path, headers=hdrs)
        resp = await self._send(request, body)
        try:
            yield resp
        finally:
            conn = resp._conn
            if resp.complete and conn.h11.our_state is h11.DONE and conn.h11.their_state is h11.DONE:
                try:
                    conn.h11.start_next_cycle()
                    self._idle.append(conn)
                except h11.LocalProtocolError:
                    conn.close()
            else:  # left before the body ended: the upstream sees the connection close
                conn.close()

    async def _send(self, request: h11.Request, body: bytes) -> UpstreamResponse:
        while self._idle:
            conn = self._idle.pop()
            if conn.usable():
                return await self._exchange(conn, request, body)
            conn.close()  # closed by the upstream while it was idle
        return await self._exchange(await self._open(), request, body)

    async def _open(self) -> _Conn:
        try:
            async with asyncio.timeout(self.connect_timeout):
                reader, writer = await asyncio.open_connection(self.host, self.port, limit=READ_SIZE)
        except (OSError, TimeoutError) as exc:
            raise UpstreamUnreachable(f"cannot connect to {self.host}:{self.port}: {exc!r}") from None
        return _Conn(reader, writer)

    async def _exchange(self, conn: _Conn, request: h11.Request, body: bytes) -> UpstreamResponse:
        try:
            out = conn.h11.send(request) or b""
            if body:
                out += conn.h11.send(h11.Data(data=body)) or b""
            out += conn.h11.send(h11.EndOfMessage()) or b""
            conn.writer.write(out)
            await conn.writer.drain()
            while True:
                event = conn.h11.next_event()
                if event is h11.NEED_DATA:
                    async with asyncio.timeout(self.read_timeout):
                        data = await conn.reader.read(READ_SIZE)
                    conn.h11.receive_data(data)
                    continue
                if isinstance(event, h11.Response):
                    return UpstreamResponse(conn, event, self.read_timeout)
                if isinstance(event, h11.InformationalResponse):
                    continue
                if isinstance(event, h11.ConnectionClosed):
                    raise UpstreamUnreachable("the upstream closed the connection before answering")
        except (OSError, TimeoutError, h11.ProtocolError) as exc:
            conn.close()
            raise UpstreamUnreachable(f"no answer from the upstream: {exc!r}") from None
