"""pydantic-ai adapters, pinned at pydantic-ai-slim[openai,anthropic]==2.68.0: ``OpenAIChatModel``,
``OpenAIResponsesModel`` and ``AnthropicModel`` through ``pydantic_ai.direct``. The model class does the
HTTP, the stream parsing and the history serialisation, which is what is under test."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from harness.events import (
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    TextDelta,
    ToolCallDelta,
    ToolResultBlock,
    Usage,
)
from harness.sdks._framework import new_messages, optional

__all__ = [
    "chat_settings",
    "pydantic_ai_anthropic",
    "pydantic_ai_openai_chat",
    "pydantic_ai_openai_responses",
]




def _history(request: Any) -> list[Any]:
    m = optional("pydantic_ai.messages")
    history: list[Any] = request.state.setdefault("history", [])
    names = {
        p.tool_call_id: p.tool_name
        for r in history
        if isinstance(r, m.ModelResponse)
        for p in r.parts
        if isinstance(p, m.ToolCallPart)
    }
    parts: list[Any] = []
    for msg in new_messages(request):
        if msg.role == "tool":
            for b in msg.content:
                if isinstance(b, ToolResultBlock):
                    name = names.get(b.call_id, b.name or "tool")
                    parts.append(m.ToolReturnPart(tool_name=name, content=b.content, tool_call_id=b.call_id))
        elif msg.role == "system":
            parts.append(m.SystemPromptPart(content=msg.text))
        else:
            parts.append(m.UserPromptPart(content=msg.text))
    if parts:
        history.append(m.ModelRequest(parts=parts))
    return history


def _params(request: Any) -> Any:
    tools = optional("pydantic_ai.tools")
    defs = [
        tools.ToolDefinition(
            name=t.name, description=t.description, parameters_json_schema=dict(t.parameters)
        )
        for t in request.tools
    ]
    return optional("pydantic_ai.models").ModelRequestParameters(function_tools=defs)


def _part_events(part: Any, index: int, calls: dict[int, int]) -> Iterator[Event]:
    kind = getattr(part, "part_kind", "")
    if kind == "thinking":
        if getattr(part, "id", None) == "redacted_thinking" and part.signature:
            yield RedactedReasoning(part.signature)
            return
        if part.content:
            yield ReasoningDelta(part.content)
        if part.signature:
            yield ReasoningSignature(part.signature)
    elif kind == "text" and part.content:
        yield TextDelta(part.content)
    elif kind == "tool-call":
        n = calls.setdefault(index, len(calls))
        args = part.args if isinstance(part.args, str) else (part.args_as_json_str() if part.args else "")
        yield ToolCallDelta(n, part.tool_call_id, part.tool_name, args)


def _delta_events(delta: Any, index: int, calls: dict[int, int]) -> Iterator[Event]:
    kind = getattr(delta, "part_delta_kind", "")
    if kind == "thinking":
        if delta.content_delta:
            yield ReasoningDelta(delta.content_delta)
        if isinstance(getattr(delta, "signature_delta", None), str) and delta.signature_delta:
            yield ReasoningSignature(delta.signature_delta)
    elif kind == "text" and delta.content_delta:
        yield TextDelta(delta.content_delta)
    elif kind == "tool_call":
        args = delta.args_delta if isinstance(delta.args_delta, str) else ""
        yield ToolCallDelta(
            calls.setdefault(index, len(calls)), delta.tool_call_id, delta.tool_name_delta, args
        )


def _end(response: Any, calls: dict[int, int]) -> Iterator[Event]:
    usage = getattr(response, "usage", None)
    if usage is not None and (usage.input_tokens or usage.output_tokens):
        details = getattr(usage, "details", None) or {}
        reasoning = details.get("reasoning_tokens", details.get("thinking_tokens"))
        yield Usage(usage.input_tokens, usage.output_tokens, reasoning, None)
    yield End("tool_calls" if calls or response.tool_calls else "stop")


@contextlib.contextmanager
def _turn_loop(client: Any) -> Iterator[None]:
    """An event loop for one turn, current on the thread the turn runs on. pydantic-ai's sync calls
    run on the thread's current loop and, finding none, make one and leave it open; the turn's async
    SDK client keeps its connections on it. Both were left to the garbage collector, after the turn's
    thread had ended: pytest then reported an unclosed event loop, transports and sockets at session
    end (or "Event loop is closed" when a client was collected after its loop), and exited 1. Here
    the client is closed on the loop that made its connections, then the loop.

    The loop closes the turn's async SDK client and then itself.
    """
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        yield
    finally:
        try:
            loop.run_until_complete(client.close())
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            asyncio.set_event_loop(None)
            loop.close()


def _converse(request: Any, model: Any, settings: dict[str, Any], client: Any) -> Iterator[Event]:
    with _turn_loop(client):
        yield from _turn(request, model, settings)


def _turn(request: Any, model: Any, settings: dict[str, Any]) -> Iterator[Event]:
    direct = optional("pydantic_ai.direct")
    history = _history(request)
    params = _params(request)
    calls: dict[int, int] = {}
    if not request.stream:
        response = direct.model_request_sync(
            model, history, model_settings=settings, model_request_parameters=params
        )
        for i, part in enumerate(response.parts):
            yield from _part_events(part, i, calls)
        history.append(response)
        yield from _end(response, calls)
        return
    with direct.model_request_stream_sync(
        model, history, model_settings=settings, model_request_parameters=params
    ) as stream:
        for ev in stream:
            kind = getattr(ev, "event_kind", "")
            if kind == "part_start":
                yield from _part_events(ev.part, ev.index, calls)
            elif kind == "part_delta":
                yield from _delta_events(ev.delta, ev.index, calls)
        response = stream.response  # the ModelResponse the stream built
    history.append(response)
    yield from _end(response, calls)


def _openai_client(request: Any) -> Any:
    # no SDK retries: the scenario scripts one answer per turn (a retry is not what is under test)
    openai = optional("openai")
    return openai.AsyncOpenAI(base_url=request.base_url + "/v1", api_key="sk-thinkwire", max_retries=0)


# The adapter keeps the conversation as pydantic-ai's agent loop does: a list of ``ModelRequest`` and
# ``ModelResponse`` in ``request.state``, each turn's ``ModelResponse`` appended as the model returned it
# and the tool results as ``ToolReturnPart``. The scenario's tools are ``ToolDefinition``s, and thinking is
# asked for in the model settings, adaptive for the adaptive variant. The part start and delta events,
# ``ThinkingPart`` with its signature, ``TextPart`` and ``ToolCallPart``, map onto canonical events.
def pydantic_ai_openai_chat(request: Any) -> Iterator[Event]:
    """``OpenAIChatModel`` (Chat Completions)."""
    client = _openai_client(request)
    provider = optional("pydantic_ai.providers.openai").OpenAIProvider(openai_client=client)
    model = optional("pydantic_ai.models.openai").OpenAIChatModel(request.model, provider=provider)
    yield from _converse(request, model, chat_settings(request), client)


def pydantic_ai_openai_responses(request: Any) -> Iterator[Event]:
    """``OpenAIResponsesModel`` with reasoning summaries requested."""
    client = _openai_client(request)
    provider = optional("pydantic_ai.providers.openai").OpenAIProvider(openai_client=client)
    model = optional("pydantic_ai.models.openai").OpenAIResponsesModel(request.model, provider=provider)
    settings = {"openai_reasoning_effort": "medium", "openai_reasoning_summary": "auto", "timeout": 30}
    yield from _converse(request, model, settings, client)


pydantic_ai_openai_responses.thinkwire_front_door = "openai-responses"  # type: ignore[attr-defined]


def pydantic_ai_anthropic(request: Any) -> Iterator[Event]:
    """``AnthropicModel`` with extended thinking."""
    client = optional("anthropic").AsyncAnthropic(
        base_url=request.base_url, api_key="sk-thinkwire", max_retries=0
    )
    provider = optional("pydantic_ai.providers.anthropic").AnthropicProvider(anthropic_client=client)
    model = optional("pydantic_ai.models.anthropic").AnthropicModel(request.model, provider=provider)
    yield from _converse(request, model, {**_anthropic_thinking(request.variant), "timeout": 30}, client)


def _anthropic_thinking(variant: str | None) -> dict[str, Any]:
    """The thinking settings a pydantic-ai user gives the case's model: adaptive (display summarized, an
    effort) on the models that refuse a budget (pydantic-ai's own UserError for them names these
    settings), else a thinking budget."""
    if variant == "adaptive":
        adaptive = {"type": "adaptive", "display": "summarized"}
        return {"anthropic_thinking": adaptive, "anthropic_effort": "medium"}
    if variant == "omitted":  # display omitted plays those adaptive-only models too (enabled: a 400)
        return {"anthropic_thinking": {"type": "adaptive", "display": "omitted"}}
    return {"anthropic_thinking": {"type": "enabled", "budget_tokens": 2048}}


def chat_settings(request: Any) -> dict[str, Any]:
    """A pydantic-ai user's Chat Completions settings for the case: a reasoning effort, and the body
    fields that provider's users add to ask for its reasoning form (thinkwire's request body: MiniMax's
    reasoning_split, Gemini's include_thoughts), as ``extra_body``."""
    settings: dict[str, Any] = {"openai_reasoning_effort": "medium", "timeout": 30}
    if request.body:
        settings["extra_body"] = dict(request.body)
    return settings


pydantic_ai_anthropic.thinkwire_front_door = "anthropic-messages"  # type: ignore[attr-defined]
