"""Generic loopback HTTP/1.1 serving (asyncio + h11) where the handler owns every byte and write, with
WebSocket sessions (wsproto) on top, and the lifecycle of a standalone server (``_lifecycle``: URL
line, port file, graceful signals): shared by the mock upstream, the recorder and the replayer."""

from harness.net._server import Framing, Handler, Request, Responder, Server, put_each
from harness.net._ws import WsClient, WsClientSide, WsClosed, WsServerSide, is_websocket_upgrade

__all__ = [
    "Framing",
    "Handler",
    "Request",
    "Responder",
    "Server",
    "WsClient",
    "WsClientSide",
    "WsClosed",
    "WsServerSide",
    "is_websocket_upgrade",
    "put_each",
]
