"""Sans-IO: a :class:`Script` and the request it answers turned into the exact actions of a response. There is
one planner and three executors, the loopback server (its WebSocket mode too), respx and pytest-httpserver,
so no sockets, clocks or threads live here."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from harness.codec import Frame, encode_pieces
from harness.dialects import Dialect, dialect_names, get_dialect
from harness.events import Event
from harness.net import Framing
from harness.upstream import _writes
from harness.upstream._forms import answer_of, answered_chunks, read_as
from harness.upstream._head import framing, merge_headers, request_id
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
from harness.upstream._writes import FrameRun, WaitGate, Write, attribute, chunker, with_withheld

__all__ = [
    "Abort",
    "Action",
    "Fault",
    "Finish",
    "FrameRun",
    "Head",
    "Plan",
    "Sleep",
    "StallFor",
    "WaitGate",
    "Write",
    "build_plan",
    "chunker",
    "dialect_for_path",
    "routes",
    "wants_stream",
]


@functools.cache
def routes() -> tuple[tuple[str, str], ...]:
    """Path suffix -> dialect, for every dialect on one base URL, from each dialect's own
    ``path_suffixes`` (longest suffixes first)."""
    pairs = [
        (suffix, name)
        for name in dialect_names()
        if get_dialect(name).routed  # False: another dialect's paths (a WebSocket mode)
        for suffix in get_dialect(name).path_suffixes
    ]
    return tuple(sorted(pairs, key=lambda pair: -len(pair[0])))


@dataclass(frozen=True, slots=True)
class Head:
    status: int
    headers: tuple[tuple[str, str], ...]
    framing: Framing = "chunked"
    length: int | None = None


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


Action: TypeAlias = Head | Write | FrameRun | WaitGate | Sleep | Fault | Abort | StallFor | Finish


class Plan:
    """A response's actions, and the (rules-shaped) canonical events it carries (what it emitted).

    Iterating a plan yields its actions, one :class:`Write` per socket write; a lazy plan (``make``)
    plans them as they are taken, a batch of frames at a time, so a long stream's first byte does not
    wait for its last frame to be encoded and the whole response is never held at once. ``actions`` is
    the whole tuple (built once); each iteration of a lazy plan plans anew (with the emitter's next
    mock message id). :meth:`runs`: the same, with runs of frames as they were planned.

    Actions are head, writes with their frame tags, gates, pauses, faults, abort, stall and end. A
    streaming plan is produced lazily, a batch of frames at a time, wherever that gives the same bytes.
    """

    __slots__ = ("_actions", "_make", "events", "stream")

    def __init__(
        self,
        actions: Sequence[Action] = (),
        stream: bool = False,
        events: tuple[Event, ...] = (),
        *,
        make: Callable[[], Iterator[Action]] | None = None,
    ) -> None:
        self._actions: tuple[Action, ...] | None = (
            tuple(_writes.one_write_each(actions)) if make is None else None
        )
        self._make = make
        self.stream = stream
        self.events = events

    @property
    def actions(self) -> tuple[Action, ...]:
        if self._actions is None:
            assert self._make is not None
            self._actions = tuple(_writes.one_write_each(self._make()))
        return self._actions

    def __iter__(self) -> Iterator[Action]:
        if self._actions is not None or self._make is None:
            return iter(self.actions)
        return _writes.one_write_each(self._make())

    def runs(self) -> Iterator[Action]:
        """The actions, with a lazy plan's runs of whole frames as :class:`FrameRun` (one each)."""
        if self._actions is not None or self._make is None:
            return iter(self.actions)
        return self._make()

    @property
    def lazy(self) -> bool:
        return self._actions is None

    def body(self) -> bytes:
        """Every byte written, concatenated."""
        return b"".join(a.data for a in self.actions if isinstance(a, Write))


# ---------------------------------------------------------------------------------------------------
def dialect_for_path(path: str, script_dialect: str | None = None) -> str | None:
    """Which dialect a request path addresses. The script's own dialect wins when its declared
    ``path_suffixes`` match."""
    own = get_dialect(script_dialect).path_suffixes if script_dialect is not None else ()
    if any(path.endswith(s) for s in own):
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
    return get_dialect(script.dialect).wants_stream(path, body or {})


# ---------------------------------------------------------------------------------------------------
_Piece: TypeAlias = Write
"""Encoded bytes and the frame they carry, before the chunker cuts the stream into writes: attributed
exactly like a write, so with one write per piece the pieces are the writes."""


@dataclass(slots=True)
class _Cut:
    where: str
    left: int  # after-bytes: bytes still to let through


class _Planner:
    def __init__(
        self, script: Script, dialect: Dialect, asked: Mapping[str, Any] | None, target: str = "", **kw: bool
    ) -> None:
        self.script = script
        self.dialect = dialect
        self.request = request = asked or {}  # None: no request bound (the scripted form)
        self.transport, self.content_type, self.perturbation = framing(
            dialect, target, request, script.perturbation
        )
        self.streaming = streaming = kw.get("streaming", True)
        self.bound = asked is not None
        # the form the provider answers it in
        self.answer = answer_of(script, asked, stream=streaming, target=target)
        self.read = read_as(script, request, target)  # what the provider's strict rules read
        self.variant = self.answer.variant
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
        self._shaped: dict[int, tuple[Event, ...]] = {}
        self.lazy = (
            script.chunking in _writes.BATCH_SAFE_CHUNKERS
            and self.perturbation in _writes.BATCH_SAFE_PERTURBATIONS
            and not any(
                isinstance(s, MidStreamError) or (isinstance(s, Disconnect) and s.where != "now")
                for s in script.steps
            )
        )
        """Plan a batch of frames at a time. Not with a pending cut (where it falls decides which
        events the response carries, known only once the bytes are encoded), nor with a mid-stream
        error (its fault is recorded where the frames before it were last flushed)."""
        plain = script.chunking == "frames" and self.perturbation == "none"
        self.plain = _writes.plain_encoder(self.transport) if plain else None
        """Frame -> its one write, for the most common stream (``frames`` chunking, no perturbation):
        what ``encode_pieces`` and the chunker make, without their pieces (the mock's hot path)."""

    def drain(self) -> list[Action]:
        out, self.actions = self.actions, []
        return out

    def shaped(self, k: int, step: Emit) -> tuple[Event, ...]:
        got = self._shaped.get(k)
        if got is None:
            got = self._shaped[k] = self.shape(step.events)
        return got

    def stream_events(self) -> list[Event]:
        """The events a streaming response carries, without encoding it (lazy plans only: no cut).
        Raises what planning it would raise (before the head is sent, as a whole plan did)."""
        steps, out = self.script.steps, list[Event]()
        if steps and isinstance(steps[0], HttpError):
            return out
        from harness.codec import get_perturbation

        get_perturbation(self.perturbation, self.transport)
        for k, step in enumerate(steps):
            if isinstance(step, Emit):  # no emitter built: each takes a fresh mock id
                out += self.shaped(k, step)
            elif isinstance(step, HttpError):
                raise ValueError("HttpError must be the first step of a script")
            elif isinstance(step, Stall) or (isinstance(step, Disconnect) and step.where == "now"):
                break
        return out

    # -- helpers ----------------------------------------------------------------------------------
    def emitter(self) -> Any:
        if self._emitter is None:
            self._emitter = self.dialect.emitter(self.variant, model=self.script.model)
            self._emitter.bind_request(self.request)  # what the stream's shape depends on in the request
            # what a wire says up front (Anthropic: input tokens in message_start)
            self._emitter.prime([ev for st in self.script.steps if isinstance(st, Emit) for ev in st.events])
        return self._emitter

    def shape(self, events: tuple[Event, ...]) -> tuple[Event, ...]:
        """What this answer carries: the request-forms table's say (any provider rules: e.g. no stream usage
        unless asked, no summaries unless asked), then the provider rules' passback-side shaping."""
        events = self.answer.shape(events)
        rules = self.dialect.provider_rules().get(self.script.provider_rules)
        return events if rules is None else tuple(rules.shape(self.read, events))

    def add_frames(self, frames: Sequence[Frame]) -> None:
        term = self.script.terminator
        if term == "normal":
            self.frames += frames
            return
        if term == "missing":
            self.frames += [f for f in frames if "terminal" not in f.tags]
            return
        for f in frames:  # doubled
            self.frames.append(f)
            if "terminal" in f.tags:
                self.frames.append(f)

    # -- output -----------------------------------------------------------------------------------
    def flush(self, *, end: bool = False, keep_last: bool = False) -> None:
        """Encode the pending frames as one batch (``end``: the last batch of the stream), attributing
        each piece to its frame, and split it into writes with the script's chunker. ``keep_last``
        (a lazy plan's batch): the last frame stays pending, so the stream's last batch is never empty."""
        if not self.frames or self.done:
            self.frames = []
            return
        if keep_last:
            frames, self.frames = self.frames[:-1], self.frames[-1:]
        else:
            frames, self.frames = self.frames, []
        start = not self.flushed
        self.flushed = True
        base = self.frame_count
        self.frame_count += len(frames)
        if self.plain is not None and self.cut is None:  # one write per frame, as encoded
            writes = self.plain(frames, base)
            if writes is not None:
                self.actions += writes
                return
        raw = encode_pieces(frames, self.transport, self.perturbation, start=start, end=end)
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
        self.actions += attribute(pieces, writes)
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
    def run_stream(self) -> Iterator[Action]:
        """The streaming response's actions, yielded a step (a lazy plan: a batch of frames) at a time."""
        steps = self.script.steps
        if steps and isinstance(steps[0], HttpError):
            self.http_error(steps[0])
            yield from self.drain()
            return
        self.actions.append(
            Head(
                200,
                merge_headers(
                    (("content-type", self.content_type), *request_id(self.dialect)), self.script.headers
                ),
            )
        )
        for k, step in enumerate(steps):
            yield from self.drain()
            if self.done:
                return
            take = _STREAM_STEPS.get(type(step))
            if take is None:  # pragma: no cover - exhaustive
                raise TypeError(f"unknown step {step!r}")
            yield from take(self, k, step)
        yield from self.drain()
        if self.done:
            return
        if self._emitter is not None:
            self.add_frames(self._emitter.close())
        self.flush(end=True)
        if not self.done:
            if self.cut is not None:  # the cut point never came: cut at the end, before the proper end
                self.actions.append(Abort(f"disconnect-{self.cut.where}"))
            else:
                self.actions.append(Finish())
        yield from self.drain()

    # -- streaming steps: each plans its step; the frame steps yield batches as they fill -----------
    def emit(self, k: int, step: Emit) -> Iterator[Action]:
        shaped = self.shaped(k, step)
        if not self.lazy:
            self.events += shaped
            self.add_frames(self.emitter().feed(list(shaped)))
            return
        # an Emit the rules shaped to nothing still opens the stream, as a whole plan does
        for batch in _writes.batches(shaped, _writes.BATCH) if shaped else [[]]:
            self.add_frames(self.emitter().feed(batch))
            yield from self.flush_full()

    def emit_frames(self, k: int, step: EmitFrames) -> Iterator[Action]:
        if not self.lazy:
            self.add_frames(step.frames)
            return
        for i in range(0, len(step.frames), _writes.BATCH):
            self.add_frames(step.frames[i : i + _writes.BATCH])
            yield from self.flush_full()

    def flush_full(self) -> Iterator[Action]:
        """A lazy plan's batch is full: encode it (but its last frame) and hand its actions out."""
        if len(self.frames) > _writes.BATCH:
            self.flush(keep_last=True)
            yield from self.drain()

    def mid_stream_error(self, k: int, step: MidStreamError) -> Iterable[Action]:
        self.actions.append(Fault("mid-stream-error"))
        self.add_frames(self.emitter().feed([step.error]))
        return ()

    def odd_frame(self, k: int, step: MalformedFrame | UnknownEvent) -> Iterable[Action]:
        self.flush()
        if isinstance(step, MalformedFrame):
            self.actions.append(Fault("malformed-frame"))
            self.add_frames([Frame(step.data, tags=frozenset({"malformed"}))])
        else:
            self.actions.append(Fault("unknown-event"))
            self.add_frames([Frame(step.data, event=step.event, tags=frozenset({"unknown"}))])
        return ()

    def raw(self, k: int, step: Raw) -> Iterable[Action]:
        self.flush()
        asked = self.request if self.bound else None
        chunks = answered_chunks(step.chunks, self.script.dialect, asked, stream=self.streaming)
        self.output([_Piece(c, frozenset(), None) for c in chunks], rechunk=False)
        return ()

    def gate(self, k: int, step: Gate) -> Iterable[Action]:
        self.flush()
        self.actions.append(WaitGate(step))
        return ()

    def pause(self, k: int, step: Pause) -> Iterable[Action]:
        self.flush()
        self.paused += step.seconds
        self.actions.append(Sleep(step.seconds, self.paused))
        return ()

    def disconnect(self, k: int, step: Disconnect) -> Iterable[Action]:
        self.flush()
        if step.where == "now":
            self.actions.append(Abort("disconnect-now"))
            self.done = True
        else:
            self.actions.append(Fault(f"disconnect-{step.where}"))
            self.cut = _Cut(step.where, step.after_bytes)
        return ()

    def stall(self, k: int, step: Stall) -> Iterable[Action]:
        self.flush()
        self.actions += [Fault("stall"), StallFor(step.timeout)]
        self.done = True
        return ()

    def late_http_error(self, k: int, step: HttpError) -> Iterable[Action]:
        raise ValueError("HttpError must be the first step of a script")

    def run_whole(self) -> None:
        steps = self.script.steps
        if steps and isinstance(steps[0], HttpError):
            self.http_error(steps[0])
            return
        dialect = self.dialect
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
        events, model = tuple(self.events), self.script.model
        body = dialect.emit_response_for(events, self.variant, model=model, request=self.request)
        ctype = dialect.json_content_type
        headers = merge_headers((("content-type", ctype), *request_id(dialect)), self.script.headers)
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
        headers = merge_headers(  # an error carries the request id too: SDKs put it on the exception
            (("content-type", step.content_type), *request_id(self.dialect)),
            (*self.script.headers, *step.headers), keep_type=False,
        )  # fmt: skip
        self.actions += [
            Fault(f"http-{step.status}"),
            Head(step.status, headers, "length", len(step.body)),
            Write(step.body, frozenset({"error"})),
            Finish(),
        ]


_STREAM_STEPS: dict[type, Callable[[_Planner, int, Any], Iterable[Action]]] = {
    Emit: _Planner.emit,
    EmitFrames: _Planner.emit_frames,
    MidStreamError: _Planner.mid_stream_error,
    MalformedFrame: _Planner.odd_frame,
    UnknownEvent: _Planner.odd_frame,
    Raw: _Planner.raw,
    Gate: _Planner.gate,
    Pause: _Planner.pause,
    Disconnect: _Planner.disconnect,
    Stall: _Planner.stall,
    HttpError: _Planner.late_http_error,
}
"""Step type -> how a streaming response plans it (looked up by type, h11's READERS: no isinstance
chain)."""


def build_plan(
    script: Script,
    *,
    path: str = "",
    request: Mapping[str, Any] | None = None,
    stream: bool | None = None,
    lazy: bool = True,
    target: str | None = None,
) -> Plan:
    """The actions answering ``request`` (its parsed JSON body) with ``script``; ``target`` is the
    request's path with its query (``path`` when not given), which may pick the framing. A streaming
    plan is lazy where batching cannot change its bytes (see ``_writes.BATCH_SAFE_CHUNKERS``);
    ``lazy=False`` plans it whole (the tests compare the two)."""
    asked, request = request, request or {}
    target = path if target is None else target
    dialect = get_dialect(script.dialect)
    streaming = wants_stream(script, path, request) if stream is None else stream
    planner = _Planner(script, dialect, asked, target, streaming=streaming)
    if not streaming:
        planner.run_whole()
        return Plan(tuple(with_withheld(planner.actions)), False, tuple(planner.events))
    if not (planner.lazy and lazy):
        planner.lazy = False
        actions = tuple(with_withheld(planner.run_stream()))
        return Plan(actions, True, tuple(planner.events))
    events = tuple(planner.stream_events())
    gated = any(isinstance(step, Gate) for step in script.steps)  # else no step for with_withheld

    def make() -> Iterator[Action]:  # a fresh planner each time: a plan can be taken twice
        fresh = _Planner(script, dialect, asked, target)
        fresh._shaped = planner._shaped  # shaped once, for the events and the frames alike
        return with_withheld(fresh.run_stream()) if gated else fresh.run_stream()

    return Plan(stream=True, events=events, make=make)
