"""A small async agent loop over the Anthropic Messages API, as agent frameworks are built: it keeps
its own history, and when the model's tool call has arguments that do not parse it answers the call
with an error result and asks the model again within the same turn (what SDKs that validate tool
input do). A call that parses ends its turn: the caller runs the tool (thinkwire's next turn).
``reasking`` passes the thinking block back with its signature; ``reasking_lossy`` drops it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from harness.dialects import get_dialect
from harness.drivers import SUTRequest
from harness.events import Event, ReasoningBlock, TextBlock, ToolCallBlock, ToolResultBlock, assemble

MAX_ASKS = 3  # model requests one turn may make (the first, then one re-ask per invalid call)


async def reasking(request: SUTRequest) -> AsyncIterator[Event]:
    async for ev in _agent(request, keep_thinking=True):
        yield ev


async def reasking_lossy(request: SUTRequest) -> AsyncIterator[Event]:
    async for ev in _agent(request, keep_thinking=False):
        yield ev


async def _agent(request: SUTRequest, *, keep_thinking: bool) -> AsyncIterator[Event]:
    history: list[dict[str, Any]] = request.state.setdefault("history", [])
    for msg in request.messages[request.state.get("seen", 0) :]:
        if msg.role == "user":
            history.append({"role": "user", "content": msg.text})
        results = [b for b in msg.content if isinstance(b, ToolResultBlock)]
        if results:
            history.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": b.call_id, "content": b.content} for b in results
            ]})
    request.state["seen"] = len(request.messages)
    for _ in range(MAX_ASKS):
        events: list[Event] = []
        async for ev in _ask(request, history):
            events.append(ev)
            yield ev
        reply = assemble(events)
        history.append(_assistant(reply, keep_thinking))
        broken = [c for c in reply.tool_calls if not _parses(c.arguments)]
        if not broken:
            return  # an answer, or calls the caller runs
        history.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": c.id, "is_error": True,
             "content": f"the arguments of {c.name} are not valid JSON: {c.arguments!r}"} for c in broken
        ]})


async def _ask(request: SUTRequest, history: list[dict[str, Any]]) -> AsyncIterator[Event]:
    assert request.async_http is not None
    body = {
        "model": request.model, "max_tokens": 2048, "stream": True, "messages": history,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "tools": request.tools_json("anthropic-messages"),
    }
    observer = get_dialect("anthropic-messages").observer()
    headers = {"x-api-key": "test", "anthropic-version": "2023-06-01"}
    url = request.base_url + "/v1/messages"
    async with request.async_http.stream("POST", url, json=body, headers=headers) as resp:
        async for data in resp.aiter_raw():
            for ev in observer.feed(data):
                yield ev
    for ev in observer.end():
        yield ev


def _parses(arguments: str) -> bool:
    try:
        json.loads(arguments or "{}")
    except ValueError:
        return False
    return True


def _assistant(reply: Any, keep_thinking: bool) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    for b in reply.content:
        if isinstance(b, ReasoningBlock) and keep_thinking:
            if b.redacted is not None:
                content.append({"type": "redacted_thinking", "data": b.redacted})
            else:
                content.append({"type": "thinking", "thinking": b.text, "signature": b.signature or ""})
        elif isinstance(b, TextBlock) and b.text:
            content.append({"type": "text", "text": b.text})
        elif isinstance(b, ToolCallBlock):
            args = json.loads(b.arguments) if _parses(b.arguments) else {}
            content.append({"type": "tool_use", "id": b.id, "name": b.name, "input": args})
    return {"role": "assistant", "content": content}
