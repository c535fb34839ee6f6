"""Cassettes: byte-faithful recordings of upstream exchanges, one JSON object per line. The format, its reader
and its writer live together so that what is written is exactly what can be read."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness._errors import CassetteError

__all__ = [
    "FORMAT",
    "TRUNCATED",
    "VERSION",
    "Cassette",
    "CassetteWriter",
    "Chunk",
    "Exchange",
    "decode_bytes",
    "encode_bytes",
    "read_cassette",
]

FORMAT = "thinkwire-cassette"
VERSION = 1
TRUNCATED = "truncated"
"""The end reason of an exchange cut by the recorder's shutdown (or whose end line never came)."""


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
    end: str = (
        ""  # "complete" | "truncated" | "client-disconnect" | "disconnect: ..." | "upstream error: ..."
    )
    t_ms: float = 0.0

    @property
    def complete(self) -> bool:
        return self.end == "complete"

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
    """The first line is a versioned header; an imported cassette also names its ``source``. Then each
    exchange has a ``request``, a ``response`` with status and headers, one ``chunk`` per read as it
    arrived, and an ``end``. A chunk holds UTF-8 ``text`` where valid, else ``base64``, with its ``offset``
    and monotonic ``t_ms``. The end says ``complete``, ``truncated`` when the recorder was stopped while
    the response was still arriving, or why it broke off. Exchanges interleave, and every line carries its
    exchange's ``id``."""
    exchanges: list[Exchange]
    recorded_at: str = ""
    dialect: str | None = None
    upstream: str = ""
    path: str = ""
    warnings: list[str] = field(default_factory=list)
    """What the reader tolerated: a torn last line, exchanges without their end line."""
    source: str = ""
    """Where an imported cassette came from (``vcrpy:FILE``, ``har:FILE``); empty for recordings."""

    def lines(self) -> Iterator[str]:
        head = {
            "format": FORMAT,
            "version": VERSION,
            "recorded_at": self.recorded_at,
            "dialect": self.dialect,
            "upstream": self.upstream,
        }
        if self.source:
            head["source"] = self.source
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
    """A cassette is valid at every instant of a recording, so the reader takes an exchange without its end
    line as truncated and a torn last line as absent, each with a warning in ``Cassette.warnings``.
    Anything else malformed raises :class:`~harness._errors.CassetteError` naming the file and line."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CassetteError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CassetteError(f"{path}: not UTF-8 (byte {exc.start}); a cassette is UTF-8 JSON lines") from None
    lines = text.split("\n")
    torn = lines.pop()  # "" when the file ends with a newline; else a line the recorder never finished
    warnings: list[str] = []
    if torn.strip():
        try:
            json.loads(torn)
            lines.append(torn)  # complete, only its newline is missing
        except json.JSONDecodeError:
            warnings.append(
                f"{path}:{len(lines) + 1}: torn last line ignored (the recording was cut mid-line)"
            )
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
    if not records:
        raise CassetteError(f"{path}: empty file (expected a {FORMAT} header on line 1)")
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
    dialect = head.get("dialect")
    if dialect is not None and not isinstance(dialect, str):
        raise CassetteError(f"{path}:{n0}: 'dialect' must be a dialect name or null, not {dialect!r}")
    cassette = Cassette(
        [],
        str(head.get("recorded_at", "")),
        dialect,
        str(head.get("upstream", "")),
        str(path),
        warnings,
        source=str(head.get("source", "")),
    )
    by_id: dict[int, Exchange] = {}
    for n, obj in records[1:]:
        _record(cassette, by_id, obj, f"{path}:{n}")
    for i, ex in enumerate(cassette.exchanges):
        if not ex.end:
            ex.end = TRUNCATED
            what = "response line" if not ex.status else "end line"
            warnings.append(
                f"{path}: exchange {i} has no {what} (the recording stopped during it): replayed as "
                "a cut stream"
            )
    return cassette


def _number(obj: dict[str, Any], key: str, where: str, default: float = 0.0) -> float:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CassetteError(f"{where}: {key!r} must be a number of milliseconds, not {value!r}")
    return float(value)


def _record(cassette: Cassette, by_id: dict[int, Exchange], obj: dict[str, Any], where: str) -> None:
    kind = obj.get("type")
    ident = obj.get("id")
    if not isinstance(ident, int) or isinstance(ident, bool):
        raise CassetteError(f"{where}: missing integer 'id'")
    if kind == "request":
        for key in ("method", "path"):
            if not isinstance(obj.get(key), str):
                raise CassetteError(f"{where}: request needs a string {key!r}")
        if ident in by_id:
            raise CassetteError(f"{where}: a second request with id {ident} (ids are unique per cassette)")
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
            t_ms=_number(obj, "t_ms", where),
        )
        by_id[ident] = ex
        cassette.exchanges.append(ex)
        return
    if ident not in by_id:
        raise CassetteError(f"{where}: {kind!r} for exchange {ident} before its request")
    ex = by_id[ident]
    if kind == "response":
        status = obj.get("status")
        if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 599:
            raise CassetteError(f"{where}: response needs an integer 'status' (100-599), not {status!r}")
        ex.status = status
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
        ex.chunks.append(Chunk(data, offset, _number(obj, "t_ms", where)))
    elif kind == "end":
        ex.end = str(obj.get("reason", "complete")) or "complete"
    else:
        raise CassetteError(f"{where}: unknown record type {kind!r} (request, response, chunk, end)")


class CassetteWriter:
    """Appends cassette lines as they happen, each one ``write`` + ``flush`` under a lock (any thread):
    the file is a valid cassette at every instant. ``mode``: ``x`` (refuse an existing file), ``w``
    (overwrite: ``--force``) or ``a`` (``--append``: ids continue after the existing ones)."""

    def __init__(self, path: Path, head: dict[str, Any], mode: str = "x") -> None:
        self.path = path
        self.next_id = 0
        if mode == "a" and path.exists():
            existing = read_cassette(path)
            if existing.warnings and any("torn last line" in w for w in existing.warnings):
                raise CassetteError(
                    f"{path}: its last line is torn; --append would bury it mid-file: remove that line "
                    "first (or record into a new file)"
                )
            if head.get("dialect") and existing.dialect and head["dialect"] != existing.dialect:
                raise CassetteError(
                    f"{path}: recorded as {existing.dialect}, not {head['dialect']}: append with the same "
                    "--dialect or record into a new file"
                )
            self.next_id = _max_id(path) + 1
            head = {}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._f = path.open(mode, encoding="utf-8", newline="\n")
        except FileExistsError:
            raise CassetteError(
                f"{path}: exists; a cassette is never overwritten: pass --append to add to it, "
                "--force to replace it, or choose another --out"
            ) from None
        except OSError as exc:
            raise CassetteError(
                f"{path}: cannot be written ({exc.strerror or exc}); choose an --out in a writable directory"
            ) from None
        self._lock = threading.Lock()
        if head:
            self.line(head)

    def new_id(self) -> int:
        with self._lock:
            ident = self.next_id
            self.next_id += 1
        return ident

    def line(self, obj: dict[str, Any]) -> None:
        text = json.dumps(obj, ensure_ascii=False) + "\n"
        with self._lock:
            if self._f.closed:
                return
            self._f.write(text)
            self._f.flush()

    def close(self) -> None:
        with self._lock:
            if self._f.closed:
                return
            self._f.flush()
            with contextlib.suppress(OSError):  # a filesystem without fsync
                os.fsync(self._f.fileno())
            self._f.close()


def _max_id(path: Path) -> int:
    top = -1
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("id"), int):
            top = max(top, obj["id"])
    return top


def _headers(raw: Any, where: str) -> list[tuple[str, str]]:
    if not isinstance(raw, list) or not all(isinstance(h, list) and len(h) == 2 for h in raw):
        raise CassetteError(f"{where}: headers must be a list of [name, value] pairs")
    return [(str(k), str(v)) for k, v in raw]
