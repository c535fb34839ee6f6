"""Fault switches of the reference gateway's Responses front door that break one rule of the openai SDK's
stream schema each (``dialects/openai_responses/_schema``): an ``output_item.done`` of another type than its
``output_item.added``, a final usage without a count ``ResponseUsage`` requires. They rewrite the frames the
front door's emitter wrote, as ``_bridge_faults`` does for the bridge's own bugs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from harness._json import dumps_compact, loads
from harness.codec import Frame

__all__ = ["DOOR_FAULTS", "SchemaFrames"]

DOOR_FAULTS: dict[str, str] = {
    "done-type-mismatch": "Responses front door: a reasoning item's response.output_item.done carries it as "
    "a message item (a bridge that closes whatever item is open with the message's done event)",
    "completed-usage-no-reasoning-tokens": "Responses front door: the usage of response.completed lacks "
    "output_tokens_details (a bridge from an upstream whose usage has no reasoning count)",
}
"""The switches, and what each does (the switch table of ``_faults`` lists them too)."""


class SchemaFrames:
    """``rewrite`` each batch of the front door's frames. Sans-IO, frames in and frames out; with none of
    the switches on it is the identity. A subclass names its own ``switches`` and writes ``_frame``."""

    switches: ClassVar[Mapping[str, str]] = DOOR_FAULTS

    def __init__(self, faults: Iterable[str]) -> None:
        self.faults = frozenset(faults) & frozenset(self.switches)

    def rewrite(self, frames: Sequence[Frame]) -> list[Frame]:
        if not self.faults:
            return list(frames)
        out: list[Frame] = []
        for f in frames:
            obj = loads(f.data) if f.data.startswith("{") else None
            if isinstance(obj, dict) and self._frame(f.event or str(obj.get("type")), obj):
                f = replace(f, data=dumps_compact(obj))
            out.append(f)
        return out

    def _frame(self, event_type: str, obj: dict[str, Any]) -> bool:
        """Rewrite ``obj`` (an event of ``event_type``) in place; whether it changed."""
        item = obj.get("item")
        if (
            event_type == "response.output_item.done"
            and "done-type-mismatch" in self.faults
            and isinstance(item, dict)
            and item.get("type") == "reasoning"
        ):
            obj["item"] = {"id": item.get("id"), "type": "message", "role": "assistant",
                           "status": "completed", "content": []}  # FAULT  # fmt: skip
            return True
        response = obj.get("response")
        if event_type == "response.completed" and "completed-usage-no-reasoning-tokens" in self.faults:
            usage = response.get("usage") if isinstance(response, dict) else None
            if isinstance(usage, dict) and "output_tokens_details" in usage:
                del usage["output_tokens_details"]  # FAULT
                return True
        return False
