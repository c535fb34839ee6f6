"""Chunked bodies framed by the server itself: the same bytes as h11, one transport write per piece,
h11 still deciding the framing, and back-pressure kept although drain is skipped when idle."""

from __future__ import annotations

import asyncio
import socket
import threading

import h11
import httpx
import pytest
from _peers import leave_after_first_bytes

from harness.net import Request, Responder, Server
from harness.net._server import chunk

SIZES = [1, 2, 9, 10, 15, 16, 17, 255, 256, 4095, 4096, 65535, 65536, 100_000]


def _h11_body(pieces: list[bytes]) -> bytes:
    """What h11 itself writes for these body pieces and the end of a chunked response."""
    conn = h11.Connection(h11.SERVER)
    conn.receive_data(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert isinstance(conn.next_event(), h11.Request)
    conn.send(h11.Response(status_code=200, headers=[("transfer-encoding", "chunked")]))
    out = b"".join(conn.send(h11.Data(data=p)) or b"" for p in pieces)
    return out + (conn.send(h11.EndOfMessage()) or b"")


def _get(port: int, head: bytes = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") -> bytes:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head)
        data = b""
        while got := sock.recv(65536):
            data += got
    return data


def _pieces_handler(pieces: list[bytes]) -> object:
    async def handler(req: Request, resp: Responder) -> None:
        await resp.start(200, [("content-type", "text/plain")])
        for p in pieces:
            await resp.write(p)
        await resp.end()

    return handler


@pytest.mark.parametrize("size", SIZES)
def test_chunk_is_byte_identical_to_h11(size: int) -> None:
    data = bytes(i % 251 for i in range(size))
    assert chunk(data) == _h11_body([data])[: -len(b"0\r\n\r\n")]
    assert chunk(data).startswith(f"{size:x}\r\n".encode())  # lowercase hex, no padding


def test_h11_writes_nothing_for_an_empty_piece_and_ends_with_the_zero_chunk() -> None:
    assert _h11_body([b""]) == b"0\r\n\r\n"


def test_streamed_body_is_h11s_bytes_one_socket_send_per_piece(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every piece is one ``send`` on the connection's socket, whether through the transport or
    straight to the socket while the transport holds nothing back (``Responder.put``)."""
    pieces = [bytes([65 + i % 26]) * n for i, n in enumerate(SIZES)]
    pieces.insert(3, b"")  # an empty piece writes nothing (as h11: an empty chunk would end the body)
    calls: list[bytes] = []
    real_send = socket.socket.send

    def counting_send(self: socket.socket, data: bytes, *flags: int) -> int:
        sent = real_send(self, data, *flags)
        if threading.current_thread().name.startswith("thinkwire-net"):
            calls.append(bytes(data)[:sent])
        return sent

    monkeypatch.setattr(socket.socket, "send", counting_send)
    with Server(_pieces_handler(pieces)) as server:  # type: ignore[arg-type]
        data = _get(server.port)
    head, body = data.split(b"\r\n\r\n", 1)
    assert b"transfer-encoding: chunked" in head.lower()
    assert body == _h11_body(pieces)
    assert calls[1:] == [chunk(p) for p in pieces if p] + [b"0\r\n\r\n"]  # calls[0]: the head


def test_keep_alive_after_chunks_framed_outside_h11() -> None:
    """h11's state stays right (the end goes through it): the next request on the connection works."""

    async def handler(req: Request, resp: Responder) -> None:
        await resp.start(200, [("content-type", "text/plain")])
        for piece in (req.path.encode(), b" conn=", str(req.conn).encode()):
            await resp.write(piece)
        await resp.end()

    with Server(handler) as server, httpx.Client() as client:
        assert client.get(server.base_url + "/a").text == "/a conn=1"
        assert client.get(server.base_url + "/b").text == "/b conn=1"


def test_http_10_peer_gets_no_chunked_coding() -> None:
    """h11 still picks the framing: an HTTP/1.0 client gets the bare pieces and a closed connection."""
    pieces = [b"one ", b"two ", b"three"]
    with Server(_pieces_handler(pieces)) as server:  # type: ignore[arg-type]
        data = _get(server.port, b"GET / HTTP/1.0\r\n\r\n")
    head, body = data.split(b"\r\n\r\n", 1)
    assert b"transfer-encoding" not in head.lower()
    assert body == b"one two three"


def test_back_pressure_holds_while_the_peer_does_not_read() -> None:
    """A peer that stops reading fills the kernel buffers; from then on each write waits for the
    transport buffer to drain below its high-water mark (64 KiB) instead of growing it."""
    piece = b"x" * 65536
    buffered = threading.Event()
    sizes: list[int] = []

    async def handler(req: Request, resp: Responder) -> None:
        await resp.start(200, [("content-type", "text/plain")])
        transport = resp._transport
        after = 0
        while after < 64:  # until 64 writes went out after the kernel buffers filled up
            await resp.write(piece)
            sizes.append(transport.get_write_buffer_size())
            if sizes[-1]:
                buffered.set()
            after += buffered.is_set()
        await resp.end()

    with Server(handler) as server, socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", server.port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert buffered.wait(30)  # the server had to buffer: the peer is not reading
        total = 0
        while got := sock.recv(1 << 20):
            total += len(got)
    assert max(sizes) <= 2 * len(piece)  # without back-pressure it grows a piece per write
    assert total > len(sizes) * len(piece)


def test_the_write_that_fails_raises_although_drain_is_skipped_when_idle() -> None:
    """The peer is gone: the write whose send fails raises (drain still runs for it), so the
    disconnect is noticed at that write, not at whatever the handler does next."""
    unnoticed: list[int] = []  # writes that returned with the transport already closing
    raised: list[BaseException] = []
    done = threading.Event()

    async def handler(req: Request, resp: Responder) -> None:
        await resp.start(200, [("content-type", "text/plain")])
        await resp.write(b"first")
        await asyncio.wait_for(resp.closed.wait(), 10)
        for i in range(10_000):
            try:
                await resp.write(b"more")
            except ConnectionError as exc:
                raised.append(exc)
                break
            if resp._transport.is_closing():
                unnoticed.append(i)
        done.set()

    with Server(handler) as server:
        leave_after_first_bytes(server.port)
        assert done.wait(10)
    assert len(raised) == 1
    assert unnoticed == []
