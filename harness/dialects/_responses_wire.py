"""OpenAI Responses wire: the emitter (events -> ``event:`` + ``data:`` frames) and the observer (bytes ->
events). Rule: deltas are the truth; every ``*.done`` repeat is compared, never counted twice."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import Frame
from harness.dialects._sse_typed import TypedSSEObserver
from harness.events import (
    End,
    Event,
    Notice,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)

__all__ = [
    "ALIASES",
    "CONTENT_VARIANTS",
    "SUMMARY_VARIANTS",
    "ResponsesEmitter",
    "ResponsesObserver",
    "observe_response_object",
    "usage_json",
]

CREATED_AT = 1758106874
SUMMARY_VARIANTS = frozenset({"summary", "empty", "alias-summary", "failed"})
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
_IGNORED = frozenset(
    {
        "response.in_progress",
        "response.queued",
        "response.output_text.annotation.added",
        "response.content_part.added",
        "response.reasoning_summary_part.added",
        "response.reasoning_part.added",
    }
)
_ids = itertools.count(1)


def usage_json(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {"input_tokens": u.input_tokens, "input_tokens_details": {"cached_tokens": 0}}
    out["output_tokens"] = u.output_tokens
    if u.reasoning_tokens is not None:
        out["output_tokens_details"] = {"reasoning_tokens": u.reasoning_tokens}
    out["total_tokens"] = u.total_tokens
    return out


def _usage_event(raw: Any) -> Usage | None:
    if not isinstance(raw, Mapping):
        return None
    details = raw.get("output_tokens_details")
    rt = details.get("reasoning_tokens") if isinstance(details, Mapping) else None

    def num(v: Any) -> int | None:
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    return Usage(
        num(raw.get("input_tokens")), num(raw.get("output_tokens")), num(rt), num(raw.get("total_tokens"))
    )


# --------------------------------------------------------------------------------------------------
# Emitter


@dataclass(slots=True)
class _Item:
    kind: str  # reasoning | message | function_call
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


class ResponsesEmitter:
    """Canonical events -> Responses SSE frames in one variant's shape.

    Items open on their first event and close when an event of another item arrives (or at the end):
    a reasoning item also closes on its :class:`ReasoningSignature` (its ``encrypted_content``). Item
    ids share the response's stem (``rs_mock3_0``, ``fc_mock3_1``), as OpenAI's do.
    """

    def __init__(self, variant: str, *, model: str = "mock-model") -> None:
        self.variant = variant
        self.model = model
        n = next(_ids)
        self.stem = f"mock{n}"
        self.response_id = f"resp_mock{n}"
        self._seq = 0
        self._started = False
        self._done = False
        self._item: _Item | None = None
        self._output: list[dict[str, Any]] = []
        self._usage: Usage | None = None
        self.snapshot: dict[str, Any] | None = None
        """The final ``response`` object (what ``response.completed`` carried)."""

    # -- helpers
    def _frame(self, type_: str, body: dict[str, Any], *tags: str) -> Frame:
        obj: dict[str, Any] = {"type": type_, "sequence_number": self._seq}
        obj.update(body)
        self._seq += 1
        return Frame(dumps_compact(obj), event=type_, tags=frozenset(tags))

    def _response(self, status: str, *, final: bool) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "id": self.response_id,
            "object": "response",
            "created_at": CREATED_AT,
            "status": status,
            "model": self.model,
            "output": list(self._output) if final else [],
        }
        if self.variant in SUMMARY_VARIANTS and self.variant != "empty":
            obj["reasoning"] = {"effort": "medium", "summary": "detailed"}
        else:
            obj["reasoning"] = {"effort": "medium", "summary": None}
        obj["store"] = False
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

    def feed(self, events: Sequence[Event]) -> list[Frame]:
        out = self._start()
        for ev in events:
            if self._done:
                break
            out += self._event(ev)
        return out

    def close(self) -> list[Frame]:
        if self._done:
            return []
        return self._start() + self._end(End())

    def _event(self, ev: Event) -> list[Frame]:
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
            self._done = True
            if self.variant == "failed":
                snap = self._response("failed", final=True)
                snap["error"] = {"code": ev.code or "server_error", "message": ev.message}
                return [self._frame("response.failed", {"response": snap}, "error")]
            body = {"code": ev.code, "message": ev.message, "param": None}
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
        if item is None or item.kind != "reasoning":
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
        v = self.variant
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
        v = self.variant
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
        v = self.variant
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
        if item is None or item.kind != "reasoning" or item.encrypted is not None:
            out, item = self._open("reasoning")
            out.append(self._reasoning_added(item))
        item.encrypted = value
        return out + self._close_item()

    def _text(self, ev: TextDelta) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.kind != "message":
            out, item = self._open("message")
            body = {
                "id": item.id,
                "type": "message",
                "status": "in_progress",
                "content": [],
                "role": "assistant",
            }
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
            part = {"type": "output_text", "annotations": [], "text": ""}
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
        part = {"type": "output_text", "annotations": [], "text": text}
        return [
            self._frame("response.output_text.done", {**loc, "text": text, "logprobs": []}, "text", "repeat"),
            self._frame("response.content_part.done", {**loc, "part": part}, "text", "repeat"),
        ]

    def _tool(self, ev: ToolCallDelta) -> list[Frame]:
        out: list[Frame] = []
        item = self._item
        if item is None or item.kind != "function_call" or item.tool_index != ev.index:
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
        if item.kind == "reasoning":
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
        elif item.kind == "message":
            if item.part_open:
                out += self._close_text_part(item)
            content = [{"type": "output_text", "annotations": [], "text": t} for t in item.parts]
            body = {
                "id": item.id,
                "type": "message",
                "status": "completed",
                "content": content,
                "role": "assistant",
            }
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
        self._done = True
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


# --------------------------------------------------------------------------------------------------
# Observer


@dataclass(slots=True)
class _Seen:
    kind: str
    built: dict[str, str] = field(default_factory=dict)  # part key -> text built from deltas
    tool_index: int = -1
    last_key: str = ""


class ResponsesObserver(TypedSSEObserver):
    """Raw Responses SSE bytes (any split) -> canonical events, plus :class:`Notice` for aliases,
    done-repeats that disagree with the deltas, reasoning that only arrived in a ``.done``, unknown
    events, malformed JSON, data after the terminal event, a second lifecycle and SSE anomalies."""

    terminal = "response.completed/incomplete/failed"

    def __init__(self) -> None:
        super().__init__()
        self._items: dict[str, _Seen] = {}
        self._tools = 0
        self._called = False
        self._created = False
        self._done = False
        self._after_noted = False
        self._aliases: set[str] = set()


    # -- frames
    def _object(self, obj: dict[str, Any], kind: str, data: str, event: str, out: list[Event]) -> None:
        if self._done:
            if kind == "response.created":
                out.append(Notice("second-lifecycle", "response.created after the terminal event"))
            if not self._after_noted:
                self._after_noted = True
                out.append(Notice("data-after-end", kind))
            return
        if event not in ("message", kind):
            out.append(Notice("event-mismatch", f"{event} != {kind}"))
        if kind in ALIASES and kind not in self._aliases:
            self._aliases.add(kind)
            out.append(Notice("alias", kind))
        self.interpret(kind, obj, out)

    def interpret(self, kind: str, obj: dict[str, Any], out: list[Event]) -> None:
        if kind == "response.created":
            if self._created:
                out.append(Notice("second-lifecycle", "a second response.created"))
            self._created = True
        elif kind == "response.output_item.added":
            self._item_added(obj.get("item"), out)
        elif kind in ("response.reasoning_summary_text.delta", "response.reasoning_summary.delta"):
            self._delta(obj, f"s{obj.get('summary_index', 0)}", out)
        elif kind in ("response.reasoning_text.delta", "response.reasoning.delta"):
            self._delta(obj, f"c{obj.get('content_index', 0)}", out)
        elif kind in ("response.reasoning_summary_text.done", "response.reasoning_summary.done"):
            self._done_text(obj, f"s{obj.get('summary_index', 0)}", obj.get("text"), kind, out)
        elif kind == "response.reasoning_summary_part.done":
            self._done_text(obj, f"s{obj.get('summary_index', 0)}", _part_text(obj), kind, out)
        elif kind in (
            "response.reasoning_text.done",
            "response.reasoning.done",
            "response.reasoning_part.done",
        ):
            text = obj.get("text") if kind != "response.reasoning_part.done" else _part_text(obj)
            self._done_text(obj, f"c{obj.get('content_index', 0)}", text, kind, out)
        elif kind == "response.output_text.delta":
            self._delta(obj, f"t{obj.get('content_index', 0)}", out)
        elif kind == "response.output_text.done":
            self._done_text(obj, f"t{obj.get('content_index', 0)}", obj.get("text"), kind, out)
        elif kind == "response.content_part.done":
            part = obj.get("part")
            prefix = "c" if isinstance(part, Mapping) and part.get("type") == "reasoning_text" else "t"
            self._done_text(obj, f"{prefix}{obj.get('content_index', 0)}", _part_text(obj), kind, out)
        elif kind == "response.function_call_arguments.delta":
            self._delta(obj, "args", out)
        elif kind == "response.function_call_arguments.done":
            self._done_text(obj, "args", obj.get("arguments"), kind, out)
        elif kind == "response.output_item.done":
            self._item_done(obj.get("item"), out)
        elif kind in ("response.completed", "response.incomplete"):
            self._terminal(kind, obj.get("response"), out)
        elif kind == "response.failed":
            resp = obj.get("response")
            err = resp.get("error") if isinstance(resp, Mapping) else None
            out.append(_error(err if isinstance(err, Mapping) else {}))
            self._done = True
        elif kind == "error":
            out.append(_error(obj))
            self._done = True
        elif kind not in _IGNORED:
            out.append(Notice("unknown-event", kind))

    # -- items
    def _item_added(self, item: Any, out: list[Event]) -> None:
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            out.append(Notice("unknown-item", dumps_compact(item)[:80]))
            return
        kind = str(item.get("type"))
        seen = _Seen(kind)
        self._items[item["id"]] = seen
        if kind == "function_call":
            seen.tool_index = self._tools
            self._tools += 1
            self._called = True
            cid, name, args = item.get("call_id"), item.get("name"), item.get("arguments")
            out.append(
                ToolCallDelta(
                    seen.tool_index,
                    cid if isinstance(cid, str) else None,
                    name if isinstance(name, str) else None,
                    args if isinstance(args, str) else "",
                    item=item["id"],
                )
            )
            if isinstance(args, str) and args:
                seen.built["args"] = args
        elif kind not in ("reasoning", "message"):
            out.append(Notice("unknown-item", kind))

    def _seen(self, obj: Mapping[str, Any], out: list[Event]) -> tuple[str, _Seen]:
        item_id = obj.get("item_id")
        item_id = item_id if isinstance(item_id, str) else ""
        if item_id not in self._items:
            out.append(Notice("unknown-item-id", item_id))
            self._items[item_id] = _Seen("unknown")
        return item_id, self._items[item_id]

    def _event_for(self, item_id: str, seen: _Seen, key: str, text: str) -> Event:
        if key == "args":
            return ToolCallDelta(max(seen.tool_index, 0), arguments=text, item=item_id)
        if key.startswith("t"):
            return TextDelta(text, item=f"{item_id}:{key}")
        return ReasoningDelta(text, item=f"{item_id}:{key}")

    def _delta(self, obj: Mapping[str, Any], key: str, out: list[Event]) -> None:
        item_id, seen = self._seen(obj, out)
        delta = obj.get("delta")
        if isinstance(delta, Mapping):  # alias-object: {"text": ...}
            delta = delta.get("text")
        if not isinstance(delta, str):
            out.append(Notice("malformed-delta", dumps_compact(obj.get("delta"))[:80]))
            return
        seen.built[key] = seen.built.get(key, "") + delta
        if key != "args":
            seen.last_key = key
        if delta:
            out.append(self._event_for(item_id, seen, key, delta))

    def _done_text(self, obj: Mapping[str, Any], key: str, text: Any, kind: str, out: list[Event]) -> None:
        item_id, seen = self._seen(obj, out)
        self._compare(item_id, seen, key, text, kind, out)

    def _compare(self, item_id: str, seen: _Seen, key: str, text: Any, kind: str, out: list[Event]) -> None:
        if not isinstance(text, str):
            return
        if key not in seen.built:
            seen.built[key] = text
            if key != "args":
                seen.last_key = key
            if text:
                out.append(self._event_for(item_id, seen, key, text))
                if key.startswith(("s", "c")):
                    out.append(Notice("reasoning-only-in-done", f"{kind} {item_id}"))
                else:
                    out.append(Notice("only-in-done", f"{kind} {item_id}"))
        elif seen.built[key] != text:
            out.append(
                Notice("done-mismatch", f"{kind} {item_id}: deltas {seen.built[key]!r} != {text[:80]!r}")
            )

    def _item_done(self, item: Any, out: list[Event]) -> None:
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            out.append(Notice("unknown-item", dumps_compact(item)[:80]))
            return
        item_id = item["id"]
        if item_id not in self._items:
            self._item_added(item, out)
        seen = self._items[item_id]
        self._item_content(item_id, seen, item, "response.output_item.done", out)

    def _item_content(
        self, item_id: str, seen: _Seen, item: Mapping[str, Any], kind: str, out: list[Event]
    ) -> None:
        t = item.get("type")
        if t == "reasoning":
            for i, part in enumerate(item.get("summary") or []):
                if isinstance(part, Mapping):
                    self._compare(item_id, seen, f"s{i}", part.get("text"), kind, out)
            for i, part in enumerate(item.get("content") or []):
                if isinstance(part, Mapping):
                    self._compare(item_id, seen, f"c{i}", part.get("text"), kind, out)
            enc = item.get("encrypted_content")
            if isinstance(enc, str):
                target = f"{item_id}:{seen.last_key}" if seen.last_key else item_id
                out.append(ReasoningSignature(enc, item=target))
        elif t == "message":
            for i, part in enumerate(item.get("content") or []):
                if isinstance(part, Mapping) and part.get("type") == "output_text":
                    self._compare(item_id, seen, f"t{i}", part.get("text"), kind, out)
                elif isinstance(part, Mapping):
                    out.append(Notice("unsupported-content", str(part.get("type"))))
        elif t == "function_call":
            self._compare(item_id, seen, "args", item.get("arguments"), kind, out)

    def _terminal(self, kind: str, resp: Any, out: list[Event]) -> None:
        self._done = True
        if isinstance(resp, Mapping):
            for item in resp.get("output") or []:
                if (
                    isinstance(item, Mapping)
                    and isinstance(item.get("id"), str)
                    and item["id"] not in self._items
                ):
                    out.append(Notice("item-only-in-completed", item["id"]))
                    self._item_added(item, out)
                    self._item_content(item["id"], self._items[item["id"]], item, kind, out)
            usage = _usage_event(resp.get("usage"))
            if usage is not None:
                out.append(usage)
        out.append(End(self._reason(kind, resp)))

    def _reason(self, kind: str, resp: Any) -> str:
        if kind == "response.incomplete":
            details = resp.get("incomplete_details") if isinstance(resp, Mapping) else None
            reason = details.get("reason") if isinstance(details, Mapping) else None
            if reason in (None, "max_output_tokens"):
                return "length"
            return str(reason)
        return "tool_calls" if self._called else "stop"


def _part_text(obj: Mapping[str, Any]) -> Any:
    part = obj.get("part")
    return part.get("text") if isinstance(part, Mapping) else None


def _error(err: Mapping[str, Any]) -> StreamError:
    msg, code = err.get("message"), err.get("code")
    return StreamError(
        msg if isinstance(msg, str) else dumps_compact(err), code if isinstance(code, str) else None
    )


def observe_response_object(obj: Any) -> list[Event]:
    """Canonical events from a non-streaming ``response`` object (or an ``{"error": …}`` body)."""
    if not isinstance(obj, Mapping):
        return [Notice("unknown-frame", dumps_compact(obj)[:80])]
    if isinstance(obj.get("error"), Mapping) and obj.get("status") in (None, "failed"):
        return [_error(obj["error"])]
    obs = ResponsesObserver()
    out: list[Event] = []
    for item in obj.get("output") or []:
        if isinstance(item, Mapping) and isinstance(item.get("id"), str):
            obs._item_added(item, out)
            obs._item_content(item["id"], obs._items[item["id"]], item, "response", out)
    kind = "response.incomplete" if obj.get("status") == "incomplete" else "response.completed"
    usage = _usage_event(obj.get("usage"))
    if usage is not None:
        out.append(usage)
    out.append(End(obs._reason(kind, obj)))
    return [
        ev
        for ev in out
        if not (isinstance(ev, Notice) and ev.kind in ("only-in-done", "reasoning-only-in-done"))
    ]
