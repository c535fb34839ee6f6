"""The OpenAI Responses emitter: canonical events to ``event:`` and ``data:`` frames, each item's lifecycle of
added, parts, deltas and done-repeats in the variant's event names. The observer is in ``_observer``,
because reading has to survive what writing never produces."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness._json import dumps_compact
from harness.codec import Frame
from harness.dialects._base import EmitterLoop
from harness.dialects._provider_errors import openai_stream_code
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

__all__ = [
    "ALIASES",
    "CONTENT_VARIANTS",
    "SUMMARY_VARIANTS",
    "ResponsesEmitter",
    "phase_of",
    "usage_json",
]

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


@dataclass(slots=True)
class _Item:
    item_type: str  # reasoning | message | function_call
    id: str
    output_index: int
    parts: list[str] = field(default_factory=list)  # reasoning parts / message content parts
    part_key: str | None = None  # the canonical item of the open part
    part_open: bool = False
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
        self.events_of = "summary" if variant == "phase" else variant  # phase: summary's event names
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
        text = req.get("text")
        obj["text"] = {"format": {"type": "text"}, "verbosity": "medium"}
        if isinstance(text, Mapping):
            obj["text"] |= text
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
    def _open(self, kind: str) -> tuple[list[Frame], _Item]:
        out = self._close_item()
        prefix = {"reasoning": "rs", "message": "msg", "function_call": "fc"}[kind]
        oi = len(self._output)
        item = _Item(kind, f"{prefix}_{self.stem}_{oi}", oi)
        self._item = item
        return out, item

    def _added(self, item: _Item, body: dict[str, Any], *tags: str) -> Frame:
        return self._frame(
            "response.output_item.added", {"output_index": item.output_index, "item": body}, *tags
        )

    def _reasoning_added(self, item: _Item) -> Frame:
        if self.variant == "vllm-parts":
            body: dict[str, Any] = {
                "id": item.id, "type": "reasoning", "summary": [], "content": None,
                "encrypted_content": None, "status": "in_progress",
            }  # fmt: skip
        else:
            body = {"id": item.id, "type": "reasoning", "summary": []}
        return self._added(item, body, "reasoning")

    def _reasoning(self, ev: ReasoningDelta) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.item_type != "reasoning":
            out, item = self._open("reasoning")
            out.append(self._reasoning_added(item))
        if self.variant == "empty" or not ev.text:
            return out  # the item carries no visible reasoning
        if item.part_open and item.part_key != ev.item:
            out += self._close_part(item)
        if not item.part_open:
            out += self._open_part(item, ev.item)
        item.parts[-1] += ev.text
        out.append(self._reasoning_delta(item, ev.text))
        return out

    def _loc(self, item: _Item) -> dict[str, Any]:
        idx = "summary_index" if self.variant in SUMMARY_VARIANTS else "content_index"
        return {"item_id": item.id, "output_index": item.output_index, idx: len(item.parts) - 1}

    def _open_part(self, item: _Item, key: str) -> list[Frame]:
        item.parts.append("")
        item.part_key = key
        item.part_open = True
        v = self.events_of
        loc = self._loc(item)
        if v in ("summary", "alias-summary", "failed"):
            part = {"type": "summary_text", "text": ""}
            return [self._frame("response.reasoning_summary_part.added", {**loc, "part": part}, "reasoning")]
        if v == "reasoning_text":
            part = {"type": "reasoning_text", "text": ""}
            return [self._frame("response.content_part.added", {**loc, "part": part}, "reasoning")]
        if v == "vllm-parts":
            part = {"type": "reasoning_text", "text": ""}
            return [self._frame("response.reasoning_part.added", {**loc, "part": part}, "reasoning")]
        return []  # alias-string / alias-object: no part events

    def _reasoning_delta(self, item: _Item, text: str) -> Frame:
        v = self.events_of
        loc = self._loc(item)
        if v in ("summary", "failed"):
            return self._frame("response.reasoning_summary_text.delta", {**loc, "delta": text}, "reasoning")
        if v == "alias-summary":
            return self._frame("response.reasoning_summary.delta", {**loc, "delta": text}, "reasoning")
        if v in ("reasoning_text", "vllm-parts"):
            return self._frame("response.reasoning_text.delta", {**loc, "delta": text}, "reasoning")
        delta: Any = {"text": text} if v == "alias-object" else text
        return self._frame("response.reasoning.delta", {**loc, "delta": delta}, "reasoning")

    def _close_part(self, item: _Item) -> list[Frame]:
        item.part_open = False
        v = self.events_of
        loc = self._loc(item)
        text = item.parts[-1]
        tags = ("reasoning", "repeat")
        if v in ("summary", "failed", "alias-summary"):
            done = (
                "response.reasoning_summary_text.done"
                if v != "alias-summary"
                else "response.reasoning_summary.done"
            )
            part = {"type": "summary_text", "text": text}
            return [
                self._frame(done, {**loc, "text": text}, *tags),
                self._frame("response.reasoning_summary_part.done", {**loc, "part": part}, *tags),
            ]
        if v in ("reasoning_text", "vllm-parts"):
            part = {"type": "reasoning_text", "text": text}
            part_done = (
                "response.content_part.done" if v == "reasoning_text" else "response.reasoning_part.done"
            )
            return [
                self._frame("response.reasoning_text.done", {**loc, "text": text}, *tags),
                self._frame(part_done, {**loc, "part": part}, *tags),
            ]
        return [self._frame("response.reasoning.done", {**loc, "text": text}, *tags)]

    def _signature(self, value: str) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.item_type != "reasoning" or item.encrypted is not None:
            out, item = self._open("reasoning")
            out.append(self._reasoning_added(item))
        item.encrypted = value
        return out + self._close_item()

    def _text(self, ev: TextDelta) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.item_type != "message":
            out, item = self._open("message")
            body = {
                "id": item.id,
                "type": "message",
                "status": "in_progress",
                "content": [],
                "role": "assistant",
            }
            if self.variant == "phase":  # the phase needs the rest of the response: this batch's
                item.phase = body["phase"] = phase_of(self._batch[self._pos :])
            out.append(self._added(item, body, "text"))
        if not ev.text:
            return out
        if item.part_open and item.part_key != ev.item:
            out += self._close_text_part(item)
        if not item.part_open:
            item.parts.append("")
            item.part_key = ev.item
            item.part_open = True
            loc = self._text_loc(item)
            part = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
            out.append(self._frame("response.content_part.added", {**loc, "part": part}, "text"))
        item.parts[-1] += ev.text
        loc = self._text_loc(item)
        out.append(
            self._frame("response.output_text.delta", {**loc, "delta": ev.text, "logprobs": []}, "text")
        )
        return out

    @staticmethod
    def _text_loc(item: _Item) -> dict[str, Any]:
        return {"item_id": item.id, "output_index": item.output_index, "content_index": len(item.parts) - 1}

    def _close_text_part(self, item: _Item) -> list[Frame]:
        item.part_open = False
        loc = self._text_loc(item)
        text = item.parts[-1]
        part = {"type": "output_text", "annotations": [], "logprobs": [], "text": text}
        return [
            self._frame("response.output_text.done", {**loc, "text": text, "logprobs": []}, "text", "repeat"),
            self._frame("response.content_part.done", {**loc, "part": part}, "text", "repeat"),
        ]

    def _tool(self, ev: ToolCallDelta) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.item_type != "function_call" or item.tool_index != ev.index:
            out, item = self._open("function_call")
            item.tool_index = ev.index
            item.call_id = ev.id or f"call_{self.stem}_{ev.index}"
            item.name = ev.name or ""
            body = {
                "id": item.id, "type": "function_call", "status": "in_progress", "arguments": "",
                "call_id": item.call_id, "name": item.name,
            }  # fmt: skip
            out.append(self._added(item, body, "tool"))
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
        if item.item_type == "reasoning":
            if item.part_open:
                out += self._close_part(item)
            body: dict[str, Any] = {"id": item.id, "type": "reasoning"}
            if self.variant in SUMMARY_VARIANTS:
                body["summary"] = [{"type": "summary_text", "text": t} for t in item.parts]
            else:
                body["summary"] = []
                body["content"] = [{"type": "reasoning_text", "text": t} for t in item.parts]
            if item.encrypted is not None or self.variant == "vllm-parts":
                body["encrypted_content"] = item.encrypted
            if self.variant == "vllm-parts":
                body["status"] = "completed"
            tags: tuple[str, ...] = ("reasoning", "reasoning-done", "repeat")
        elif item.item_type == "message":
            if item.part_open:
                out += self._close_text_part(item)
            content = [
                {"type": "output_text", "annotations": [], "logprobs": [], "text": t} for t in item.parts
            ]
            body = {
                "id": item.id,
                "type": "message",
                "status": "completed",
                "content": content,
                "role": "assistant",
            }
            if item.phase is not None:
                body["phase"] = item.phase
            tags = ("text", "repeat")
        else:
            loc = {"item_id": item.id, "output_index": item.output_index}
            out.append(
                self._frame(
                    "response.function_call_arguments.done",
                    {**loc, "arguments": item.arguments},
                    "tool",
                    "repeat",
                )
            )
            body = {
                "id": item.id, "type": "function_call", "status": "completed", "arguments": item.arguments,
                "call_id": item.call_id, "name": item.name,
            }  # fmt: skip
            tags = ("tool", "repeat")
        self._output.append(body)
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
            self.snapshot = snap
            out.append(self._frame("response.completed", {"response": snap}, *tags))
            return out
        snap = self._response("incomplete", final=True)
        reason = "max_output_tokens" if ev.reason == "length" else ev.reason
        snap["incomplete_details"] = {"reason": reason}
        self.snapshot = snap
        out.append(self._frame("response.incomplete", {"response": snap}, *tags))
        return out
