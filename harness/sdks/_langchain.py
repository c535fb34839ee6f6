"""LangChain adapters, pinned at langchain-openai==1.8.1 and langchain-deepseek==1.1.1: ``ChatOpenAI`` on Chat
Completions and on the Responses API, and ``ChatDeepSeek``. The chat model does the HTTP, the stream
parsing and the history serialisation, which is what is under test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from harness.events import (
    End,
    Event,
    ReasoningDelta,
    TextDelta,
    ToolCallDelta,
    ToolResultBlock,
    Usage,
)
from harness.sdks._framework import new_messages, optional

__all__ = ["langchain_deepseek", "langchain_openai_chat", "langchain_openai_responses"]




def _history(request: Any) -> list[Any]:
    msgs = optional("langchain_core.messages")
    history: list[Any] = request.state.setdefault("history", [])
    for m in new_messages(request):
        if m.role == "tool":
            for b in m.content:
                if isinstance(b, ToolResultBlock):
                    history.append(msgs.ToolMessage(content=b.content, tool_call_id=b.call_id))
        elif m.role == "system":
            history.append(msgs.SystemMessage(content=m.text))
        else:
            history.append(msgs.HumanMessage(content=m.text))
    return history


def _events(message: Any, *, calls: dict[str, int]) -> Iterator[Event]:
    for block in message.content_blocks:
        kind = block.get("type")
        if kind == "text" and block.get("text"):
            yield TextDelta(block["text"])
        elif kind == "reasoning" and block.get("reasoning"):
            yield ReasoningDelta(block["reasoning"], item=str(block.get("id") or ""))
        elif kind == "tool_call_chunk":
            # a call is known by its id; a chunk without one continues the latest call (LangChain's own
            # ``index`` is the provider's output position, not the call's number)
            cid = block.get("id")
            index = calls.setdefault(str(cid), len(calls)) if cid else max(len(calls) - 1, 0)
            yield ToolCallDelta(index, cid, block.get("name"), block.get("args") or "")
        elif kind == "tool_call":
            n = calls.setdefault(str(block.get("id")), len(calls))
            yield ToolCallDelta(n, block.get("id"), block.get("name"), json.dumps(block.get("args") or {}))


def _usage(message: Any) -> Usage | None:
    u = getattr(message, "usage_metadata", None)
    if not u:
        return None
    details = u.get("output_token_details") or {}
    return Usage(
        u.get("input_tokens"), u.get("output_tokens"), details.get("reasoning"), u.get("total_tokens")
    )


def _converse(request: Any, llm: Any) -> Iterator[Event]:
    history = _history(request)
    tools = request.tools_json("openai-chat")
    model = llm.bind_tools(tools) if tools else llm
    calls: dict[str, int] = {}
    if not request.stream:
        reply = model.invoke(history)
        yield from _events(reply, calls=calls)
        usage = _usage(reply)
        if usage is not None:
            yield usage
        history.append(reply)
        yield End("tool_calls" if reply.tool_calls else "stop")
        return
    total: Any = None
    for chunk in model.stream(history):
        total = chunk if total is None else total + chunk
        yield from _events(chunk, calls=calls)
        usage = _usage(chunk)
        if usage is not None:
            yield usage
    if total is not None:
        history.append(optional("langchain_core.messages").message_chunk_to_message(total))
    yield End("tool_calls" if total is not None and total.tool_call_chunks else "stop")


def _openai_kwargs(request: Any) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "base_url": request.base_url + "/v1",
        "api_key": "sk-thinkwire",
        "http_client": request.http,
        "max_retries": 0,
        "stream_usage": True,
    }
    if request.body:
        kwargs["extra_body"] = dict(request.body)
    return kwargs


# The adapter keeps the conversation as a LangChain user does: a list of LangChain messages in
# ``request.state``, with the streamed ``AIMessageChunk`` sum or the ``AIMessage`` appended as returned and
# a ``ToolMessage`` per tool result. Tools are bound with ``bind_tools``. Each chunk's standard
# ``content_blocks``, text, reasoning and tool-call chunks, and its ``usage_metadata`` map onto canonical
# events.
def langchain_openai_chat(request: Any) -> Iterator[Event]:
    """``ChatOpenAI`` (Chat Completions) with the user's own message list."""
    llm = optional("langchain_openai").ChatOpenAI(model=request.model, **_openai_kwargs(request))
    yield from _converse(request, llm)


def langchain_openai_responses(request: Any) -> Iterator[Event]:
    """``ChatOpenAI(use_responses_api=True)`` with reasoning summaries requested."""
    llm = optional("langchain_openai").ChatOpenAI(
        model=request.model,
        use_responses_api=True,
        reasoning={"effort": "medium", "summary": "auto"},
        include=["reasoning.encrypted_content"],  # what a tool loop passes back (langchain-openai docs)
        **_openai_kwargs(request),
    )
    yield from _converse(request, llm)


langchain_openai_responses.thinkwire_front_door = "openai-responses"  # type: ignore[attr-defined]


def langchain_deepseek(request: Any) -> Iterator[Event]:
    """``ChatDeepSeek`` (reasoning_content) with the user's own message list."""
    kwargs = _openai_kwargs(request)
    llm = optional("langchain_deepseek").ChatDeepSeek(
        model="deepseek-reasoner", api_base=kwargs.pop("base_url"), **kwargs
    )
    yield from _converse(request, llm)
