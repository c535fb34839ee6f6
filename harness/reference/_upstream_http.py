"""The reference gateway's upstream client: HTTP/1.1 over asyncio streams with keep-alive, responses read by
harness.net's ResponseReader and requests written by hand. A response body is handed on piece by piece as
it arrives, never buffered."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from harness._json import dumps_compact
from harness.net import FramingError, ResponseReader

__all__ = ["UpstreamBroken", "UpstreamError", "UpstreamHTTP", "UpstreamResponse", "UpstreamUnreachable"]

READ_SIZE = 65536


class UpstreamError(Exception):
    """The upstream could not be used."""


class UpstreamUnreachable(UpstreamError):
    """No response: the connection could not be made, or broke before the response head."""


class UpstreamBroken(UpstreamError):
    """The response body broke off (the connection closed or the framing was invalid)."""


def _feed(reader: ResponseReader, data: bytes) -> None:
    """One read into ``reader`` (``b""``: the upstream closed); what breaks the response raises
    :class:`_Invalid`, whenever it came."""
    if not data:  # EOF: the end of a body read until close, else a break
        if not reader.eof():
            raise _Invalid("the upstream closed the connection before the response ended")
        return
    try:
        reader.feed(data)
    except FramingError as exc:
        if exc.upgrade:
            raise _Invalid("the upstream switched protocols") from None
        raise _Invalid(f"invalid HTTP from the upstream: {exc}") from None


class _Invalid(Exception):
    """What :func:`_feed` raises: the caller makes it Unreachable (before the head) or Broken."""


class _Conn:
    __slots__ = ("reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    def usable(self) -> bool:
        return not self.writer.transport.is_closing() and not self.reader.at_eof()

    def close(self) -> None:
        self.writer.transport.abort()


class UpstreamResponse:
    """A response whose head arrived; its body is read with :meth:`aiter_raw` or :meth:`aread`.

    ``aiter_raw`` yields what each read got, or each HTTP chunk, with the transfer coding removed.
    """

    def __init__(
        self, conn: _Conn, reader: ResponseReader, timeout: float, broken: Exception | None = None
    ) -> None:
        self.status_code = reader.status
        self.headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in reader.headers]
        self._conn = conn
        self._reader = reader
        self._timeout = timeout
        self._broken = broken
        self.complete = reader.done and not reader.pieces and broken is None

    async def aiter_raw(self, *, per_chunk: bool = False) -> AsyncIterator[bytes]:
        """The body, one piece per socket read: every chunk that read completed, joined (a stream
        sent a byte per chunk costs one hand-on per read, not one per byte). ``per_chunk``: one piece
        per HTTP chunk instead (a chunk split across reads: one per part), as httpx's ``iter_raw``
        hands them on (for a reader whose bug shows at the chunk boundaries the upstream made,
        whatever the socket coalesced). Bytes that came before a break are handed on before it."""
        reader, pieces = self._reader, self._reader.pieces
        read = self._conn.reader.read
        broken = self._broken
        while True:
            if pieces:  # what came before a break too
                if per_chunk:
                    for piece in pieces:
                        yield piece
                else:
                    yield pieces[0] if len(pieces) == 1 else b"".join(pieces)
                pieces.clear()
            if broken is not None:
                raise UpstreamBroken(f"the upstream body broke off: {broken!r}")
            if reader.done:
                break
            try:
                async with asyncio.timeout(self._timeout):
                    data = await read(READ_SIZE)
                _feed(reader, data)
            except (OSError, TimeoutError, _Invalid) as exc:
                broken = exc
        self.complete = True

    async def aread(self) -> bytes:
        return b"".join([piece async for piece in self.aiter_raw()])


class UpstreamHTTP:
    """``UpstreamHTTP(base_url)``; ``async with client.stream(method, path, json=, headers=) as r``;
    ``await client.aclose()``. Used on one event loop.

    Leaving ``stream()`` before the body ended closes the connection, so the upstream sees the client go; a
    body read to its end returns the connection to the pool, and a pooled connection the upstream closed
    meanwhile is not used again. Failures are :class:`UpstreamUnreachable`, no response at all, or
    :class:`UpstreamBroken`, a body that broke off or had invalid framing. Like httpx, it never sends a
    request twice, because the mock upstream counts every request.

    Why llhttp, the C parser uvicorn uses, measured with py-spy: with httpx the gateway spent more than
    half its time in httpx's layers, httpcore and anyio, around h11. With h11 alone most of it went to
    h11's chunk reader, 20-30 µs per HTTP chunk, and a stream chunked byte-wise sends one chunk per byte.
    llhttp reads a chunk in well under 1 µs.
    """

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
        try:
            head = _request_head(method, self.prefix + path, hdrs)
        except ValueError as exc:  # nothing was sent
            raise UpstreamUnreachable(f"cannot send the request: {exc}") from None
        resp = await self._send(head + body)
        try:
            yield resp
        finally:
            if resp.complete and resp._reader.keep_alive():
                self._idle.append(resp._conn)
            else:  # left before the body ended (the upstream sees the connection close), or not reusable
                resp._conn.close()

    async def _send(self, request: bytes) -> UpstreamResponse:
        while self._idle:
            conn = self._idle.pop()
            if conn.usable():
                return await self._exchange(conn, request)
            conn.close()  # closed by the upstream while it was idle
        return await self._exchange(await self._open(), request)

    async def _open(self) -> _Conn:
        try:
            async with asyncio.timeout(self.connect_timeout):
                reader, writer = await asyncio.open_connection(self.host, self.port, limit=READ_SIZE)
        except (OSError, TimeoutError) as exc:
            raise UpstreamUnreachable(f"cannot connect to {self.host}:{self.port}: {exc!r}") from None
        return _Conn(reader, writer)

    async def _exchange(self, conn: _Conn, request: bytes) -> UpstreamResponse:
        """Send the request once, read to the end of the response head (1xx heads skipped)."""
        reader = ResponseReader()
        try:
            conn.writer.write(request)
            await conn.writer.drain()
            async with asyncio.timeout(self.read_timeout):
                while not reader.head:
                    _feed(reader, await conn.reader.read(READ_SIZE))
        except _Invalid as exc:
            if reader.head:  # the read that ended the head broke the body: broken once that is read
                return UpstreamResponse(conn, reader, self.read_timeout, broken=exc)
            conn.close()
            raise UpstreamUnreachable(f"no answer from the upstream: {exc!r}") from None
        except (OSError, TimeoutError) as exc:
            conn.close()
            raise UpstreamUnreachable(f"no answer from the upstream: {exc!r}") from None
        return UpstreamResponse(conn, reader, self.read_timeout)


_TOKEN = re.compile(r"[-!#$%&'*+.^_`|~0-9A-Za-z]+")
_BAD_VALUE = re.compile(r"[\x00\r\n]")
_BAD_TARGET = re.compile(r"[\x00-\x20\x7f]")


def _request_head(method: str, target: str, headers: list[tuple[str, str]]) -> bytes:
    """An HTTP/1.1 request line and headers. What would break the framing (a name that is not a token,
    a CR, LF or NUL in a value, a space or control character in the target) is a ValueError, as h11
    refuses it."""
    if not _TOKEN.fullmatch(method) or not target or _BAD_TARGET.search(target):
        raise ValueError(f"invalid request line for the upstream: {method} {target!r}")
    lines = [f"{method} {target} HTTP/1.1"]
    for name, value in headers:
        if not _TOKEN.fullmatch(name) or _BAD_VALUE.search(value):
            raise ValueError(f"invalid header for the upstream: {name!r}: {value!r}")
        lines.append(f"{name}: {value}")
    lines += ("", "")
    return "\r\n".join(lines).encode("latin-1")
