"""Bedrock provider rules: lenient and ``bedrock-claude``, where reasoning blocks with their signature must
come back unmodified before the toolUse they belong to, else HTTP 400 ``ValidationException``. They judge
what a client sends back, so they sit apart from the wire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import LENIENT, Difference, LenientRules, ProviderRules, Rejection
from harness.dialects.anthropic_messages._rules import INVALID_SIGNATURE, MISSING_THINKING, MODIFIED
from harness.dialects.bedrock_converse._request import parse_request
from harness.events import Block, Message, ReasoningBlock, ToolCallBlock, Turn

__all__ = ["RULES"]

_PREFIX = "The model returned the following errors: "
"""(guess) Bedrock's wrapper text around the Anthropic message; the exact Converse wording is not in the
catalog (wire-formats.md §12 BR-CONVERSE: only the InvokeModel form was seen)."""


def _validation(message: str, rule: str, differences: tuple[Difference, ...]) -> Rejection:
    body = dumps_compact({"message": _PREFIX + message}).encode()
    return Rejection(400, body, rule, differences, headers=(("x-amzn-ErrorType", "ValidationException"),))


def _reasoning_before_tools(blocks: Sequence[Block]) -> list[ReasoningBlock]:
    out = []
    for b in blocks:
        if isinstance(b, ToolCallBlock):
            break
        if isinstance(b, ReasoningBlock) and (b.signature is not None or b.redacted is not None):
            out.append(b)
    return out


@dataclass(slots=True)
class _BedrockClaude(ProviderRules):
    name: str = "bedrock-claude"
    dialect: str = "bedrock-converse"
    description: str = (
        "Claude on Bedrock: each reasoning block (text + signature, or redactedContent) comes back "
        "unmodified and before the toolUse it belongs to"
    )

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return turn

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        messages = request.get("messages")
        if not isinstance(messages, Sequence):
            return None
        raw_assistant = [
            i for i, m in enumerate(messages) if isinstance(m, Mapping) and m.get("role") == "assistant"
        ]
        ours = [m for m in parse_request({"messages": messages}) if m.role == "assistant"]
        for n, msg in zip(raw_assistant, ours, strict=False):
            calls = {b.id for b in msg.content if isinstance(b, ToolCallBlock)}
            origin = next(
                (e for e in emitted if calls & {b.id for b in e.content if isinstance(b, ToolCallBlock)}),
                None,
            )
            want = _reasoning_before_tools(origin.content) if origin is not None else []
            rejection = self._check(n, msg.content, want) if want else None
            if rejection is not None:
                return rejection
        return None

    @staticmethod
    def _check(n: int, got: Sequence[Block], want: Sequence[ReasoningBlock]) -> Rejection | None:
        first = got[0] if got else None
        if not isinstance(first, ReasoningBlock):
            found = "tool_use" if isinstance(first, ToolCallBlock) else "text"
            diff: Difference = (f"messages[{n}].content[0]", found, "reasoningContent")
            return _validation(
                MISSING_THINKING.format(n=n, found=found), "bedrock-claude/reasoning-missing", (diff,)
            )
        have = [b for b in got if isinstance(b, ReasoningBlock)]
        for m, expected in enumerate(want):
            actual = have[m] if m < len(have) else None
            where = f"messages[{n}].content[{m}].reasoningContent"
            if actual is None or actual.signature != expected.signature:
                sig = None if actual is None else actual.signature
                diff = (where + ".reasoningText.signature", sig, expected.signature)
                return _validation(
                    INVALID_SIGNATURE.format(n=n, m=m), "bedrock-claude/signature-invalid", (diff,)
                )
            if actual.text != expected.text or actual.redacted != expected.redacted:
                diff = (where, actual.redacted or actual.text, expected.redacted or expected.text)
                return _validation(MODIFIED.format(n=n, m=m), "bedrock-claude/reasoning-modified", (diff,))
        return None


RULES: dict[str, ProviderRules] = {
    LENIENT: LenientRules("bedrock-converse"),
    "bedrock-claude": _BedrockClaude(),
}
