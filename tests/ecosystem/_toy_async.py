"""Async toy frameworks for the async-SUT tests: an async-first framework keeps its history in
``request.state`` and streams with ``request.async_http`` (an ``httpx.AsyncClient`` on the driver's
loop). ``correct`` passes reasoning back, ``lossy`` drops it on tool turns, ``hanging`` never
answers after its first request, ``leaky`` ignores the client going away (keeps reading)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from _toy_framework import chat_entry

from harness.dialects import get_dialect
from harness.drivers import SUTRequest
from harness.events import Event, ToolResultBlock

CLOSED: list[str] = []  # what the generators saw when they ended ("closed", "cancelled")


async def _stream(request: SUTRequest, *, keep_reasoning: bool) -> AsyncIterator[Event]:
    assert request.async_http is not None
    asyncio.get_running_loop()  # the driver's loop: what a sync bridge would lack
    history: list[dict[str, Any]] = request.state.setdefault("history", [])
    for msg in request.messages[request.state.get("seen", 0) :]:
        if msg.role == "user":
            history.append({"role": "user", "content": msg.text})
        for block in msg.content:
            if isinstance(block, ToolResultBlock):
                history.append({"role": "tool", "tool_call_id": block.call_id, "content": block.content})
    request.state["seen"] = len(request.messages)
    body = {"model": request.model, "messages": history, "stream": True, "tools": request.tools_json()}
    observer = get_dialect("openai-chat").observer()
    events: list[Event] = []
    try:
        async with request.async_http.stream(
            "POST", request.base_url + "/v1/chat/completions", json=body
        ) as resp:
            async for data in resp.aiter_raw():
                for ev in observer.feed(data):
                    events.append(ev)
                    yield ev
        for ev in observer.end():
            events.append(ev)
            yield ev
    except GeneratorExit:
        CLOSED.append("closed")
        raise
    except asyncio.CancelledError:
        CLOSED.append("cancelled")
        raise
    history.append(chat_entry(events, keep_reasoning=keep_reasoning))


async def correct(request: SUTRequest) -> AsyncIterator[Event]:
    """An async generator function."""
    async for ev in _stream(request, keep_reasoning=True):
        yield ev


async def lossy(request: SUTRequest) -> AsyncIterator[Event]:
    """``async def`` returning an async iterator (the other accepted shape), with the passback bug."""
    await asyncio.sleep(0)
    return _stream(request, keep_reasoning=False)


async def hanging(request: SUTRequest) -> AsyncIterator[Event]:
    """Answers the first turn, then awaits forever on the second (until cancelled)."""
    if request.turn == 0:
        async for ev in _stream(request, keep_reasoning=True):
            yield ev
        return
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        CLOSED.append("cancelled")
        raise
    yield  # pragma: no cover
