"""pydantic-ai's ``Agent`` as a SUT, pinned at pydantic-ai-slim[openai,anthropic]==2.68.0. The agent runs its
own loop: it calls the model, runs the scenario's tools and calls the model again, and thinkwire reads the
turns from what reached the upstream."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from harness.events import End, Event
from harness.sdks._framework import new_messages, optional
from harness.sdks._pydantic_ai import _anthropic_thinking, _delta_events, _part_events, chat_settings

__all__ = ["pydantic_ai_agent_anthropic", "pydantic_ai_agent_openai_chat"]


async def _run(request: Any, model: Any, settings: dict[str, Any], client: Any) -> AsyncIterator[Event]:
    agent = optional("pydantic_ai").Agent(model, tools=request.tool_functions(asynchronous=True))
    prompt = "\n".join(m.text for m in new_messages(request) if m.role == "user") or None
    calls: dict[int, int] = {}
    if not request.stream:  # each model request non-streamed: the run's nodes, each response as it came
        try:
            async with agent.iter(
                prompt, message_history=request.state.get("history"), model_settings=settings
            ) as run:
                async for node in run:
                    if agent.is_call_tools_node(node):  # (before its tools run)
                        calls = {}
                        for i, part in enumerate(node.model_response.parts):
                            for out in _part_events(part, i, calls):
                                yield out
                        yield End("tool_calls" if node.model_response.tool_calls else "stop")
                request.state["history"] = run.result.all_messages() if run.result else None
        finally:
            await client.close()
        return
    try:
        async with agent.run_stream_events(
            prompt, message_history=request.state.get("history"), model_settings=settings
        ) as events:
            async for ev in events:
                kind = getattr(ev, "event_kind", "")
                if kind == "part_start":
                    for out in _part_events(ev.part, ev.index, calls):
                        yield out
                elif kind == "part_delta":
                    for out in _delta_events(ev.delta, ev.index, calls):
                        yield out
                elif kind == "function_tool_call" and calls:  # the response asked for its tools
                    yield End("tool_calls")
                    calls = {}
                elif kind == "agent_run_result":
                    request.state["history"] = ev.result.all_messages()
                    yield End("stop")
    finally:
        await client.close()


# The tools are ``request.tool_functions()`` registered as the agent's own, with no approval or
# deferred-tool machinery. The agent's message history is kept in ``request.state`` across turns. Its
# stream events, parts and their deltas, map onto canonical events with ``_pydantic_ai``'s mapping, and
# each model response ends with an ``End``. A non-streamed case runs the agent with ``iter()``, whose model
# requests are not streamed, and maps each response as it arrives.
async def pydantic_ai_agent_openai_chat(request: Any) -> AsyncIterator[Event]:
    """``Agent`` over ``OpenAIChatModel`` (Chat Completions)."""
    client = optional("openai").AsyncOpenAI(
        base_url=request.base_url + "/v1", api_key="sk-thinkwire", max_retries=0, http_client=None
    )
    provider = optional("pydantic_ai.providers.openai").OpenAIProvider(openai_client=client)
    model = optional("pydantic_ai.models.openai").OpenAIChatModel(request.model, provider=provider)
    async for ev in _run(request, model, chat_settings(request), client):
        yield ev


async def pydantic_ai_agent_anthropic(request: Any) -> AsyncIterator[Event]:
    """``Agent`` over ``AnthropicModel`` with extended thinking."""
    client = optional("anthropic").AsyncAnthropic(
        base_url=request.base_url, api_key="sk-thinkwire", max_retries=0
    )
    provider = optional("pydantic_ai.providers.anthropic").AnthropicProvider(anthropic_client=client)
    model = optional("pydantic_ai.models.anthropic").AnthropicModel(request.model, provider=provider)
    async for ev in _run(request, model, {**_anthropic_thinking(request.variant), "timeout": 30}, client):
        yield ev


pydantic_ai_agent_anthropic.thinkwire_front_door = "anthropic-messages"  # type: ignore[attr-defined]
