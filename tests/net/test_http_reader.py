"""The response reader both HTTP clients share (``harness.net.ResponseReader``): any split into reads
gives the body and the same end; a framing error before the end raises, one after it only spoils the
connection; a body runs until close only without a length or a final chunked coding; 1xx heads are
skipped; bare-LF lines only when asked for."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.net import FramingError, ResponseReader
from tests.net._http_frames import framed, split


@given(
    body=st.lists(st.binary(min_size=1, max_size=40), max_size=8),
    framing=st.sampled_from(["length", "chunked", "close"]),
    cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
)
def test_any_split_gives_the_body_and_the_end(body: list[bytes], framing: str, cuts: list[int]) -> None:
    reader, got = ResponseReader(), []
    for read in split(framed(body, framing), cuts):
        reader.feed(read)
        got += reader.pieces
        reader.pieces = []
    assert reader.head
    assert reader.status == 200
    assert reader.done is (framing != "close")
    assert reader.eof()  # the peer closing: the end of a body read until close, else already ended
    assert b"".join(got) == b"".join(body)
    assert reader.keep_alive() is (framing != "close")


@pytest.mark.parametrize(
    "cut",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Le",
        b"",
    ],
    ids=["short-length", "no-last-chunk", "inside-the-head", "nothing"],
)
def test_a_response_cut_short_is_not_whole_at_eof(cut: bytes) -> None:
    reader = ResponseReader()
    if cut:
        reader.feed(cut)
    assert not reader.eof()
    assert not reader.done
    assert not reader.keep_alive()


def test_a_non_chunked_last_coding_runs_until_close_as_llhttp_reads_it() -> None:
    reader = ResponseReader()
    reader.feed(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\nab")
    reader.feed(b"cd")
    assert reader.pieces == [b"ab", b"cd"]
    assert not reader.done
    assert reader.eof()
    assert not reader.keep_alive()


def test_a_framing_error_before_the_end_raises_after_the_pieces_before_it() -> None:
    reader = ResponseReader()
    with pytest.raises(FramingError) as caught:
        reader.feed(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\nzz\r\n")
    assert not caught.value.upgrade
    assert str(caught.value)  # llhttp's reason
    assert (reader.pieces, reader.done) == ([b"ok"], False)
    with pytest.raises(FramingError):
        ResponseReader().feed(b"HTTZ/1.1 200 OK\r\n\r\n")


def test_bytes_after_the_end_spoil_the_connection_not_the_response() -> None:
    junk = ResponseReader()
    with pytest.raises(FramingError):  # the caller decides: the front door ignores it, the gateway breaks
        junk.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhiHTTZ junk")
    assert (junk.done, junk.pieces, junk.keep_alive()) == (True, [b"hi"], False)
    second = ResponseReader()  # a whole second response: its head and body are not this one's
    second.feed(
        b"HTTP/1.1 204 No Content\r\nx-a: 1\r\n\r\nHTTP/1.1 200 OK\r\nx-b: 2\r\nContent-Length: 2\r\n\r\nno"
    )
    assert (second.status, second.headers, second.pieces) == (204, [(b"x-a", b"1")], [])
    assert second.done
    assert not second.keep_alive()


def test_informational_heads_are_skipped_and_connection_close_is_not_kept() -> None:
    reader = ResponseReader()
    reader.feed(b"HTTP/1.1 103 Early Hints\r\nLink: x\r\n\r\n")
    assert not reader.head
    reader.feed(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nX-A: b\r\n\r\nhi")
    assert (reader.status, reader.headers, reader.pieces) == (
        200,
        [(b"content-length", b"2"), (b"X-A", b"b")],
        [b"hi"],
    )
    assert reader.keep_alive()
    closing = ResponseReader()
    closing.feed(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    assert closing.done
    assert not closing.keep_alive()


def test_bare_lf_lines_only_when_asked_for() -> None:
    wire = b"HTTP/1.1 200 OK\nContent-Length: 2\n\nhi"
    lenient = ResponseReader(bare_lf=True)
    lenient.feed(wire)
    assert (lenient.status, lenient.pieces, lenient.done) == (200, [b"hi"], True)
    with pytest.raises(FramingError):
        ResponseReader().feed(wire)
