"""The generic server: keep-alive, concurrency, abort, peer-close detection, clean start/stop."""

from __future__ import annotations

import asyncio
import os
import socket
import threading

import httpx
import psutil
import pytest
from _peers import leave_after_first_bytes

from harness.net import Request, Responder, Server


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


async def echo(req: Request, resp: Responder) -> None:
    body = f"{req.method} {req.path} {req.query} conn={req.conn} {req.body!r}".encode()
    await resp.start(
        200, [("Content-Type", "text/plain"), ("X-Case", "Kept")], framing="length", length=len(body)
    )
    await resp.write(body)
    await resp.end()


def test_request_fields_and_keep_alive() -> None:
    with Server(echo) as server, httpx.Client() as client:
        a = client.post(server.base_url + "/a?x=1", content=b"hi")
        b = client.get(server.base_url + "/b")
        assert a.text == "POST /a x=1 conn=1 b'hi'"
        assert b.text == "GET /b  conn=1 b''"  # same connection
        assert a.headers["x-case"] == "Kept"


def test_pipelined_back_to_back_requests_on_one_socket() -> None:
    with Server(echo) as server:
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        while data.count(b"conn=1") < 2:
            data += sock.recv(65536)
        sock.close()
        assert data.index(b"GET /1") < data.index(b"GET /2")


def test_start_stop_leave_nothing_behind() -> None:
    threads, fds = set(threading.enumerate()), _fds()
    for _ in range(3):
        server = Server(echo)
        server.start()
        port = server.port
        with httpx.Client() as c:
            assert c.get(server.base_url + "/").status_code == 200
            # a connection still open (keep-alive) when stopping
            server.stop()
        assert set(threading.enumerate()) == threads
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=1)
        listening = [c for c in psutil.Process().net_connections() if c.laddr and c.laddr.port == port]
        assert listening == []
    assert _fds() == fds


def test_concurrent_connections_do_not_wait_on_each_other() -> None:
    release = asyncio.Event()

    async def handler(req: Request, resp: Responder) -> None:
        await resp.start(200, [("content-type", "text/plain")])
        await resp.write(b"first piece")
        if req.path == "/hold":
            await release.wait()
        await resp.write(b" done")
        await resp.end()

    with (
        Server(handler) as server,
        httpx.Client() as c1,
        httpx.Client() as c2,
        c1.stream("GET", server.base_url + "/hold") as held,
    ):
        pieces = held.iter_raw()
        assert next(pieces) == b"first piece"
        assert c2.get(server.base_url + "/quick").text == "first piece done"  # answered meanwhile
        assert server.loop is not None
        server.loop.call_soon_threadsafe(release.set)
        assert b"".join(pieces) == b" done"


def test_abort_delivers_partial_bytes_then_eof_and_close_framing() -> None:
    async def handler(req: Request, resp: Responder) -> None:
        if req.path == "/close":
            await resp.start(200, [("content-type", "text/plain")], framing="close")
            await resp.write(b"until EOF")
            await resp.end()
            return
        await resp.start(200, [("content-type", "text/plain")])
        await resp.write(b'data: {"a":"\xe6')
        resp.abort()

    with Server(handler) as server:
        with httpx.Client() as c, c.stream("GET", server.base_url + "/x") as r:
            got: list[bytes] = []

            def read_all() -> None:
                got.extend(r.iter_raw())

            with pytest.raises(httpx.RemoteProtocolError):
                read_all()
            assert b"".join(got) == b'data: {"a":"\xe6'
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /close HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
        sock.close()
        assert data.startswith(b"HTTP/1.1 200 OK\r\n")
        assert data.endswith(b"\r\n\r\nuntil EOF")
        assert b"transfer-encoding" not in data.lower()
        assert b"connection: close" in data


def test_peer_close_is_detected_while_streaming() -> None:
    seen: dict[str, object] = {}
    done = threading.Event()

    async def handler(req: Request, resp: Responder) -> None:
        await resp.start(200, [("content-type", "text/plain")])
        await resp.write(b"x")
        await asyncio.wait_for(resp.closed.wait(), 10)
        seen["at"] = resp.peer_closed_at
        done.set()

    with Server(handler) as server:
        leave_after_first_bytes(server.port)
        assert done.wait(10)
    assert isinstance(seen["at"], int)


def test_handler_exception_before_start_is_a_500() -> None:
    async def handler(req: Request, resp: Responder) -> None:
        raise RuntimeError("boom")

    with Server(handler) as server, httpx.Client() as c:
        r = c.get(server.base_url + "/")
        assert (r.status_code, r.text) == (500, "thinkwire.net: handler failed\n")


def test_bad_request_gets_400() -> None:
    with Server(echo) as server:
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"NOT HTTP\r\n\r\n")
        data = sock.recv(65536)
        sock.close()
        assert data.startswith(b"HTTP/1.1 400 ")
