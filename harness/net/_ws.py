"""WebSocket, RFC 6455, on top of wsproto: a sans-IO session with a server half and a client half, and a small
blocking client over one socket. It is separate from the HTTP server because a WebSocket outlives the
request that opened it, and the reference SUTs and drivers need the client side too."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Sequence
from urllib.parse import urlsplit

from wsproto import ConnectionType, WSConnection
from wsproto.connection import ConnectionState
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Event,
    Ping,
    RejectConnection,
    TextMessage,
)
from wsproto.events import Request as WsRequest

from harness.net._http_client import shutdown
from harness.net._upgrade import is_websocket_upgrade

__all__ = ["WsClient", "WsClientSide", "WsClosed", "WsServerSide", "is_websocket_upgrade"]


class WsClosed(ConnectionError):
    """The WebSocket was closed (by the peer, or never opened: the handshake was refused)."""


def _split_url(url: str) -> tuple[str, int, str]:
    """``http://`` or ``ws://`` URL -> (host, port, request target)."""
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.hostname or "127.0.0.1", parts.port or 80, target


class _Session:
    """What both halves do once the socket is open: wsproto events -> complete text messages, and the
    bytes to write back (pongs, the answer to the peer's close).

    wsproto owns the protocol: handshake, framing, masking, ping and pong, close. These classes only move
    bytes and join fragmented text messages.
    """

    def __init__(self, ws: WSConnection) -> None:
        self._ws = ws
        self._parts: list[str] = []
        self.closed = False

    def receive(self, data: bytes) -> tuple[list[str], bytes]:
        """Feed what the socket read (``b""`` at EOF); the complete text messages and the reply bytes."""
        self._ws.receive_data(data or None)
        messages: list[str] = []
        out = b""
        for ev in self._ws.events():
            if isinstance(ev, TextMessage):
                self._parts.append(ev.data)
                if ev.message_finished:
                    messages.append("".join(self._parts))
                    self._parts = []
            elif isinstance(ev, Ping):
                out += self._ws.send(ev.response())
            elif isinstance(ev, CloseConnection):
                self.closed = True
                if self._ws.state is ConnectionState.REMOTE_CLOSING:
                    out += self._ws.send(ev.response())
            else:
                self._other(ev)
        if not data:
            self.closed = True
        return messages, out

    def _other(self, ev: Event) -> None:
        pass

    def text(self, message: str) -> bytes:
        return self._ws.send(TextMessage(data=message))

    def close(self) -> bytes:
        """The close frame to send (``b""`` when the socket is no longer open); the session is closed."""
        out = self._ws.send(CloseConnection(code=1000)) if self._ws.state is ConnectionState.OPEN else b""
        self.closed = True
        return out


class WsServerSide(_Session):
    """The server half of one WebSocket, sans-IO: ``accept`` -> the 101 bytes to write; ``receive``
    -> (complete text messages, bytes to write back: pongs, the close answer); ``text`` -> bytes."""

    def __init__(self, headers: Sequence[tuple[str, str]], target: str) -> None:
        super().__init__(WSConnection(ConnectionType.SERVER))
        self._ws.initiate_upgrade_connection([(k.encode(), v.encode()) for k, v in headers], target)

    def accept(self) -> bytes:
        for _ in self._ws.events():  # the upgrade request itself
            pass
        return self._ws.send(AcceptConnection())


class WsClientSide(_Session):
    """The client half, sans-IO: ``handshake()`` -> the upgrade request's bytes; ``receive`` as the
    server's, ``accepted`` once the server switched protocols (a refusal raises :class:`WsClosed` with
    its status; EOF before the answer too)."""

    def __init__(self, url: str, headers: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(WSConnection(ConnectionType.CLIENT))
        self.host, self.port, self.target = _split_url(url)
        self._extra = [(k.encode(), v.encode()) for k, v in headers]
        self.accepted = False

    def handshake(self) -> bytes:
        request = WsRequest(host=f"{self.host}:{self.port}", target=self.target, extra_headers=self._extra)
        return self._ws.send(request)

    def receive(self, data: bytes) -> tuple[list[str], bytes]:
        messages, out = super().receive(data)
        if not self.accepted and not data:
            raise WsClosed("connection closed during the WebSocket handshake")
        return messages, out

    def _other(self, ev: Event) -> None:
        if isinstance(ev, AcceptConnection):
            self.accepted = True
        elif isinstance(ev, RejectConnection):
            self.closed = True
            raise WsClosed(f"WebSocket handshake refused: HTTP {ev.status_code}")


class WsClient:
    """A blocking WebSocket client: ``WsClient(url, headers)`` connects and completes the handshake
    (a refused one raises WsClosed with the status); ``send``; ``recv(timeout)`` -> a text message or
    None once closed; ``close``. ``http://`` URLs are taken as ``ws://``.

    It runs on the same sans-IO core as the reference gateway's asyncio client. A closed peer is ``None``
    from ``recv``, and every wait is bounded.
    """

    def __init__(self, url: str, headers: Sequence[tuple[str, str]] = (), timeout: float = 10.0) -> None:
        self._side = WsClientSide(url, headers)
        self._sock = socket.create_connection((self._side.host, self._side.port), timeout=timeout)
        self._pending: list[str] = []
        self.closed = False
        try:
            self._sock.sendall(self._side.handshake())
            while not self._side.accepted:
                self._take(self._sock.recv(65536))
        except BaseException:
            self.close()
            raise

    def _take(self, data: bytes) -> None:
        messages, out = self._side.receive(data)
        self._pending += messages
        if out:
            with contextlib.suppress(OSError):
                self._sock.sendall(out)
        self.closed = self._side.closed

    def send(self, message: str) -> None:
        if self.closed:
            raise WsClosed("the WebSocket is closed")
        self._sock.sendall(self._side.text(message))

    def recv(self, timeout: float = 30.0) -> str | None:
        """The next text message; None once the peer closed (or the socket broke)."""
        self._sock.settimeout(timeout)
        while not self._pending:
            if self.closed:
                return None
            try:
                self._take(self._sock.recv(65536))
            except OSError:
                self.closed = True
                return None
        return self._pending.pop(0)

    def shutdown(self) -> None:
        """From another thread: end a ``recv`` blocked in this one (the socket shut down; the peer
        sees the connection close)."""
        shutdown(self._sock)

    def close(self) -> None:
        """Close (a close frame when the socket still works), then the socket; idempotent."""
        if not self.closed:
            with contextlib.suppress(Exception):
                self._sock.sendall(self._side.close())
        self.closed = True
        shutdown(self._sock)
        self._sock.close()
