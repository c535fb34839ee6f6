"""The Responses front door's schema as data: the fields the openai SDK's stream types require of an output
item and of a response's usage, and what an item's ``output_item.done`` must repeat of its
``output_item.added``. The observer reads these rows; thinkwire's runtime never imports the SDK."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["DONE_AGREES", "ITEM_FIELDS", "SDK", "USAGE_FIELDS", "missing_usage"]

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

DONE_AGREES: tuple[str, ...] = ("type",)
"""What an item's ``response.output_item.done`` repeats of its ``response.output_item.added`` (both
``item: ResponseOutputItem``, a union discriminated by ``type``: response_output_item_added_event.py and
response_output_item_done_event.py): the SDK's ``ResponseStream`` accumulates the done item in the slot
the added one opened, so a done of another type replaces a reasoning item with a message."""

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
    missing = []
    for path in USAGE_FIELDS:
        value: Any = usage
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        if not isinstance(value, int) or isinstance(value, bool):
            missing.append(".".join(path))
    return missing
