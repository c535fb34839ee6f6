"""Generic loopback HTTP/1.1 serving (asyncio + h11) where the handler owns every byte and write, and
the lifecycle of a standalone server (``_lifecycle``: URL line, port file, graceful signals): shared by
the mock upstream, the recorder and the replayer."""

from harness.net._server import Framing, Handler, Request, Responder, Server

__all__ = ["Framing", "Handler", "Request", "Responder", "Server"]
