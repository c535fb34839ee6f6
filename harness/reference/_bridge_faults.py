"""Fault switches of the reference gateway's Responses front door, a bridge with a Chat or Anthropic upstream
behind an OpenAI Responses front door, each the bug of a public report against such bridges. They rewrite
the frames the front door's emitter wrote as the broken bridge writes them, apart from the other faults
because they act on that door's frames only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from harness._json import dumps_compact, loads
from harness.codec import Frame

__all__ = ["BRIDGE_FAULTS", "BridgeFrames", "bridge_body"]

BRIDGE_FAULTS: dict[str, str] = {
    "bridge-no-summary": "Responses front door: reasoning items without their summary field (the openai "
    "SDK's ResponseReasoningItem requires it; @ai-sdk/openai's schema rejects the item)",
    "bridge-done-last-delta": "Responses front door: response.reasoning_summary_text.done carries the last "
    "delta's text, not the joined deltas",
    "bridge-unannounced-reasoning": "Responses front door: reasoning deltas for an item that no "
    "response.output_item.added announced (the added event is never sent)",
    "bridge-completed-drops-reasoning": "Responses front door: the response.completed snapshot leaves out "
    "the reasoning items that were streamed",
    "bridge-completed-drops-signature": "Responses front door: the response.completed snapshot's reasoning "
    "items lose the encrypted_content their response.output_item.done carried",
}
"""The switches, and what each does (the switch table of ``_faults`` lists them too)."""


def _is_reasoning(item: Any) -> bool:
    return isinstance(item, dict) and item.get("type") == "reasoning"


def _without_summary(item: Any) -> Any:
    if _is_reasoning(item):
        item.pop("summary", None)  # FAULT: bridge-no-summary
    return item


def _snapshot(response: Any, faults: frozenset[str]) -> Any:
    """The final response object as the broken bridge writes it."""
    if not isinstance(response, dict) or not isinstance(response.get("output"), list):
        return response
    output = response["output"]
    if "bridge-completed-drops-reasoning" in faults:
        output = [i for i in output if not _is_reasoning(i)]  # FAULT
    if "bridge-completed-drops-signature" in faults:
        for item in output:
            if _is_reasoning(item):
                item.pop("encrypted_content", None)  # FAULT
    if "bridge-no-summary" in faults:
        output = [_without_summary(i) for i in output]
    response["output"] = output
    return response


class BridgeFrames:
    """Stateful over one streamed answer: ``rewrite`` each batch of the front door's frames.

    Sans-IO, frames in and frames out, one small marked rewrite per switch; with none of the switches on it
    is the identity.
    """

    def __init__(self, faults: Iterable[str]) -> None:
        self.faults = frozenset(faults) & frozenset(BRIDGE_FAULTS)
        self.last: dict[tuple[str, int], str] = {}  # (item id, summary index) -> its last delta
        self.unannounced: set[int] = set()  # output indexes whose added event was not sent

    def rewrite(self, frames: Sequence[Frame]) -> list[Frame]:
        if not self.faults:
            return list(frames)
        out: list[Frame] = []
        for f in frames:
            obj = loads(f.data) if f.data.startswith("{") else None
            if not isinstance(obj, dict):
                out.append(f)
                continue
            kept = self._frame(f.event or str(obj.get("type")), obj)
            if kept is not None:
                out.append(replace(f, data=dumps_compact(kept)))
        return out

    def _frame(self, kind: str, obj: dict[str, Any]) -> dict[str, Any] | None:
        faults = self.faults
        announces = kind == "response.output_item.added" and _is_reasoning(obj.get("item"))
        if announces and "bridge-unannounced-reasoning" in faults:
            return None  # FAULT: the item is never announced
        if (
            kind in ("response.output_item.added", "response.output_item.done")
            and "bridge-no-summary" in faults
        ):
            _without_summary(obj.get("item"))
        if kind == "response.reasoning_summary_text.delta":
            key = (str(obj.get("item_id")), int(obj.get("summary_index") or 0))
            self.last[key] = str(obj.get("delta") or "")
        if kind == "response.reasoning_summary_text.done" and "bridge-done-last-delta" in faults:
            key = (str(obj.get("item_id")), int(obj.get("summary_index") or 0))
            obj["text"] = self.last.get(key, obj.get("text"))  # FAULT: the last delta, not all of them
        if kind in ("response.completed", "response.incomplete"):
            obj["response"] = _snapshot(obj.get("response"), faults)
        return obj


def bridge_body(body: bytes, faults: Iterable[str]) -> bytes:
    """A whole (non-streaming) Responses body as the broken bridge writes it (only its items' fields:
    a whole answer has no deltas to disagree with, nor a second copy of its items).

    With none of the switches on it is the identity.
    """
    if "bridge-no-summary" not in frozenset(faults):
        return body
    obj = loads(body)
    if not isinstance(obj, dict):
        return body
    return dumps_compact(_snapshot(obj, frozenset({"bridge-no-summary"}))).encode()
