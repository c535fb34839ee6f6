"""HTTP/1.1 answers framed three ways (length, close, chunked) and split at arbitrary points: what the
llhttp response reader and the front-door client are fed in their tests."""

from __future__ import annotations

import itertools


def framed(body: list[bytes], framing: str) -> bytes:
    whole = b"".join(body)
    if framing == "length":
        return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(whole) + whole
    if framing == "close":
        return b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + whole
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in body if p)
    return b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n"


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points) if b > a]
