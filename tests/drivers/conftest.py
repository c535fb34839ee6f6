"""The driver tests' fixtures: ``serve`` starts raw loopback servers (``_raw_server``), stopped after."""

from __future__ import annotations

import socket
import ssl
from collections.abc import Callable, Iterator

import pytest
from _raw_server import RawServer


@pytest.fixture
def serve() -> Iterator[Callable[..., RawServer]]:
    servers: list[RawServer] = []

    def start(fn: Callable[[socket.socket, int], None], tls: ssl.SSLContext | None = None) -> RawServer:
        servers.append(RawServer(fn, tls))
        return servers[-1]

    yield start
    for s in servers:
        s.close()
