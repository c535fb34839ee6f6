"""Raw-socket peers shared by the net tests."""

from __future__ import annotations

import socket


def leave_after_first_bytes(port: int) -> None:
    """Send a GET, wait for the first response bytes, then close the connection (a client that left)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536)
