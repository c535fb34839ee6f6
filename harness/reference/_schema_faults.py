"""Fault switches of the reference gateway's Responses and Anthropic front doors that each break one rule
family of the SDKs' stream types (``dialects/openai_responses/_schema``, ``dialects/anthropic_messages/
_schema``): a field left out, one sent as another JSON type, an item done under another id than it was
added as. They rewrite the frames the front door's emitter wrote, as ``_door_faults`` does for its rules."""

from __future__ import annotations

from typing import Any

from harness.reference._door_faults import SchemaFrames

__all__ = ["SCHEMA_FAULTS", "FieldFrames"]

SCHEMA_FAULTS: dict[str, str] = {
    "door-no-sequence-number": "Responses front door: every event without its sequence_number (a bridge "
    "written against the event shapes before the openai SDK's types required it)",
    "door-index-as-string": "Responses front door: output_index sent as a string (a bridge that copies "
    "the upstream's choice index as text), where the openai SDK's types say integer",
    "door-start-no-model": "Anthropic front door: message_start's message without its model (a bridge that "
    "fills the message from its upstream's first chunk, which names none)",
    "door-delta-no-output-tokens": "Anthropic front door: message_delta's usage without output_tokens (a "
    "bridge from an upstream whose last chunk reports no output count), which the anthropic SDK's "
    "MessageStream copies into its snapshot",
    "door-stop-no-index": "Anthropic front door: content_block_stop without its index (a bridge that "
    'closes whatever block is open with a bare {"type": "content_block_stop"})',
    "door-done-new-id": "Responses front door: each response.output_item.done carries its item under a "
    "new id (a bridge that mints an id per event), not the one its output_item.added gave",
}
"""The switches, and what each does (the switch table of ``_faults`` lists them too)."""


class FieldFrames(SchemaFrames):
    """``rewrite`` each batch of a front door's frames (``SchemaFrames``' loop) with these switches; with
    none of them on it is the identity (an event type names its door: the two doors share none)."""

    switches = SCHEMA_FAULTS

    def _frame(self, event: str, obj: dict[str, Any]) -> bool:
        """Rewrite ``obj`` (the event named ``event``) in place; whether it changed."""
        faults, before = self.faults, dict(obj)
        if event.startswith("response.") or event == "error":
            if "door-no-sequence-number" in faults:
                obj.pop("sequence_number", None)  # FAULT
            if "door-index-as-string" in faults and isinstance(obj.get("output_index"), int):
                obj["output_index"] = str(obj["output_index"])  # FAULT
        item = obj.get("item")
        if event == "response.output_item.done" and "door-done-new-id" in faults and isinstance(item, dict):
            obj["item"] = {**item, "id": f"{item.get('id')}_done"}  # FAULT
        message = obj.get("message")
        if event == "message_start" and "door-start-no-model" in faults and isinstance(message, dict):
            obj["message"] = {k: v for k, v in message.items() if k != "model"}  # FAULT
        usage = obj.get("usage")
        if event == "message_delta" and "door-delta-no-output-tokens" in faults and isinstance(usage, dict):
            obj["usage"] = {k: v for k, v in usage.items() if k != "output_tokens"}  # FAULT
        if event == "content_block_stop" and "door-stop-no-index" in faults:
            obj.pop("index", None)  # FAULT
        return obj != before
