"""The Bedrock message codec, sans-IO: canonical messages and blocks to and from Converse and InvokeModel
Anthropic content, for requests and for non-streaming response bodies. The dialect builds and reads
requests with it and the strict rules read a continuation with it, so it has a module of its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import RequestSpec, content_text
from harness.dialects._values import json_args, opt_str
from harness.dialects.anthropic_messages._dialect import grouped
from harness.dialects.anthropic_messages._wire import content_json
from harness.events import Block, Message, ReasoningBlock, TextBlock, ToolCallBlock, ToolResultBlock

__all__ = [
    "anthropic_content",
    "build_request",
    "converse_content",
    "from_anthropic",
    "from_converse",
    "parse_request",
]

_THINKING = {"type": "enabled", "budget_tokens": 1024}
_ADAPTIVE = {"type": "adaptive", "display": "summarized"}
"""Adaptive-only models (Opus 4.7+) refuse ``enabled`` and omit the thinking text unless asked for it
(https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html)."""


def build_request(
    messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
) -> RequestSpec:
    """A Converse (or, variant ``invoke``, InvokeModel Anthropic) request for ``messages``; the
    ``thinking`` option replaces the default thinking configuration."""
    system = [b.text for m in messages if m.role == "system" for b in m.content if isinstance(b, TextBlock)]
    convo = [m for m in messages if m.role != "system"]
    thinking = options.get("thinking", _ADAPTIVE if variant == "adaptive" else _THINKING)
    if variant == "invoke":
        body: dict[str, Any] = {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 4096}
        if system:
            body["system"] = "\n".join(system)
        body["thinking"] = thinking
        body["messages"] = grouped(convo, lambda m: anthropic_content(m.content))
        suffix = "/invoke-with-response-stream" if stream else "/invoke"
    else:
        body = {"messages": grouped(convo, lambda m: converse_content(m.content), _converse_result)}
        if system:
            body["system"] = [{"text": t} for t in system]
        body["inferenceConfig"] = {"maxTokens": 4096}
        body["additionalModelRequestFields"] = {"thinking": thinking}
        suffix = "/converse-stream" if stream else "/converse"
    return RequestSpec(f"/model/{model}{suffix}", body, {"content-type": "application/json"})


def parse_request(body: Mapping[str, Any]) -> list[Message]:
    """Either request shape (Converse or InvokeModel Anthropic) back to canonical messages.

    A request this codec cannot read becomes fewer messages, never an exception.
    """
    out: list[Message] = []
    system = body.get("system")
    if isinstance(system, str):
        out.append(Message("system", (TextBlock(system),)))
    elif isinstance(system, list):
        out += [
            Message("system", (TextBlock(str(s.get("text", ""))),)) for s in system if isinstance(s, Mapping)
        ]
    for m in body.get("messages") or []:
        if not isinstance(m, Mapping):
            continue
        content = m.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        blocks = [c for c in content or [] if isinstance(c, Mapping)]
        if m.get("role") == "assistant":
            out.append(Message("assistant", tuple(_any_block(c) for c in blocks)))
            continue
        texts = tuple(TextBlock(str(c["text"])) for c in blocks if isinstance(c.get("text"), str))
        if texts:
            out.append(Message("user", texts))
        out += (Message("tool", (r,)) for r in map(_any_result, blocks) if r is not None)
    return out


def converse_content(blocks: Sequence[Block]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for b in blocks:
        if isinstance(b, ReasoningBlock):
            if b.redacted is not None:
                out.append({"reasoningContent": {"redactedContent": b.redacted}})
            else:
                rt: dict[str, Any] = {"text": b.text}
                if b.signature is not None:
                    rt["signature"] = b.signature
                out.append({"reasoningContent": {"reasoningText": rt}})
        elif isinstance(b, TextBlock):
            out.append({"text": b.text})
        elif isinstance(b, ToolCallBlock):
            out.append({"toolUse": {"toolUseId": b.id, "name": b.name, "input": json_args(b.arguments)}})
    return out


def _converse_result(b: ToolResultBlock) -> dict[str, Any]:
    return {"toolResult": {"toolUseId": b.call_id, "content": [{"text": b.content}]}}


def anthropic_content(blocks: Sequence[Block]) -> list[dict[str, Any]]:
    """InvokeModel speaks Anthropic's content (arguments that are not JSON kept as ``arguments``)."""
    return content_json(blocks, json_args)


def from_converse(c: Mapping[str, Any]) -> Block:
    rc = c.get("reasoningContent")
    if isinstance(rc, Mapping):
        if "redactedContent" in rc:
            return ReasoningBlock("", redacted=str(rc["redactedContent"]))
        rt = rc.get("reasoningText") or {}
        return ReasoningBlock(str(rt.get("text", "")), signature=opt_str(rt.get("signature")))
    tu = c.get("toolUse")
    if isinstance(tu, Mapping):
        args = dumps_compact(tu.get("input", {}))
        return ToolCallBlock(str(tu.get("toolUseId", "")), str(tu.get("name", "")), args)
    return TextBlock(str(c.get("text", "")))


def from_anthropic(c: Mapping[str, Any]) -> Block:
    kind = c.get("type")
    if kind == "redacted_thinking":
        return ReasoningBlock("", redacted=str(c.get("data", "")))
    if kind == "thinking":
        return ReasoningBlock(str(c.get("thinking", "")), signature=opt_str(c.get("signature")) or None)
    if kind == "tool_use":
        return ToolCallBlock(str(c.get("id", "")), str(c.get("name", "")), dumps_compact(c.get("input", {})))
    return TextBlock(str(c.get("text", "")))


def _any_block(c: Mapping[str, Any]) -> Block:
    return from_anthropic(c) if "type" in c else from_converse(c)


def _any_result(c: Mapping[str, Any]) -> ToolResultBlock | None:
    tr = c.get("toolResult")
    if isinstance(tr, Mapping):
        parts = tr.get("content") or []
        text = "".join(str(p.get("text", "")) for p in parts if isinstance(p, Mapping) and "text" in p)
        return ToolResultBlock(str(tr.get("toolUseId", "")), text)
    if c.get("type") == "tool_result":
        content = c.get("content")
        text = content_text(content) if isinstance(content, list) else str(content or "")
        return ToolResultBlock(str(c.get("tool_use_id", "")), text)
    return None
