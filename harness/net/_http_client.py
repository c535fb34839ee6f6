"""The front door's blocking HTTP/1.1 client: one request per exchange, the answer's body handed over
piece by piece, the connection kept for the next request when that is safe. It talks to the SUT
directly and hands bytes over as they came, so what thinkwire observes is the SUT's own stream."""

from __future__ import annotations

import contextlib
import select
import socket
import ssl
import threading
from collections.abc import Iterator, Mapping
from urllib.parse import urlsplit

from harness.net._http_reader import FramingError, ResponseReader

__all__ = ["Exchange", "WireClient", "WireError", "shutdown"]

READ_SIZE = 64 * 1024  # what one recv may take (httpcore's figure): the byte cap is checked per read
MAX_IDLE = 16  # kept connections per client; more lanes than this just open new ones
USER_AGENT = "thinkwire"


class WireError(Exception):
    """The server's answer broke HTTP/1.1, or the connection ended inside it."""


Origin = tuple[str, str, int]  # scheme, host, port


class WireClient:
    """Connections to HTTP/1.1 servers, kept per origin between requests; ``close`` ends them all.

    Lanes share one client and each exchange holds its own connection, so it is thread-safe. Proxy
    variables such as ``HTTP_PROXY`` are not read: thinkwire talks to the SUT directly, so that what it
    observes is the SUT's stream.
    """

    def __init__(self, *, tls: ssl.SSLContext | None = None) -> None:
        self._tls = tls  # https: made on first use (loading the CA store takes milliseconds)
        self._lock = threading.Lock()
        self._idle: dict[Origin, list[socket.socket]] = {}
        self._busy: set[socket.socket] = set()
        self._closed = False
        self._where: dict[str, tuple[Origin, str, str]] = {}  # per URL: its origin, target, Host

    def exchange(self, url: str, connect_timeout: float) -> Exchange:
        """An exchange with ``url``'s server on a kept connection that is still open, else a new one
        (connecting waits at most ``connect_timeout`` seconds: ``TimeoutError``)."""
        where = self._where.get(url)
        if where is None:
            where = self._where[url] = _where(url)
        origin, target, netloc = where
        sock = self._kept(origin) or self._connect(origin, connect_timeout)
        return Exchange(self, origin, sock, target, netloc)

    def _kept(self, origin: Origin) -> socket.socket | None:
        while True:
            with self._lock:
                idle = self._idle.get(origin)
                if not idle:
                    return None
                sock = idle.pop()
                self._busy.add(sock)
            if _still_idle(sock):
                return sock
            self._forget(sock)

    def _connect(self, origin: Origin, timeout: float) -> socket.socket:
        if self._closed:  # a harness error (as httpx's), not the SUT's transport failing
            raise RuntimeError("the front door's HTTP client was closed")
        scheme, host, port = origin
        sock = socket.create_connection((host, port), timeout=timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # the request is one write
            if scheme == "https":
                if self._tls is None:
                    self._tls = ssl.create_default_context()
                sock = self._tls.wrap_socket(sock, server_hostname=host)  # handshake: within timeout
            sock.settimeout(None)  # reads block: the caller's deadline shuts the socket down
        except BaseException:
            sock.close()
            raise
        with self._lock:
            if not self._closed:
                self._busy.add(sock)
                return sock
        sock.close()
        raise RuntimeError("the front door's HTTP client was closed")

    def _done(self, origin: Origin, sock: socket.socket, reuse: bool) -> None:
        with self._lock:
            self._busy.discard(sock)
            idle = self._idle.setdefault(origin, [])
            if reuse and not self._closed and len(idle) < MAX_IDLE:
                idle.append(sock)
                return
        sock.close()

    def _forget(self, sock: socket.socket) -> None:
        with self._lock:
            self._busy.discard(sock)
        sock.close()

    def close(self) -> None:
        """Close the kept connections; shut down those in use (their reads return at once, their
        exchanges close them)."""
        with self._lock:
            self._closed = True
            idle = [s for socks in self._idle.values() for s in socks]
            self._idle.clear()
            busy = list(self._busy)
        for sock in idle:
            sock.close()
        for sock in busy:
            shutdown(sock)


class Exchange:
    """One request and its answer on one connection: ``send``, then ``status``/``headers``, then
    ``body()``; ``release`` (always) keeps the connection or closes it.

    A request is written in one ``sendall`` and never sent twice. The answer is read by ``_http_reader``,
    llhttp in C, and its body comes out as llhttp hands it over: one piece per HTTP chunk, or part of one,
    of each socket read. That is what httpx gave before, so a cancel gate stops at the same place.

    The connection goes back to its client's idle list only after a whole answer the server did not mark
    ``Connection: close``. After an early leave, an error or a deadline it is closed.
    """

    def __init__(
        self, client: WireClient, origin: Origin, sock: socket.socket, target: str, netloc: str
    ) -> None:
        self.sock = sock
        self.status = 0
        self.headers: dict[str, str] = {}  # lower-case names, repeated ones joined by ", "
        self._client, self._origin, self._target, self._netloc = client, origin, target, netloc
        self._reader = ResponseReader(bare_lf=True)  # as h11 reads
        self._drained = self._released = False

    def send(self, method: str, body: bytes, headers: Mapping[str, str]) -> None:
        """Write the request in one ``sendall``, then read until the answer's head is in. The
        given headers win over the defaults, but for ``Host`` and ``Content-Length``."""
        fields = {
            "host": ("Host", self._netloc),
            "user-agent": ("User-Agent", USER_AGENT),
            "accept": ("Accept", "*/*"),
            "accept-encoding": ("Accept-Encoding", "identity"),  # the stream as the SUT wrote it
            "content-type": ("Content-Type", "application/json"),
        }
        fixed = ("host", "content-length")
        fields.update((k.lower(), (k, v)) for k, v in headers.items() if k.lower() not in fixed)
        fields["content-length"] = ("Content-Length", str(len(body)))
        lines = [f"{method} {self._target} HTTP/1.1", *(f"{k}: {v}" for k, v in fields.values())]
        if any("\r" in line or "\n" in line for line in lines):
            raise WireError("a request line or header carries a line break")
        self.sock.sendall("\r\n".join(lines).encode() + b"\r\n\r\n" + body)
        reader = self._reader
        while not reader.head:
            if not self._read():
                raise WireError("the server closed the connection without answering")
        self.status, self.headers = reader.status, _joined(reader.headers)

    def body(self) -> Iterator[bytes]:
        """The answer's body as it arrives; ends at its end (a length, the last chunk, or the server
        closing a body that runs until then); a body cut short raises WireError."""
        reader = self._reader
        while True:
            pieces = reader.pieces
            if pieces:
                reader.pieces = []
                yield from pieces
            if reader.done:
                self._drained = True
                return
            if not self._read() and not reader.eof():
                raise WireError("the server closed the connection inside the answer's body")

    def _read(self) -> bool:
        """One socket read fed to the reader; False at the end of the stream."""
        data = self.sock.recv(READ_SIZE)
        if not data:
            return False
        try:
            self._reader.feed(data)
        except FramingError as exc:
            if not self._reader.done:  # after the answer's end: only the connection is spoilt
                raise WireError(f"unreadable HTTP answer: {exc}") from None
        return True

    def release(self, *, reuse: bool = True) -> None:
        """Keep the connection for the next exchange if ``body()`` ran to the answer's end and the
        server keeps it alive (and ``reuse``), else close it (an early leave closes it). Idempotent."""
        if self._released:
            return
        self._released = True
        keep = reuse and self._drained and self._reader.keep_alive()
        self._client._done(self._origin, self.sock, keep)


def _where(url: str) -> tuple[Origin, str, str]:
    """A URL's origin (scheme, host, port), request target and ``Host`` header value."""
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), parts.hostname or ""
    if scheme not in ("http", "https") or not host:
        raise WireError(f"not an http(s) URL: {url!r}")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    netloc = f"[{host}]" if ":" in host else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return (scheme, host, parts.port or (443 if scheme == "https" else 80)), target, netloc


def _joined(raw: list[tuple[bytes, bytes]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in raw:
        key, text = name.decode("latin-1").lower(), value.decode("latin-1")
        out[key] = f"{out[key]}, {text}" if key in out else text
    return out


def _still_idle(sock: socket.socket) -> bool:
    """A kept connection is usable while nothing is readable on it: a server that closed it (or
    wrote to it) while it sat idle makes it readable.

    This check is the only time a new connection stands in for another, and it happens before anything was
    written.
    """
    if isinstance(sock, ssl.SSLSocket) and sock.pending():
        return False
    try:
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        return not poller.poll(0)
    except (OSError, ValueError):
        return False


def shutdown(sock: socket.socket) -> None:
    """End both directions of ``sock`` now: a read or write blocked on it in another thread returns."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
