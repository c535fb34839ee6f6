"""Sans-IO: turn a :class:`Script` (plus the request it answers) into the exact sequence of actions
a response performs: head, writes (bytes + frame tags), gates, pauses, faults, abort, stall, end.

Rule: one planner, two executors (the loopback server in ``_server.py`` and respx in ``_respx.py``);
no sockets, clocks or threads here. Validation and the streaming decision live here too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeAlias

from harness._errors import UnknownName
from harness.codec import encode_pieces
from harness.dialects import Dialect, Frame, Rejection, dialect_names, get_dialect
from harness.events import Event, Message
from harness.net import Framing
from harness.upstream._script import (
    Disconnect,
    Emit,
    EmitFrames,
    Gate,
    HttpError,
    MalformedFrame,
    MidStreamError,
    Pause,
    Raw,
    Script,
    Stall,
    UnknownEvent,
)

__all__ = [
    "Abort",
    "Action",
    "Fault",
    "Finish",
    "Head",
    "Plan",
    "Sleep",
    "StallFor",
    "WaitGate",
    "Write",
    "build_plan",
    "chunker",
    "dialect_for_path",
    "load_dialect",
    "routes",
    "validate_request",
    "wants_stream",
]


@functools.cache
def routes() -> tuple[tuple[str, str], ...]:
    """Path suffix -> dialect, for every dialect on one base URL, from each dialect's own
    ``path_suffixes`` (longest suffixes first)."""
    pairs = [(suffix, name) for name in dialect_names() for suffix in get_dialect(name).path_suffixes]
    return tuple(sorted(pairs, key=lambda pair: -len(pair[0])))

_HOP = frozenset({"content-length", "transfer-encoding", "connection"})


@dataclass(frozen=True, slots=True)
class Head:
    status: int
    headers: tuple[tuple[str, str], ...]
    framing: Framing = "chunked"
    length: int | None = None


class Write(NamedTuple):
    """One socket write. ``frame`` is the index (in this response) of the frame the write starts in,
    ``tags`` the union of the tags of the frames it overlaps; ``None``/empty for raw bytes. Immutable;
    a named tuple because a byte-by-byte stream plans one per byte (a frozen dataclass took twice as
    long to build)."""

    data: bytes
    tags: frozenset[str] = frozenset()
    frame: int | None = None


@dataclass(frozen=True, slots=True)
class WaitGate:
    gate: Gate
    withheld: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Sleep:
    """Pause until ``at`` seconds after the response started (deadline scheduling: no drift)."""

    seconds: float
    at: float


@dataclass(frozen=True, slots=True)
class Fault:
    """Record a ``fault`` entry (the bytes of the fault follow as writes)."""

    fault: str


@dataclass(frozen=True, slots=True)
class Abort:
    """Cut the connection abruptly, without ending the message."""

    fault: str


@dataclass(frozen=True, slots=True)
class StallFor:
    timeout: float


@dataclass(frozen=True, slots=True)
class Finish:
    """End the message properly."""


Action: TypeAlias = Head | Write | WaitGate | Sleep | Fault | Abort | StallFor | Finish


@dataclass(frozen=True, slots=True)
class Plan:
    actions: tuple[Action, ...]
    stream: bool
    events: tuple[Event, ...]
    """The (profile-shaped) canonical events this response carries: what it emitted."""

    def body(self) -> bytes:
        """Every byte written, concatenated."""
        return b"".join(a.data for a in self.actions if isinstance(a, Write))


# ---------------------------------------------------------------------------------------------------
def load_dialect(name: str) -> Dialect | None:
    """The dialect, or None while its module does not exist yet (frames/raw scripts still work)."""
    try:
        return get_dialect(name)
    except ModuleNotFoundError:
        return None


def dialect_for_path(path: str, script_dialect: str | None = None) -> str | None:
    """Which dialect a request path addresses. The script's own dialect wins when its declared
    ``path_suffixes`` match."""
    if script_dialect is not None:
        d = load_dialect(script_dialect)
        if d is not None and any(path.endswith(s) for s in d.path_suffixes):
            return script_dialect
    for suffix, name in routes():
        if path.endswith(suffix):
            return name
    return None


def wants_stream(script: Script, path: str, body: Mapping[str, Any] | None) -> bool:
    """``Script.stream`` overrides; else the script's dialect reads the request (``Dialect.wants_stream``:
    a body flag, or the path for gemini and bedrock)."""
    if script.stream is not None:
        return script.stream
    dialect = load_dialect(script.dialect)
    return dialect.wants_stream(path, body or {}) if dialect is not None else True


def validate_request(
    script: Script, body: Mapping[str, Any] | None, emitted: Sequence[Message]
) -> Rejection | None:
    """The script's provider profile checks the request first (``lenient`` with no dialect: accept)."""
    dialect = load_dialect(script.dialect)
    if dialect is None:
        if script.profile == "lenient":
            return None
        raise LookupError(f"dialect {script.dialect!r} is not available for profile {script.profile!r}")
    profiles = dialect.profiles()
    if script.profile not in profiles:
        raise UnknownName(f"{script.dialect} provider profile", script.profile, profiles)
    return profiles[script.profile].validate(body or {}, emitted)


def chunker(name: str) -> Callable[[Sequence[bytes]], list[bytes]]:
    """The script's chunker (``harness.codec.get_chunker``): encoded pieces -> socket writes."""
    from harness.codec import get_chunker

    fn: Callable[[Sequence[bytes]], list[bytes]] = get_chunker(name)
    return fn


# ---------------------------------------------------------------------------------------------------
_Piece: TypeAlias = Write
"""Encoded bytes and the frame they carry, before the chunker cuts the stream into writes: attributed
exactly like a write, so with one write per piece the pieces are the writes."""


@dataclass(slots=True)
class _Cut:
    where: str
    left: int  # after-bytes: bytes still to let through


class _Planner:
    def __init__(self, script: Script, dialect: Dialect | None, request: Mapping[str, Any]) -> None:
        self.script = script
        self.dialect = dialect
        self.request = request
        self.transport = (
            str(dialect.transport) if dialect is not None else "sse"
        )
        self.variant = script.variant or (dialect.default_variant if dialect is not None else "")
        self.chunk = chunker(script.chunking)
        self.actions: list[Action] = []
        self.frames: list[Frame] = []
        self.frame_count = 0
        self.flushed = False
        self.paused = 0.0
        self.cut: _Cut | None = None
        self.done = False
        self.events: list[Event] = []
        self._emitter: Any = None

    # -- helpers ----------------------------------------------------------------------------------
    def need_dialect(self, what: str) -> Dialect:
        if self.dialect is None:
            raise LookupError(f"{what} needs dialect {self.script.dialect!r}, which is not available")
        return self.dialect

    def emitter(self) -> Any:
        if self._emitter is None:
            self._emitter = self.need_dialect("Emit").emitter(self.variant, model=self.script.model)
        return self._emitter

    def shape(self, events: tuple[Event, ...]) -> tuple[Event, ...]:
        dialect = self.dialect
        if dialect is None or self.script.profile not in dialect.profiles():
            return events
        return tuple(dialect.profiles()[self.script.profile].shape(self.request, events))

    def add_frames(self, frames: Sequence[Frame]) -> None:
        term = self.script.terminator
        if term == "normal":
            self.frames += frames
            return
        for f in frames:
            if "terminal" in f.tags and term == "missing":
                continue
            self.frames.append(f)
            if "terminal" in f.tags and term == "doubled":
                self.frames.append(f)

    # -- output -----------------------------------------------------------------------------------
    def flush(self, *, end: bool = False) -> None:
        """Encode the pending frames as one batch (``end``: the last batch of the stream), attributing
        each piece to its frame, and split it into writes with the script's chunker."""
        if not self.frames or self.done:
            self.frames = []
            return
        frames, self.frames = self.frames, []
        start = not self.flushed
        self.flushed = True
        base = self.frame_count
        self.frame_count += len(frames)
        raw = encode_pieces(frames, self.transport, self.script.perturbation, start=start, end=end)
        pieces = [
            _Piece(
                data,
                frames[i].tags if i is not None and i < len(frames) else frozenset(),
                None if i is None else base + i,
            )
            for i, data in raw
        ]
        self.output(pieces, rechunk=True)

    def output(self, pieces: list[_Piece], *, rechunk: bool) -> None:
        if self.done:
            return
        abort = False
        if self.cut is not None:
            pieces, abort = self.apply_cut(pieces)
        datas = [p.data for p in pieces]
        writes = self.chunk(datas) if rechunk else [d for d in datas if d]
        self.actions += _attribute(pieces, writes)
        if abort:
            assert self.cut is not None
            self.actions.append(Abort(f"disconnect-{self.cut.where}"))
            self.done = True

    def apply_cut(self, pieces: list[_Piece]) -> tuple[list[_Piece], bool]:
        cut = self.cut
        assert cut is not None
        blob = b"".join(p.data for p in pieces)
        at: int | None = None
        if cut.where == "after-bytes":
            if cut.left <= len(blob):
                at = cut.left
            else:
                cut.left -= len(blob)
        elif cut.where == "inside-frame":
            first = next((p for p in pieces if p.data), None)
            if first is not None:
                at = max(1, len(first.data) // 2) if len(first.data) > 1 else 1
                at += sum(len(p.data) for p in pieces[: pieces.index(first)])
        elif cut.where == "inside-utf8":
            lead = next((i for i, b in enumerate(blob) if b >= 0xC0), None)
            if lead is not None:
                at = lead + 1
        if at is None:
            return pieces, False
        out, pos = [], 0
        for p in pieces:
            if pos >= at:
                break
            take = p.data[: at - pos]
            out.append(_Piece(take, p.tags, p.frame))
            pos += len(p.data)
        return out, True

    # -- steps ------------------------------------------------------------------------------------
    def run_stream(self) -> None:
        headers = _merge_headers(
            (("content-type", _content_type(self.dialect, self.transport)),), self.script.headers
        )
        steps = self.script.steps
        if steps and isinstance(steps[0], HttpError):
            self.http_error(steps[0])
            return
        self.actions.append(Head(200, headers))
        for step in steps:
            if self.done:
                return
            if isinstance(step, Emit):
                shaped = self.shape(step.events)
                self.events += shaped
                self.add_frames(self.emitter().feed(list(shaped)))
            elif isinstance(step, EmitFrames):
                self.add_frames(step.frames)
            elif isinstance(step, MidStreamError):
                self.actions.append(Fault("mid-stream-error"))
                self.add_frames(self.emitter().feed([step.error]))
            elif isinstance(step, MalformedFrame):
                self.flush()
                self.actions.append(Fault("malformed-frame"))
                self.add_frames([Frame(step.data, tags=frozenset({"malformed"}))])
            elif isinstance(step, UnknownEvent):
                self.flush()
                self.actions.append(Fault("unknown-event"))
                self.add_frames([Frame(step.data, event=step.event, tags=frozenset({"unknown"}))])
            elif isinstance(step, Raw):
                self.flush()
                self.output([_Piece(c, frozenset(), None) for c in step.chunks], rechunk=False)
            elif isinstance(step, Gate):
                self.flush()
                self.actions.append(WaitGate(step))
            elif isinstance(step, Pause):
                self.flush()
                self.paused += step.seconds
                self.actions.append(Sleep(step.seconds, self.paused))
            elif isinstance(step, Disconnect):
                self.flush()
                if step.where == "now":
                    self.actions.append(Abort("disconnect-now"))
                    self.done = True
                else:
                    self.actions.append(Fault(f"disconnect-{step.where}"))
                    self.cut = _Cut(step.where, step.after_bytes)
            elif isinstance(step, Stall):
                self.flush()
                self.actions.append(Fault("stall"))
                self.actions.append(StallFor(step.timeout))
                self.done = True
            elif isinstance(step, HttpError):
                raise ValueError("HttpError must be the first step of a script")
            else:  # pragma: no cover - exhaustive
                raise TypeError(f"unknown step {step!r}")
        if self.done:
            return
        if self._emitter is not None:
            self.add_frames(self._emitter.close())
        self.flush(end=True)
        if self.done:
            return
        if self.cut is not None:  # the cut point never came: cut at the end, before the proper end
            self.actions.append(Abort(f"disconnect-{self.cut.where}"))
        else:
            self.actions.append(Finish())

    def run_whole(self) -> None:
        steps = self.script.steps
        if steps and isinstance(steps[0], HttpError):
            self.http_error(steps[0])
            return
        dialect = self.need_dialect("a non-streaming response")
        stall: Stall | None = None
        for step in steps:
            if isinstance(step, Emit):
                self.events += self.shape(step.events)
            elif isinstance(step, MidStreamError):
                self.events.append(step.error)
            elif isinstance(step, Pause):
                self.paused += step.seconds
                self.actions.append(Sleep(step.seconds, self.paused))
            elif isinstance(step, Disconnect):
                self.cut = _Cut(step.where, step.after_bytes)
            elif isinstance(step, Stall):
                stall = step
                break
            elif isinstance(step, HttpError):
                raise ValueError("HttpError must be the first step of a script")
        body = dialect.emit_response(tuple(self.events), self.variant, model=self.script.model)
        headers = _merge_headers((("content-type", "application/json"),), self.script.headers)
        self.actions.append(Head(200, headers, "length", len(body)))
        if stall is not None:
            self.actions += [Fault("stall"), StallFor(stall.timeout)]
            return
        if self.cut is not None and self.cut.where == "now":
            self.actions.append(Abort("disconnect-now"))
            return
        if self.cut is not None:
            self.actions.append(Fault(f"disconnect-{self.cut.where}"))
        self.output([_Piece(body, frozenset({"body"}), 0)], rechunk=False)
        if not self.done:
            self.actions.append(Abort(f"disconnect-{self.cut.where}") if self.cut else Finish())

    def http_error(self, step: HttpError) -> None:
        headers = _merge_headers(
            (("content-type", step.content_type),), self.script.headers, keep_type=False
        )
        self.actions += [
            Fault(f"http-{step.status}"),
            Head(step.status, headers, "length", len(step.body)),
            Write(step.body, frozenset({"error"})),
            Finish(),
        ]


def _content_type(dialect: Dialect | None, transport: str) -> str:
    return dialect.content_type if dialect is not None else "text/event-stream"


def _merge_headers(
    base: tuple[tuple[str, str], ...], extra: tuple[tuple[str, str], ...], *, keep_type: bool = True
) -> tuple[tuple[str, str], ...]:
    """``extra`` (the script's headers) override ``base`` by name; hop-by-hop headers are dropped.
    ``keep_type=False``: the base content type wins (an HttpError names its own)."""
    names = {k.lower() for k, _ in extra if k.lower() not in _HOP}
    if not keep_type:
        names.discard("content-type")
    out = [(k, v) for k, v in base if k.lower() not in names]
    out += [
        (k, v) for k, v in extra if k.lower() not in _HOP and (keep_type or k.lower() != "content-type")
    ]
    return tuple(out)


def _attribute(pieces: list[_Piece], writes: list[bytes]) -> list[Write]:
    """Tag each write with the frames its bytes come from (by offset): one sweep over both lists."""
    if _one_to_one(pieces, writes):
        return pieces
    bounds, pos = [], 0
    for p in pieces:
        bounds.append((pos, pos + len(p.data), p))
        pos += len(p.data)
    out: list[Write] = []
    if sum(map(len, writes)) != pos:  # the chunker changed the bytes: attribute everything
        tags_all = frozenset().union(*(p.tags for p in pieces)) if pieces else frozenset()
        first = next((p.frame for p in pieces if p.frame is not None), None)
        return [Write(w, tags_all, first) for w in writes]
    k, off = 0, 0
    for w in writes:
        end = off + len(w)
        while k < len(bounds) and bounds[k][1] <= off and not (bounds[k][0] == off == bounds[k][1]):
            k += 1  # pieces entirely before this write
        hit: list[_Piece] = []
        m = k
        while m < len(bounds) and (bounds[m][0] < end or bounds[m][0] == off):
            s_, e_, p = bounds[m]
            if (s_ < end and e_ > off) or s_ == off:
                hit.append(p)
            m += 1
        if len(hit) == 1:  # a write inside one piece (byte-wise chunkings: nearly all of them)
            out.append(Write(w, hit[0].tags, hit[0].frame))
            off = end
            continue
        tags = frozenset().union(*(p.tags for p in hit)) if hit else frozenset()
        frame = next((p.frame for p in hit if p.frame is not None), None)
        out.append(Write(w, tags, frame))
        off = end
    return out


def _one_to_one(pieces: list[_Piece], writes: list[bytes]) -> bool:
    """Is each write one whole, non-empty piece, in order (the default ``frames`` chunker)? Then the
    sweep would find exactly that piece for each write; skipping it halves planning a long stream."""
    return len(pieces) == len(writes) and all(
        w and w is p.data for p, w in zip(pieces, writes, strict=True)
    )


def _withheld(actions: list[Action]) -> list[Action]:
    """Each gate with what it withholds: the next write after it (one backward sweep)."""
    if not any(type(a) is WaitGate for a in actions):
        return actions
    out: list[Action] = []
    nxt: Write | None = None
    for a in reversed(actions):
        if isinstance(a, Write):
            nxt = a
        elif isinstance(a, WaitGate):
            a = WaitGate(a.gate, _withheld_info(nxt))
        out.append(a)
    out.reverse()
    return out


def _withheld_info(nxt: Write | None) -> dict[str, Any]:
    if nxt is None:
        return {"frame": None, "tags": [], "data": ""}
    return {"frame": nxt.frame, "tags": sorted(nxt.tags), "data": nxt.data.decode(errors="replace")[:400]}


def build_plan(
    script: Script,
    *,
    path: str = "",
    request: Mapping[str, Any] | None = None,
    stream: bool | None = None,
) -> Plan:
    """The actions answering ``request`` (its parsed JSON body) with ``script``."""
    request = request or {}
    dialect = load_dialect(script.dialect)
    streaming = wants_stream(script, path, request) if stream is None else stream
    planner = _Planner(script, dialect, request)
    if streaming:
        planner.run_stream()
    else:
        planner.run_whole()
    return Plan(tuple(_withheld(planner.actions)), streaming, tuple(planner.events))
