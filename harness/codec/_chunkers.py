"""Named chunkers, which turn a stream's byte pieces into the exact list of socket writes. They live apart
from the encoders because how bytes are cut is a choice of the test, not of the wire."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

__all__ = ["CHUNKERS", "PARAMETRISED", "Chunker", "cut", "get_chunker"]

# A chunker never adds, drops or reorders a byte: its writes join to the pieces joined, and no write is
# empty.
Chunker = Callable[[Sequence[bytes]], list[bytes]]
"""Takes the per-frame pieces; a single ``bytes`` is accepted as one piece."""

_TINY = (1, 3, 7, 2, 5, 4, 6)


def cut(data: bytes, points: Iterable[int]) -> list[bytes]:
    """``data`` cut at the given offsets (out-of-range and duplicate offsets are ignored)."""
    out: list[bytes] = []
    last = 0
    for p in sorted({p for p in points if 0 < p < len(data)}):
        out.append(data[last:p])
        last = p
    if last < len(data):
        out.append(data[last:])
    return out


def _pieces(pieces: Sequence[bytes] | bytes) -> Sequence[bytes]:
    return [bytes(pieces)] if isinstance(pieces, bytes | bytearray | memoryview) else pieces


def _boundaries(pieces: Sequence[bytes]) -> list[int]:
    out, pos = [], 0
    for p in pieces:
        pos += len(p)
        out.append(pos)
    return out


def frames(pieces: Sequence[bytes]) -> list[bytes]:
    """One write per piece (the default)."""
    pieces = _pieces(pieces)
    return [p for p in pieces if p]


def whole(pieces: Sequence[bytes]) -> list[bytes]:
    """Everything in one write."""
    pieces = _pieces(pieces)
    data = b"".join(pieces)
    return [data] if data else []


def per_byte(pieces: Sequence[bytes]) -> list[bytes]:
    """One write per byte."""
    pieces = _pieces(pieces)
    data = b"".join(pieces)
    return [data[i : i + 1] for i in range(len(data))]


def utf8_split(pieces: Sequence[bytes]) -> list[bytes]:
    """Frame boundaries, plus a cut after the lead byte of every multi-byte UTF-8 code point."""
    pieces = _pieces(pieces)
    data = b"".join(pieces)
    points = _boundaries(pieces)
    points += [i + 1 for i, b in enumerate(data) if b >= 0xC0 and data[i + 1 : i + 2] and
               0x80 <= data[i + 1] < 0xC0]
    return cut(data, points)


def crlf_split(pieces: Sequence[bytes]) -> list[bytes]:
    """Frame boundaries, plus a cut between every CR and the LF after it."""
    pieces = _pieces(pieces)
    data = b"".join(pieces)
    points = _boundaries(pieces)
    i = data.find(b"\r\n")
    while i >= 0:
        points.append(i + 1)
        i = data.find(b"\r\n", i + 2)
    return cut(data, points)


def tiny(pieces: Sequence[bytes]) -> list[bytes]:
    """Writes of 1-7 bytes, in a fixed repeating pattern (1, 3, 7, 2, 5, 4, 6)."""
    pieces = _pieces(pieces)
    data = b"".join(pieces)
    out, pos, k = [], 0, 0
    while pos < len(data):
        n = _TINY[k % len(_TINY)]
        out.append(data[pos : pos + n])
        pos += n
        k += 1
    return out


def offsets(points: Sequence[int]) -> Chunker:
    """Cuts at explicit offsets into the concatenation (``offsets:3,10,17``)."""
    fixed = tuple(points)

    def chunk(pieces: Sequence[bytes]) -> list[bytes]:
        pieces = _pieces(pieces)
        return cut(b"".join(pieces), fixed)

    return chunk


def seeded(seed: int, *, low: int = 1, high: int = 4096) -> Chunker:
    """Seeded random write sizes in ``[low, high]`` (``random:SEED``); same seed, same cuts."""

    def chunk(pieces: Sequence[bytes]) -> list[bytes]:
        pieces = _pieces(pieces)
        rng = random.Random(seed)
        data = b"".join(pieces)
        out, pos = [], 0
        while pos < len(data):
            n = rng.randint(low, high)
            out.append(data[pos : pos + n])
            pos += n
        return out

    return chunk


CHUNKERS: dict[str, Chunker] = {
    "frames": frames,
    "whole": whole,
    "bytes": per_byte,
    "utf8-split": utf8_split,
    "crlf-split": crlf_split,
    "tiny": tiny,
}
PARAMETRISED = ("offsets:N,N,...", "random:SEED")


def _valid() -> str:
    return ", ".join(map(repr, [*CHUNKERS, *PARAMETRISED]))


def _ints(name: str, text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise ValueError(f"chunking {name!r}: expected integers after ':', got {text!r}") from None
    if any(v < 0 for v in values):
        raise ValueError(f"chunking {name!r}: offsets must be >= 0")
    return values


def get_chunker(name: str) -> Chunker:
    """The chunker named ``name``, parsing ``offsets:...`` / ``random:SEED``; ``ValueError`` otherwise."""
    if name in CHUNKERS:
        return CHUNKERS[name]
    kind, colon, arg = name.partition(":")
    if colon and kind == "offsets" and arg:
        return offsets(_ints(name, arg))
    if colon and kind == "random" and arg:
        if "," in arg:
            raise ValueError(f"chunking {name!r}: random takes one integer seed")
        return seeded(_ints(name, arg)[0])
    raise ValueError(f"unknown chunking {name!r}: valid: {_valid()}")
