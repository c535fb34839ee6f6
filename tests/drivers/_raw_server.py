"""A loopback HTTP/1.1 server for the driver tests, raw: each connection goes to a function of the
test's that reads requests (``read_request``) and writes whatever bytes it likes (the ``serve``
fixture in conftest.py starts such servers and stops them, and their threads, after the test)."""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
from collections.abc import Callable


def read_request(conn: socket.socket) -> bytes | None:
    """One request off the connection (head and Content-Length body); None at its end."""
    data = b""
    while b"\r\n\r\n" not in data:
        got = conn.recv(65536)
        if not got:
            return None
        data += got
    head, _, body = data.partition(b"\r\n\r\n")
    fields = dict(line.lower().split(b": ", 1) for line in head.split(b"\r\n")[1:])
    length = int(fields.get(b"content-length", b"0"))
    while len(body) < length:
        body += conn.recv(65536)
    return head


class RawServer:
    """A loopback server running ``serve(conn, index)`` per connection on its own thread."""

    def __init__(
        self, serve: Callable[[socket.socket, int], None], tls: ssl.SSLContext | None = None
    ) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.serve, self.tls = serve, tls
        self.accepted = 0
        self.threads: list[threading.Thread] = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            t = threading.Thread(target=self._one, args=(conn, self.accepted - 1), daemon=True)
            self.threads.append(t)
            t.start()

    def _one(self, conn: socket.socket, index: int) -> None:
        try:
            with contextlib.suppress(OSError):  # a refused handshake, a client gone
                if self.tls is not None:
                    conn = self.tls.wrap_socket(conn, server_side=True)
                self.serve(conn, index)
        finally:
            conn.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept (closing would not)
        self.listener.close()
        for t in self.threads:
            t.join(timeout=10)
            assert not t.is_alive()
