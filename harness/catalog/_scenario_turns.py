"""A scenario's ``[[turns]]``: each turn's fields and its ``steps`` of canonical events, gates and faults,
read into :class:`TurnSpec` with the upstream ``Step`` objects the mock serves. Steps have many kinds, so
their readers sit in a table of their own here."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from harness._errors import ScenarioError, closest
from harness._fields import Err, Field, check_fields, integer, seconds, shown
from harness.events import (
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)
from harness.upstream import (
    Disconnect,
    Emit,
    Gate,
    HttpError,
    MalformedFrame,
    MidStreamError,
    Pause,
    ProviderHttpError,
    Raw,
    Stall,
    Step,
    UnknownEvent,
)

__all__ = ["SILENCE_PAST_TIMEOUT", "ProviderHttpError", "TurnSpec", "parse_turns"]

SILENCE_PAST_TIMEOUT = 1.5
"""A ``{ silence = true }`` step lasts this many times the scenario's ``client_read_timeout``: past the
timeout by a margin that a loaded machine's scheduling cannot eat, and following it when it is scaled."""


@dataclass(frozen=True, slots=True)
class TurnSpec:
    """One upstream request/response of the conversation, and what the client does around it."""

    steps: tuple[Step | ProviderHttpError, ...]
    user: str | None = None  # a new user message starts this turn (None: a tool continuation)
    tool_result: str = "18°C, clear"
    cancel: Gate | None = None  # the client aborts once it observed this
    terminator: str = "normal"
    replay: tuple[str, int] | None = None  # (cassette path, exchange): serve recorded bytes instead
    request: Mapping[str, Any] = field(default_factory=dict)
    """Fields the client adds to its request for this turn (OpenAI chat form: ``response_format``,
    ``tool_choice``); a SUT forwards them in its upstream dialect's form."""
    attempts: tuple[tuple[Step | ProviderHttpError, ...], ...] = ()
    """Failed upstream answers served before ``steps``, one per upstream request of this client turn:
    a SUT that retries meets them in order (fail-then-succeed scripts)."""

    def events(self) -> tuple[Event, ...]:
        return tuple(ev for s in self.steps if isinstance(s, Emit) for ev in s.events)

    @property
    def faulted(self) -> bool:
        return any(
            isinstance(s, HttpError | ProviderHttpError | MidStreamError | Disconnect | Stall)
            for s in self.steps
        )


_TURN_FIELDS: dict[str, Field] = {
    "user": Field(str),
    "tool_result": Field(str),
    "steps": Field(list),
    "cancel": Field(dict, hint='e.g. cancel = { reasoning = "Let me" }'),
    "terminator": Field(str),
    "replay": Field(dict, hint='e.g. replay = { cassette = "recordings/NAME.jsonl", exchange = 0 }'),
    "request": Field(dict, hint='e.g. request = { response_format = { type = "json_object" } }'),
    "attempts": Field(list, hint="a list of step lists: attempts = [[{ http_error = { status = 429 } }]]"),
}
_GATE_FIELDS: dict[str, Field] = {
    "reasoning": Field(str),
    "text": Field(str),
    "events": Field(int, want="an integer >= 1", hint="write it unquoted, e.g. 1"),
    "timeout": Field((int, float), want="a number of seconds > 0", hint="write it unquoted, e.g. 1.5"),
}
_USAGE = ("input_tokens", "output_tokens", "reasoning_tokens", "total_tokens")
_TERMINATORS = ("normal", "missing", "doubled")
_DISCONNECTS = ("now", "after-bytes", "inside-frame", "inside-utf8")


def parse_turns(
    raw: Sequence[Any], gate_timeout: float, err: Err, read_timeout: float | None = None
) -> tuple[TurnSpec, ...]:
    """The ``turns`` list; a conversation starts with a user message ("Hello?" when the first turn
    names none). ``read_timeout``: the scenario's ``client_read_timeout``, which ``silence`` steps follow."""
    turns = tuple(_turn(t, i, gate_timeout, err, read_timeout) for i, t in enumerate(raw))
    if turns[0].user is None:
        turns = (replace(turns[0], user="Hello?"), *turns[1:])
    return turns


def _turn(raw: Any, i: int, gate_timeout: float, err: Err, read_timeout: float | None) -> TurnSpec:
    where = f"turns[{i}]"
    if not isinstance(raw, dict):
        raise err(where, f"expected a table, got {shown(raw)}")

    def here(fld: str, problem: str, hint: str = "") -> ScenarioError:
        return err(f"{where}.{fld}", problem, hint)

    check_fields(raw, _TURN_FIELDS, here)
    if not raw.get("steps"):
        raise here("steps", "missing or empty", 'list the upstream events, e.g. { reasoning = "..." }')
    steps = _Steps(f"{where}.steps", gate_timeout, err, read_timeout).read(raw["steps"])
    attempts = tuple(
        _Steps(f"{where}.attempts[{k}]", gate_timeout, err, read_timeout).read(
            _step_list(a, f"{where}.attempts[{k}]", err)
        )
        for k, a in enumerate(raw.get("attempts", ()))
    )
    cancel = _gate(raw["cancel"], f"{where}.cancel", gate_timeout, err) if "cancel" in raw else None
    term = raw.get("terminator", "normal")
    if term not in _TERMINATORS:
        raise here("terminator", f"unknown terminator {term!r}", "use normal, missing or doubled")
    replay = None
    if "replay" in raw:
        rp = raw["replay"]
        if not isinstance(rp.get("cassette"), str):
            raise here("replay", 'expected { cassette = "recordings/NAME.jsonl", exchange = 0 }')
        replay = (rp["cassette"], integer(rp.get("exchange", 0), f"{where}.replay.exchange", err, low=0))
    return TurnSpec(
        steps,
        raw.get("user"),
        raw.get("tool_result", "18°C, clear"),
        cancel,
        term,
        replay,
        dict(raw.get("request", {})),
        attempts,
    )


def _step_list(raw: Any, where: str, err: Err) -> list[Any]:
    if not isinstance(raw, list) or not raw:
        want = f"expected a non-empty list of steps, got {shown(raw)}"
        raise err(where, want, "e.g. [{ http_error = {...} }]")
    return raw


def _gate(raw: Any, fld: str, default_timeout: float, err: Err) -> Gate:
    if not isinstance(raw, dict) or not raw:
        raise err(fld, f'expected a table like {{ reasoning = "..." }}, got {shown(raw)}')

    def here(key: str, problem: str, hint: str = "") -> ScenarioError:
        return err(f"{fld}.{key}", problem, hint)

    check_fields(raw, _GATE_FIELDS, here, unknown="unknown gate condition")
    return Gate(
        reasoning=raw.get("reasoning"),
        text=raw.get("text"),
        events=integer(raw["events"], f"{fld}.events", err, low=1) if "events" in raw else None,
        timeout=seconds(raw.get("timeout", default_timeout), f"{fld}.timeout", err, positive=True),
    )


@dataclass(slots=True)
class _Steps:
    """Reads one upstream answer's steps (``where``: their path, a turn's ``steps`` or one of its
    failed ``attempts``): consecutive events gather into one ``Emit``, every other step stands alone.

    A step is a table with exactly one step key, and each key has one reader in :data:`_READERS`, looked up
    by key. Every mistake is the caller's error naming ``turns[i].steps[j].<key>``, the value and the
    closest valid keys. An ``end`` is added unless the turn ends itself with a fault that ends the stream,
    a mid-stream error or an explicit ``end``.
    """

    where: str
    gate_timeout: float
    err: Err
    read_timeout: float | None = None
    steps: list[Step | ProviderHttpError] = field(default_factory=list)
    pending: list[Event] = field(default_factory=list)
    tool_index: int = 0
    has_tools: bool = False
    ended: bool = False

    def read(self, raw: Sequence[Any]) -> tuple[Step | ProviderHttpError, ...]:
        for j, st in enumerate(raw):
            sw = f"{self.where}[{j}]"
            if not isinstance(st, dict):
                raise self.err(sw, f"expected a table, got {shown(st)}")
            keys = [k for k in st if k in _READERS]
            extra = [k for k in st if k not in _READERS and k not in ("block", "index")]
            if extra:
                raise self.err(f"{sw}.{extra[0]}", "unknown step field", closest(extra[0], _READERS))
            if len(keys) != 1:
                raise self.err(sw, f"a step has exactly one of {', '.join(_READERS)}; found {keys or 'none'}")
            _READERS[keys[0]](self, st, sw)
        if not self.ended:
            self.pending.append(End("tool_calls" if self.has_tools else "stop"))
        self.flush()
        if any(isinstance(s, HttpError | ProviderHttpError) for s in self.steps[1:]):
            raise self.err(self.where, "http_error must be the first step")
        return tuple(self.steps)

    def flush(self) -> None:
        if self.pending:
            self.steps.append(Emit(tuple(self.pending)))
            self.pending.clear()

    def alone(self, step: Step | ProviderHttpError, *, ends: bool = False) -> None:
        """A step that is not an event: the events before it go out first."""
        self.flush()
        self.steps.append(step)
        self.ended |= ends

    def text(self, st: Mapping[str, Any], sw: str, key: str) -> str:
        val = st[key]
        if not isinstance(val, str):
            raise self.err(sw, f"expected a string, got {shown(val)}")
        return val

    # -- one reader per step key -----------------------------------------------------------------
    def event(self, st: Mapping[str, Any], sw: str) -> None:
        key = next(k for k in st if k in _EVENTS)
        self.pending.append(_EVENTS[key](self.text(st, sw, key), item=str(st.get("block", ""))))

    def end(self, st: Mapping[str, Any], sw: str) -> None:
        self.pending.append(End(self.text(st, sw, "end")))
        self.ended = True

    def tool_call(self, st: Mapping[str, Any], sw: str) -> None:
        val = st["tool_call"]
        if not isinstance(val, dict) or "name" not in val:
            raise self.err(f"{sw}.tool_call", "expected { id = ..., name = ..., arguments = ... }")
        idx = integer(st.get("index", val.get("index", self.tool_index)), f"{sw}.index", self.err, low=0)
        args = str(val.get("arguments", "{}"))
        self.pending.append(ToolCallDelta(idx, str(val.get("id", f"call_{idx}")), str(val["name"]), args))
        self.tool_index, self.has_tools = idx + 1, True

    def usage(self, st: Mapping[str, Any], sw: str) -> None:
        val = st["usage"]
        if not isinstance(val, dict):
            raise self.err(f"{sw}.usage", "expected a table of token counts")
        for k in val:
            if k not in _USAGE:
                raise self.err(f"{sw}.usage.{k}", "unknown token count", closest(k, _USAGE))
        counts = {k: integer(v, f"{sw}.usage.{k}", self.err, low=0) for k, v in val.items()}
        n = [counts.get(k) for k in _USAGE]  # Usage's own order
        self.pending.append(Usage(n[0], n[1], n[2], n[3]))

    def error(self, st: Mapping[str, Any], sw: str) -> None:
        val = st["error"]
        if not isinstance(val, str | dict):
            want = 'a message or { message = "...", code = "..." }'
            raise self.err(f"{sw}.error", f"expected {want}, got {shown(val)}")
        msg = val if isinstance(val, str) else val.get("message", "upstream error")
        code = None if isinstance(val, str) else val.get("code")
        self.alone(MidStreamError(StreamError(str(msg), None if code is None else str(code))), ends=True)

    def gate(self, st: Mapping[str, Any], sw: str) -> None:
        self.alone(_gate(st["gate"], f"{sw}.gate", self.gate_timeout, self.err))

    def open(self, st: Mapping[str, Any], sw: str) -> None:
        """``{ open = true }``: the frames that open the stream (response.created and
        response.in_progress, message_start, a first chunk), before any event: what a provider sends
        at once when the model then reasons silently."""
        if st["open"] is not True:
            raise self.err(f"{sw}.open", f"expected true, got {shown(st['open'])}")
        self.alone(Emit(()))

    def pause(self, st: Mapping[str, Any], sw: str) -> None:
        self.alone(Pause(seconds(st["pause"], f"{sw}.pause", self.err)))

    def silence(self, st: Mapping[str, Any], sw: str) -> None:
        """``{ silence = true }``: the upstream sends nothing for longer than the client's read timeout,
        :data:`SILENCE_PAST_TIMEOUT` times the scenario's ``client_read_timeout``."""
        if st["silence"] is not True:
            raise self.err(f"{sw}.silence", f"expected true, got {shown(st['silence'])}")
        if self.read_timeout is None:
            hint = "set client_read_timeout = SECONDS, or script a fixed { pause = SECONDS }"
            raise self.err(f"{sw}.silence", "a silence outlasts the client's read timeout; none is set", hint)
        self.alone(Pause(round(self.read_timeout * SILENCE_PAST_TIMEOUT, 3)))

    def http_error(self, st: Mapping[str, Any], sw: str) -> None:
        val = st["http_error"]
        if not isinstance(val, dict) or "status" not in val:
            want = '{ status = 400, message = "..." } or { status, body }'
            raise self.err(f"{sw}.http_error", f"expected {want}")
        status = integer(val["status"], f"{sw}.http_error.status", self.err, low=400, high=599)
        if "body" in val:
            self.alone(HttpError(status, str(val["body"]).encode()), ends=True)
            return
        code = None if val.get("code") is None else str(val["code"])
        retry = val.get("retry_after")
        wait = None if retry is None else seconds(retry, f"{sw}.http_error.retry_after", self.err)
        message = str(val.get("message", "upstream error"))
        self.alone(ProviderHttpError(status, message, code, wait), ends=True)

    def disconnect(self, st: Mapping[str, Any], sw: str) -> None:
        val = st["disconnect"]
        where = val if isinstance(val, str) else "after-bytes"
        if where not in _DISCONNECTS:
            raise self.err(f"{sw}.disconnect", f"unknown position {where!r}", closest(where, _DISCONNECTS))
        after = integer(val, f"{sw}.disconnect", self.err, low=0) if not isinstance(val, str) else 0
        self.alone(Disconnect(where, after), ends=True)  # type: ignore[arg-type]

    def stall(self, st: Mapping[str, Any], sw: str) -> None:
        val = st["stall"]
        timeout = 3.0 if val is True else seconds(val, f"{sw}.stall", self.err, positive=True)
        self.alone(Stall(timeout), ends=True)

    def malformed(self, st: Mapping[str, Any], sw: str) -> None:
        val = st["malformed"]
        self.alone(MalformedFrame() if val is True else MalformedFrame(str(val)))

    def unknown_event(self, st: Mapping[str, Any], sw: str) -> None:
        val = st["unknown_event"]
        self.alone(UnknownEvent() if val is True else UnknownEvent(str(val)))

    def raw(self, st: Mapping[str, Any], sw: str) -> None:
        val = st["raw"]
        chunks = (val.encode(),) if isinstance(val, str) else tuple(str(v).encode() for v in val)
        self.alone(Raw(chunks))


_EVENTS: dict[str, Callable[..., Event]] = {
    "reasoning": ReasoningDelta,
    "text": TextDelta,
    "signature": ReasoningSignature,
    "redacted": RedactedReasoning,
}
"""Step keys whose string value is one canonical event (``block`` names its item)."""

_READERS: dict[str, Callable[[_Steps, Mapping[str, Any], str], None]] = {
    **dict.fromkeys(_EVENTS, _Steps.event),
    "tool_call": _Steps.tool_call,
    "usage": _Steps.usage,
    "end": _Steps.end,
    "gate": _Steps.gate,
    "open": _Steps.open,
    "pause": _Steps.pause,
    "silence": _Steps.silence,
    "error": _Steps.error,
    "http_error": _Steps.http_error,
    "disconnect": _Steps.disconnect,
    "stall": _Steps.stall,
    "malformed": _Steps.malformed,
    "unknown_event": _Steps.unknown_event,
    "raw": _Steps.raw,
}
"""Step key -> its reader (the order is the one error messages list the keys in)."""
