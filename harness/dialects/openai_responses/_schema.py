"""The Responses front door's schema as data: the fields the openai SDK's stream types require of each
event, of an output item and of a response's usage, and what an item's ``output_item.done`` must repeat of
its ``output_item.added``. The observer reads these rows; thinkwire's runtime never imports the SDK."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.dialects._fields import Field
from harness.dialects._values import value_at

__all__ = [
    "DONE_AGREES",
    "EVENT_FIELDS",
    "ITEM_FIELDS",
    "PART_FIELDS",
    "SDK",
    "USAGE_FIELDS",
    "event_fields",
    "missing_usage",
]

SDK = "openai 3.63.0"
"""The SDK version the rows were read from (tests/dialects/test_responses_schema.py holds the rows against
the installed SDK's pydantic models, a test oracle only)."""

ITEM_FIELDS: dict[str, tuple[str, ...]] = {
    "reasoning": ("summary",),
    "function_call": ("call_id", "name", "arguments"),
}
"""Fields an output item's SDK type requires: ``ResponseReasoningItem.summary: List[Summary]``
(openai/types/responses/response_reasoning_item.py); ``ResponseFunctionToolCall``: ``call_id``, ``name``,
``arguments`` (response_function_tool_call.py). A client that validates its stream (``@ai-sdk/openai``'s
schema) rejects an item without them."""

DONE_AGREES: tuple[str, ...] = ("type", "id")
"""What an item's ``response.output_item.done`` repeats of its ``response.output_item.added`` at the same
``output_index`` (both ``item: ResponseOutputItem``, a union discriminated by ``type``:
response_output_item_added_event.py and response_output_item_done_event.py): the SDK's ``ResponseStream``
puts the done item in the slot the added one opened (lib/streaming/responses/_responses.py), so a done of
another type replaces a reasoning item with a message, and one under another ``id`` raises "Completed
output item identity changed"."""


def _row(file: str, *fields: str) -> tuple[Field, ...]:
    """``name:type`` pairs of one event type declared in ``file`` (under openai/types/responses/)."""
    pairs = (f.partition(":") for f in fields)
    return tuple(Field(name, kind, f"types/responses/{file}") for name, _, kind in pairs)


def _event(kind: str, *fields: str, file: str = "") -> tuple[str, tuple[Field, ...]]:
    """One event type's row, declared in ``file``, by default the file named after the type
    (``response.output_item.added``: ``response_output_item_added_event.py``)."""
    stem = kind.removeprefix("response.").replace(".", "_")
    return kind, _row(file or f"response_{stem}_event.py", *fields)


_SEQ = "sequence_number:integer"
_WHOLE = ("response:object", _SEQ)  # an event that carries the response object
_ITEM = ("item:object", "output_index:integer", _SEQ)
_AT = ("item_id:string", "output_index:integer", _SEQ)  # where a delta or done event belongs
_IN_CONTENT = (*_AT, "content_index:integer")
_IN_SUMMARY = (*_AT, "summary_index:integer")
EVENT_FIELDS: dict[str, tuple[Field, ...]] = dict(
    (
        _event("response.created", *_WHOLE),
        _event("response.in_progress", *_WHOLE),
        _event("response.queued", *_WHOLE),
        _event("response.completed", *_WHOLE),
        _event("response.incomplete", *_WHOLE),
        _event("response.failed", *_WHOLE),
        _event("error", "message:string", _SEQ),
        _event("response.output_item.added", *_ITEM),
        _event("response.output_item.done", *_ITEM),
        _event("response.content_part.added", *_IN_CONTENT, "part:object"),
        _event("response.content_part.done", *_IN_CONTENT, "part:object"),
        _event(
            "response.output_text.delta", *_IN_CONTENT, "delta:string", file="response_text_delta_event.py"
        ),
        _event("response.output_text.done", *_IN_CONTENT, "text:string", file="response_text_done_event.py"),
        _event("response.output_text.annotation.added", *_IN_CONTENT, "annotation_index:integer"),
        _event("response.refusal.delta", *_IN_CONTENT, "delta:string"),
        _event("response.refusal.done", *_IN_CONTENT, "refusal:string"),
        _event("response.reasoning_summary_part.added", *_IN_SUMMARY, "part:object"),
        _event("response.reasoning_summary_part.done", *_IN_SUMMARY, "part:object"),
        _event("response.reasoning_summary_text.delta", *_IN_SUMMARY, "delta:string"),
        _event("response.reasoning_summary_text.done", *_IN_SUMMARY, "text:string"),
        _event("response.reasoning_text.delta", *_IN_CONTENT, "delta:string"),
        _event("response.reasoning_text.done", *_IN_CONTENT, "text:string"),
        _event("response.function_call_arguments.delta", *_AT, "delta:string"),
        _event("response.function_call_arguments.done", *_AT, "arguments:string"),
    )
)
"""Per ``ResponseStreamEvent`` member a front door sends (by its ``type``), the fields its SDK type
requires and their JSON types, each with the file under openai/types/responses/ that declares it. The
SDK's ``responses.stream()`` (lib/streaming/responses/_responses.py) reads ``sequence_number``,
``output_index``, ``content_index``, ``item_id`` and ``delta`` off these events (as None when absent, a
string index breaks its list lookups); every recorded OpenAI stream (corpus/openai-responses-*) carries
them all. ``output_text``'s ``logprobs`` is required by 3.63 but absent from the real o3 capture of
wire-formats.md §3.2, so it is not demanded here. Alias events that no SDK type declares
(``response.reasoning.delta`` ...) have no row."""


_SUMMARY_PART = ("part.type:string", "part.text:string")  # ``Part``: one type, no union to pick by it
PART_FIELDS: dict[str, dict[str, tuple[Field, ...]]] = {
    "response.content_part.added": {
        "output_text": _row("response_output_text.py", "part.text:string", "part.annotations:array"),
        "refusal": _row("response_output_refusal.py", "part.refusal:string"),
        "reasoning_text": _row("response_content_part_added_event.py", "part.text:string"),
    },
    "response.content_part.done": {
        "output_text": _row("response_output_text.py", "part.text:string", "part.annotations:array"),
        "refusal": _row("response_output_refusal.py", "part.refusal:string"),
        "reasoning_text": _row("response_content_part_done_event.py", "part.text:string"),
    },
    "response.reasoning_summary_part.added": {
        "": _row("response_reasoning_summary_part_added_event.py", *_SUMMARY_PART)
    },
    "response.reasoning_summary_part.done": {
        "": _row("response_reasoning_summary_part_done_event.py", *_SUMMARY_PART)
    },
}
"""What a part event's ``part`` requires: a content part by its ``type`` (a union discriminated by it),
a summary part whatever its type (key ``""``). The SDK's stream state appends the added part to its
message and adds each ``output_text.delta`` to the part's ``text``: a part without it fails there."""


def event_fields(kind: str, obj: Mapping[str, Any]) -> tuple[Field, ...]:
    """The rows an event of type ``kind`` is held to: its own, and its part's."""
    parts = PART_FIELDS.get(kind)
    part = obj.get("part")
    if parts is None or not isinstance(part, Mapping):
        return EVENT_FIELDS.get(kind, ())
    return EVENT_FIELDS[kind] + parts.get("" if "" in parts else str(part.get("type")), ())


USAGE_FIELDS: tuple[tuple[str, ...], ...] = (
    ("input_tokens",),
    ("input_tokens_details", "cached_tokens"),
    ("output_tokens",),
    ("output_tokens_details", "reasoning_tokens"),
    ("total_tokens",),
)
"""Integer fields of ``ResponseUsage`` (openai/types/responses/response_usage.py) that a response's usage,
when present, carries: every one required by the SDK type, and every one in recorded traffic
(corpus/openai-responses-summary-stream.jsonl: ``input_tokens_details.cached_tokens``,
``output_tokens_details.reasoning_tokens``). The SDK's ``input_tokens_details.cache_write_tokens`` is
required by 3.63 but absent from the recorded API's usage, so it is not demanded here."""


def missing_usage(usage: Any) -> list[str]:
    """The dotted names of :data:`USAGE_FIELDS` that ``usage`` lacks or holds as a non-integer."""
    values = {path: value_at(usage, *path) for path in USAGE_FIELDS}
    return [".".join(p) for p, v in values.items() if not isinstance(v, int) or isinstance(v, bool)]
