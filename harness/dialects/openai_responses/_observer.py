"""The OpenAI Responses observer: raw SSE bytes, split anywhere, to canonical events, and the non-streaming
``response`` object to the same events. Deltas are the truth: every ``*.done`` repeat is compared, never
counted twice."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from harness._json import dumps_compact
from harness.dialects._fields import FieldNotes
from harness.dialects._sse_typed import TypedSSEObserver
from harness.dialects._values import mapping, opt_str, string
from harness.dialects.openai_responses._schema import (
    DONE_AGREES,
    ITEM_FIELDS,
    SDK,
    event_fields,
    missing_usage,
)
from harness.dialects.openai_responses._wire import ALIASES
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

__all__ = ["ResponsesObserver", "observe_response_object"]

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


def _required_fields(item: Mapping[str, Any], out: list[Event]) -> None:
    for name in ITEM_FIELDS.get(str(item.get("type")), ()):
        if name not in item:
            out.append(Notice("missing-field", f"{item.get('type')} {item.get('id')}: {name}"))


def _usage(raw: Any, out: list[Event]) -> None:
    """The counts of a usage object, when there is one."""
    if not isinstance(raw, Mapping):
        return
    rt = mapping(raw.get("output_tokens_details")).get("reasoning_tokens")
    counts = (raw.get("input_tokens"), raw.get("output_tokens"), rt, raw.get("total_tokens"))
    i, o, r, t = (n if isinstance(n, int) and not isinstance(n, bool) else None for n in counts)
    out.append(Usage(i, o, r, t))


@dataclass(slots=True)
class _Seen:
    item_type: str
    built: dict[str, str] = field(default_factory=dict)  # part key -> text built from deltas
    tool_index: int = -1
    last_key: str = ""
    encrypted: str | None = None  # the encrypted_content its output_item.done carried


class ResponsesObserver(TypedSSEObserver):
    """Raw Responses SSE bytes (any split) -> canonical events, plus :class:`Notice` for aliases,
    done-repeats that disagree with the deltas, reasoning that only arrived in a ``.done``, an event
    without a field its SDK type requires (``_schema.event_fields``), unknown events, malformed JSON, data
    after the terminal event, a second lifecycle and SSE anomalies."""

    terminal = "response.completed/incomplete/failed"

    def __init__(self) -> None:
        super().__init__()
        self._items: dict[str, _Seen] = {}
        self._tools = 0
        self._called = False
        self._created = False
        self._aliases: set[str] = set()
        self._fields = FieldNotes(SDK)
        self._at: dict[int, str] = {}  # output_index -> the id its output_item.added gave

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
        self._fields.note(kind, obj, event_fields(kind, obj), out)  # noted, then read as it is
        if kind == "response.created":
            if self._created:
                out.append(Notice("second-lifecycle", "a second response.created"))
            self._created = True
            self._at.clear()  # a response's output indexes are its own
        elif kind == "response.output_item.added":
            self._item_added(obj.get("item"), out)
            item, at = obj.get("item"), obj.get("output_index")
            if isinstance(item, Mapping) and isinstance(item.get("id"), str) and isinstance(at, int):
                self._at.setdefault(at, item["id"])
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
            self._item_done(self._same_slot(obj, out), out)
        elif kind in ("response.completed", "response.incomplete"):
            self._terminal(kind, obj.get("response"), out)
        elif kind == "response.failed":
            out.append(_error(mapping(mapping(obj.get("response")).get("error"))))
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
            args = string(item.get("arguments"))
            cid, name = opt_str(item.get("call_id")), opt_str(item.get("name"))
            out.append(ToolCallDelta(seen.tool_index, cid, name, args, item=item["id"]))
            if args:
                seen.built["args"] = args
        elif kind not in ("reasoning", "message"):
            out.append(Notice("unknown-item", kind))
        _required_fields(item, out)

    def _seen(self, obj: Mapping[str, Any], out: list[Event]) -> tuple[str, _Seen]:
        item_id = string(obj.get("item_id"))
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
                note = "reasoning-only-in-done" if key.startswith(("s", "c")) else "only-in-done"
                out.append(Notice(note, f"{kind} {item_id}"))
        elif seen.built[key] != text:
            out.append(
                Notice("done-mismatch", f"{kind} {item_id}: deltas {seen.built[key]!r} != {text[:80]!r}")
            )

    def _item_done(self, item: Any, out: list[Event]) -> None:
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            out.append(Notice("unknown-item", dumps_compact(item)[:80]))
            return
        item_id = item["id"]
        seen = self._items.get(item_id)
        if seen is None:
            self._item_added(item, out)
        else:
            _required_fields(item, out)
            # the done item repeats what DONE_AGREES names of the item its added event opened
            if seen.item_type != "unknown" and "type" in DONE_AGREES and item.get("type") != seen.item_type:
                note = f"{item_id}: added {seen.item_type}, done {item.get('type')} ({SDK})"
                out.append(Notice("done-type-mismatch", note))
        self._item_content(item_id, item, "response.output_item.done", out)

    def _same_slot(self, obj: Mapping[str, Any], out: list[Event]) -> Any:
        """The done event's item, read as the item its ``output_index`` was added as (the slot the SDK
        puts it in) when it comes under another id: noted, as :data:`DONE_AGREES` names ``id``."""
        item, at = obj.get("item"), obj.get("output_index")
        added = self._at.get(at) if isinstance(at, int) else None
        if (
            "id" in DONE_AGREES
            and added is not None
            and isinstance(item, Mapping)
            and item.get("id") != added
        ):
            out.append(
                Notice("done-id-mismatch", f"output {at}: added {added}, done {item.get('id')} ({SDK})")
            )
            return {**item, "id": added}
        return item

    def _whole_item(self, item: Mapping[str, Any], kind: str, out: list[Event]) -> None:
        """An item that no added event opened, read whole from ``kind``'s copy of it."""
        self._item_added(item, out)
        self._item_content(item["id"], item, kind, out)

    def _item_content(self, item_id: str, item: Mapping[str, Any], kind: str, out: list[Event]) -> None:
        seen = self._items[item_id]
        t = item.get("type")
        if t == "reasoning":
            for name in ("summary", "content"):  # parts s0, s1... and c0, c1...
                for i, part in enumerate(item.get(name) or []):
                    if isinstance(part, Mapping):
                        self._compare(item_id, seen, f"{name[0]}{i}", part.get("text"), kind, out)
            enc = item.get("encrypted_content")
            if isinstance(enc, str):
                seen.encrypted = enc
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
            output = resp.get("output")
            listed: set[Any] = set()  # (an empty output: a shorthand of hand-written streams, not judged)
            if isinstance(output, list):
                listed = {i.get("id") for i in output if isinstance(i, Mapping)}
            for item_id, seen in self._items.items():  # the snapshot must hold every item streamed
                if listed and seen.item_type != "unknown" and item_id not in listed:
                    out.append(Notice("completed-lacks-item", f"{kind} lacks {seen.item_type} {item_id}"))
            _lost_fields(kind, output, self._items, out)
            for item in output or []:
                if (
                    isinstance(item, Mapping)
                    and isinstance(item.get("id"), str)
                    and item["id"] not in self._items
                ):
                    out.append(Notice("item-only-in-completed", item["id"]))
                    self._whole_item(item, kind, out)
            # a usage object present in the snapshot carries every count its SDK type requires
            missing = missing_usage(resp["usage"]) if resp.get("usage") is not None else []
            if missing:
                out.append(Notice("usage-lacks-field", f"{kind} usage lacks {', '.join(missing)} ({SDK})"))
            _usage(resp.get("usage"), out)
        out.append(End(self._reason(kind, resp)))

    def _reason(self, kind: str, resp: Any) -> str:
        if kind == "response.incomplete":
            reason = mapping(mapping(resp).get("incomplete_details")).get("reason")
            if reason in (None, "max_output_tokens"):
                return "length"
            return str(reason)
        return "tool_calls" if self._called else "stop"


def _lost_fields(kind: str, output: Any, items: Mapping[str, _Seen], out: list[Event]) -> None:
    """The snapshot's copy of a streamed reasoning item has an ``encrypted_content`` when its
    ``output_item.done`` had one (a client that passes back the final response's items, as the openai
    SDK's ``get_final_response()`` gives them, sends the reasoning back unsigned otherwise). Its value
    is not compared: OpenAI's own snapshot carries another ciphertext than the item's done event
    (recorded: the corpus's openai-responses-summary-stream)."""
    for item in output if isinstance(output, list) else []:
        seen = items.get(str(item.get("id"))) if isinstance(item, Mapping) else None
        if seen is not None and seen.encrypted is not None and not item.get("encrypted_content"):
            out.append(Notice("completed-lacks-field", f"{kind} lacks encrypted_content of {item.get('id')}"))


def _part_text(obj: Mapping[str, Any]) -> Any:
    return mapping(obj.get("part")).get("text")


def _error(err: Mapping[str, Any]) -> StreamError:
    msg = err.get("message")
    return StreamError(msg if isinstance(msg, str) else dumps_compact(err), opt_str(err.get("code")))


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
            obs._whole_item(item, "response", out)
    kind = "response.incomplete" if obj.get("status") == "incomplete" else "response.completed"
    _usage(obj.get("usage"), out)
    out.append(End(obs._reason(kind, obj)))
    return [
        ev
        for ev in out
        if not (isinstance(ev, Notice) and ev.code in ("only-in-done", "reasoning-only-in-done"))
    ]
