"""The Messages stream's schema as data: the fields the anthropic SDK's ``RawMessageStreamEvent`` types
require of each event, of the block a ``content_block_start`` opens and of the delta a
``content_block_delta`` carries. The observer reads these rows; thinkwire's runtime never imports the SDK."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.dialects._fields import Field

__all__ = ["BLOCK_FIELDS", "DELTA_FIELDS", "EVENT_FIELDS", "SDK", "event_fields"]

SDK = "anthropic 2.17.0"
"""The SDK version the rows were read from (tests/dialects/test_event_fields.py holds the rows against the
installed SDK's pydantic models, a test oracle only)."""


def _row(file: str, *fields: str) -> tuple[Field, ...]:
    """``path:type`` pairs declared in ``file`` (under anthropic/types/)."""
    pairs = (f.partition(":") for f in fields)
    return tuple(Field(path, kind, f"types/{file}") for path, _, kind in pairs)


EVENT_FIELDS: dict[str, tuple[Field, ...]] = {
    "message_start": (
        *_row("raw_message_start_event.py", "message:object"),
        *_row(
            "message.py",
            "message.id:string",
            "message.type:string",
            "message.role:string",
            "message.model:string",
            "message.content:array",
            "message.usage:object",
        ),
        *_row("usage.py", "message.usage.input_tokens:integer", "message.usage.output_tokens:integer"),
    ),
    "content_block_start": _row("raw_content_block_start_event.py", "index:integer", "content_block:object"),
    "content_block_delta": _row("raw_content_block_delta_event.py", "index:integer", "delta:object"),
    "content_block_stop": _row("raw_content_block_stop_event.py", "index:integer"),
    "message_delta": (
        *_row("raw_message_delta_event.py", "delta:object", "usage:object"),
        *_row("message_delta_usage.py", "usage.output_tokens:integer"),
    ),
    "message_stop": (),
}
"""Per ``RawMessageStreamEvent`` member (by its ``type``), the fields its SDK type requires and their JSON
types, each with the file under anthropic/types/ that declares it: ``message_start``'s message is a
``Message`` (id, model, role, content, usage with ``input_tokens`` and ``output_tokens``); every block
event names its ``index``; ``message_delta`` carries ``usage.output_tokens``, the count the SDK's
``MessageStream`` copies into its snapshot (lib/streaming/_messages.py). Every recorded Anthropic stream
(corpus/anthropic-*) carries them all. ``ping`` and ``error`` are no members: no row."""

BLOCK_FIELDS: dict[str, tuple[Field, ...]] = {
    "text": _row("text_block.py", "content_block.text:string"),
    "thinking": _row("thinking_block.py", "content_block.thinking:string", "content_block.signature:string"),
    "redacted_thinking": _row("redacted_thinking_block.py", "content_block.data:string"),
    "tool_use": _row(
        "tool_use_block.py",
        "content_block.id:string",
        "content_block.name:string",
        "content_block.input:object",
    ),
}
"""What ``content_block_start``'s block requires, by the block's ``type`` (``ContentBlock``, a union
discriminated by it): the SDK's ``MessageStream`` appends the block to its snapshot as it is and
accumulates each delta into its ``text``, ``thinking``, ``signature`` or ``input``."""

DELTA_FIELDS: dict[str, tuple[Field, ...]] = {
    "text_delta": _row("text_delta.py", "delta.text:string"),
    "thinking_delta": _row("thinking_delta.py", "delta.thinking:string"),
    "signature_delta": _row("signature_delta.py", "delta.signature:string"),
    "input_json_delta": _row("input_json_delta.py", "delta.partial_json:string"),
    "citations_delta": _row("citations_delta.py", "delta.citation:object"),
}
"""What ``content_block_delta``'s delta requires, by the delta's ``type`` (``RawContentBlockDelta``)."""


def event_fields(kind: str, obj: Mapping[str, Any]) -> tuple[Field, ...]:
    """The rows an event of type ``kind`` is held to: its own, and its block's or delta's by their type."""
    fields = EVENT_FIELDS.get(kind, ())
    inner = obj.get("content_block") if kind == "content_block_start" else obj.get("delta")
    if kind in ("content_block_start", "content_block_delta") and isinstance(inner, Mapping):
        table = BLOCK_FIELDS if kind == "content_block_start" else DELTA_FIELDS
        fields += table.get(str(inner.get("type")), ())
    return fields
