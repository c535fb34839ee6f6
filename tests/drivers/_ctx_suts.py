"""Async SUTs that keep context across their own ``yield``s, as traced frameworks do: ``token_reset``
sets a contextvar before streaming and resets its token after; ``otel_span`` attaches an
OpenTelemetry context before and detaches it after; ``session`` sets a contextvar on its first turn
and reads it on the next. Each raises (a SUT verdict) when its context was lost; ``SEEN`` records
what their ``finally`` blocks found when a cancel or the deadline ended them."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator
from typing import Any

from harness.dialects import get_dialect
from harness.drivers import SUTRequest
from harness.events import Event, ToolResultBlock, assemble

SPAN: contextvars.ContextVar[str | None] = contextvars.ContextVar("span", default=None)
SESSION: contextvars.ContextVar[str | None] = contextvars.ContextVar("session", default=None)
SEEN: list[str] = []


async def _stream(request: SUTRequest) -> AsyncIterator[Event]:
    """A chat framework's turn: its history (reasoning kept) in ``state``, streamed on ``async_http``."""
    assert request.async_http is not None
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
    async with request.async_http.stream("POST", request.base_url + "/v1/chat/completions", json=body) as r:
        async for data in r.aiter_raw():
            for ev in observer.feed(data):
                events.append(ev)
                yield ev
    for ev in observer.end():
        events.append(ev)
        yield ev
    reply = assemble(events)
    entry: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    entry["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        entry["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in reply.tool_calls
        ]
    history.append(entry)


async def token_reset(request: SUTRequest) -> AsyncIterator[Event]:
    token = SPAN.set(f"turn {request.turn}")
    try:
        async for ev in _stream(request):
            if SPAN.get() != f"turn {request.turn}":
                raise RuntimeError(f"the span was lost after a yield: {SPAN.get()!r}")
            yield ev
    finally:
        try:
            SPAN.reset(token)  # ValueError when this runs in another Context than set() did
            SEEN.append("reset")
        except ValueError as exc:
            SEEN.append(f"ValueError: {exc}")
            raise


async def otel_span(request: SUTRequest) -> AsyncIterator[Event]:
    from opentelemetry import context

    token = context.attach(context.set_value("thinkwire.turn", request.turn))
    try:
        async for ev in _stream(request):
            if context.get_value("thinkwire.turn") != request.turn:
                raise RuntimeError("the OpenTelemetry context was lost after a yield")
            yield ev
    finally:
        context.detach(token)  # logs "Failed to detach context" when run in another Context


async def session(request: SUTRequest) -> AsyncIterator[Event]:
    if request.turn == 0:
        SESSION.set("conversation")
    elif SESSION.get() != "conversation":
        raise RuntimeError(f"turn {request.turn} lost the case's context: session is {SESSION.get()!r}")
    async for ev in _stream(request):
        yield ev


async def hanging_span(request: SUTRequest) -> AsyncIterator[Event]:
    """Streams its first turn, then awaits forever holding a span (the deadline must cancel it)."""
    token = SPAN.set("hang")
    try:
        if request.turn == 0:
            async for ev in _stream(request):
                yield ev
            return
        await asyncio.Event().wait()
        yield  # pragma: no cover
    finally:
        try:
            SPAN.reset(token)
            SEEN.append("reset")
        except ValueError as exc:
            SEEN.append(f"ValueError: {exc}")
