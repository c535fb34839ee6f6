"""The JSONL and NDJSON codec, sans-IO: records split on LF only. It is separate from SSE because
line-delimited JSON has its own splitting rules, which common readers get wrong."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["JSONLDecoder", "encode_jsonl"]


class JSONLDecoder:
    """Feed bytes in any split; get complete lines (as ``str``, without the line end).

    U+2028, U+2029, VT, FF and a lone CR inside a record never split it; pi's docs warn that Node's
    readline and Python's ``str.splitlines`` get this wrong. One CR before the LF is stripped.
    """

    __slots__ = ("_buf", "anomalies", "unterminated")

    def __init__(self) -> None:
        self._buf = b""
        self.anomalies: list[str] = []
        """``invalid-utf8``, ``crlf`` (a CR before LF was stripped), ``unterminated``."""
        self.unterminated: str | None = None

    def feed(self, data: bytes) -> list[str]:
        buf = self._buf + data if self._buf else data
        if b"\n" not in buf:
            self._buf = buf
            return []
        parts = buf.split(b"\n")
        self._buf = parts.pop()
        return [self._decode(p) for p in parts if p not in (b"", b"\r")]

    def end(self) -> list[str]:
        """EOF: a last record without LF is returned (NDJSON readers accept it) and reported."""
        tail, self._buf = self._buf, b""
        if tail.strip():
            self.anomalies.append("unterminated")
            line = self._decode(tail)
            self.unterminated = line
            return [line]
        return []

    def _decode(self, raw: bytes) -> str:
        if raw.endswith(b"\r"):
            raw = raw[:-1]
            if "crlf" not in self.anomalies:
                self.anomalies.append("crlf")
        try:
            return raw.decode()
        except UnicodeDecodeError:
            self.anomalies.append("invalid-utf8")
            return raw.decode(errors="replace")


def encode_jsonl(lines: Iterable[str], *, eol: str = "\n") -> bytes:
    return b"".join((line + eol).encode() for line in lines)
