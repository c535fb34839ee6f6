"""Chunkers: literal writes for a small stream, byte preservation for any input, and each one does what
its name says; get_chunker's parsing and errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import CHUNKERS, get_chunker

PIECES = [b'data: "\xe6\x80\x9d"\r\n\r\n', b"ab"]
WRITES = {
    "frames": [b'data: "\xe6\x80\x9d"\r\n\r\n', b"ab"],
    "whole": [b'data: "\xe6\x80\x9d"\r\n\r\nab'],
    "utf8-split": [b'data: "\xe6', b'\x80\x9d"\r\n\r\n', b"ab"],
    "crlf-split": [b'data: "\xe6\x80\x9d"\r', b"\n\r", b"\n", b"ab"],
    "tiny": [b"d", b"ata", b': "\xe6\x80\x9d"', b"\r\n", b"\r\nab"],  # sizes 1, 3, 7, 2, 5 (cut short)
    "offsets:3,10,17": [b"dat", b'a: "\xe6\x80\x9d', b'"\r\n\r\nab'],  # cuts ignore frame boundaries
    "offsets:0,3,3,999": [b"dat", b'a: "\xe6\x80\x9d"\r\n\r\nab'],
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_literal_writes(name: str) -> None:
    assert get_chunker(name)(PIECES) == WRITES[name]


def test_bytes_is_one_write_per_byte() -> None:
    assert get_chunker("bytes")([b"ab", b"", b"c"]) == [b"a", b"b", b"c"]


def test_a_single_bytes_object_is_one_piece() -> None:
    assert get_chunker("crlf-split")(b"a\r\nb") == [b"a\r", b"\nb"]


def test_random_is_seeded_and_bounded() -> None:
    data = [bytes(range(256)) * 200]
    a, b, c = get_chunker("random:1")(data), get_chunker("random:1")(data), get_chunker("random:2")(data)
    assert a == b
    assert a != c
    assert all(1 <= len(w) <= 4096 for w in a)
    assert len(a) > 1


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "nope",
            "unknown chunking 'nope': valid: 'frames', 'whole', 'bytes', 'utf8-split', 'crlf-split', "
            "'tiny', 'offsets:N,N,...', 'random:SEED'",
        ),
        ("random:x", "chunking 'random:x': expected integers after ':', got 'x'"),
        ("random:1,2", "chunking 'random:1,2': random takes one integer seed"),
        ("offsets:1,-2", "chunking 'offsets:1,-2': offsets must be >= 0"),
        ("offsets:", "unknown chunking 'offsets:'"),
    ],
)
def test_bad_names(name: str, message: str) -> None:
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(".", r"\.")):
        get_chunker(name)


NAMES = [*sorted(CHUNKERS), "offsets:1,5,9", "random:7"]
pieces_st = st.lists(st.binary(max_size=64) | st.text(max_size=16).map(str.encode), max_size=8)


@given(pieces=pieces_st, name=st.sampled_from(NAMES))
def test_concatenation_is_preserved_and_no_write_is_empty(pieces: list[bytes], name: str) -> None:
    writes = get_chunker(name)(pieces)
    assert b"".join(writes) == b"".join(pieces)
    assert all(writes)


def _ends(writes: list[bytes]) -> set[int]:
    out, pos = set(), 0
    for w in writes:
        pos += len(w)
        out.add(pos)
    return out


@given(texts=st.lists(st.text(max_size=12), max_size=6))
def test_utf8_split_cuts_inside_every_multibyte_code_point(texts: list[str]) -> None:
    pieces = [t.encode("utf-8", "surrogatepass") for t in texts]
    ends = _ends(get_chunker("utf8-split")(pieces))
    pos = 0
    for t in texts:
        for ch in t:
            n = len(ch.encode("utf-8", "surrogatepass"))
            if n > 1:
                assert any(pos < e < pos + n for e in ends), (ch, pos)
            pos += n
    assert _ends([p for p in pieces if p]) <= ends  # frame boundaries kept


@given(
    pieces=st.lists(st.sampled_from([b"\r", b"\n", b"\r\n", b"x", b"\r\r\n"]), max_size=20).map(
        lambda ps: [b"".join(ps)]
    )
)
def test_crlf_split_cuts_between_every_cr_and_its_lf(pieces: list[bytes]) -> None:
    data = pieces[0]
    ends = _ends(get_chunker("crlf-split")(pieces))
    for i in range(len(data) - 1):
        if data[i : i + 2] == b"\r\n":
            assert i + 1 in ends


@given(pieces=pieces_st)
def test_tiny_writes_are_1_to_7_bytes(pieces: list[bytes]) -> None:
    assert all(1 <= len(w) <= 7 for w in get_chunker("tiny")(pieces))


@given(pieces=pieces_st)
def test_whole_and_frames(pieces: list[bytes]) -> None:
    assert len(get_chunker("whole")(pieces)) == (1 if any(pieces) else 0)
    assert get_chunker("frames")(pieces) == [p for p in pieces if p]
