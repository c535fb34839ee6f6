"""Generic loopback HTTP/1.1 serving (asyncio + h11) where the handler owns every byte and write:
shared by the mock upstream, the recorder and the replayer; WebSocket sessions (wsproto) on top."""

from harness.net._server import Framing, Handler, Request, Responder, Server
from harness.net._ws import WsClient, WsClosed, WsServerSide, is_websocket_upgrade

__all__ = [
    "Framing",
    "Handler",
    "Request",
    "Responder",
    "Server",
    "WsClient",
    "WsClosed",
    "WsServerSide",
    "is_websocket_upgrade",
]
