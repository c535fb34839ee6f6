"""WebSocket (RFC 6455) on top of wsproto, sans-IO at its core: :class:`WsServerSide` turns an upgrade
request the HTTP server already parsed into a session (bytes in -> text messages out, text -> bytes),
and :class:`WsClient` is a small blocking client over one socket (the reference SUTs' and drivers').

Rule: wsproto owns the protocol (handshake, framing, masking, ping/pong, close); these classes only move
bytes and join fragmented text messages. A closed peer is ``None`` from ``recv``; every wait is bounded.
"""

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
    Ping,
    RejectConnection,
    RejectData,
    TextMessage,
)
from wsproto.events import Request as WsRequest

__all__ = ["WsClient", "WsClosed", "WsServerSide", "is_websocket_upgrade"]


class WsClosed(ConnectionError):
    """The WebSocket was closed (by the peer, or never opened: the handshake was refused)."""


def is_websocket_upgrade(headers: Sequence[tuple[str, str]]) -> bool:
    """An HTTP request asking to switch to the WebSocket protocol."""
    return any(k.lower() == "upgrade" and v.strip().lower() == "websocket" for k, v in headers)


class WsServerSide:
    """The server half of one WebSocket, sans-IO: ``accept`` -> the 101 bytes to write; ``receive``
    -> (complete text messages, bytes to write back: pongs, the close answer); ``text`` -> bytes."""

    def __init__(self, headers: Sequence[tuple[str, str]], target: str) -> None:
        self._ws = WSConnection(ConnectionType.SERVER)
        self._ws.initiate_upgrade_connection([(k.encode(), v.encode()) for k, v in headers], target)
        self._parts: list[str] = []
        self.closed = False

    def accept(self) -> bytes:
        for _ in self._ws.events():  # the upgrade request itself
            pass
        return self._ws.send(AcceptConnection())

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
        if not data:
            self.closed = True
        return messages, out

    def text(self, message: str) -> bytes:
        return self._ws.send(TextMessage(data=message))


class WsClient:
    """A blocking WebSocket client: ``WsClient(url, headers)`` connects and completes the handshake
    (a refused one raises WsClosed with the status); ``send``; ``recv(timeout)`` -> a text message or
    None once closed; ``close``. ``http://`` URLs are taken as ``ws://``."""

    def __init__(self, url: str, headers: Sequence[tuple[str, str]] = (), timeout: float = 10.0) -> None:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._sock = socket.create_connection((host, port), timeout=timeout)
        self._ws = WSConnection(ConnectionType.CLIENT)
        self._parts: list[str] = []
        self._pending: list[str] = []
        self.closed = False
        extra = [(k.encode(), v.encode()) for k, v in headers]
        handshake = WsRequest(host=f"{host}:{port}", target=target, extra_headers=extra)
        self._sock.sendall(self._ws.send(handshake))
        while True:
            data = self._sock.recv(65536)
            self._ws.receive_data(data or None)
            for ev in self._ws.events():
                if isinstance(ev, AcceptConnection):
                    return
                if isinstance(ev, RejectConnection | RejectData):
                    self.close()
                    raise WsClosed(f"WebSocket handshake refused: HTTP {getattr(ev, 'status_code', '?')}")
            if not data:
                self.close()
                raise WsClosed("connection closed during the WebSocket handshake")

    def send(self, message: str) -> None:
        if self.closed:
            raise WsClosed("the WebSocket is closed")
        self._sock.sendall(self._ws.send(TextMessage(data=message)))

    def recv(self, timeout: float = 30.0) -> str | None:
        """The next text message; None once the peer closed (or the socket broke)."""
        self._sock.settimeout(timeout)
        while not self._pending:
            if self.closed:
                return None
            try:
                data = self._sock.recv(65536)
            except OSError:
                self.closed = True
                return None
            self._ws.receive_data(data or None)
            for ev in self._ws.events():
                if isinstance(ev, TextMessage):
                    self._parts.append(ev.data)
                    if ev.message_finished:
                        self._pending.append("".join(self._parts))
                        self._parts = []
                elif isinstance(ev, Ping):
                    self._sock.sendall(self._ws.send(ev.response()))
                elif isinstance(ev, CloseConnection):
                    with contextlib.suppress(Exception):
                        self._sock.sendall(self._ws.send(ev.response()))
                    self.closed = True
            if not data:
                self.closed = True
        return self._pending.pop(0)

    def close(self) -> None:
        """Close (a close frame when the socket still works), then the socket; idempotent."""
        if not self.closed and self._ws.state is ConnectionState.OPEN:
            with contextlib.suppress(Exception):
                self._sock.sendall(self._ws.send(CloseConnection(code=1000)))
        self.closed = True
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
