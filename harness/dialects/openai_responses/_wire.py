"""The OpenAI Responses emitter: canonical events to ``event:`` and ``data:`` frames, each item's lifecycle of
added, parts, deltas and done-repeats in the variant's event names. The observer is in ``_observer``,
because reading has to survive what writing never produces."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from harness._json import dumps_compact
from harness.codec import Frame
from harness.dialects._base import EmitterLoop
from harness.dialects._provider_errors import openai_stream_code
from harness.dialects._values import mapping
from harness.events import (
    Block,
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    Usage,
)

__all__ = ["ALIASES", "CONTENT_VARIANTS", "SUMMARY_VARIANTS", "ResponsesEmitter", "phase_of"]

CREATED_AT = 1758106874
OPENAI_VARIANTS = frozenset({"summary", "empty", "failed", "phase"})
"""Variants that play OpenAI's own API: their deltas carry ``obfuscation`` padding (recorded)."""
_DEFAULTS: tuple[tuple[str, Any], ...] = (
    ("background", False), ("completed_at", None), ("error", None), ("frequency_penalty", 0.0),
    ("incomplete_details", None), ("instructions", None), ("max_output_tokens", None),
    ("max_tool_calls", None), ("model", None), ("moderation", None), ("output", None),
    ("parallel_tool_calls", True), ("presence_penalty", 0.0), ("previous_response_id", None),
    ("prompt_cache_key", None), ("prompt_cache_retention", "24h"), ("reasoning", None),
    ("safety_identifier", None), ("service_tier", "auto"), ("store", True), ("temperature", 1.0),
    ("text", None), ("tool_choice", "auto"), ("tools", None), ("top_logprobs", 0), ("top_p", 1.0),
    ("truncation", "disabled"), ("usage", None), ("user", None), ("metadata", None),
)  # fmt: skip
"""The ``response`` object's fields in the recorded order (recordings/corpus/openai-responses-*), with
the value when the request does not set it; the request's own value is echoed (``store`` defaults to
true: the API's default)."""
_ECHOED = frozenset(
    {"instructions", "max_output_tokens", "max_tool_calls", "parallel_tool_calls", "previous_response_id",
     "prompt_cache_key", "safety_identifier", "store", "temperature", "tool_choice", "top_logprobs",
     "top_p", "truncation", "user", "metadata", "service_tier"}
)  # fmt: skip
SUMMARY_VARIANTS = frozenset({"summary", "empty", "alias-summary", "failed", "phase"})
"""Variants whose reasoning travels as ``summary[]`` (the others use ``content[]`` reasoning_text)."""
CONTENT_VARIANTS = frozenset({"reasoning_text", "alias-string", "alias-object", "vllm-parts"})
ALIASES = frozenset(
    {
        "response.reasoning.delta",
        "response.reasoning.done",
        "response.reasoning_summary.delta",
        "response.reasoning_summary.done",
        "response.reasoning_part.added",
        "response.reasoning_part.done",
    }
)
_ids = itertools.count(1)


def phase_of(following: Sequence[Event | Block]) -> str:
    """An assistant message's ``phase`` (gpt-5.3-codex and later): ``commentary`` when a function call
    follows it in the same response, else ``final_answer`` (openai ``ResponseOutputMessage.phase``)."""
    for x in following:
        if isinstance(x, ToolCallDelta | ToolCallBlock):
            return "commentary"
        if isinstance(x, End):
            break
    return "final_answer"


def usage_json(u: Usage) -> dict[str, Any]:
    """Every count ``ResponseUsage`` requires (``_schema.USAGE_FIELDS``), as the API always sends them: a
    count the event does not know is 0."""
    out: dict[str, Any] = {"input_tokens": u.input_tokens or 0, "input_tokens_details": {"cached_tokens": 0}}
    out["output_tokens"] = u.output_tokens or 0
    out["output_tokens_details"] = {"reasoning_tokens": u.reasoning_tokens or 0}
    total = u.total_tokens
    out["total_tokens"] = total if total is not None else out["input_tokens"] + out["output_tokens"]
    return out


# --------------------------------------------------------------------------------------------------
# Emitter


@dataclass(frozen=True, slots=True)
class _Carrier:
    """How one kind of item streams its text: the stems of its part events (``.added``/``.done``, None:
    the variant sends none) and text events (``.delta``/``.done``), its parts' ``type`` (a summary part
    is placed by ``summary_index``, any other by ``content_index``), and the tag of its frames."""

    part_events: str | None
    text_events: str
    part_type: str
    tag: str = "reasoning"
    wrapped: bool = False  # a delta as ``{"text": ...}`` (older spec)
    logprobs: bool = False  # output text: its parts and events carry ``annotations`` / ``logprobs``

    @property
    def index(self) -> str:
        return "summary_index" if self.part_type == "summary_text" else "content_index"

    def part(self, text: str) -> dict[str, Any]:
        if self.logprobs:
            return {"type": self.part_type, "annotations": [], "logprobs": [], "text": text}
        return {"type": self.part_type, "text": text}


_SUMMARY = _Carrier("response.reasoning_summary_part", "response.reasoning_summary_text", "summary_text")
_RAW = _Carrier("response.content_part", "response.reasoning_text", "reasoning_text")
_ALIAS = _Carrier(None, "response.reasoning", "reasoning_text")


def _carrier(variant: str) -> _Carrier:
    """A reasoning item's events in ``variant`` (``phase`` and ``failed`` use summary's names)."""
    if variant == "alias-summary":
        return replace(_SUMMARY, text_events="response.reasoning_summary")
    if variant in SUMMARY_VARIANTS:
        return _SUMMARY
    if variant == "reasoning_text":
        return _RAW
    if variant == "vllm-parts":
        return replace(_RAW, part_events="response.reasoning_part")
    return replace(_ALIAS, wrapped=True) if variant == "alias-object" else _ALIAS


_TEXT = _Carrier("response.content_part", "response.output_text", "output_text", "text", logprobs=True)
_KINDS = {"reasoning": ("rs", "reasoning"), "message": ("msg", "text"), "function_call": ("fc", "tool")}
"""An item type's id prefix and the tag of its frames."""


@dataclass(slots=True)
class _Item:
    item_type: str  # reasoning | message | function_call
    id: str
    output_index: int
    parts: list[str] = field(default_factory=list)  # reasoning parts / message content parts
    part_key: str | None = None  # the canonical item of the open part (None: no part is open)
    encrypted: str | None = None
    call_id: str = ""
    name: str = ""
    arguments: str = ""
    tool_index: int = -1
    phase: str | None = None  # a message item's phase (variant ``phase``)


class ResponsesEmitter(EmitterLoop):
    """Canonical events -> Responses SSE frames in one variant's shape.

    Items open on their first event and close when an event of another item arrives (or at the end):
    a reasoning item also closes on its :class:`ReasoningSignature` (its ``encrypted_content``). Item
    ids share the response's stem (``rs_mock3_0``, ``fc_mock3_1``), as OpenAI's do.
    """

    def __init__(self, variant: str, *, model: str = "mock-model") -> None:
        self.variant = variant
        self._carrier = _carrier(variant)  # the events of its reasoning items
        self.model = model
        n = next(_ids)
        self.stem = f"mock{n}"
        self.response_id = f"resp_mock{n}"
        self._seq = 0
        self._started = False
        self._item: _Item | None = None
        self._output: list[dict[str, Any]] = []
        self._usage: Usage | None = None
        self.request: Mapping[str, Any] = {}
        """The request answered (:meth:`bind_request`): the response object echoes its settings."""
        self._pads = 0
        self.snapshot: dict[str, Any] | None = None
        """The final ``response`` object (what ``response.completed`` carried)."""
        self._batch: Sequence[Event] = ()  # the events of the current feed (a message's phase looks ahead)
        self._pos = 0

    def feed(self, events: Sequence[Event]) -> list[Frame]:
        self._batch, self._pos = events, 0
        return super().feed(events)

    def bind_request(self, request: Mapping[str, Any]) -> None:
        self.request = request

    # -- helpers
    def _frame(self, type_: str, body: dict[str, Any], *tags: str) -> Frame:
        obj: dict[str, Any] = {"type": type_, "sequence_number": self._seq}
        obj.update(body)
        if type_.endswith(".delta") and self.variant in OPENAI_VARIANTS:
            self._pads += 1
            obj["obfuscation"] = "mockPadding0123"[: 4 + self._pads % 11]
        self._seq += 1
        return Frame(dumps_compact(obj), event=type_, tags=frozenset(tags))

    def _reasoning_echo(self) -> dict[str, Any]:
        asked = self.request.get("reasoning")
        if isinstance(asked, Mapping):
            return {"effort": asked.get("effort", "medium"), "summary": asked.get("summary")}
        if not self.request and self.variant in SUMMARY_VARIANTS and self.variant != "empty":
            return {"effort": "medium", "summary": "detailed"}  # no request bound: as scripted
        return {"effort": "medium", "summary": None}

    def _response(self, status: str, *, final: bool) -> dict[str, Any]:
        """The ``response`` object with every field the real API sends (recorded order), the request's
        settings echoed; ``store`` is the request's, true when absent (the API default)."""
        req = self.request
        obj: dict[str, Any] = {"id": self.response_id, "object": "response", "created_at": CREATED_AT}
        obj["status"] = status
        for key, default in _DEFAULTS:
            obj[key] = req[key] if key in _ECHOED and key in req else default
        obj["completed_at"] = CREATED_AT + 1 if status == "completed" else None
        obj["model"] = self.model
        obj["output"] = list(self._output) if final else []
        obj["reasoning"] = self._reasoning_echo()
        if final and "service_tier" not in req:
            obj["service_tier"] = "default"
        obj["text"] = {"format": {"type": "text"}, "verbosity": "medium", **mapping(req.get("text"))}
        obj["tools"] = list(req.get("tools") or [])
        obj["metadata"] = dict(req.get("metadata") or {})
        obj["usage"] = usage_json(self._usage) if final and self._usage is not None else None
        return obj

    def _start(self) -> list[Frame]:
        if self._started:
            return []
        self._started = True
        snap = self._response("in_progress", final=False)
        return [
            self._frame("response.created", {"response": snap}, "start"),
            self._frame("response.in_progress", {"response": snap}, "start"),
        ]

    def _event(self, ev: Event) -> list[Frame]:
        self._pos += 1
        if isinstance(ev, ReasoningDelta):
            return self._reasoning(ev)
        if isinstance(ev, ReasoningSignature):
            return self._signature(ev.value)
        if isinstance(ev, RedactedReasoning):
            return self._signature(ev.data)  # opaque reasoning: the closest Responses carries
        if isinstance(ev, TextDelta):
            return self._text(ev)
        if isinstance(ev, ToolCallDelta):
            return self._tool(ev)
        if isinstance(ev, Usage):
            self._usage = ev
            return []
        if isinstance(ev, StreamError):
            self.ended = True
            if self.variant == "failed":
                snap = self._response("failed", final=True)
                snap["error"] = {"code": ev.code or "server_error", "message": ev.message}
                return [self._frame("response.failed", {"response": snap}, "error")]
            body = {"code": openai_stream_code(ev.status, ev.code), "message": ev.message, "param": None}
            return [self._frame("error", body, "error")]
        if isinstance(ev, End):
            return self._end(ev)
        return []

    # -- items
    def _open(self, kind: str, **fields: Any) -> tuple[list[Frame], _Item]:
        """The open item closed, a new one of ``kind`` opened, with its ``output_item.added``."""
        out = self._close_item()
        oi = len(self._output)
        prefix, tag = _KINDS[kind]
        item = _Item(kind, f"{prefix}_{self.stem}_{oi}", oi, **fields)
        self._item = item
        body = {"output_index": oi, "item": self._body(item, done=False)}
        out.append(self._frame("response.output_item.added", body, tag))
        return out, item

    def _body(self, item: _Item, *, done: bool) -> dict[str, Any]:
        """The item as its ``output_item.added`` (``done`` False) or ``output_item.done`` carries it."""
        status = "completed" if done else "in_progress"
        if item.item_type == "function_call":
            return {
                "id": item.id, "type": "function_call", "status": status, "arguments": item.arguments,
                "call_id": item.call_id, "name": item.name,
            }  # fmt: skip
        if item.item_type == "message":
            content = [_TEXT.part(t) for t in item.parts]
            body: dict[str, Any] = {
                "id": item.id,
                "type": "message",
                "status": status,
                "content": content,
                "role": "assistant",
            }
            if item.phase is not None:
                body["phase"] = item.phase
            return body
        body = {"id": item.id, "type": "reasoning", "summary": []}
        vllm = self.variant == "vllm-parts"
        if not done:
            if vllm:
                body |= {"content": None, "encrypted_content": None, "status": status}
            return body
        carrier = self._carrier
        body["summary" if carrier.index == "summary_index" else "content"] = [
            carrier.part(t) for t in item.parts
        ]
        if item.encrypted is not None or vllm:
            body["encrypted_content"] = item.encrypted
        if vllm:
            body["status"] = status
        return body

    def _reasoning(self, ev: ReasoningDelta) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.item_type != "reasoning":
            out, item = self._open("reasoning")
        if self.variant == "empty" or not ev.text:
            return out  # the item carries no visible reasoning
        return out + self._part_text(item, self._carrier, ev.item, ev.text)

    @staticmethod
    def _loc(item: _Item, carrier: _Carrier) -> dict[str, Any]:
        return {"item_id": item.id, "output_index": item.output_index, carrier.index: len(item.parts) - 1}

    def _part_text(self, item: _Item, carrier: _Carrier, key: str, text: str) -> list[Frame]:
        """``text`` as a delta of the open part, a new part opened first when ``key`` (the canonical
        item) changes."""
        out: list[Frame] = []
        if item.part_key is not None and item.part_key != key:
            out += self._close_part(item, carrier)
        if item.part_key is None:
            item.parts.append("")
            item.part_key = key
            if carrier.part_events is not None:
                loc = self._loc(item, carrier)
                part = carrier.part("")
                out.append(self._frame(carrier.part_events + ".added", {**loc, "part": part}, carrier.tag))
        item.parts[-1] += text
        body = {**self._loc(item, carrier), "delta": {"text": text} if carrier.wrapped else text}
        if carrier.logprobs:
            body["logprobs"] = []
        out.append(self._frame(carrier.text_events + ".delta", body, carrier.tag))
        return out

    def _close_part(self, item: _Item, carrier: _Carrier) -> list[Frame]:
        item.part_key = None
        loc = self._loc(item, carrier)
        text = item.parts[-1]
        done = {**loc, "text": text}
        if carrier.logprobs:
            done["logprobs"] = []
        out = [self._frame(carrier.text_events + ".done", done, carrier.tag, "repeat")]
        if carrier.part_events is not None:
            part = {**loc, "part": carrier.part(text)}
            out.append(self._frame(carrier.part_events + ".done", part, carrier.tag, "repeat"))
        return out

    def _signature(self, value: str) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.item_type != "reasoning" or item.encrypted is not None:
            out, item = self._open("reasoning")
        item.encrypted = value
        return out + self._close_item()

    def _text(self, ev: TextDelta) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.item_type != "message":
            # the phase needs the rest of the response: this batch's
            phase = phase_of(self._batch[self._pos :]) if self.variant == "phase" else None
            out, item = self._open("message", phase=phase)
        if not ev.text:
            return out
        return out + self._part_text(item, _TEXT, ev.item, ev.text)

    def _tool(self, ev: ToolCallDelta) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.item_type != "function_call" or item.tool_index != ev.index:
            call_id = ev.id or f"call_{self.stem}_{ev.index}"
            out, item = self._open("function_call", tool_index=ev.index, call_id=call_id, name=ev.name or "")
        if ev.arguments:
            item.arguments += ev.arguments
            loc = {"item_id": item.id, "output_index": item.output_index}
            out.append(
                self._frame("response.function_call_arguments.delta", {**loc, "delta": ev.arguments}, "tool")
            )
        return out

    def _close_item(self) -> list[Frame]:
        item = self._item
        if item is None:
            return []
        self._item = None
        out: list[Frame] = []
        tag = _KINDS[item.item_type][1]
        if item.part_key is not None:
            out += self._close_part(item, _TEXT if item.item_type == "message" else self._carrier)
        if item.item_type == "function_call":
            loc = {"item_id": item.id, "output_index": item.output_index, "arguments": item.arguments}
            out.append(self._frame("response.function_call_arguments.done", loc, "tool", "repeat"))
        body = self._body(item, done=True)
        self._output.append(body)
        tags = (tag, "reasoning-done", "repeat") if item.item_type == "reasoning" else (tag, "repeat")
        out.append(
            self._frame("response.output_item.done", {"output_index": item.output_index, "item": body}, *tags)
        )
        return out

    def _end(self, ev: End) -> list[Frame]:
        out = self._close_item()
        self.ended = True
        tags = ["terminal", "repeat"] + (["usage"] if self._usage is not None else [])
        if ev.reason in ("stop", "tool_calls"):
            snap = self._response("completed", final=True)
        else:
            snap = self._response("incomplete", final=True)
            reason = "max_output_tokens" if ev.reason == "length" else ev.reason
            snap["incomplete_details"] = {"reason": reason}
        self.snapshot = snap
        out.append(self._frame(f"response.{snap['status']}", {"response": snap}, *tags))
        return out
