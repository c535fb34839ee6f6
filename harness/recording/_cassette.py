"""Cassettes: byte-faithful recordings of upstream exchanges, one JSON object per line.

Rule: the first line is a versioned header; then per exchange a ``request``, a ``response`` (status,
headers), one ``chunk`` per read as it arrived (UTF-8 ``text`` where valid, else ``base64``; its
``offset`` and monotonic ``t_ms``), and an ``end``. A malformed or truncated file raises
:class:`~harness._errors.CassetteError` naming the file and line.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness._errors import CassetteError

__all__ = [
    "FORMAT",
    "VERSION",
    "Cassette",
    "Chunk",
    "Exchange",
    "decode_bytes",
    "encode_bytes",
    "read_cassette",
]

FORMAT = "thinkwire-cassette"
VERSION = 1


def encode_bytes(data: bytes) -> dict[str, str]:
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def decode_bytes(obj: dict[str, Any], where: str) -> bytes:
    if "text" in obj:
        if not isinstance(obj["text"], str):
            raise CassetteError(f"{where}: 'text' must be a string")
        return obj["text"].encode("utf-8")
    if "base64" in obj:
        try:
            return base64.b64decode(obj["base64"], validate=True)
        except (ValueError, TypeError) as exc:
            raise CassetteError(f"{where}: invalid base64: {exc}") from None
    return b""


@dataclass(frozen=True, slots=True)
class Chunk:
    data: bytes
    offset: int
    t_ms: float


@dataclass(slots=True)
class Exchange:
    method: str
    path: str
    request_headers: list[tuple[str, str]]
    request_body: bytes
    status: int = 0
    response_headers: list[tuple[str, str]] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    end: str = ""  # "complete" | "disconnect" | "" (truncated recording)
    t_ms: float = 0.0

    @property
    def body(self) -> bytes:
        return b"".join(c.data for c in self.chunks)

    def header(self, name: str) -> str | None:
        for k, v in self.response_headers:
            if k.lower() == name.lower():
                return v
        return None


@dataclass(slots=True)
class Cassette:
    exchanges: list[Exchange]
    recorded_at: str = ""
    dialect: str | None = None
    upstream: str = ""
    path: str = ""

    def lines(self) -> Iterator[str]:
        head = {
            "format": FORMAT,
            "version": VERSION,
            "recorded_at": self.recorded_at,
            "dialect": self.dialect,
            "upstream": self.upstream,
        }
        yield json.dumps(head, ensure_ascii=False)
        for i, ex in enumerate(self.exchanges):
            yield json.dumps(
                {
                    "type": "request",
                    "id": i,
                    "method": ex.method,
                    "path": ex.path,
                    "headers": [list(h) for h in ex.request_headers],
                    "t_ms": ex.t_ms,
                    **_prefixed("body", ex.request_body),
                },
                ensure_ascii=False,
            )
            yield json.dumps(
                {
                    "type": "response",
                    "id": i,
                    "status": ex.status,
                    "headers": [list(h) for h in ex.response_headers],
                },
                ensure_ascii=False,
            )
            for c in ex.chunks:
                yield json.dumps(
                    {
                        "type": "chunk",
                        "id": i,
                        "offset": c.offset,
                        "t_ms": round(c.t_ms, 3),
                        **encode_bytes(c.data),
                    },
                    ensure_ascii=False,
                )
            yield json.dumps({"type": "end", "id": i, "reason": ex.end or "complete"})

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(self.lines()) + "\n", encoding="utf-8")


def _prefixed(prefix: str, data: bytes) -> dict[str, str]:
    return {f"{prefix}_{k}" if k == "base64" else prefix: v for k, v in encode_bytes(data).items()}


def read_cassette(path: Path) -> Cassette:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CassetteError(f"{path}: cannot be read: {exc}") from None
    lines = text.splitlines()
    if not lines:
        raise CassetteError(f"{path}: empty file (expected a {FORMAT} header on line 1)")
    records = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CassetteError(f"{path}:{n}: not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise CassetteError(f"{path}:{n}: expected a JSON object")
        records.append((n, obj))
    n0, head = records[0]
    if head.get("format") != FORMAT:
        raise CassetteError(
            f"{path}:{n0}: not a thinkwire cassette (format={head.get('format')!r}, expected {FORMAT!r})"
        )
    if head.get("version") != VERSION:
        raise CassetteError(
            f"{path}:{n0}: unsupported cassette version {head.get('version')!r} "
            f"(this thinkwire reads version {VERSION})"
        )
    cassette = Cassette(
        [], str(head.get("recorded_at", "")), head.get("dialect"), str(head.get("upstream", "")), str(path)
    )
    by_id: dict[int, Exchange] = {}
    for n, obj in records[1:]:
        where = f"{path}:{n}"
        kind = obj.get("type")
        ident = obj.get("id")
        if not isinstance(ident, int):
            raise CassetteError(f"{where}: missing integer 'id'")
        if kind == "request":
            for key in ("method", "path"):
                if not isinstance(obj.get(key), str):
                    raise CassetteError(f"{where}: request needs a string {key!r}")
            body = (
                decode_bytes({"base64": obj["body_base64"]}, where)
                if "body_base64" in obj
                else str(obj.get("body", "")).encode()
            )
            ex = Exchange(
                obj["method"],
                obj["path"],
                _headers(obj.get("headers", []), where),
                body,
                t_ms=float(obj.get("t_ms", 0.0)),
            )
            by_id[ident] = ex
            cassette.exchanges.append(ex)
            continue
        if ident not in by_id:
            raise CassetteError(f"{where}: {kind!r} for exchange {ident} before its request")
        ex = by_id[ident]
        if kind == "response":
            if not isinstance(obj.get("status"), int):
                raise CassetteError(f"{where}: response needs an integer 'status'")
            ex.status = obj["status"]
            ex.response_headers = _headers(obj.get("headers", []), where)
        elif kind == "chunk":
            data = decode_bytes(obj, where)
            expected = sum(len(c.data) for c in ex.chunks)
            offset = obj.get("offset", expected)
            if offset != expected:
                raise CassetteError(
                    f"{where}: chunk offset {offset} but {expected} bytes came before it "
                    "(a chunk is missing or the file was edited)"
                )
            ex.chunks.append(Chunk(data, offset, float(obj.get("t_ms", 0.0))))
        elif kind == "end":
            ex.end = str(obj.get("reason", "complete"))
        else:
            raise CassetteError(f"{where}: unknown record type {kind!r} (request, response, chunk, end)")
    for i, ex in enumerate(cassette.exchanges):
        if not ex.status:
            raise CassetteError(f"{path}: exchange {i} has no response line (truncated recording?)")
        if not ex.end:
            raise CassetteError(f"{path}: exchange {i} has no end line (truncated recording?)")
    return cassette


def _headers(raw: Any, where: str) -> list[tuple[str, str]]:
    if not isinstance(raw, list) or not all(isinstance(h, list) and len(h) == 2 for h in raw):
        raise CassetteError(f"{where}: headers must be a list of [name, value] pairs")
    return [(str(k), str(v)) for k, v in raw]
