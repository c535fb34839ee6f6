"""The ``anthropic`` SDK adapter: Messages streaming with extended thinking, read from the raw stream events.
Each SDK has its own adapter module because each maps its own typed events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness.dialects import get_dialect
from harness.dialects.anthropic_messages import signed_only
from harness.events import (
    End,
    Event,
    Notice,
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
    """``client.messages.create``; a Claude-on-Vertex case goes through the SDK's own ``AnthropicVertex``
    client (``:streamRawPredict`` paths, ``anthropic_version`` in the body), as a Vertex user's code does."""
    import anthropic

    if request.variant == "vertex":
        make: Any = anthropic.AnthropicVertex
        auth = {"region": "us-east5", "project_id": "thinkwire-mock", "access_token": "ya29.thinkwire"}
        base = request.base_url + "/v1"
    else:
        make, auth, base = anthropic.Anthropic, {"api_key": "sk-ant-thinkwire"}, request.base_url
    try:
        client = make(base_url=base, http_client=request.http, max_retries=0, **auth)
    except TypeError:  # the SDK runs on its own HTTP package (httpx2): its own client, the same bound
        timeout = request.http.timeout
        bound = anthropic.Timeout(timeout.read or 10.0, connect=timeout.connect or 5.0)
        client = make(base_url=base, max_retries=0, timeout=bound, **auth)
    with client:
        yield from _messages(client, request)


def _thinking_tokens(usage: Any) -> int | None:
    """``usage.output_tokens_details.thinking_tokens`` (a typed field of the SDK since 2.x), if any."""
    details = getattr(usage, "output_tokens_details", None)
    value = getattr(details, "thinking_tokens", None)
    return value if isinstance(value, int) else None


def _whole(msg: Any) -> Iterator[Event]:
    """A non-streamed message's blocks, usage and end, as the SDK typed them."""
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
    yield Usage(
        input_tokens=msg.usage.input_tokens,
        output_tokens=msg.usage.output_tokens,
        reasoning_tokens=_thinking_tokens(msg.usage),
    )
    yield End("tool_calls" if msg.stop_reason == "tool_use" else "stop")


def _messages(client: Any, request: Any) -> Iterator[Event]:
    import anthropic

    # what an application on the SDK sends: the case's thinking mode (adaptive on models that refuse
    # enabled), and no thinking block that never got its signature (a cancelled turn's)
    variant = request.variant if request.variant in ("adaptive", "omitted") else "thinking"
    spec = get_dialect("anthropic-messages").build_request(
        signed_only(request.messages), model=request.model, stream=request.stream, variant=variant
    )
    body = dict(spec.body)
    body.pop("stream", None)
    body.setdefault("max_tokens", 4096)
    if not request.stream:
        yield from _whole(client.messages.create(**body))
        return
    try:
        stream = client.messages.create(**body, stream=True)
    except anthropic.APIStatusError:
        raise
    tools: dict[int, int] = {}
    stop = "stop"
    input_tokens: int | None = None  # message_start's usage: the SDK's own typed field, as is
    started = False  # the SDK gave its message_start (the message id, the model, the input tokens)
    try:
        for ev in stream:
            if not started and ev.type != "message_start":  # the SDK skipped it (anthropic 2.17 behind
                # a BOM): its user never had the message id, the model or message_start's usage
                yield Notice("before-message-start", f"{ev.type} came first: no message_start was given")
            started = True
            if ev.type == "message_start":
                input_tokens = ev.message.usage.input_tokens
            elif ev.type == "content_block_start":
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
                inp = getattr(ev.usage, "input_tokens", None)
                yield Usage(
                    input_tokens=inp if inp is not None else input_tokens,
                    output_tokens=ev.usage.output_tokens,
                    reasoning_tokens=_thinking_tokens(ev.usage),
                )
            elif ev.type == "message_stop":
                yield End(stop)
    except anthropic.APIError as exc:
        yield StreamError(str(exc))
    finally:
        stream.close()
