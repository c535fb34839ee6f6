"""A toy framework adapter for the adapter-contract tests: it keeps its own history in
``request.state`` and builds its own requests (``keep_reasoning=False``: langchain-deepseek's bug)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness.dialects import get_dialect
from harness.drivers import SUTRequest
from harness.events import Event, ToolResultBlock, assemble

SEEN: list[dict[str, Any]] = []


def _framework(request: SUTRequest, *, keep_reasoning: bool | None) -> Iterator[Event]:
    """A toy framework: its own history objects in ``state``, its own request, its own passback."""
    history: list[dict[str, Any]] = request.state.setdefault("history", [])
    if not history:
        history.append({"role": "user", "content": request.messages[0].text})
    else:
        for msg in request.messages[len(request.state["seen"]) :]:
            for block in msg.content:
                if isinstance(block, ToolResultBlock):
                    history.append({"role": "tool", "tool_call_id": block.call_id, "content": block.content})
    request.state["seen"] = list(request.messages)
    SEEN.append(
        {
            "turn": request.turn,
            "tools": request.tools,
            "headers": dict(request.headers),
            "provider": request.provider,
            "model": request.model,
        }
    )
    if keep_reasoning is None:  # a wrapper that replays reasoning only for DeepSeek's models
        keep_reasoning = "deepseek" in request.model
    body = {
        "model": request.model,
        "messages": history,
        "stream": request.stream,
        "tools": request.tools_json(),
    }
    chat = get_dialect("openai-chat")
    events: list[Event] = []
    if request.stream:
        observer = chat.observer()
        with request.http.stream(
            "POST", request.base_url + "/v1/chat/completions", json=body, headers=dict(request.headers)
        ) as resp:
            for data in resp.iter_raw():
                for ev in observer.feed(data):
                    events.append(ev)
                    yield ev
        for ev in observer.end():
            events.append(ev)
            yield ev
    else:
        resp = request.http.post(request.base_url + "/v1/chat/completions", json=body)
        events = chat.observe_response(resp.content)
        yield from events
    history.append(chat_entry(events, keep_reasoning=bool(keep_reasoning)))


def chat_entry(events: list[Event], *, keep_reasoning: bool) -> dict[str, Any]:
    """The assistant entry a chat framework keeps in its history for ``events`` (the toys share it):
    ``keep_reasoning=False`` drops reasoning_content on tool-call turns (the passback bug)."""
    reply = assemble(events)
    entry: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if keep_reasoning or not reply.tool_calls:
        entry["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        entry["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in reply.tool_calls
        ]
    return entry


def correct_framework(request: SUTRequest) -> Iterator[Event]:
    yield from _framework(request, keep_reasoning=True)


def lossy_framework(request: SUTRequest) -> Iterator[Event]:
    yield from _framework(request, keep_reasoning=False)


def name_keyed_framework(request: SUTRequest) -> Iterator[Event]:
    """Replays reasoning_content on tool turns only when the model name says "deepseek" (a real
    pattern): Kimi needs it too, so under a Kimi model name the continuation is rejected."""
    yield from _framework(request, keep_reasoning=None)
