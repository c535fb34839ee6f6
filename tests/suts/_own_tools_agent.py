"""An agent framework that runs its tools itself, as most 2026 frameworks do: it registers
``request.tool_functions()`` as its own tools (declaring each from its signature and docstring), calls
the model, runs the tool calls, and calls the model again until it answers. ``own_tools`` keeps the
reasoning_content of its tool-call messages; ``own_tools_lossy`` drops it (the DeepSeek 400);
``own_tools_sync`` registers the plain ``def`` functions."""

from __future__ import annotations

import inspect
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from harness.dialects import get_dialect
from harness.drivers import SUTRequest
from harness.events import Event, assemble

JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}


async def own_tools(request: SUTRequest) -> AsyncIterator[Event]:
    async for ev in _agent(request, keep_reasoning=True, asynchronous=True):
        yield ev


async def own_tools_lossy(request: SUTRequest) -> AsyncIterator[Event]:
    async for ev in _agent(request, keep_reasoning=False, asynchronous=True):
        yield ev


async def own_tools_sync(request: SUTRequest) -> AsyncIterator[Event]:
    async for ev in _agent(request, keep_reasoning=True, asynchronous=False):
        yield ev


def declare(fn: Callable[..., Any]) -> dict[str, Any]:
    """A tool definition from a function, as frameworks build one (name, docstring, signature)."""
    params = inspect.signature(fn).parameters.values()
    props = {p.name: {"type": JSON_TYPES.get(p.annotation, "string")} for p in params}
    required = [p.name for p in params if p.default is inspect.Parameter.empty]
    schema = {"type": "object", "properties": props, "required": required}
    function = {"name": fn.__name__, "description": fn.__doc__, "parameters": schema}
    return {"type": "function", "function": function}


async def _agent(request: SUTRequest, *, keep_reasoning: bool, asynchronous: bool) -> AsyncIterator[Event]:
    tools = {fn.__name__: fn for fn in request.tool_functions(asynchronous=asynchronous)}
    history: list[dict[str, Any]] = request.state.setdefault("history", [])
    for msg in request.messages[request.state.get("seen", 0) :]:
        if msg.role == "user":
            history.append({"role": "user", "content": msg.text})
    request.state["seen"] = len(request.messages)
    for _ in range(4):  # model calls in one run of the agent
        events: list[Event] = []
        async for ev in _ask(request, history, [declare(fn) for fn in tools.values()]):
            events.append(ev)
            yield ev
        reply = assemble(events)
        entry: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
        if keep_reasoning or not reply.tool_calls:
            entry["reasoning_content"] = reply.reasoning
        if not reply.tool_calls:
            history.append(entry)
            return
        entry["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in reply.tool_calls
        ]
        history.append(entry)
        for call in reply.tool_calls:
            result = tools[call.name](**json.loads(call.arguments or "{}"))
            if inspect.isawaitable(result):
                result = await result
            history.append({"role": "tool", "tool_call_id": call.id, "content": result})


async def _ask(
    request: SUTRequest, history: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> AsyncIterator[Event]:
    assert request.async_http is not None
    body = {"model": request.model, "messages": history, "stream": True, "tools": tools}
    observer = get_dialect("openai-chat").observer()
    url = request.base_url + "/v1/chat/completions"
    async with request.async_http.stream("POST", url, json=body) as resp:
        async for data in resp.aiter_raw():
            for ev in observer.feed(data):
                yield ev
    for ev in observer.end():
        yield ev
