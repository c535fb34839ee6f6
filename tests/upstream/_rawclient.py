"""A raw-socket HTTP/1.1 client for tests: every recv() is kept, the response is parsed with h11."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import h11

__all__ = ["RawResponse", "raw_request"]


@dataclass
class RawResponse:
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    reads: list[bytes] = field(default_factory=list)  # raw recv() results after the head
    body: bytes = b""
    complete: bool = False  # the message ended properly (EndOfMessage)
    eof: bool = False  # the server closed the connection


def raw_request(
    base_url: str,
    path: str,
    body: Any = None,
    *,
    on_read: Callable[[bytes, RawResponse], bool | None] | None = None,
    timeout: float = 10.0,
) -> RawResponse:
    """POST ``body`` (JSON) and read until the message ends or EOF. ``on_read(data, resp)`` runs after
    each recv once the head is parsed (the recv completing the head included); returning True closes
    the socket early. ``reads`` holds the raw recv results after the head."""
    url = urlsplit(base_url)
    data = json.dumps(body if body is not None else {}).encode()
    sock = socket.create_connection((url.hostname, url.port), timeout=timeout)
    conn = h11.Connection(h11.CLIENT)
    out = RawResponse()
    try:
        req = h11.Request(
            method="POST",
            target=path,
            headers=[
                ("host", url.netloc),
                ("content-type", "application/json"),
                ("content-length", str(len(data))),
            ],
        )
        sock.sendall(conn.send(req) + conn.send(h11.Data(data=data)) + conn.send(h11.EndOfMessage()))
        head_done = False
        while True:
            chunk = sock.recv(65536)
            if head_done and chunk:
                out.reads.append(chunk)
            elif chunk and b"\r\n\r\n" in chunk and chunk.index(b"\r\n\r\n") + 4 < len(chunk):
                out.reads.append(chunk[chunk.index(b"\r\n\r\n") + 4 :])  # body bytes read with the head
            conn.receive_data(chunk)
            if not chunk:
                out.eof = True
            while True:
                try:
                    ev = conn.next_event()
                except h11.RemoteProtocolError:
                    return out
                if ev is h11.NEED_DATA or ev is h11.PAUSED:
                    break
                if isinstance(ev, h11.Response):
                    out.status = ev.status_code
                    out.headers = {k.decode(): v.decode() for k, v in ev.headers}
                    head_done = True
                elif isinstance(ev, h11.Data):
                    out.body += ev.data
                elif isinstance(ev, h11.EndOfMessage):
                    out.complete = True
                    return out
                elif isinstance(ev, h11.ConnectionClosed):
                    return out
            if not chunk:
                return out
            if head_done and on_read is not None and chunk and on_read(chunk, out):
                return out
    finally:
        sock.close()
