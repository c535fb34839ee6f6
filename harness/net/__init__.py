"""Generic loopback HTTP/1.1 serving (asyncio + h11) where the handler owns every byte and write, with
WebSocket sessions (wsproto) on top, and the lifecycle of a standalone server (``_lifecycle``: URL
line, port file, graceful signals): shared by the mock upstream, the recorder and the replayer. And
the blocking HTTP/1.1 client (``_http_client``, httptools) of the front door and the reference agent.

The names load on first use (PEP 562): a process that only needs the client (the reference agent, one
process per case) does not pay for the server's and WebSocket's imports (asyncio, h11, wsproto). The
client and the reference gateway's upstream client read an answer through one sans-IO reader
(``_http_reader``, llhttp)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness._lazy import lazy_names

if TYPE_CHECKING:
    from harness.net._http_client import WireClient, WireError
    from harness.net._http_reader import FramingError, ResponseReader
    from harness.net._server import Framing, Handler, Request, Responder, Server, put_each
    from harness.net._ws import WsClient, WsClientSide, WsClosed, WsServerSide, is_websocket_upgrade

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
    **dict.fromkeys(("WsClient", "WsClientSide", "WsClosed", "WsServerSide", "is_websocket_upgrade"), "_ws"),
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
__getattr__ = lazy_names(__name__, {**_HOME, **_SHARED})
