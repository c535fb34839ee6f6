"""Loopback networking shared by the mock upstream, the recorder, the replayer and the front door: an HTTP/1.1
server whose handler owns every byte, WebSocket sessions, a standalone server's lifecycle and a blocking
HTTP/1.1 client. The packages that serve or send sit above it and share its server, its response reader
and its client."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness._lazy import lazy_names

if TYPE_CHECKING:
    from harness.net._http_client import WireClient, WireError
    from harness.net._http_reader import FramingError, ResponseReader
    from harness.net._server import Framing, Handler, Request, Responder, Server, put_each
    from harness.net._upgrade import is_websocket_upgrade
    from harness.net._ws import WsClient, WsClientSide, WsClosed, WsServerSide

__all__ = [
    "Framing",
    "FramingError",
    "Handler",
    "Request",
    "Responder",
    "ResponseReader",
    "Server",
    "WireClient",
    "WireError",
    "WsClient",
    "WsClientSide",
    "WsClosed",
    "WsServerSide",
    "is_websocket_upgrade",
    "put_each",
]

_HOME = {
    **dict.fromkeys(("WireClient", "WireError"), "_http_client"),
    **dict.fromkeys(("FramingError", "ResponseReader"), "_http_reader"),
    **dict.fromkeys(("Framing", "Handler", "Request", "Responder", "Server", "put_each"), "_server"),
    "is_websocket_upgrade": "_upgrade",
    **dict.fromkeys(("WsClient", "WsClientSide", "WsClosed", "WsServerSide"), "_ws"),
}

# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.net._http_client import Exchange, shutdown
    from harness.net._lifecycle import (
        DEFAULT_GRACE,
        Waker,
        check_port,
        drain,
        listen_error,
        remove_port_file,
        say,
        write_port_file,
    )

_SHARED = {
    "DEFAULT_GRACE": "_lifecycle",
    "Exchange": "_http_client",
    "Waker": "_lifecycle",
    "check_port": "_lifecycle",
    "drain": "_lifecycle",
    "listen_error": "_lifecycle",
    "remove_port_file": "_lifecycle",
    "say": "_lifecycle",
    "shutdown": "_http_client",
    "write_port_file": "_lifecycle",
}
__all__ += [
    "DEFAULT_GRACE",
    "Exchange",
    "Waker",
    "check_port",
    "drain",
    "listen_error",
    "remove_port_file",
    "say",
    "shutdown",
    "write_port_file",
]
# The names load on first use, by PEP 562: a process that only needs the client, such as the reference
# agent with one process per case, does not pay for asyncio, h11 and wsproto. The client and the reference
# gateway's upstream client read answers through one sans-IO reader, ``_http_reader``.
__getattr__ = lazy_names(__name__, {**_HOME, **_SHARED})
