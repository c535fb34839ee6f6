"""The reference gateway's upstream client (httptools): any chunking of a chunked body and any split
into socket reads give the same bytes; pieces per read or per HTTP chunk; invalid framing and a body
broken off are UpstreamBroken after the bytes before them; no answer is UpstreamUnreachable and the
request went once; the keep-alive pool reuses a finished connection and closes one left early."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.net import ResponseReader
from harness.reference._upstream_http import (
    UpstreamBroken,
    UpstreamHTTP,
    UpstreamUnreachable,
    _feed,
    _Invalid,
)

HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"


def _chunked(chunks: Sequence[bytes], *, upper: bool = False) -> bytes:
    out = b"".join(f"{len(c):{'X' if upper else 'x'}}\r\n".encode() + c + b"\r\n" for c in chunks if c)
    return out + b"0\r\n\r\n"


def _split(data: bytes, cuts: Sequence[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


chunk_lists = st.lists(st.binary(min_size=1, max_size=40), max_size=12)
cut_lists = st.lists(st.integers(min_value=0, max_value=10_000), max_size=20)


@given(chunks=chunk_lists, cuts=cut_lists, upper=st.booleans())
def test_any_chunking_and_any_read_split_give_the_same_bytes(
    chunks: list[bytes], cuts: list[int], upper: bool
) -> None:
    reader, got = ResponseReader(), []
    for read in _split(HEAD + _chunked(chunks, upper=upper), cuts):
        _feed(reader, read)
        got += reader.pieces
        reader.pieces.clear()
    assert (reader.status, reader.done, reader.keep_alive()) == (200, True, True)
    assert b"".join(got) == b"".join(chunks)


@given(chunks=chunk_lists)
def test_one_read_gives_one_piece_per_http_chunk(chunks: list[bytes]) -> None:
    reader = ResponseReader()
    _feed(reader, HEAD + _chunked(chunks))
    assert reader.pieces == chunks


@pytest.mark.parametrize("size_line", [b"zz\r\n", b"-1\r\n", b"3 4\r\n", b"\r\n", b"ffffffffffffffffff\r\n"])
def test_a_bad_chunk_size_is_invalid_after_the_chunks_before_it(size_line: bytes) -> None:
    reader = ResponseReader()
    with pytest.raises(_Invalid):
        _feed(reader, HEAD + b"2\r\nok\r\n" + size_line + b"abc\r\n0\r\n\r\n")
    assert reader.pieces == [b"ok"]
    assert not reader.done


def test_eof_mid_chunk_is_invalid_but_ends_a_body_read_until_close() -> None:
    reader = ResponseReader()
    _feed(reader, HEAD + b"5\r\nab")
    with pytest.raises(_Invalid):
        _feed(reader, b"")
    until_close = ResponseReader()
    _feed(until_close, b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nhello")
    _feed(until_close, b"")
    assert until_close.done
    assert until_close.pieces == [b"hello"]
    assert not until_close.keep_alive()


def test_informational_heads_are_skipped_and_connection_close_is_not_kept() -> None:
    reader = ResponseReader()
    _feed(reader, b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-a: b\r\n\r\nhi")
    assert (reader.status, reader.pieces) == (200, [b"hi"])
    assert reader.headers == [(b"content-length", b"2"), (b"x-a", b"b")]
    assert reader.keep_alive()
    closing = ResponseReader()
    _feed(closing, b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n")
    assert closing.done
    assert not closing.keep_alive()
    trailing = ResponseReader()  # bytes after the response: the connection is not used again
    _feed(trailing, b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\nHTTP/1.1 200 OK\r\n")
    assert trailing.done
    assert not trailing.keep_alive()


# -- through a socket ---------------------------------------------------------------------------------
Script = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class _Peer:
    """A scripted upstream on 127.0.0.1: counts connections and requests, runs ``script`` per request."""

    def __init__(self, script: Script) -> None:
        self.script, self.connections, self.requests, self.eofs = script, 0, 0, 0
        self.gone = asyncio.Event()  # a client closed a connection

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    self.eofs += 1
                    self.gone.set()
                    return
                length = next((int(h.split(b":")[1]) for h in head.split(b"\r\n")
                               if h.lower().startswith(b"content-length:")), 0)  # fmt: skip
                await reader.readexactly(length)
                self.requests += 1
                await self.script(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.eofs += 1
        finally:
            writer.close()

    async def run(self, body: Callable[[UpstreamHTTP], Awaitable[None]]) -> None:
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        client = UpstreamHTTP(f"http://127.0.0.1:{port}/v1", connect=5.0, read=5.0)
        try:
            await body(client)
        finally:
            await client.aclose()
            server.close()
            await server.wait_closed()


def _writes(*pieces: bytes, close: bool = False) -> Script:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for piece in pieces:
            writer.write(piece)
            await writer.drain()
        if close:
            writer.close()
            await writer.wait_closed()
            raise ConnectionResetError

    return script


async def _collect(client: UpstreamHTTP, *, per_chunk: bool = False) -> tuple[list[bytes], str | None]:
    got: list[bytes] = []
    try:
        async with client.stream("POST", "/chat", json={"a": 1}) as resp:
            async for piece in resp.aiter_raw(per_chunk=per_chunk):
                got.append(piece)
    except (UpstreamBroken, UpstreamUnreachable) as exc:
        return got, type(exc).__name__
    return got, None


@settings(max_examples=40, deadline=None)
@given(chunks=chunk_lists, cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=6))
def test_any_socket_split_through_the_client_gives_the_same_bytes(
    chunks: list[bytes], cuts: list[int]
) -> None:
    peer = _Peer(_writes(*_split(HEAD + _chunked(chunks), cuts)))

    async def body(client: UpstreamHTTP) -> None:
        got, error = await _collect(client)
        assert error is None
        assert b"".join(got) == b"".join(chunks)

    asyncio.run(peer.run(body))


def test_pieces_per_read_joined_by_default_one_per_http_chunk_on_request() -> None:
    chunks = [b"a", b"b", b"c", b"data: {}\n\n"]
    peer = _Peer(_writes(HEAD + _chunked(chunks)))

    async def body(client: UpstreamHTTP) -> None:
        assert await _collect(client) == ([b"".join(chunks)], None)
        assert await _collect(client, per_chunk=True) == (chunks, None)

    asyncio.run(peer.run(body))
    assert (peer.connections, peer.requests) == (1, 2)  # the finished connection was used again


def test_a_body_broken_mid_chunk_hands_on_the_bytes_before_then_is_broken() -> None:
    peer = _Peer(_writes(HEAD + b"3\r\nabc\r\n5\r\nde", close=True))

    async def body(client: UpstreamHTTP) -> None:
        got, error = await _collect(client)
        assert (b"".join(got), error) == (b"abcde", "UpstreamBroken")

    asyncio.run(peer.run(body))


@pytest.mark.parametrize("per_chunk", [False, True])
def test_a_bad_chunk_size_is_broken_after_the_bytes_before_it(per_chunk: bool) -> None:
    peer = _Peer(_writes(HEAD + b"2\r\nok\r\n1\r\n!\r\nzz\r\nabc\r\n0\r\n\r\n"))

    async def body(client: UpstreamHTTP) -> None:
        got, error = await _collect(client, per_chunk=per_chunk)
        assert (got, error) == ([b"ok", b"!"] if per_chunk else [b"ok!"], "UpstreamBroken")

    asyncio.run(peer.run(body))
    assert peer.requests == 1


def test_no_answer_is_unreachable_and_the_request_went_once() -> None:
    peer = _Peer(_writes(close=True))

    async def body(client: UpstreamHTTP) -> None:
        assert await _collect(client) == ([], "UpstreamUnreachable")

    asyncio.run(peer.run(body))
    assert (peer.connections, peer.requests) == (1, 1)


def test_a_header_that_would_break_the_framing_is_unreachable_and_nothing_is_sent() -> None:
    peer = _Peer(_writes(HEAD + _chunked([b"x"])))

    async def body(client: UpstreamHTTP) -> None:
        with pytest.raises(UpstreamUnreachable):
            async with client.stream("POST", "/chat", json={}, headers={"x-a": "b\r\nx-evil: 1"}):
                pass

    asyncio.run(peer.run(body))
    assert peer.requests == 0


def test_leaving_early_closes_the_connection_and_the_next_request_opens_one() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        wire = HEAD + _chunked([b"first"])
        writer.write(wire[:-5] if peer.requests == 1 else wire)  # the first stream goes on: no last chunk
        await writer.drain()

    peer = _Peer(script)

    async def body(client: UpstreamHTTP) -> None:
        async with client.stream("POST", "/chat", json={}) as resp:
            assert await anext(resp.aiter_raw()) == b"first"
        async with asyncio.timeout(5):
            await peer.gone.wait()  # the upstream saw the connection close
        assert await _collect(client) == ([b"first"], None)

    asyncio.run(peer.run(body))
    assert (peer.connections, peer.requests, peer.eofs) == (2, 2, 1)


def test_a_body_read_until_close_ends_at_eof_and_its_connection_is_not_kept() -> None:
    peer = _Peer(_writes(b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nhel", b"lo", close=True))

    async def body(client: UpstreamHTTP) -> None:
        got, error = await _collect(client)
        assert (b"".join(got), error) == (b"hello", None)
        assert client._idle == []

    asyncio.run(peer.run(body))
