"""Request-side fault switches of the reference SUTs: what they pass back upstream and the request
options they send, the correct path first (a thinking block that never got its signature is not
replayed to a provider that requires one), each fault one marked branch.

Rule: sans-IO, on canonical messages and parsed JSON bodies; the names live in ``_faults.FAULTS``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from harness.events import Block, Message, ReasoningBlock, TextBlock, ToolCallBlock

__all__ = ["SIGNED_PASSBACK", "mutate_body", "passback_messages", "strip_passback"]


def strip_passback(messages: Sequence[Message]) -> list[Message]:
    """Fault ``lose-passback``: the continuation loses every reasoning block and signature."""
    out: list[Message] = []
    for m in messages:
        if m.role != "assistant":
            out.append(m)
            continue
        blocks = []
        for b in m.content:
            if isinstance(b, ReasoningBlock):
                continue
            if isinstance(b, TextBlock | ToolCallBlock) and b.signature is not None:
                b = replace(b, signature=None)
            blocks.append(b)
        out.append(Message("assistant", tuple(blocks)))
    return out


def _drop_blocks(messages: Sequence[Message], drop: Callable[[Message, Block], bool]) -> list[Message]:
    out: list[Message] = []
    for m in messages:
        if m.role != "assistant":
            out.append(m)
            continue
        out.append(Message("assistant", tuple(b for b in m.content if not drop(m, b))))
    return [m for m in out if m.role != "assistant" or m.content]


def _empty_thinking(m: Message, b: Block) -> bool:
    return isinstance(b, ReasoningBlock) and not b.text and b.redacted is None


def _bad_args(m: Message) -> bool:
    import json

    for call in m.tool_calls:
        try:
            json.loads(call.arguments or "{}")
        except ValueError:
            return True
    return False


SIGNED_PASSBACK = frozenset({"anthropic-messages", "bedrock-converse"})
"""Upstream dialects whose thinking blocks are valid only with their signature (Anthropic: a block
without one is a 400, ``thinking.signature: Field required``)."""


def passback_messages(messages: Sequence[Message], dialect: str, faults: frozenset[str]) -> list[Message]:
    """The conversation as the reference SUTs pass it back to ``dialect``: the correct path drops a
    thinking block that never got its signature (a turn cancelled mid-thinking) where the provider
    requires signatures; each request fault is one marked branch."""
    out = list(messages)
    if "lose-passback" in faults:
        out = strip_passback(out)
    if dialect in SIGNED_PASSBACK and "replay-unsigned-thinking" not in faults:
        from harness.dialects.anthropic_messages import signed_only

        out = signed_only(out)
    if "drop-empty-thinking" in faults:  # FAULT: a signature-only block looks empty and goes
        out = _drop_blocks(out, _empty_thinking)
    if "drop-signature-bad-args" in faults:  # FAULT: an unparsable tool call costs its message its signatures
        out = [strip_passback([m])[0] if m.role == "assistant" and _bad_args(m) else m for m in out]
    return out


def mutate_body(body: dict[str, Any], faults: frozenset[str]) -> dict[str, Any]:
    """Request-option faults on an upstream request body (the correct path: unchanged)."""
    thinking = body.get("thinking")
    if not isinstance(thinking, dict) or thinking.get("type") != "adaptive":
        return body
    if "thinking-enabled" in faults:  # FAULT: the fixed-budget form every model used to accept
        body = {**body, "thinking": {"type": "enabled", "budget_tokens": 2048}}
        body.pop("output_config", None)
    elif "no-display-summarized" in faults:  # FAULT: the model's default display (omitted) applies
        body = {**body, "thinking": {k: v for k, v in thinking.items() if k != "display"}}
    return body
