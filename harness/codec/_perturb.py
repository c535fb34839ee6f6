"""Named framing perturbations: the same frames spelled the odd ways real upstreams spell them. They sit apart
from the plain encoders so that every oddity is one named, listed choice."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from harness._json import dumps_compact, loads
from harness.codec._frame import Frame
from harness.codec._sse_encode import SSEEncoder, SSEFraming

__all__ = ["PERTURBATIONS", "Perturbation", "Piece", "get_perturbation", "perturb"]

Piece = tuple[int | None, bytes]
"""A piece of output and the index of the frame it carries (``None``: bytes the perturbation added)."""

_BOM = b"\xef\xbb\xbf"
_COMMENTS = ("keep-alive", "OPENROUTER PROCESSING")


@dataclass(frozen=True, slots=True)
class Perturbation:
    """A perturbation is ``lossless`` when the WHATWG decoding, or LF-only JSONL decoding, of the perturbed
    stream yields exactly the events of the plain one. ``bom`` counts as lossless although it may fold a
    bare chat role chunk into the next chunk: one SSE event fewer, the same canonical events. Each
    perturbation lists the transports it makes sense for.

    Each is placed where a deviating parser loses something a check compares, its blast radius: a BOM in
    front of a first frame that carries content, no space on the first and the last frame, keep-alive
    comments before the first frame and between reasoning frames, the last frame unterminated."""
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
    if transport == "json-array":
        from harness.codec._jsonarray import JSON_ARRAY_END, encode_json_array_element

        out: list[Piece] = [
            (i, encode_json_array_element(f.data, first=start and i == 0)) for i, f in enumerate(frames)
        ]
        return [*out, (None, JSON_ARRAY_END)] if end else out
    return _encode_plain(frames, transport)


def _crlf(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    if transport == "jsonl":
        return [(i, (f.data + "\r\n").encode()) for i, f in enumerate(frames)]
    return _encode_plain(frames, transport, SSEFraming(eol="crlf"))


def _lead_with_content(frames: Sequence[Frame]) -> Sequence[Frame]:
    """A stream that opens with a bare Chat Completions role chunk (tag ``start`` alone) before its
    first reasoning chunk gets the role folded into that chunk, as upstreams without a role chunk
    send it: the frame behind a BOM then carries reasoning, not just a role no check compares."""
    if len(frames) < 2 or frames[0].tags != {"start"} or "reasoning" not in frames[1].tags:
        return frames
    try:
        head, first = loads(frames[0].data), loads(frames[1].data)
        role, delta = head["choices"][0]["delta"], first["choices"][0]["delta"]
    except (ValueError, KeyError, IndexError, TypeError):
        return frames  # not a chat chunk: the first frame is the protocol's own opener
    if not isinstance(role, dict) or not isinstance(delta, dict) or head.get("object") != first.get("object"):
        return frames
    first["choices"][0]["delta"] = {**role, **delta}
    folded = replace(frames[1], data=dumps_compact(first), tags=frames[1].tags | {"start"})
    return [folded, *frames[2:]]


def _bom(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    if not start:
        return _encode_plain(frames, transport)
    pieces = _encode_plain(_lead_with_content(frames), transport)
    if pieces:
        pieces[0] = (pieces[0][0], _BOM + pieces[0][1])
    return _renumber(frames, pieces)


def _bom_split(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    if not start:
        return _encode_plain(frames, transport)
    pieces = _encode_plain(_lead_with_content(frames), transport)
    if pieces:
        pieces[0] = (pieces[0][0], _BOM[1:] + pieces[0][1])
        pieces.insert(0, (None, _BOM[:1]))
    return _renumber(frames, pieces)


def _renumber(frames: Sequence[Frame], pieces: list[Piece]) -> list[Piece]:
    """After a fold the pieces index the folded list: point them back at the caller's frames."""
    shift = len(frames) - sum(1 for i, _ in pieces if i is not None)
    return [(None if i is None else i + shift, data) for i, data in pieces]


def _no_space(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    """``data:x`` on the stream's first and last frame; the frames between keep the space."""
    tight = SSEEncoder(SSEFraming(space=False))
    pieces = _encode_plain(frames, transport)
    for k in {0 if start else -1, len(pieces) - 1 if end else -1} - {-1}:
        if 0 <= k < len(pieces):
            f = frames[k]
            pieces[k] = (k, tight.encode(f.data, event=f.event))
    return pieces


def _comments(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    """A keep-alive comment before the stream's first frame and before each reasoning frame that
    follows another (between reasoning deltas, where a queueing upstream sends them)."""
    enc = SSEEncoder()
    out: list[Piece] = []
    n = 0
    for i, data in _encode_plain(frames, transport):
        assert i is not None
        if (start and i == 0) or (i and "reasoning" in frames[i].tags and "reasoning" in frames[i - 1].tags):
            data = enc.comment(_COMMENTS[n % len(_COMMENTS)]) + data
            n += 1
        out.append((i, data))
    return out


def _event_only(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    enc = SSEEncoder()
    return [
        (i, (enc.event_only("ping") if i else b"") + data)
        for i, data in _encode_plain(frames, transport)
    ]


def _unterminated(frames: Sequence[Frame], transport: str, start: bool, end: bool) -> list[Piece]:
    if transport == "json-array":  # the array's own truncation: every element whole, no closing ]
        return _none(frames, transport, start, False)
    pieces = _encode_plain(frames, transport)
    if end and pieces:
        i, data = pieces[-1]
        pieces[-1] = (i, data[:-1])  # SSE: its blank line; JSONL: the record's LF
    return pieces


def _entry(name: str, description: str, lossless: bool, transports: str,
           apply: Callable[[Sequence[Frame], str, bool, bool], list[Piece]]) -> Perturbation:
    return Perturbation(name, description, lossless, frozenset(transports.split()), apply)


PERTURBATIONS: dict[str, Perturbation] = {
    p.name: p
    for p in (
        _entry("none", "plain framing: LF line ends, 'data: ' with one space", True,
               "sse jsonl eventstream json-array", _none),
        _entry("crlf", "CRLF line ends (SSE); a CR before every LF (JSONL)", True, "sse jsonl", _crlf),
        _entry("cr", "lone CR line ends", True, "sse", _framing(SSEFraming(eol="cr"))),
        _entry("mixed", "CRLF after field lines, a lone LF as the blank line", True, "sse",
               _framing(SSEFraming(eol="mixed"))),
        _entry("bom", "a UTF-8 BOM before the first frame (a bare chat role chunk folded into the first "
               "reasoning chunk, so the frame behind the BOM carries reasoning)", True, "sse", _bom),
        _entry("bom-split", "the same, the BOM split across two writes: ef | bbbf...", True, "sse",
               _bom_split),
        _entry("no-space", "no space after the colon on the first and the last frame: 'data:x' (DashScope)",
               True, "sse", _no_space),
        _entry("multiline", "JSON data split over several data: lines outside strings (rejoins with LF)",
               False, "sse", _framing(SSEFraming(multiline=True))),
        _entry("comments", "': keep-alive' / ': OPENROUTER PROCESSING' comments before the first frame and "
               "between reasoning frames", True, "sse", _comments),
        _entry("event-only", "'event: ping' blocks with no data between frames (not dispatched)", True,
               "sse", _event_only),
        _entry("unterminated", "the last frame lacks its blank line (SSE: not dispatched at EOF) or its LF "
               "(JSONL: still a record); a JSON array lacks its closing ] (the stream broke off)", False,
               "sse jsonl json-array", _unterminated),
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
    if transport not in ("sse", "jsonl", "eventstream", "json-array"):
        raise ValueError(
            f"unknown transport {transport!r}: valid: 'sse', 'jsonl', 'eventstream', 'json-array'"
        )
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
