"""The Responses ``input`` items a strict upstream accepts, as the official openai SDK types them,
``openai/types/responses/response_input_item_param.py``: ``ResponseInputItemParam``. An item of a type the
union does not know, a reasoning item given twice, and a ``function_call_output`` whose ``call_id`` names
no function call are each a 400 with OpenAI's error body."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["INPUT_ITEM_TYPES", "NO_TOOL_CALL", "ItemProblem", "call_problem", "schema_problem"]

INPUT_ITEM_TYPES = frozenset(
    {
        "additional_tools", "apply_patch_call", "apply_patch_call_output", "code_interpreter_call",
        "compaction", "compaction_trigger", "computer_call", "computer_call_output", "configuration_update",
        "custom_tool_call", "custom_tool_call_output", "file_search_call", "function_call",
        "function_call_output", "image_generation_call", "item_reference", "local_shell_call",
        "local_shell_call_output", "mcp_approval_request", "mcp_approval_response", "mcp_call",
        "mcp_list_tools", "message", "program", "program_output", "reasoning", "shell_call",
        "shell_call_output", "tool_search_call", "tool_search_output", "web_search_call",
    }
)  # fmt: skip
"""The ``type`` literals of every member of the openai SDK's ``ResponseInputItemParam`` union (openai
3.63; tests/dialects/test_responses_items.py reads them from the installed SDK and compares)."""

UNKNOWN_TYPE = "Invalid value: '{kind}'. Supported values are: {supported}."
"""OpenAI's message for a value outside an enum (code ``invalid_value``, param the item's path)."""
DUPLICATE_ITEM = "Duplicate item found with id {id}. Remove duplicate items from your input and try again."
NO_TOOL_CALL = "No tool call found for function call output with call_id {call_id}."


@dataclass(frozen=True, slots=True)
class ItemProblem:
    """One input item the API rejects: the rule, OpenAI's message, ``param`` and ``code`` for its error
    object, and the difference ``(field, actual, expected)`` for the finding."""

    rule: str
    message: str
    param: str | None
    code: str | None
    difference: tuple[str, Any, Any]


def _kind(item: Mapping[str, Any]) -> str:
    """An item's type; the SDK's easy message and item reference may leave it out."""
    kind = item.get("type")
    if isinstance(kind, str):
        return kind
    return "message" if "role" in item else "item_reference"


def schema_problem(request: Mapping[str, Any]) -> ItemProblem | None:
    """The first input item the request schema rejects (an unknown type, a reasoning item twice), or
    None: read before anything else."""
    items = request.get("input")
    if not isinstance(items, list):
        return None
    seen: set[str] = set()
    for n, item in enumerate(items):
        if not isinstance(item, Mapping):
            continue
        kind = _kind(item)
        if kind not in INPUT_ITEM_TYPES:
            names = [f"'{k}'" for k in sorted(INPUT_ITEM_TYPES)]
            message = UNKNOWN_TYPE.format(kind=kind, supported=", ".join(names[:-1]) + f", and {names[-1]}")
            diff = (f"input[{n}].type", kind, "a ResponseInputItemParam type")
            return ItemProblem("openai/unknown-input-item", message, f"input[{n}]", "invalid_value", diff)
        rs = item.get("id")
        if kind == "reasoning" and isinstance(rs, str) and rs:
            if rs in seen:
                diff = (f"input[{n}].id", rs, "each item once")
                return ItemProblem("openai/duplicate-item", DUPLICATE_ITEM.format(id=rs), "input", None, diff)
            seen.add(rs)
    return None


def call_problem(request: Mapping[str, Any], emitted_calls: set[str]) -> ItemProblem | None:
    """The first ``function_call_output`` that answers no call, or None. ``emitted_calls``: the call
    ids this upstream returned earlier in the conversation (what an ``item_reference`` can stand for).

    A function call counts as given when the input carries it, when an ``item_reference`` can resolve it
    because the request stores responses, ``store`` not being false, or when the request continues a stored
    response through ``previous_response_id`` or ``conversation``: the real API then finds it server-side.
    """
    items = request.get("input")
    if not isinstance(items, list) or request.get("previous_response_id") or request.get("conversation"):
        return None  # (continuing stored state this upstream cannot see whole, any id may be answered)
    given = {str(i.get("call_id")) for i in items if isinstance(i, Mapping) and _kind(i) == "function_call"}
    stored = request.get("store", True) is not False  # the API's default is true
    if stored and any(isinstance(i, Mapping) and _kind(i) == "item_reference" for i in items):
        given |= emitted_calls  # a reference resolves to a call this upstream returned
    for n, item in enumerate(items):
        if isinstance(item, Mapping) and _kind(item) == "function_call_output":
            call_id = str(item.get("call_id", ""))
            if call_id not in given:
                diff = (f"input[{n}].call_id", call_id, f"one of {sorted(given)}")
                return ItemProblem(
                    "openai/no-tool-call", NO_TOOL_CALL.format(call_id=call_id), "input", None, diff
                )
    return None
