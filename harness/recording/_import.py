"""``thinkwire import``: HTTP recordings of other tools, vcrpy or pytest-recording YAML and HAR, become
thinkwire cassettes with one report line per interaction. The readers only parse their format; this module
turns what they read into exchanges."""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from harness._errors import CassetteError
from harness.recording._cassette import Cassette, Chunk, Exchange
from harness.recording._foreign import Foreign
from harness.recording._redact import Redactor
from harness.recording._replay import detect_dialect

__all__ = [
    "ImportResult",
    "decode_content",
    "import_file",
    "parse_only",
    "split_events",
    "trim_body",
]

_DROP = frozenset({"content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"})
"""Response headers that describe the bytes as they travelled, not the identity body a cassette holds."""


@dataclass
class ImportResult:
    cassette: Cassette
    lines: list[str] = field(default_factory=list)
    """One line per interaction of the source file: converted (and what was lost) or skipped (why)."""

    @property
    def converted(self) -> int:
        return len(self.cassette.exchanges)


def _gunzip(data: bytes) -> bytes:
    return gzip.decompress(data)


def _inflate(data: bytes) -> bytes:
    try:
        return zlib.decompress(data)
    except zlib.error:  # raw deflate, as some servers send it
        return zlib.decompress(data, -zlib.MAX_WBITS)


def _brotli(data: bytes) -> bytes:
    try:
        import brotli  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise LookupError("brotli-encoded body: install the 'brotli' package to import it") from None
    out: bytes = brotli.decompress(data)
    return out


_DECODERS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": _gunzip,
    "x-gzip": _gunzip,
    "deflate": _inflate,
    "br": _brotli,
}


def decode_content(body: bytes, encoding: str) -> bytes:
    """The identity body of a response sent with ``Content-Encoding: encoding`` (codings applied in
    order, so undone in reverse). ``LookupError`` when a coding is unknown or its decoder missing;
    ``ValueError`` when the bytes are not what the header says."""
    for coding in reversed([c.strip().lower() for c in encoding.split(",") if c.strip()]):
        if coding == "identity":
            continue
        decoder = _DECODERS.get(coding)
        if decoder is None:
            raise LookupError(f"content-encoding {coding!r} is not one thinkwire can decode")
        try:
            body = decoder(body)
        except (OSError, EOFError, zlib.error) as exc:
            raise ValueError(f"the body is not valid {coding} ({exc})") from None
    return body


# -- trimming -------------------------------------------------------------------------------------
_SSE_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")


def split_events(body: bytes, content_type: str) -> list[bytes] | None:
    """The body cut into whole wire events, bytes kept exactly (their concatenation is the body), or
    None when its framing is not one thinkwire cuts (a whole JSON document, a JSON array)."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media == "text/event-stream":
        out, start = [], 0
        for m in _SSE_END.finditer(body):
            out.append(body[start : m.end()])
            start = m.end()
        if start < len(body):
            out.append(body[start:])
        return out
    if media in ("application/x-ndjson", "application/jsonl", "application/x-jsonlines"):
        return body.splitlines(keepends=True)
    if media == "application/vnd.amazon.eventstream":
        out, pos = [], 0
        while pos + 4 <= len(body):
            size = int.from_bytes(body[pos : pos + 4], "big")
            if size < 16 or pos + size > len(body):
                return None
            out.append(body[pos : pos + size])
            pos += size
        return out if pos == len(body) else None
    return None


_DELTA = re.compile(rb'^event: ?[\w.]*delta\r?$|"type": ?"[\w.]*delta"', re.MULTILINE)


def trim_body(body: bytes, content_type: str, keep: int) -> tuple[bytes, str]:
    """A long stream's deltas cut to the first and last ``keep`` (whole events, bytes exact), every
    other event kept: the structure a client builds on (a Responses ``output_item.added``, an Anthropic
    ``content_block_start``) stays, so the trimmed stream is still one the provider could send. A
    stream of nothing but deltas (chat completion chunks) keeps its first and last ``keep`` events."""
    events = split_events(body, content_type)
    if events is None:
        return body, ""
    deltas = [n for n, e in enumerate(events) if _DELTA.search(e)]
    what = "deltas" if deltas else "events"
    if not deltas:  # no typed deltas (chat completion chunks): every event is one
        deltas = list(range(len(events)))
    if len(deltas) <= 2 * keep:
        return body, ""
    cut = set(deltas[keep:-keep])
    kept = [e for n, e in enumerate(events) if n not in cut]
    others = f", {len(events) - len(deltas)} other events kept" if what == "deltas" else ""
    return b"".join(kept), f"trimmed to the first and last {keep} of {len(deltas)} {what}{others}"


# -- conversion -----------------------------------------------------------------------------------
def _target(url: str) -> tuple[str, str, str]:
    """(origin, request target, note) of a recorded URL; a fragment is never sent, so it goes."""
    parts = urlsplit(url)
    origin = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    target = urlunsplit(("", "", parts.path or "/", parts.query, ""))
    note = f"URL fragment #{parts.fragment} dropped (never sent)" if parts.fragment else ""
    return origin, target, note


def _exchange(fx: Foreign, redactor: Redactor, trim: int) -> tuple[Exchange | None, list[str], str]:
    """The exchange (or None and why not), the notes of what was lost, and the dialect's path."""
    notes = list(fx.notes)
    _, target, fragment = _target(fx.url)
    if fragment:
        notes.append(fragment)
    if fx.skip:
        return None, notes, fx.skip
    body = fx.response_body
    encoding = fx.header("content-encoding")
    if encoding and encoding.lower() != "identity":
        try:
            body = decode_content(body, encoding)
        except (LookupError, ValueError) as exc:
            return None, notes, str(exc)
        notes.append(f"content-encoding {encoding} decoded (a cassette holds the identity body)")
    ctype = fx.header("content-type")
    if trim:
        body, note = trim_body(body, ctype, trim)
        if note:
            notes.append(note)
    headers = [(k, v) for k, v in fx.response_headers if k.lower() not in _DROP]
    ex = Exchange(
        fx.method.upper(),
        redactor.target(target),
        redactor.header_pairs(fx.request_headers),
        redactor.body(fx.request_body),
        status=fx.status,
        response_headers=redactor.header_pairs(headers),
        chunks=[Chunk(body, 0, fx.t_ms)] if body else [],
        end="complete",
    )
    return ex, notes, ""


def convert(
    interactions: Sequence[Foreign],
    *,
    source: str,
    kept: str,
    dialect: str | None = None,
    only: Sequence[int] | None = None,
    trim: int = 0,
    redactor: Redactor | None = None,
) -> ImportResult:
    """``kept``: what the source format never records, said once per converted interaction.

    Each interaction becomes an :class:`Exchange`. The content-encoding is decoded, because a thinkwire
    cassette holds the identity body as the recorder asks for it; the response body is otherwise kept byte
    for byte. thinkwire's redaction is applied to the request and to the response headers. A reader says
    what its format had already lost, such as a body stored parsed or a body without its encoding.
    """
    redactor = redactor or Redactor()
    cassette = Cassette([], source=source)
    result = ImportResult(cassette)
    dialects: set[str | None] = set()
    for fx in interactions:
        if only is not None and fx.index not in only:
            continue
        ex, notes, why = _exchange(fx, redactor, trim)
        what = f"interaction {fx.index}: {fx.method.upper()} {_target(fx.url)[1]} -> {fx.status or '-'}"
        if ex is None:
            result.lines.append(f"{what}: skipped: {why}" + "".join(f"; {n}" for n in notes))
            continue
        found = dialect or detect_dialect(ex.path)
        dialects.add(found)
        if not cassette.upstream:
            cassette.upstream = redactor.url(_target(fx.url)[0])
        cassette.exchanges.append(ex)
        ctype = ex.header("content-type") or "no content-type"
        lost = "; ".join([*notes, kept])
        result.lines.append(
            f"{what} ({ctype}, {len(ex.body)} B, {found or 'unknown dialect'}): converted; lost: {lost}"
        )
    if only is not None:
        missing = sorted(set(only) - {fx.index for fx in interactions})
        if missing:
            raise CassetteError(
                f"{source}: --only {missing[0]}: no such interaction (the file holds "
                f"{len(interactions)}, numbered from 0)"
            )
    cassette.dialect = dialects.pop() if len(dialects) == 1 else None
    return result


def _sniff(path: Path, data: bytes) -> str:
    head = data.lstrip()[:1]
    if path.suffix.lower() == ".har" or (head == b"{" and b'"log"' in data[:4096]):
        return "har"
    return "vcr"


def import_file(
    path: Path,
    *,
    fmt: str = "auto",
    dialect: str | None = None,
    only: Sequence[int] | None = None,
    trim: int = 0,
    redactor: Redactor | None = None,
) -> ImportResult:
    """Read a vcrpy / pytest-recording cassette (``.yaml``, ``.yml``, ``.json``, any of them ``.gz``)
    or a HAR file and convert it. ``only``: interaction numbers to keep; ``trim``: keep the first and
    last N events of each streamed body.

    A file the reader cannot read is one :class:`CassetteError` naming the file, the interaction and why.
    An interaction that can be read but not replayed, with no response or an encoding thinkwire cannot
    decode, is skipped with its reason.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CassetteError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    if path.suffix.lower() == ".gz":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise CassetteError(f"{path}: not a gzip file ({exc})") from None
    kind = _sniff(path.with_suffix("") if path.suffix.lower() == ".gz" else path, data)
    if fmt != "auto":
        kind = fmt
    if kind == "har":
        from harness.recording._import_har import read_har

        interactions, kept = read_har(path, data), "chunk boundaries (HAR keeps one body per response)"
        source = f"har:{path.name}"
    else:
        from harness.recording._import_vcr import read_vcr

        interactions = read_vcr(path, data)
        kept = "chunk boundaries and timing (vcrpy keeps neither: the body is one chunk)"
        source = f"vcrpy:{path.name}"
    if not interactions:
        raise CassetteError(f"{path}: holds no interaction: nothing to import")
    return convert(
        interactions, source=source, kept=kept, dialect=dialect, only=only, trim=trim, redactor=redactor
    )


def parse_only(spec: str | None) -> list[int] | None:
    """``--only 0,2`` as interaction numbers (a :class:`FlagError` for anything else)."""
    if spec is None:
        return None
    from harness._errors import FlagError

    try:
        numbers = [int(p) for p in spec.split(",") if p.strip()]
    except ValueError:
        numbers = []
    if not numbers or any(n < 0 for n in numbers):
        raise FlagError(f"--only {spec!r}: expected interaction numbers from 0, comma-separated, e.g. 0,2")
    return numbers
