"""The Cohere v2 chat stream both ways, sans-IO: the emitter, events to ``event:`` and ``data:`` frames of
``message-start``, ``content-start/delta/end`` for thinking and text, ``tool-call-start/delta/end`` and
``message-end``, and the streaming observer. Writing and reading sit together so the two agree on one
reading of the cohere SDK."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness._json import dumps_compact
from harness.codec import Frame
from harness.dialects._base import EmitterLoop
from harness.dialects._sse_typed import TypedSSEObserver
from harness.dialects._values import mapping, opt_str, string
from harness.events import (
    End,
    Event,
    Notice,
    ReasoningDelta,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)

__all__ = ["CohereEmitter", "CohereObserver", "observe_object", "response_object"]

FINISH = {"stop": "COMPLETE", "tool_calls": "TOOL_CALL", "length": "MAX_TOKENS", "error": "ERROR"}
_BACK = {v: k for k, v in FINISH.items()}
_CONTENT: dict[str, type[ReasoningDelta | TextDelta]] = {"thinking": ReasoningDelta, "text": TextDelta}
"""A content block's type, and the event its text is."""


def usage_json(u: Usage) -> dict[str, Any]:
    tokens = {"input_tokens": u.input_tokens, "output_tokens": u.output_tokens}
    return {"billed_units": dict(tokens), "tokens": tokens}


class CohereEmitter(EmitterLoop):
    """One content block per run of thinking or text (``index`` counts content blocks), tool calls
    with their own index; usage and the finish reason on ``message-end``.

    Shapes from the cohere SDK 7.3.1, ``v2/types/v2chat_stream_response.py`` and the
    ``chat_*_event_delta*`` types: thinking rides ``delta.message.content.thinking`` of a content block
    whose ``content-start`` says ``type: thinking``. They were cross-checked against recorded
    command-a-reasoning streams quoted in public test fixtures; docs
    https://docs.cohere.com/v2/docs/streaming and https://docs.cohere.com/docs/reasoning.
    """

    def __init__(self, *, model: str = "mock-model", id: str = "cohere-mock") -> None:
        self.model = model
        self.id = id
        self._started = False
        self._block: str | None = None  # the open content block's type
        self._index = -1
        self._call: int | None = None  # the open tool call's index
        self._usage: Usage | None = None

    def _frame(self, obj: dict[str, Any], *tags: str) -> Frame:
        return Frame(dumps_compact(obj), event=str(obj["type"]), tags=frozenset(tags))

    def _start(self) -> list[Frame]:
        if self._started:
            return []
        self._started = True
        start = {"id": self.id, "type": "message-start", "delta": {"message": {"role": "assistant"}}}
        return [self._frame(start, "start")]

    def _close(self) -> list[Frame]:
        out: list[Frame] = []
        if self._block is not None:
            tags = ("reasoning-done",) if self._block == "thinking" else ()
            out.append(self._frame({"type": "content-end", "index": self._index}, *tags))
            self._block = None
        if self._call is not None:
            out.append(self._frame({"type": "tool-call-end", "index": self._call}, "tool"))
            self._call = None
        return out

    def _content(self, kind: str, text: str) -> list[Frame]:
        out: list[Frame] = []
        tag = "reasoning" if kind == "thinking" else "text"
        if self._block != kind:
            out += self._close()
            self._index += 1
            self._block = kind
            content = {"type": kind, kind: ""}
            out.append(self._frame({"type": "content-start", "index": self._index,
                                    "delta": {"message": {"content": content}}}, tag))  # fmt: skip
        delta = {"message": {"content": {kind: text}}}
        out.append(self._frame({"type": "content-delta", "index": self._index, "delta": delta}, tag))
        return out

    def _tool(self, ev: ToolCallDelta) -> list[Frame]:
        out: list[Frame] = []
        if self._call != ev.index:
            out += self._close()
            self._call = ev.index
            call = {"id": ev.id or f"call_mock_{ev.index}", "type": "function",
                    "function": {"name": ev.name or "", "arguments": ev.arguments}}  # fmt: skip
            start = {"type": "tool-call-start", "index": ev.index, "delta": {"message": {"tool_calls": call}}}
            return [*out, self._frame(start, "tool")]
        if ev.arguments:
            calls = {"message": {"tool_calls": {"function": {"arguments": ev.arguments}}}}
            out.append(self._frame({"type": "tool-call-delta", "index": ev.index, "delta": calls}, "tool"))
        return out

    def _event(self, ev: Event) -> list[Frame]:
        if isinstance(ev, ReasoningDelta):
            return self._content("thinking", ev.text) if ev.text else []
        if isinstance(ev, TextDelta):
            return self._content("text", ev.text) if ev.text else []
        if isinstance(ev, ToolCallDelta):
            return self._tool(ev)
        if isinstance(ev, Usage):
            self._usage = ev
            return []
        if isinstance(ev, StreamError):
            self.ended = True
            delta = {"error": ev.message, "finish_reason": "ERROR"}
            return [*self._close(), self._frame({"type": "message-end", "delta": delta}, "error")]
        if isinstance(ev, End):
            return self._end(ev)
        return []  # signatures and redacted reasoning: not on this wire (not in its caps)

    def _end(self, ev: End) -> list[Frame]:
        self.ended = True
        delta: dict[str, Any] = {"finish_reason": FINISH.get(ev.reason, ev.reason.upper())}
        if self._usage is not None:
            delta["usage"] = usage_json(self._usage)
        return [*self._close(), self._frame({"type": "message-end", "delta": delta}, "terminal")]


def _usage(raw: Any, out: list[Event]) -> None:
    """The counts of a usage object's ``tokens``, when it has them."""
    tokens = raw.get("tokens") if isinstance(raw, Mapping) else None
    if isinstance(tokens, Mapping):
        counts = [tokens.get(k) for k in ("input_tokens", "output_tokens")]
        i, o = (int(n) if isinstance(n, int | float) else None for n in counts)
        out.append(Usage(i, o))


class CohereObserver(TypedSSEObserver):
    """Cohere v2 SSE (with or without ``event:`` lines) -> canonical events; a content block's type comes
    from its ``content-start``, and a ``content-delta`` says which by the key it carries.

    The stream ends at ``message-end``; an error is its ``delta.error`` with ``finish_reason: ERROR``. A
    ``data: [DONE]``, which the SDK also accepts, is read, never sent.
    """

    terminal = "message-end"
    after_end = True

    def __init__(self, **_: Any) -> None:
        super().__init__()
        self._calls: dict[int, int] = {}  # wire index -> canonical index

    def _object(self, obj: dict[str, Any], kind: str, data: str, event: str, out: list[Event]) -> None:
        message = mapping(mapping(obj.get("delta")).get("message"))
        if kind == "content-delta":
            content = mapping(message.get("content"))
            out += [make(text) for key, make in _CONTENT.items() if (text := string(content.get(key)))]
        elif kind == "tool-plan-delta":
            plan = message.get("tool_plan")
            if isinstance(plan, str) and plan:
                out.append(ReasoningDelta(plan))  # the plan is the model's reasoning before its calls
        elif kind in ("tool-call-start", "tool-call-delta"):
            self._tool(obj, message, out)
        elif kind == "message-end":
            self._done = True
            self._end(obj, out)
        elif kind not in ("message-start", "content-start", "content-end", "tool-call-end", "citation-start",
                          "citation-end", "debug"):  # fmt: skip
            out.append(Notice("unknown-event", kind))

    def _tool(self, obj: Mapping[str, Any], message: Mapping[str, Any], out: list[Event]) -> None:
        call = message.get("tool_calls")
        if not isinstance(call, Mapping):
            return
        wire = obj.get("index")
        wire = wire if isinstance(wire, int) else len(self._calls)
        index = self._calls.setdefault(wire, len(self._calls))
        fn = mapping(call.get("function"))
        args = opt_str(fn.get("arguments")) or ""
        out.append(ToolCallDelta(index, opt_str(call.get("id")), opt_str(fn.get("name")), args))

    def _end(self, obj: Mapping[str, Any], out: list[Event]) -> None:
        delta = mapping(obj.get("delta"))
        _usage(delta.get("usage"), out)
        reason = str(delta.get("finish_reason") or "COMPLETE")
        if reason == "ERROR" or delta.get("error"):
            out.append(StreamError(str(delta.get("error") or "ERROR")))
            return
        out.append(End(_BACK.get(reason, reason.lower())))


def observe_object(obj: Any) -> list[Event]:
    """Canonical events from a non-streaming v2 chat response."""
    if not isinstance(obj, Mapping):
        return [Notice("unknown-frame", dumps_compact(obj)[:80])]
    message = mapping(obj.get("message"))
    out: list[Event] = []
    plan = message.get("tool_plan")
    if isinstance(plan, str) and plan:
        out.append(ReasoningDelta(plan))
    for part in message.get("content") or []:
        kind = mapping(part).get("type")
        if isinstance(kind, str) and kind in _CONTENT and (text := string(part.get(kind))):
            out.append(_CONTENT[kind](text))
    for n, call in enumerate(message.get("tool_calls") or []):
        if isinstance(call, Mapping):
            fn = mapping(call.get("function"))
            out.append(ToolCallDelta(n, str(call.get("id", "")), str(fn.get("name", "")),
                                     str(fn.get("arguments", ""))))  # fmt: skip
    _usage(obj.get("usage"), out)
    reason = str(obj.get("finish_reason") or "COMPLETE")
    out.append(End(_BACK.get(reason, reason.lower())))
    return out


def response_object(events: Sequence[Event], *, model: str, id: str = "cohere-mock") -> dict[str, Any]:
    """The non-streaming v2 chat response for a turn."""
    content: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    usage: Usage | None = None
    reason = "stop"
    for ev in events:
        if isinstance(ev, ReasoningDelta | TextDelta) and ev.text:
            kind = "thinking" if isinstance(ev, ReasoningDelta) else "text"
            if content and content[-1]["type"] == kind:
                content[-1][kind] += ev.text
            else:
                content.append({"type": kind, kind: ev.text})
        elif isinstance(ev, ToolCallDelta):
            if ev.index >= len(calls):
                calls.append({"id": ev.id or f"call_mock_{ev.index}", "type": "function",
                              "function": {"name": ev.name or "", "arguments": ""}})  # fmt: skip
            calls[ev.index]["function"]["arguments"] += ev.arguments
        elif isinstance(ev, Usage):
            usage = ev
        elif isinstance(ev, End):
            reason = ev.reason
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    obj: dict[str, Any] = {"id": id, "message": message, "finish_reason": FINISH.get(reason, reason.upper())}
    if usage is not None:
        obj["usage"] = usage_json(usage)
    return obj
