"""The Anthropic Messages stream both ways: the emitter, events to ``event:`` and ``data:`` frames, and the
observer, bytes to events. Bedrock's InvokeModel path wraps both, so the stream is written once."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from harness._json import dumps_compact
from harness.codec import Frame
from harness.dialects._base import EmitterLoop, call_arguments
from harness.dialects._fields import FieldNotes
from harness.dialects._provider_errors import anthropic_error
from harness.dialects._sse_typed import TypedSSEObserver
from harness.dialects._values import mapping, opt_str
from harness.dialects.anthropic_messages._schema import EVENT_FIELDS, SDK, event_fields
from harness.events import (
    Block,
    End,
    Event,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    Usage,
    assemble,
)

__all__ = [
    "PING",
    "AnthropicEmitter",
    "AnthropicObserver",
    "content_json",
    "end_reason",
    "message_object",
    "observe_message_object",
    "stop_reason",
]

_STOP = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}
_END = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "stop_sequence": "stop"}
_KNOWN = frozenset(EVENT_FIELDS) | {"ping", "error"}
_OPENED = frozenset(EVENT_FIELDS) - {"message_start"}
"""The events of an open message (ping and error may come before message_start)."""
_ids = itertools.count(1)


def stop_reason(reason: str) -> str:
    return _STOP.get(reason, reason)


def end_reason(wire: Any) -> str:
    return _END.get(wire, wire) if isinstance(wire, str) else "stop"


_CACHE = {"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
_CACHE_CREATION = {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}
_PADS = (6, 0, 11, 3, 15, 8, 1, 13, 4, 10, 2, 14, 7, 0, 12, 5)
"""Spaces the real API puts inside each ``data:`` JSON before its closing brace (0 to 15, recorded in
every stream of recordings/corpus/anthropic-*-stream*.jsonl); a fixed cycle keeps the bytes stable."""
PING = '{"type": "ping"}'
"""The ping's data as the real API spells it (Python-style spacing, never padded)."""
_TAGS = {"thinking": ("reasoning", "reasoning-done"), "text": ("text",), "tool_use": ("tool",)}
"""An emitted block's frame tags by its type: its start's (the first) and its stop's."""
_EMPTY = {
    "thinking": {"type": "thinking", "thinking": "", "signature": ""},
    "text": {"type": "text", "text": ""},
}
"""The block a ``content_block_start`` opens before its deltas fill it."""


def _usage_json(u: Usage | None, *, start: bool, end: bool) -> dict[str, Any]:
    """Usage as recorded: ``message_start`` (``start``) carries the input side with the cache breakdown,
    service tier and inference geo; ``message_delta`` (``end``) the input and cache counts again with the
    output tokens, and ``output_tokens_details.thinking_tokens`` when the turn says how many (recorded
    since 2026-05: recordings/corpus/anthropic-tool-thinking-stream.jsonl; never in ``message_start``). A
    whole body's is both: message_start's shape with the end's counts."""
    out: dict[str, Any] = {"input_tokens": (u.input_tokens if u is not None else None) or 0, **_CACHE}
    if start:
        out["cache_creation"] = dict(_CACHE_CREATION)
    placeholder = 1 if u is not None else 0  # message_start's count before any output
    out["output_tokens"] = ((u.output_tokens if u is not None else None) or 0) if end else placeholder
    if start:
        out |= {"service_tier": "standard", "inference_geo": "not_available"}
    if end and u is not None and u.reasoning_tokens is not None:
        out["output_tokens_details"] = {"thinking_tokens": u.reasoning_tokens}
    return out


def _usage_event(raw: Any, start_input: int | None) -> list[Event]:
    """The usage an Anthropic ``usage`` object reports, if any."""
    if not isinstance(raw, Mapping):
        return []

    def num(v: Any) -> int | None:
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    details = raw.get("output_tokens_details")
    thinking = num(details.get("thinking_tokens")) if isinstance(details, Mapping) else None
    inp = num(raw.get("input_tokens"))
    inp = inp if inp is not None else start_input
    out = num(raw.get("output_tokens"))
    if not inp and not out and thinking is None:
        return []  # an all-zero usage reports nothing
    total = inp + out if inp is not None and out is not None else None
    return [Usage(inp, out, thinking, total)]


def _input_args(block: Mapping[str, Any]) -> str:
    """A tool_use block's ``input`` as its arguments' text ("" for none or an empty object)."""
    inp = block.get("input")
    return dumps_compact(inp) if isinstance(inp, Mapping) and inp else ""


_DELTA_OF = {
    "thinking_delta": "thinking",
    "signature_delta": "thinking",
    "text_delta": "text",
    "citations_delta": "text",
    "input_json_delta": "tool_use",
}
"""The block type each delta type belongs to (anthropic SDK ``RawContentBlockDeltaEvent`` and the
streaming docs: https://docs.anthropic.com/en/docs/build-with-claude/streaming#content-block-delta-types)."""


def error_object(
    message: str, code: str | None, request_id: str, status: int | None = None
) -> dict[str, Any]:
    """A mid-stream ``error`` event's data, in Anthropic's words (``_provider_errors``; recorded with
    ``details: null`` first: wire-formats.md section 5)."""
    body = anthropic_error(status, message, code, request_id)
    body["error"] = {"details": None, **body["error"]}
    return body


# --------------------------------------------------------------------------------------------------
# Emitter


class AnthropicEmitter(EmitterLoop):
    """Canonical events -> Messages SSE frames, in the recorded shapes (recordings/corpus/anthropic-*):
    blocks open on their first event and stop when another block starts (or at the end); a ``ping``
    follows the first ``content_block_start``; an empty ``thinking_delta`` precedes each
    ``signature_delta``; a tool_use block's first ``input_json_delta`` is empty; every data JSON but the
    ping's is padded with spaces before its closing brace. ``omitted``: thinking text is never sent,
    only the signature. Bedrock's InvokeModel stream carries these same events through two hooks:
    :attr:`ping` and :meth:`_frame`.

    One content block per canonical block; a signature closes its thinking block.
    """

    ping = True
    """Whether a ``ping`` follows the first ``content_block_start``."""

    def __init__(self, variant: str, *, model: str = "mock-model") -> None:
        self.variant = variant
        self.model = model
        n = next(_ids)
        self.message_id = f"msg_mock{n}"
        self.request_id = f"req_mock{n}"
        self._started = False
        self._pinged = False
        self._index = -1
        self._open: str | None = None  # thinking | text | tool_use
        self._open_key: Any = None
        self._usage: Usage | None = None
        self._start_usage: Usage | None = None  # input tokens reported by message_start
        self._frames = 0

    def _frame(self, obj: dict[str, Any], *tags: str) -> Frame:
        """One event object as its frame: the hook a wire that carries these events otherwise
        overrides."""
        self._frames += 1
        pad = " " * _PADS[self._frames % len(_PADS)]
        data = dumps_compact(obj)
        return Frame(data[:-1] + pad + "}", event=str(obj["type"]), tags=frozenset(tags))

    def _start(self) -> list[Frame]:
        if self._started:
            return []
        self._started = True
        msg: dict[str, Any] = {
            "model": self.model, "id": self.message_id, "type": "message", "role": "assistant", "content": [],
            "stop_reason": None, "stop_sequence": None, "stop_details": None,
            "usage": _usage_json(self._start_usage, start=True, end=False),
        }  # fmt: skip
        return [self._frame({"type": "message_start", "message": msg}, "start")]

    def prime(self, events: Sequence[Event]) -> None:
        """The whole turn, before any frame: as the real API, input tokens known up front go in
        ``message_start`` (however the turn is then fed: whole, per step or in batches)."""
        if not self._started:
            usage = next((e for e in events if isinstance(e, Usage) and e.input_tokens is not None), None)
            self._start_usage = usage

    def feed(self, events: Sequence[Event]) -> list[Frame]:
        if not self._started and self._start_usage is None:
            self.prime(events)
        return super().feed(events)

    def _block_start(self, kind: str, key: Any, block: dict[str, Any] | None = None) -> list[Frame]:
        """Stops the open block and opens a ``kind`` block (``block``, else that kind's empty one)."""
        out = self._stop()
        self._index += 1
        self._open = kind
        self._open_key = key
        start = {"type": "content_block_start", "index": self._index, "content_block": block or _EMPTY[kind]}
        out.append(self._frame(start, _TAGS[kind][0]))
        if not self._pinged and self.ping:
            self._pinged = True
            out.append(Frame(PING, event="ping"))
        return out

    def _block(self, kind: str, key: Any) -> list[Frame]:
        """The empty ``kind`` block for ``key`` opened, unless it is the open one."""
        return [] if (self._open, self._open_key) == (kind, key) else self._block_start(kind, key)

    def _delta(self, delta: dict[str, Any], *tags: str) -> Frame:
        return self._frame({"type": "content_block_delta", "index": self._index, "delta": delta}, *tags)

    def _stop(self) -> list[Frame]:
        if self._open is None:
            return []
        tags = _TAGS[self._open]
        self._open = None
        return [self._frame({"type": "content_block_stop", "index": self._index}, *tags)]

    def _event(self, ev: Event) -> list[Frame]:
        if isinstance(ev, ReasoningDelta):
            out = self._block("thinking", ev.item)
            if ev.text and self.variant != "omitted":
                out.append(self._delta({"type": "thinking_delta", "thinking": ev.text}, "reasoning"))
            return out
        if isinstance(ev, ReasoningSignature):
            out = [] if self._open == "thinking" else self._block_start("thinking", ev.item)
            # recorded: the thinking block's last thinking_delta is empty, right before the signature
            out.append(self._delta({"type": "thinking_delta", "thinking": ""}, "reasoning"))
            out.append(self._delta({"type": "signature_delta", "signature": ev.value}, "reasoning"))
            return out + self._stop()
        if isinstance(ev, RedactedReasoning):
            return (
                self._block_start("thinking", None, {"type": "redacted_thinking", "data": ev.data})
                + self._stop()
            )
        if isinstance(ev, TextDelta):
            out = self._block("text", ev.item)
            if ev.text:
                out.append(self._delta({"type": "text_delta", "text": ev.text}, "text"))
            return out
        if isinstance(ev, ToolCallDelta):
            out = []
            if (self._open, self._open_key) != ("tool_use", ev.index):
                block = {
                    "type": "tool_use",
                    "id": ev.id or f"toolu_mock_{ev.index}",
                    "name": ev.name or "",
                    "input": {},
                    "caller": {"type": "direct"},
                }
                out += self._block_start("tool_use", ev.index, block)
                # recorded: the first input_json_delta is empty (the only one when the input is {})
                out.append(self._delta({"type": "input_json_delta", "partial_json": ""}, "tool"))
            if ev.arguments:
                out.append(self._delta({"type": "input_json_delta", "partial_json": ev.arguments}, "tool"))
            return out
        if isinstance(ev, Usage):
            self._usage = ev
            return []
        if isinstance(ev, StreamError):
            self.ended = True
            return [self._frame(error_object(ev.message, ev.code, self.request_id, ev.status), "error")]
        if isinstance(ev, End):
            return self._end(ev)
        return []

    def _end(self, ev: End) -> list[Frame]:
        out = self._stop()
        self.ended = True
        delta = {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason(ev.reason), "stop_sequence": None, "stop_details": None},
        }
        usage = self._usage
        if usage is not None and usage.input_tokens is None and self._start_usage is not None:
            usage = replace(usage, input_tokens=self._start_usage.input_tokens)
        delta["usage"] = _usage_json(usage, start=False, end=True)
        out.append(self._frame(delta, *(("usage",) if self._usage is not None else ())))
        out.append(self._frame({"type": "message_stop"}, "terminal"))
        return out


# --------------------------------------------------------------------------------------------------
# Observer


class AnthropicObserver(TypedSSEObserver):
    """Raw Messages SSE bytes (any split) -> canonical events. Frames with no ``event:`` line are still
    read by their data's ``type`` (plus ``Notice("missing-event-line")``: the official SDK skips them). An
    event without a field its SDK type requires (``_schema.EVENT_FIELDS``) is noted and read as it is."""

    terminal = "message_stop"

    def __init__(self) -> None:
        super().__init__()
        self._blocks: dict[int, str] = {}
        self._tool_of: dict[int, int] = {}
        self._tools = 0
        self.started = False
        """A ``message_start`` was read."""
        self._start_input: int | None = None
        self.start_output: int | None = None
        """``message_start``'s ``output_tokens`` (a placeholder count: ``message_delta``'s usage is
        cumulative and already includes it; read by a reference fault switch that adds it anyway)."""
        self._stop_reason: Any = None
        self._noted: set[str] = set()
        self._fields = FieldNotes(SDK)

    def _once(self, name: str, detail: str, out: list[Event]) -> None:
        """``Notice(name, detail)``, the first time only."""
        if name not in self._noted:
            self._noted.add(name)
            out.append(Notice(name, detail))

    def _object(self, obj: dict[str, Any], kind: str, data: str, event: str, out: list[Event]) -> None:
        if not self._done:
            if event == "message":
                self._once("missing-event-line", kind, out)
            elif event != kind:
                out.append(Notice("event-mismatch", f"{event} != {kind}"))
        self.read_event(obj, kind, out)

    def read_event(self, obj: Mapping[str, Any], kind: str, out: list[Event]) -> None:
        """One decoded event object of type ``kind``: an SSE frame's data, or the JSON inside a Bedrock
        InvokeModel ``chunk``. Anything after the end is noted once and not read."""
        if self._done:
            self._once("data-after-end", kind, out)
        else:
            self.interpret(kind, obj, out)

    def interpret(self, kind: str, obj: Mapping[str, Any], out: list[Event]) -> None:
        self._fields.note(kind, obj, event_fields(kind, obj), out)
        if not self.started and kind in _OPENED:
            # the anthropic SDK's MessageStream accumulates nothing before message_start (its snapshot
            # is built from it; accumulate_event raises 'Unexpected event order ... before
            # "message_start"'): a stream that opens without one is empty to such a client
            self._once("before-message-start", kind, out)
        if kind == "message_start":
            if self.started:
                out.append(Notice("second-lifecycle", "a second message_start"))
            self.started = True
            counts = mapping(mapping(obj.get("message")).get("usage"))
            if isinstance(counts.get("input_tokens"), int):
                self._start_input = counts["input_tokens"]
            if isinstance(counts.get("output_tokens"), int):
                self.start_output = counts["output_tokens"]
        elif kind == "content_block_start":
            self._block_start(obj, out)
        elif kind == "content_block_delta":
            self._block_delta(obj, out)
        elif kind == "message_delta":
            delta = obj.get("delta")
            if isinstance(delta, Mapping) and "stop_reason" in delta:
                self._stop_reason = delta["stop_reason"]
            out += _usage_event(obj.get("usage"), self._start_input)
        elif kind == "message_stop":
            self._done = True
            out.append(End(end_reason(self._stop_reason)))
        elif kind == "error":
            err = mapping(obj.get("error"))
            msg = opt_str(err.get("message"))
            out.append(StreamError(dumps_compact(obj) if msg is None else msg, opt_str(err.get("type"))))
            self._done = True
        elif kind not in _KNOWN:
            out.append(Notice("unknown-event", kind))

    def _block_start(self, obj: Mapping[str, Any], out: list[Event]) -> None:
        index = obj.get("index")
        block = obj.get("content_block")
        if not isinstance(index, int) or not isinstance(block, Mapping):
            out.append(Notice("malformed-block", dumps_compact(obj)[:80]))
            return
        kind = str(block.get("type"))
        self._blocks[index] = kind
        item = str(index)
        if kind == "thinking":
            text, sig = block.get("thinking"), block.get("signature")
            if isinstance(text, str) and text:
                out.append(ReasoningDelta(text, item=item))
            if isinstance(sig, str) and sig:
                out.append(ReasoningSignature(sig, item=item))
        elif kind == "redacted_thinking":
            out.append(RedactedReasoning(str(block.get("data", "")), item=item))
        elif kind == "text":
            text = block.get("text")
            if isinstance(text, str) and text:
                out.append(TextDelta(text, item=item))
        elif kind == "tool_use":
            self._tool_of[index] = self._tools
            self._tools += 1
            cid, name = opt_str(block.get("id")), opt_str(block.get("name"))
            out.append(ToolCallDelta(self._tool_of[index], cid, name, _input_args(block), item=item))
        else:
            out.append(Notice("unknown-block", kind))

    def _block_delta(self, obj: Mapping[str, Any], out: list[Event]) -> None:
        index = obj.get("index")
        delta = obj.get("delta")
        if not isinstance(index, int) or not isinstance(delta, Mapping):
            out.append(Notice("malformed-delta", dumps_compact(obj)[:80]))
            return
        item = str(index)
        kind = delta.get("type")
        if index not in self._blocks:
            out.append(Notice("delta-without-start", str(index)))
        elif kind in _DELTA_OF and self._blocks[index] != _DELTA_OF[kind]:
            # RawContentBlockDeltaEvent: a thinking_delta belongs to a thinking block, text_delta to text
            out.append(Notice("delta-type-mismatch", f"{kind} in a {self._blocks[index]} block {index}"))
        if kind == "thinking_delta" and isinstance(delta.get("thinking"), str):
            if delta["thinking"]:
                out.append(ReasoningDelta(delta["thinking"], item=item))
        elif kind == "signature_delta" and isinstance(delta.get("signature"), str):
            if delta["signature"]:
                out.append(ReasoningSignature(delta["signature"], item=item))
            else:
                out.append(Notice("empty-signature", item))
        elif kind == "text_delta" and isinstance(delta.get("text"), str):
            if delta["text"]:
                out.append(TextDelta(delta["text"], item=item))
        elif kind == "input_json_delta" and isinstance(delta.get("partial_json"), str):
            out.append(ToolCallDelta(self._tool_of.get(index, 0), arguments=delta["partial_json"], item=item))
        else:
            out.append(Notice("unknown-delta", str(kind)))


# --------------------------------------------------------------------------------------------------
# Non-streaming


def content_json(
    blocks: Sequence[Block], input_json: Callable[[str], Any] = call_arguments
) -> list[dict[str, Any]]:
    """An assistant message's blocks as Anthropic content (thinking, redacted_thinking, text,
    tool_use); ``input_json`` reads a tool call's arguments into its ``input``."""
    content: list[dict[str, Any]] = []
    for b in blocks:
        if isinstance(b, ReasoningBlock):
            if b.redacted is not None:
                content.append({"type": "redacted_thinking", "data": b.redacted})
            else:
                content.append({"type": "thinking", "thinking": b.text, "signature": b.signature or ""})
        elif isinstance(b, TextBlock):
            content.append({"type": "text", "text": b.text})
        elif isinstance(b, ToolCallBlock):
            content.append({"type": "tool_use", "id": b.id, "name": b.name, "input": input_json(b.arguments)})
    return content


def message_object(
    events: Sequence[Event],
    *,
    model: str,
    message_id: str = "msg_mock",
    content_of: Callable[[Sequence[Block]], list[dict[str, Any]]] = content_json,
) -> dict[str, Any]:
    """The ``/v1/messages`` (non-streaming) body for a turn (a response's ``tool_use`` also says who
    called it, ``caller``, as recorded; a request's does not). ``content_of`` writes the blocks
    (Bedrock's InvokeModel keeps tool arguments that are not JSON)."""
    content = [
        {**c, "caller": {"type": "direct"}} if c["type"] == "tool_use" else c
        for c in content_of(assemble(events).content)
    ]
    end = next((ev for ev in events if isinstance(ev, End)), End())
    usage = next((ev for ev in reversed(events) if isinstance(ev, Usage)), None)
    u = _usage_json(usage, start=True, end=True)
    return {
        "model": model, "id": message_id, "type": "message", "role": "assistant", "content": content,
        "stop_reason": stop_reason(end.reason), "stop_sequence": None, "stop_details": None, "usage": u,
    }  # fmt: skip


def observe_message_object(obj: Any) -> list[Event]:
    if not isinstance(obj, Mapping):
        return [Notice("unknown-frame", dumps_compact(obj)[:80])]
    if obj.get("type") == "error" or isinstance(obj.get("error"), Mapping):
        err = mapping(obj.get("error"))
        return [StreamError(str(err.get("message", "")), opt_str(err.get("type")))]
    out: list[Event] = []
    tools = 0
    for n, block in enumerate(obj.get("content") or []):
        if not isinstance(block, Mapping):
            continue
        item, kind = str(n), block.get("type")
        if kind == "thinking":
            if block.get("thinking"):
                out.append(ReasoningDelta(str(block["thinking"]), item=item))
            if block.get("signature"):
                out.append(ReasoningSignature(str(block["signature"]), item=item))
        elif kind == "redacted_thinking":
            out.append(RedactedReasoning(str(block.get("data", "")), item=item))
        elif kind == "text":
            out.append(TextDelta(str(block.get("text", "")), item=item))
        elif kind == "tool_use":
            cid, name = str(block.get("id", "")), str(block.get("name", ""))
            out.append(ToolCallDelta(tools, cid, name, _input_args(block), item=item))
            tools += 1
        else:
            out.append(Notice("unknown-block", str(kind)))
    out += _usage_event(obj.get("usage"), None)
    out.append(End(end_reason(obj.get("stop_reason"))))
    return out
