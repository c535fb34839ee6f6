"""``anthropic`` SDK adapter: Messages streaming with extended thinking (raw stream events)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness.dialects import get_dialect
from harness.events import (
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)

__all__ = ["anthropic_messages"]


def anthropic_messages(request: Any) -> Iterator[Event]:
    import anthropic

    try:
        client = anthropic.Anthropic(
            base_url=request.base_url, api_key="sk-ant-thinkwire", http_client=request.http, max_retries=0
        )
    except TypeError:  # anthropic >= 2.x speaks httpx2 and refuses an httpx client: its own, same bounds
        client = anthropic.Anthropic(
            base_url=request.base_url,
            api_key="sk-ant-thinkwire",
            timeout=request.http.timeout.read or 30.0,
            max_retries=0,
        )
    spec = get_dialect("anthropic-messages").build_request(
        request.messages, model=request.model, stream=request.stream, variant="thinking"
    )
    body = dict(spec.body)
    body.pop("stream", None)
    body.setdefault("max_tokens", 4096)
    if not request.stream:
        msg = client.messages.create(**body)
        tool = 0
        for block in msg.content:
            if block.type == "thinking":
                yield ReasoningDelta(block.thinking)
                if block.signature:
                    yield ReasoningSignature(block.signature)
            elif block.type == "redacted_thinking":
                yield RedactedReasoning(block.data)
            elif block.type == "text":
                yield TextDelta(block.text)
            elif block.type == "tool_use":
                import json

                yield ToolCallDelta(tool, block.id, block.name, json.dumps(block.input))
                tool += 1
        yield _usage(msg.usage)
        yield End("tool_calls" if msg.stop_reason == "tool_use" else "stop")
        return
    try:
        stream = client.messages.create(**body, stream=True)
    except anthropic.APIStatusError:
        raise
    tools: dict[int, int] = {}
    stop = "stop"
    try:
        for ev in stream:
            if ev.type == "content_block_start":
                block = ev.content_block
                if block.type == "redacted_thinking":
                    yield RedactedReasoning(block.data, item=str(ev.index))
                elif block.type == "tool_use":
                    tools[ev.index] = len(tools)
                    yield ToolCallDelta(tools[ev.index], block.id, block.name, "")
            elif ev.type == "content_block_delta":
                d = ev.delta
                if d.type == "thinking_delta":
                    yield ReasoningDelta(d.thinking, item=str(ev.index))
                elif d.type == "signature_delta":
                    yield ReasoningSignature(d.signature, item=str(ev.index))
                elif d.type == "text_delta":
                    yield TextDelta(d.text, item=str(ev.index))
                elif d.type == "input_json_delta":
                    yield ToolCallDelta(tools.get(ev.index, 0), None, None, d.partial_json)
            elif ev.type == "message_delta":
                if ev.delta.stop_reason == "tool_use":
                    stop = "tool_calls"
                yield _usage(ev.usage)
            elif ev.type == "message_stop":
                yield End(stop)
    except anthropic.APIError as exc:
        yield StreamError(str(exc))
    finally:
        stream.close()


def _usage(usage: Any) -> Usage:
    """The SDK's usage, with ``output_tokens_details.thinking_tokens`` as the reasoning count."""
    details = getattr(usage, "output_tokens_details", None)
    return Usage(
        input_tokens=getattr(usage, "input_tokens", None),
        output_tokens=getattr(usage, "output_tokens", None),
        reasoning_tokens=getattr(details, "thinking_tokens", None),
    )
