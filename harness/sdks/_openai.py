"""The ``openai`` SDK adapters: Chat Completions, with reasoning as extra delta fields, and Responses. Each
SDK has its own adapter module because each maps its own typed events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness.dialects import get_dialect, list_text
from harness.events import (
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)

__all__ = ["openai_chat", "openai_responses"]

_REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_text")
_HISTORY = {"gemini-openai": "gemini-openai", "phase": "phase", "minimax-details": "minimax-details"}
"""The history form a user of the raw SDK sends: DeepSeek's documented ``reasoning_content`` (chat) and
summarised reasoning items (Responses), except where the provider's docs say to append the output as
received and the SDK keeps what it carries: Gemini's OpenAI-compatible endpoint (a tool call's
``extra_content``, an extra field), the codex models' ``phase`` (a typed field of output messages) and
MiniMax's ``reasoning_details`` with ``reasoning_split`` (its docs: the message goes back complete)."""


def _reasoning(extras: dict[str, Any]) -> str:
    """A delta's or message's reasoning, as a user of the raw SDK reads it: the first string field
    (``reasoning_content`` ...), else the text entries of ``reasoning_details`` (MiniMax's
    ``reasoning_split``, which has no string field)."""
    for name in _REASONING_FIELDS:
        if isinstance(extras.get(name), str) and extras[name]:
            return str(extras[name])
    entries = extras.get("reasoning_details")
    return list_text("reasoning_details", entries) if isinstance(entries, list) else ""


def _client(request: Any) -> Any:
    import openai

    return openai.OpenAI(
        base_url=request.base_url + "/v1", api_key="sk-thinkwire", http_client=request.http, max_retries=0
    )


def _body(request: Any, dialect: str, variant: str) -> dict[str, Any]:
    spec = get_dialect(dialect).build_request(
        request.messages, model=request.model, stream=request.stream, variant=variant
    )
    body = dict(spec.body)
    body.pop("stream", None)
    return body


def openai_chat(request: Any) -> Iterator[Event]:
    """``client.chat.completions.create(stream=True)``; reasoning read from ``delta.model_extra``."""
    client = _client(request)
    body = _body(request, "openai-chat", _HISTORY.get(request.variant or "", "reasoning_content"))
    known = {"model", "messages", "tools", "stream_options", "tool_choice", "max_tokens"}
    extra = {k: v for k, v in body.items() if k not in known}
    kwargs = {k: v for k, v in body.items() if k in known}
    if not request.stream:
        kwargs.pop("stream_options", None)
        resp = client.chat.completions.create(**kwargs, extra_body=extra)
        msg = resp.choices[0].message
        reasoning = _reasoning(msg.model_extra or {})
        if reasoning:
            yield ReasoningDelta(reasoning)
        yield from _content(msg.content)
        for i, call in enumerate(msg.tool_calls or []):
            yield ToolCallDelta(i, call.id, call.function.name, call.function.arguments)
            yield from _call_signature(call)
        if resp.usage is not None:
            details = resp.usage.completion_tokens_details
            yield Usage(
                resp.usage.prompt_tokens,
                resp.usage.completion_tokens,
                details.reasoning_tokens if details else None,
                resp.usage.total_tokens,
            )
        yield End(_finish(resp.choices[0].finish_reason))
        return
    stream = client.chat.completions.create(**kwargs, stream=True, extra_body=extra)
    finish = "stop"
    try:
        for chunk in stream:
            if chunk.usage is not None:
                details = chunk.usage.completion_tokens_details
                yield Usage(
                    chunk.usage.prompt_tokens,
                    chunk.usage.completion_tokens,
                    details.reasoning_tokens if details else None,
                    chunk.usage.total_tokens,
                )
            for choice in chunk.choices:
                delta = choice.delta
                if delta is None:  # Azure's content-filter annotations: a choice with no delta
                    continue
                reasoning = _reasoning(delta.model_extra or {})
                if reasoning:
                    yield ReasoningDelta(reasoning)
                yield from _content(delta.content)
                for call in delta.tool_calls or []:
                    fn = call.function
                    yield ToolCallDelta(
                        call.index, call.id, fn.name if fn else None, (fn.arguments or "") if fn else ""
                    )
                    yield from _call_signature(call)
                if choice.finish_reason:
                    finish = _finish(choice.finish_reason)
    finally:
        stream.close()
    yield End(finish)


def _call_signature(call: Any) -> Iterator[Event]:
    """Gemini's thought signature, an extra field of the SDK's tool call (``extra_content.google``)."""
    extra = (getattr(call, "model_extra", None) or {}).get("extra_content")
    sig = (extra or {}).get("google", {}).get("thought_signature") if isinstance(extra, dict) else None
    if isinstance(sig, str) and sig:
        yield ReasoningSignature(sig, item=call.id or "")


def _content(content: Any) -> Iterator[Event]:
    """``content`` is a string, or (Mistral) a list of text / thinking chunks the SDK passes through."""
    if isinstance(content, str):
        if content:
            yield TextDelta(content)
        return
    for part in content or []:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text" and part.get("text"):
            yield TextDelta(part["text"])
        elif kind == "thinking":
            inner = part.get("thinking")
            text = (
                "".join(p.get("text", "") for p in inner if isinstance(p, dict))
                if isinstance(inner, list)
                else str(inner or "")
            )
            if text:
                yield ReasoningDelta(text)


def _finish(reason: str | None) -> str:
    return {"tool_calls": "tool_calls", "length": "length"}.get(reason or "stop", "stop")


def openai_responses(request: Any) -> Iterator[Event]:
    """``client.responses.create(stream=True)`` with reasoning summaries requested."""
    client = _client(request)
    body = _body(request, "openai-responses", _HISTORY.get(request.variant or "", "summary"))
    if not request.stream:
        resp = client.responses.create(**body)
        yield from _response_items(resp.output)
        if resp.usage is not None:
            details = resp.usage.output_tokens_details
            yield Usage(
                resp.usage.input_tokens,
                resp.usage.output_tokens,
                details.reasoning_tokens if details else None,
                resp.usage.total_tokens,
            )
        yield End("tool_calls" if any(i.type == "function_call" for i in resp.output) else "stop")
        return
    stream = client.responses.create(**body, stream=True)
    calls: dict[str, int] = {}
    try:
        for ev in stream:
            kind = ev.type
            if kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
                yield ReasoningDelta(ev.delta, item=ev.item_id)
            elif kind == "response.output_text.delta":
                yield TextDelta(ev.delta)
            elif kind == "response.output_item.added" and ev.item.type == "function_call":
                calls[ev.item.id or ""] = len(calls)
                yield ToolCallDelta(calls[ev.item.id or ""], ev.item.call_id, ev.item.name, "")
            elif kind == "response.function_call_arguments.delta":
                yield ToolCallDelta(calls.get(ev.item_id, 0), None, None, ev.delta)
            elif kind == "response.output_item.done" and ev.item.type == "reasoning":
                if getattr(ev.item, "encrypted_content", None):
                    yield ReasoningSignature(ev.item.encrypted_content, item=ev.item.id)
            elif kind in ("response.completed", "response.incomplete"):
                usage = ev.response.usage
                if usage is not None:
                    details = usage.output_tokens_details
                    yield Usage(
                        usage.input_tokens,
                        usage.output_tokens,
                        details.reasoning_tokens if details else None,
                        usage.total_tokens,
                    )
                yield End("tool_calls" if calls else "stop")
            elif kind == "response.failed":
                err = ev.response.error
                yield StreamError(err.message if err else "response.failed", err.code if err else None)
            elif kind == "error":
                yield StreamError(ev.message, ev.code)
    finally:
        stream.close()


def _response_items(output: Any) -> Iterator[Event]:
    for n, item in enumerate(output):
        if item.type == "reasoning":
            for part in item.summary or []:
                yield ReasoningDelta(part.text, item=item.id)
            for part in getattr(item, "content", None) or []:
                yield ReasoningDelta(part.text, item=item.id)
            if getattr(item, "encrypted_content", None):
                yield ReasoningSignature(item.encrypted_content, item=item.id)
        elif item.type == "message":
            for part in item.content:
                if part.type == "output_text":
                    yield TextDelta(part.text)
        elif item.type == "function_call":
            yield ToolCallDelta(n, item.call_id, item.name, item.arguments)
