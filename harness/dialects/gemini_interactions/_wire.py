"""The Gemini Interactions stream both ways, sans-IO, for ``POST /v1/interactions`` with ``stream: true``: the
emitter, events to ``interaction.created``, ``interaction.status_update``, ``step.start`` / ``step.delta``
/ ``step.stop`` per step, ``interaction.completed`` or an ``error`` event, and the streaming observer.
Writing and reading sit together so the two agree on one reading of the SDK types."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness._json import dumps_compact
from harness.codec import Frame
from harness.dialects._base import EmitterLoop
from harness.dialects._sse_typed import TypedSSEObserver
from harness.dialects._values import json_args, mapping, opt_str, string
from harness.dialects.gemini._wire import google_counts
from harness.events import (
    End,
    Event,
    Notice,
    ReasoningDelta,
    ReasoningSignature,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)

__all__ = [
    "InteractionsEmitter",
    "InteractionsObserver",
    "error_object",
    "interaction_object",
    "observe_interaction",
]

DELTA_TYPES: dict[str, frozenset[str]] = {
    "thought": frozenset({"thought_summary", "thought_signature"}),
    "model_output": frozenset({"text", "text_annotation_delta", "image", "audio", "document", "video"}),
    "function_call": frozenset({"arguments_delta"}),
}
"""The delta types each step type streams (google-genai ``StepDeltaData``; a step type not listed is a
server-side tool's, which this wire reads without judging)."""

_CODES = {400: "invalid_argument", 401: "unauthenticated", 403: "permission_denied", 404: "not_found",
          429: "resource_exhausted", 499: "cancelled", 500: "internal", 503: "unavailable",
          504: "deadline_exceeded"}  # fmt: skip


def error_code(status: int | None) -> str:
    """The Interactions error ``code``: a string (google-genai ``interactions.Error.code: str``; its
    own tests use the canonical status in lower case, ``resource_exhausted``: **(guess)** beyond those)."""
    return _CODES.get(status or 500, "internal" if (status or 500) >= 500 else "invalid_argument")


def error_object(status: int | None, message: str, code: str | None = None) -> dict[str, Any]:
    """google-genai ``CreateInteractionClientErrorData``: ``{"error": {"code": <str>, "message"}}``. Its
    ``code`` is a string: Google's numeric ``code`` of generateContent fails the SDK's validation."""
    return {"error": {"code": error_code(status) if code is None else code, "message": message}}


def usage_json(u: Usage) -> dict[str, Any]:
    """Google's counts (:func:`google_counts`): ``total_output_tokens`` leaves reasoning out, ``total_tokens``
    is always there (input + output + thought, as google-genai's own test fixtures add them)."""
    output, total = google_counts(u)
    fields = {"total_input_tokens": u.input_tokens, "total_output_tokens": output,
              "total_thought_tokens": u.reasoning_tokens, "total_tokens": total}  # fmt: skip
    return {k: v for k, v in fields.items() if v is not None}


class InteractionsEmitter(EmitterLoop):
    """One step per run of reasoning (``thought``), text (``model_output``) or one tool call
    (``function_call``); a signature closes the thought step it belongs to (a signature with no thought
    step open opens a signature-only one). ``status`` on completion: ``requires_action`` after a tool
    call, else ``completed``.

    Shapes from google-genai 3.6.1's Interactions types, ``_gaos/types/interactions``:
    ``InteractionSSEEvent`` discriminated by ``event_type``; ``StepStart.step`` a ``thought``,
    ``model_output`` or ``function_call`` step; ``StepDeltaData`` discriminated by ``type``:
    ``thought_summary`` with a text ``content``, ``thought_signature``, ``text``, ``arguments_delta``. They
    are framed as the streaming docs show, https://ai.google.dev/gemini-api/docs/interactions/streaming: an
    ``event:`` line naming the event type, the JSON on one ``data:`` line with ``event_type`` last.
    """

    def __init__(self, *, model: str = "mock-model", id: str = "v1_mock-interaction") -> None:
        self.model = model
        self.id = id
        self._started = False
        self._step: str | None = None  # the open step's type
        self._index = -1
        self._call: int | None = None  # the canonical index of the open function_call step
        self._usage: Usage | None = None
        self._calls = False

    def _frame(self, obj: dict[str, Any], kind: str, *tags: str) -> Frame:
        obj["event_type"] = kind
        return Frame(dumps_compact(obj), event=kind, tags=frozenset(tags))

    def _start(self) -> list[Frame]:
        if self._started:
            return []
        self._started = True
        head = {"id": self.id, "status": "in_progress", "object": "interaction", "model": self.model}
        status = {"interaction_id": self.id, "status": "in_progress"}
        return [
            self._frame({"interaction": head}, "interaction.created", "start"),
            self._frame(status, "interaction.status_update", "start"),
        ]

    def _stop(self) -> list[Frame]:
        if self._step is None:
            return []
        tags = {"thought": ("reasoning-done",), "function_call": ("tool",)}.get(self._step, ())
        self._step, self._call = None, None
        return [self._frame({"index": self._index}, "step.stop", *tags)]

    def _open(self, step: dict[str, Any], *tags: str) -> list[Frame]:
        out = self._stop()
        self._index += 1
        self._step = str(step["type"])
        return [*out, self._frame({"index": self._index, "step": step}, "step.start", *tags)]

    def _delta(self, delta: dict[str, Any], *tags: str) -> Frame:
        return self._frame({"index": self._index, "delta": delta}, "step.delta", *tags)

    def _event(self, ev: Event) -> list[Frame]:
        out: list[Frame] = []
        if isinstance(ev, ReasoningDelta | TextDelta):
            if not ev.text:
                return []
            thought = isinstance(ev, ReasoningDelta)
            step, tag = ("thought", "reasoning") if thought else ("model_output", "text")
            if self._step != step:
                out += self._open({"type": step}, tag)
            text = {"type": "text", "text": ev.text}
            return [*out, self._delta({"type": "thought_summary", "content": text} if thought else text, tag)]
        if isinstance(ev, ReasoningSignature):
            if self._step != "thought":
                out += self._open({"type": "thought"}, "reasoning")
            out.append(self._delta({"type": "thought_signature", "signature": ev.value}, "reasoning"))
            return out + self._stop()  # the signature is a thought step's last delta
        if isinstance(ev, ToolCallDelta):
            return self._tool(ev)
        if isinstance(ev, Usage):
            self._usage = ev
            return []
        if isinstance(ev, StreamError):
            self.ended = True
            err = error_object(ev.status, ev.message, ev.code or None)
            return [*self._stop(), self._frame(err, "error", "error")]
        if isinstance(ev, End):
            return self._end(ev)
        return []  # redacted reasoning: not on this wire (not in its caps)

    def _tool(self, ev: ToolCallDelta) -> list[Frame]:
        self._calls = True
        out: list[Frame] = []
        if self._step != "function_call" or self._call != ev.index:
            step = {"type": "function_call", "id": ev.id or f"call_mock_{ev.index}", "name": ev.name or "",
                    "arguments": {}}  # fmt: skip
            out, self._call = self._open(step, "tool"), ev.index
        if ev.arguments:
            out.append(self._delta({"type": "arguments_delta", "arguments": ev.arguments}, "tool"))
        return out

    def _end(self, ev: End) -> list[Frame]:
        self.ended = True
        head = _interaction(self.id, self.model, ev.reason, self._calls, self._usage)
        return [*self._stop(), self._frame({"interaction": head}, "interaction.completed", "terminal")]


def _interaction(
    id: str, model: str, reason: str, called: bool, usage: Usage | None, steps: list[Any] | None = None
) -> dict[str, Any]:
    """A finished Interaction: its ``status`` from how the turn ended, its steps, its ``usage``."""
    status = "requires_action" if called or reason == "tool_calls" else "completed"
    status = "incomplete" if reason == "length" else status
    head: dict[str, Any] = {"id": id, "status": status, "object": "interaction", "model": model}
    head |= {"steps": steps, "usage": usage_json(usage) if usage is not None else None}
    return {k: v for k, v in head.items() if v is not None}


_STEP_PARTS: dict[str, tuple[str, type[ReasoningDelta | TextDelta]]] = {
    "thought": ("summary", ReasoningDelta),
    "model_output": ("content", TextDelta),
}
"""Where a whole step (a ``step.start`` or a non-streaming step) holds its text, and as what."""
_STATUS_END = {"completed": "stop", "requires_action": "tool_calls", "incomplete": "length"}


def _count(usage: Mapping[str, Any], key: str) -> int | None:
    v = usage.get(key)
    return int(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def _end_event(interaction: Any, out: list[Event]) -> None:
    """The Interaction's ``usage`` (:func:`usage_json` read back) and how it ended (no Interaction: stop)."""
    head = mapping(interaction)
    usage = head.get("usage")
    if isinstance(usage, Mapping):
        output, thought = _count(usage, "total_output_tokens"), _count(usage, "total_thought_tokens")
        output = None if output is None else output + (thought or 0)
        out.append(Usage(_count(usage, "total_input_tokens"), output, thought, _count(usage, "total_tokens")))
    status = str(head.get("status") or "completed")
    if status in ("failed", "cancelled"):
        out.append(StreamError(f"interaction {status}", code=status))
    else:
        out.append(End(_STATUS_END.get(status, status)))


class InteractionsObserver(TypedSSEObserver):
    """Interactions SSE -> canonical events. Steps are kept by their ``index``: a delta reads as the
    channel its own ``type`` says, and a break of the step protocol is a notice beside it.

    A thought step's signature is a delta of its own, read as the signature of that step's reasoning block.
    Every break of the step protocol is noticed without being repaired: a delta for a step never started or
    already stopped, a delta whose type does not belong to its step.
    """

    terminal = "interaction.completed"
    type_key = "event_type"
    after_end = True

    def __init__(self) -> None:
        super().__init__()
        self._steps: dict[int, str] = {}  # open steps: index -> step type
        self._stopped: set[int] = set()
        self._calls: dict[int, int] = {}  # step index -> canonical tool-call index

    def _object(self, obj: dict[str, Any], kind: str, data: str, event: str, out: list[Event]) -> None:
        if event and event != "message" and event != kind:
            out.append(Notice("event-mismatch", f"event: {event}, event_type {kind}"))
        index = obj.get("index")
        if kind == "step.start":
            step = obj.get("step")
            if not isinstance(index, int) or not isinstance(step, Mapping):
                out.append(Notice("malformed-block", data[:80]))
                return
            if index in self._steps or index in self._stopped:
                out.append(Notice("second-lifecycle", f"step {index}"))
            self._steps[index] = str(step.get("type", ""))
            self._start(index, step, out)
        elif kind == "step.delta":
            delta = obj.get("delta")
            if not isinstance(index, int) or not isinstance(delta, Mapping):
                out.append(Notice("malformed-delta", data[:80]))
                return
            self._delta(index, delta, out)
        elif kind == "step.stop":
            if isinstance(index, int) and self._steps.pop(index, None) is None:
                out.append(Notice("unknown-block", f"step.stop for step {index}"))
            if isinstance(index, int):
                self._stopped.add(index)
        elif kind == "interaction.completed":
            self._done = True
            out += [Notice("unclosed-block", f"step {n} never stopped") for n in sorted(self._steps)]
            _end_event(obj.get("interaction"), out)
        elif kind == "error":
            self._done = True
            err = mapping(obj.get("error"))
            code = None if err.get("code") is None else str(err["code"])
            out.append(StreamError(str(err.get("message") or "error"), code))
        elif kind not in ("interaction.created", "interaction.status_update"):
            out.append(Notice("unknown-event", kind))

    def _start(self, index: int, step: Mapping[str, Any], out: list[Event]) -> None:
        """What a ``step.start`` already carries (a whole step may arrive in it)."""
        stype = step.get("type")
        if stype == "function_call":
            n = self._calls.setdefault(index, len(self._calls))
            args = step.get("arguments")
            text = dumps_compact(args) if isinstance(args, Mapping) and args else ""
            out.append(ToolCallDelta(n, opt_str(step.get("id")), opt_str(step.get("name")), text))
        elif isinstance(stype, str) and stype in _STEP_PARTS:
            key, make = _STEP_PARTS[stype]
            for part in step.get(key) or []:
                if text := string(mapping(part).get("text")):
                    out.append(make(text, item=str(index)))
            if stype == "thought" and (sig := string(step.get("signature"))):
                out.append(ReasoningSignature(sig, item=str(index)))

    def _delta(self, index: int, delta: Mapping[str, Any], out: list[Event]) -> None:
        dtype = str(delta.get("type", ""))
        stype = self._steps.get(index)
        if stype is None:
            where = "stopped" if index in self._stopped else "never started"
            out.append(Notice("delta-without-start", f"step {index} ({where}): {dtype}"))
        elif stype in DELTA_TYPES and dtype not in DELTA_TYPES[stype]:
            out.append(Notice("delta-type-mismatch", f"{dtype} delta in a {stype} step {index}"))
        item = str(index)
        if dtype == "thought_summary":
            if text := string(mapping(delta.get("content")).get("text")):
                out.append(ReasoningDelta(text, item=item))
        elif dtype == "thought_signature":
            sig = string(delta.get("signature"))
            out.append(
                ReasoningSignature(sig, item=item) if sig else Notice("empty-signature", f"step {index}")
            )
        elif dtype == "text":
            if text := string(delta.get("text")):
                out.append(TextDelta(text, item=item))
        elif dtype == "arguments_delta":
            n = self._calls.setdefault(index, len(self._calls))
            if args := string(delta.get("arguments")):
                out.append(ToolCallDelta(n, None, None, args))
        elif dtype not in ("text_annotation_delta",):
            out.append(Notice("unknown-delta", dtype))


def observe_interaction(obj: Any) -> list[Event]:
    """Canonical events from a non-streaming Interaction (its ``steps``, ``usage`` and ``status``)."""
    if not isinstance(obj, Mapping):
        return [Notice("unknown-frame", dumps_compact(obj)[:80])]
    out: list[Event] = []
    reader = InteractionsObserver()
    for n, step in enumerate(obj.get("steps") or []):
        if isinstance(step, Mapping):
            reader._start(n, step, out)
    _end_event(obj, out)
    return out


def interaction_object(
    events: Sequence[Event], *, model: str, id: str = "v1_mock-interaction"
) -> dict[str, Any]:
    """The non-streaming Interaction for a turn: the model's steps (a create response holds only the
    steps the model produced), ``usage`` and ``status``."""
    steps: list[dict[str, Any]] = []
    calls: dict[int, dict[str, Any]] = {}
    args: dict[int, str] = {}
    usage: Usage | None = None
    reason = "stop"
    for ev in events:
        last = steps[-1] if steps else {}
        if isinstance(ev, ReasoningDelta | TextDelta) and ev.text:
            kind = "thought" if isinstance(ev, ReasoningDelta) else "model_output"
            key = _STEP_PARTS[kind][0]
            if last.get("type") != kind or "signature" in last:
                steps.append({"type": kind, key: [{"type": "text", "text": ""}]})
            steps[-1][key][0]["text"] += ev.text
        elif isinstance(ev, ReasoningSignature):
            if last.get("type") != "thought" or "signature" in last:
                steps.append({"type": "thought"})
            steps[-1]["signature"] = ev.value
        elif isinstance(ev, ToolCallDelta):
            if ev.index not in calls:
                calls[ev.index] = {"type": "function_call", "id": ev.id or f"call_mock_{ev.index}",
                                   "name": ev.name or "", "arguments": {}}  # fmt: skip
                steps.append(calls[ev.index])
            args[ev.index] = args.get(ev.index, "") + ev.arguments
        elif isinstance(ev, Usage):
            usage = ev
        elif isinstance(ev, End):
            reason = ev.reason
    for n, text in args.items():
        calls[n]["arguments"] = json_args(text)
    return _interaction(id, model, reason, bool(calls), usage, steps)
