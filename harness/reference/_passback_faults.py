"""Fault switches of the reference SUTs on the way back, and on what a 2026 wire adds: how a buggy SUT
rebuilds a continuation (reasoning trimmed, blobs re-encoded, a signature on the wrong call, a phase or
a version dropped, server-tool records lost) and how it misreads tool-call signatures.

Rule: sans-IO, and the correct path is the identity: every transform here is one switch's bug and does
nothing unless its switch is on. Each names the real bug it reproduces.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from harness.dialects import RequestSpec
from harness.dialects._chat_carriers import server_tool_call
from harness.events import (
    Event,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningSignature,
    TextBlock,
    ToolCallBlock,
    ToolCallDelta,
)

__all__ = ["PASSBACK_FAULTS", "DropCallSignatures", "passback_body", "passback_messages"]

PASSBACK_FAULTS: dict[str, str] = {
    "drop-call-signatures": "read tool calls but not the signature on them (Gemini's thoughtSignature / "
    "extra_content.google.thought_signature)",
    "signature-to-last-call": "put a message's tool-call signature on its last call, not the first "
    "(parallel calls)",
    "trim-passback": "pass reasoning back whitespace-stripped (a normalising store)",
    "reasoning-content-passback": "carry chat reasoning back in reasoning_content whatever the upstream "
    "reads (vLLM reads 'reasoning'; MiniMax needs <think> in content)",
    "alter-encrypted": "re-encode opaque blobs as URL-safe base64 without padding on the way back",
    "drop-phase": "drop the phase of assistant message items on the way back (Responses)",
    "drop-server-tool-records": "drop OpenRouter reasoning.server_tool_call records on the way back",
    "drop-vertex-version": "send Claude-on-Vertex requests without anthropic_version",
    "first-choice-only": "read every chat chunk as choices[0].delta (fails on Azure's choices:[] and "
    "annotation chunks)",
    "raw-inline-tags": "never split inline reasoning tags (<think>, <mm:think>, <thought>, harmony "
    "channels) out of upstream content",
}


def _urlsafe(blob: str) -> str:
    return blob.replace("+", "-").replace("/", "_").rstrip("=")


def _block(b: ReasoningBlock | TextBlock | ToolCallBlock | object, faults: frozenset[str]) -> object:
    if isinstance(b, ReasoningBlock):
        if "trim-passback" in faults and b.redacted is None:  # FAULT
            b = replace(b, text=b.text.strip())
        if "alter-encrypted" in faults:  # FAULT
            b = replace(
                b,
                signature=None if b.signature is None else _urlsafe(b.signature),
                redacted=b.redacted if b.redacted is None or _server_record(b) else _urlsafe(b.redacted),
            )
    return b


def _server_record(b: object) -> bool:
    return isinstance(b, ReasoningBlock) and server_tool_call(b.redacted) is not None


def _calls_signed_last(blocks: Sequence[object]) -> list[object]:
    """FAULT ``signature-to-last-call``: the signatures of a message's calls all go to its last call."""
    calls = [i for i, b in enumerate(blocks) if isinstance(b, ToolCallBlock)]
    sigs = [b.signature for b in blocks if isinstance(b, ToolCallBlock) and b.signature]
    if len(calls) < 2 or not sigs:
        return list(blocks)
    out = [replace(b, signature=None) if isinstance(b, ToolCallBlock) else b for b in blocks]
    last = out[calls[-1]]
    assert isinstance(last, ToolCallBlock)
    out[calls[-1]] = replace(last, signature=sigs[0])
    return out


def passback_messages(messages: Sequence[Message], faults: frozenset[str]) -> list[Message]:
    """The conversation as a SUT with these faults sends it back (identity without them)."""
    if not faults & PASSBACK_FAULTS.keys():
        return list(messages)
    out: list[Message] = []
    for m in messages:
        if m.role != "assistant":
            out.append(m)
            continue
        blocks: list[object] = [_block(b, faults) for b in m.content]
        if "drop-server-tool-records" in faults:  # FAULT
            blocks = [b for b in blocks if not _server_record(b)]
        if "signature-to-last-call" in faults:
            blocks = _calls_signed_last(blocks)
        out.append(Message("assistant", tuple(blocks)))  # type: ignore[arg-type]
    return out


def passback_body(spec: RequestSpec, faults: frozenset[str]) -> RequestSpec:
    """Body-level faults on the built upstream request (identity without them)."""
    body = spec.body
    if "drop-vertex-version" in faults and "anthropic_version" in body:  # FAULT
        body = {k: v for k, v in body.items() if k != "anthropic_version"}
    if "drop-phase" in faults and isinstance(body.get("input"), list):  # FAULT
        items = body["input"]
        body = {**body, "input": [{k: v for k, v in i.items() if k != "phase"} for i in items]}
    return spec if body is spec.body else replace(spec, body=body)


class DropCallSignatures:
    """FAULT ``drop-call-signatures``: a signature that belongs to a tool call (it follows the call, or
    names the call's id) is lost; signatures of reasoning blocks pass."""

    def __init__(self) -> None:
        self.calls: set[str] = set()
        self.after_call = False

    def push(self, ev: Event) -> list[Event]:
        if isinstance(ev, ToolCallDelta):
            self.after_call = True
            if ev.id:
                self.calls.add(ev.id)
            return [ev]
        if isinstance(ev, ReasoningSignature) and (self.after_call or ev.item in self.calls):
            return []
        if not isinstance(ev, Notice):
            self.after_call = False
        return [ev]

    def finish(self) -> list[Event]:
        return []

    def run(self, events: Iterable[Event]) -> list[Event]:
        return [y for x in events for y in self.push(x)]
