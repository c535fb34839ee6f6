"""Sans-IO: the writes of a planned response, which frames each one carries, and the batches a lazy plan
encodes a stream in. These are pure functions of the encoded pieces and the chunker's writes; ``_plan``
builds the pieces."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeAlias

from harness.dialects import Frame
from harness.events import Event, ReasoningDelta, TextDelta
from harness.upstream._script import Gate

__all__ = [
    "BATCH",
    "BATCH_SAFE_CHUNKERS",
    "BATCH_SAFE_PERTURBATIONS",
    "FrameRun",
    "PlainEncoder",
    "WaitGate",
    "Write",
    "attribute",
    "batches",
    "chunker",
    "one_write_each",
    "plain_encoder",
    "with_withheld",
]


BATCH = 64
"""Frames a lazy plan encodes at a time (a chat delta frame is ~200 bytes: ~13 KB per batch)."""
BATCH_SAFE_CHUNKERS = frozenset({"frames", "bytes", "utf8-split", "crlf-split"})
BATCH_SAFE_PERTURBATIONS = frozenset(
    {"none", "crlf", "cr", "mixed", "bom", "bom-split", "no-space", "multiline", "unterminated"}
)
"""Chunkers and perturbations whose output for a stream is the same whether its frames are encoded in
one batch or several (cuts and framing depend only on each piece; a BOM only on the first batch, the
unterminated end only on the last). The others (``whole``, ``tiny``, ``random:``, ``offsets:``,
``comments``, ``event-only``) count across the batch: their segments are planned whole, as before."""


class Write(NamedTuple):
    """One socket write. ``frame`` is the index (in this response) of the frame the write starts in,
    ``tags`` the union of the tags of the frames it overlaps; ``None``/empty for raw bytes. Immutable;
    a named tuple because a byte-by-byte stream plans one per byte (a frozen dataclass took twice as
    long to build)."""

    data: bytes
    tags: frozenset[str] = frozenset()
    frame: int | None = None


class FrameRun(NamedTuple):
    """Whole frames in order, one socket write each: the ``i``-th write is ``datas[i]``, frame
    ``first + i``, with that frame's ``tags``. What the plain encoder makes of a batch (never empty).
    The asyncio server sends and records a run as it is: a :class:`Write` per frame, built and
    collected, cost more than the frame's send. Every other reader sees its writes
    (:func:`one_write_each`)."""

    datas: list[bytes]
    tags: list[frozenset[str]]
    first: int

    def write(self, i: int) -> Write:
        return Write(self.datas[i], self.tags[i], self.first + i)


def one_write_each(actions: Iterable[Any]) -> Iterator[Any]:
    """``actions`` with each :class:`FrameRun` as its writes, one :class:`Write` per frame."""
    for a in actions:
        if type(a) is FrameRun:
            yield from map(Write, a.datas, a.tags, range(a.first, a.first + len(a.datas)))
        else:
            yield a


@dataclass(frozen=True, slots=True)
class WaitGate:
    gate: Gate
    withheld: Mapping[str, Any] = field(default_factory=dict)


def chunker(name: str) -> Callable[[Sequence[bytes]], list[bytes]]:
    """The script's chunker (``harness.codec.get_chunker``): encoded pieces -> socket writes."""
    from harness.codec import get_chunker

    fn: Callable[[Sequence[bytes]], list[bytes]] = get_chunker(name)
    return fn


def attribute(pieces: list[Write], writes: list[bytes]) -> list[Write]:
    """Tag each write with the frames its bytes come from (by offset): one sweep over both lists."""
    if _one_to_one(pieces, writes):
        return pieces
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for p in pieces:
        starts.append(pos)
        pos += len(p.data)
        ends.append(pos)
    if sum(map(len, writes)) != pos:  # the chunker changed the bytes: attribute everything
        tags_all = frozenset().union(*(p.tags for p in pieces)) if pieces else frozenset()
        first = next((p.frame for p in pieces if p.frame is not None), None)
        return [Write(w, tags_all, first) for w in writes]
    out: list[Write] = []
    add, new, n = out.append, tuple.__new__, len(pieces)  # (``Write(...)`` has a Python-level __new__)
    k = off = 0
    for w in writes:
        end = off + len(w)
        while k < n and ends[k] <= off and not (starts[k] == off == ends[k]):
            k += 1  # pieces entirely before this write
        if k < n and end <= ends[k] and starts[k] < ends[k]:
            # inside one non-empty piece (byte-wise chunkings: nearly every write); the next piece
            # starts at its end, after this write: the sweep below would find this piece alone
            p = pieces[k]
            add(new(Write, (w, p.tags, p.frame)))
            off = end
            continue
        hit: list[Write] = []
        m = k
        while m < n and (starts[m] < end or starts[m] == off):
            if (starts[m] < end and ends[m] > off) or starts[m] == off:
                hit.append(pieces[m])
            m += 1
        tags = frozenset().union(*(p.tags for p in hit)) if hit else frozenset()
        frame = next((p.frame for p in hit if p.frame is not None), None)
        add(Write(w, tags, frame))
        off = end
    return out


def _one_to_one(pieces: list[Write], writes: list[bytes]) -> bool:
    """Is each write one whole, non-empty piece, in order (the default ``frames`` chunker)? Then the
    sweep would find exactly that piece for each write; skipping it halves planning a long stream."""
    return len(pieces) == len(writes) and all(w and w is p.data for p, w in zip(pieces, writes, strict=True))


def with_withheld(actions: Iterable[Any]) -> Iterator[Any]:
    """Each gate with what it withholds: the next write after it. Streams: the actions from a gate up
    to that write are held back, then yielded in order (a backward sweep needed the whole list)."""
    held: list[Any] = []
    for a in actions:
        if held:
            held.append(a)
            if type(a) is Write:
                yield from _resolve(held, a)
                held = []
            elif type(a) is FrameRun:
                yield from _resolve(held, a.write(0))
                held = []
        elif type(a) is WaitGate:
            held.append(a)
        else:
            yield a
    yield from _resolve(held, None)


def _resolve(held: list[Any], nxt: Write | None) -> Iterator[Any]:
    for a in held:
        yield WaitGate(a.gate, _withheld_info(nxt)) if type(a) is WaitGate else a


def _withheld_info(nxt: Write | None) -> dict[str, Any]:
    if nxt is None:
        return {"frame": None, "tags": [], "data": ""}
    return {"frame": nxt.frame, "tags": sorted(nxt.tags), "data": nxt.data.decode(errors="replace")[:400]}


def batches(events: Sequence[Event], size: int) -> Iterator[list[Event]]:
    """``events`` in runs of about ``size``, cut only inside a run of text or reasoning deltas of one
    item: an emitter may look ahead within what it is fed (a signature joins the part before it)."""
    batch: list[Event] = []
    prev: Event | None = None
    for ev in events:
        if (
            len(batch) >= size
            and type(ev) is type(prev)
            and isinstance(ev, ReasoningDelta | TextDelta)
            and ev.item == prev.item
        ):
            yield batch
            batch = []
        batch.append(ev)
        prev = ev
    if batch:
        yield batch


PlainEncoder: TypeAlias = Callable[[Sequence[Frame], int], list[FrameRun] | None]


def plain_encoder(transport: str) -> PlainEncoder | None:
    """Frames -> one write each (the first frame's index is ``base``), with no perturbation, for the
    transports whose frames encode one by one: one :class:`FrameRun` (none for no frames); None for a
    batch whose SSE data or event name holds a line break (``encode_pieces`` splits such data into
    lines).

    The writes come as runs, ``FrameRun``, that the server sends and records without an object per write.
    """
    if transport == "sse":

        def sse(frames: Sequence[Frame], base: int) -> list[FrameRun] | None:
            text = "".join([f.data for f in frames] + [f.event for f in frames if f.event is not None])
            if "\n" in text or "\r" in text:
                return None
            return _run([_sse_block(f.data, f.event).encode() for f in frames], frames, base)

        return sse
    if transport == "jsonl":
        return lambda frames, base: _run([(f.data + "\n").encode() for f in frames], frames, base)
    return None


def _run(datas: list[bytes], frames: Sequence[Frame], base: int) -> list[FrameRun]:
    return [FrameRun(datas, [f.tags for f in frames], base)] if datas else []


def _sse_block(data: str, event: str | None) -> str:
    return f"data: {data}\n\n" if event is None else f"event: {event}\ndata: {data}\n\n"
