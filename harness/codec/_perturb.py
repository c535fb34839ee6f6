"""Named framing perturbations: the same frames spelled the odd ways real upstreams spell them.

Rule: a perturbation is ``lossless`` when the WHATWG (or LF-only JSONL) decoding of the perturbed
stream yields exactly the events of the plain one; it lists the transports it makes sense for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.codec._sse_encode import SSEEncoder, SSEFraming

if TYPE_CHECKING:
    from harness.dialects._base import Frame

__all__ = ["PERTURBATIONS", "Perturbation", "Piece", "get_perturbation", "perturb"]

Piece = tuple[int | None, bytes]
"""A piece of output and the index of the frame it carries (``None``: bytes the perturbation added)."""

_BOM = b"\xef\xbb\xbf"
_COMMENTS = ("keep-alive", "OPENROUTER PROCESSING")


@dataclass(frozen=True, slots=True)
class Perturbation:
    name: str
    description: str
    lossless: bool
    transports: frozenset[str]
    apply: Callable[[Sequence[Frame], str, bool, bool], list[Piece]]
    """``(frames, transport, start, end) -> pieces``; ``start``/``end``: the frames open/close the stream."""


def _blocks(frames: Sequence[Frame], framing: SSEFraming) -> list[Piece]:
    enc = SSEEncoder(framing)
    return [(i, enc.encode(f.data, event=f.event)) for i, f in enumerate(frames)]


def _framing(framing: SSEFraming) -> Callable[[Sequence[Frame], str, bool, bool], list[Piece]]:
    def apply(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
        return _encode_plain(frames, transport, framing)

    return apply


def _encode_plain(frames: Sequence[Frame], transport: str, framing: SSEFraming | None = None) -> list[Piece]:
    if transport == "sse":
        return _blocks(frames, framing or SSEFraming())
    if transport == "jsonl":
        return [(i, (f.data + "\n").encode()) for i, f in enumerate(frames)]
    if transport == "eventstream":
        from harness.codec._eventstream import encode_frame

        return [(i, encode_frame(f.event or "", f.data, f.message_type)) for i, f in enumerate(frames)]
    raise ValueError(f"unknown transport {transport!r}: valid: 'sse', 'jsonl', 'eventstream'")


def _none(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    return _encode_plain(frames, transport)


def _crlf(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    if transport == "jsonl":
        return [(i, (f.data + "\r\n").encode()) for i, f in enumerate(frames)]
    return _encode_plain(frames, transport, SSEFraming(eol="crlf"))


def _bom(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    pieces = _encode_plain(frames, transport)
    if start and pieces:
        pieces[0] = (pieces[0][0], _BOM + pieces[0][1])
    return pieces


def _bom_split(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    pieces = _encode_plain(frames, transport)
    if start and pieces:
        pieces[0] = (pieces[0][0], _BOM[1:] + pieces[0][1])
        pieces.insert(0, (None, _BOM[:1]))
    return pieces


def _comments(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    enc = SSEEncoder()
    return [
        (i, enc.comment(_COMMENTS[k % len(_COMMENTS)]) + data)
        for k, (i, data) in enumerate(_encode_plain(frames, transport))
    ]


def _event_only(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    enc = SSEEncoder()
    return [
        (i, (enc.event_only("ping") if i else b"") + data)
        for i, data in _encode_plain(frames, transport)
    ]


def _unterminated(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    pieces = _encode_plain(frames, transport)
    if end and pieces:
        i, data = pieces[-1]
        pieces[-1] = (i, data[:-1])  # LF framing: the block ends in exactly one blank-line LF
    return pieces


def _entry(name: str, description: str, lossless: bool, transports: str,
           apply: Callable[[Sequence[Frame], str, bool, bool], list[Piece]]) -> Perturbation:
    return Perturbation(name, description, lossless, frozenset(transports.split()), apply)


PERTURBATIONS: dict[str, Perturbation] = {
    p.name: p
    for p in (
        _entry("none", "plain framing: LF line ends, 'data: ' with one space", True,
               "sse jsonl eventstream", _none),
        _entry("crlf", "CRLF line ends (SSE); a CR before every LF (JSONL)", True, "sse jsonl", _crlf),
        _entry("cr", "lone CR line ends", True, "sse", _framing(SSEFraming(eol="cr"))),
        _entry("mixed", "CRLF after field lines, a lone LF as the blank line", True, "sse",
               _framing(SSEFraming(eol="mixed"))),
        _entry("bom", "a UTF-8 BOM before the first frame", True, "sse", _bom),
        _entry("bom-split", "a UTF-8 BOM split across two writes: ef | bbbf...", True, "sse", _bom_split),
        _entry("no-space", "no space after the colon: 'data:x' (DashScope)", True, "sse",
               _framing(SSEFraming(space=False))),
        _entry("multiline", "JSON data split over several data: lines outside strings (rejoins with LF)",
               False, "sse", _framing(SSEFraming(multiline=True))),
        _entry("comments", "': keep-alive' / ': OPENROUTER PROCESSING' comment blocks before frames", True,
               "sse", _comments),
        _entry("event-only", "'event: ping' blocks with no data between frames (not dispatched)", True,
               "sse", _event_only),
        _entry("unterminated", "the last frame lacks its blank line (not dispatched at EOF)", False,
               "sse", _unterminated),
    )
}


def get_perturbation(name: str, transport: str) -> Perturbation:
    """The named perturbation; ``ValueError`` for an unknown name or one that makes no sense here."""
    try:
        p = PERTURBATIONS[name]
    except KeyError:
        raise ValueError(
            f"unknown perturbation {name!r}: valid: {', '.join(map(repr, PERTURBATIONS))}"
        ) from None
    if transport not in ("sse", "jsonl", "eventstream"):
        raise ValueError(f"unknown transport {transport!r}: valid: 'sse', 'jsonl', 'eventstream'")
    if transport not in p.transports:
        valid = [n for n, q in PERTURBATIONS.items() if transport in q.transports]
        raise ValueError(
            f"perturbation {name!r} makes no sense for transport {transport!r}: "
            f"valid for {transport}: {', '.join(map(repr, valid))}"
        )
    return p


def perturb(
    frames: Sequence[Frame], transport: str, perturbation: str = "none", *, start: bool = True,
    end: bool = True,
) -> list[Piece]:
    """Frames -> pieces ``(frame index or None, bytes)``, with the named perturbation applied."""
    return get_perturbation(perturbation, transport).apply(frames, transport, start, end)
