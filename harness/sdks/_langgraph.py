"""LangGraph's prebuilt ReAct agent as a SUT, langgraph 1.2.24 over ``ChatDeepSeek`` with langchain-deepseek
1.1.1, or over ``ChatOpenAI`` on the Responses API with langchain-openai 1.8.1. The graph runs its own
loop: it calls the model, runs the scenario's tools in its tool node and calls the model again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness.events import End, Event
from harness.sdks._framework import optional
from harness.sdks._langchain import _events, _history, _openai_kwargs, _usage

__all__ = ["langgraph_react_deepseek", "langgraph_react_openai_responses"]


def _run(request: Any, llm: Any) -> Iterator[Event]:
    graph = optional("langgraph.prebuilt").create_react_agent(llm, tools=request.tool_functions())
    messages = optional("langchain_core.messages")
    if not request.stream:
        yield from _run_whole(request, graph, messages.AIMessage)
        return
    calls: dict[str, int] = {}
    answering = False  # a model response is streaming
    final: list[Any] = []
    for mode, data in graph.stream({"messages": list(_history(request))}, stream_mode=["messages", "values"]):
        if mode == "values":
            final = list(data["messages"])
            continue
        chunk, _meta = data
        if isinstance(chunk, messages.AIMessageChunk):
            answering = True
            yield from _events(chunk, calls=calls)
            usage = _usage(chunk)
            if usage is not None:
                yield usage
        elif isinstance(chunk, messages.ToolMessage) and answering:  # the tool node ran its tools
            yield End("tool_calls")
            answering, calls = False, {}
    request.state["history"] = final
    if answering:
        yield End("stop")


def _run_whole(request: Any, graph: Any, ai_message: Any) -> Iterator[Event]:
    """Without the "messages" stream mode no streaming callback is attached, so the model node's
    requests are not streamed: each model message is mapped from the node's update as it arrives."""
    final: list[Any] = []
    for mode, data in graph.stream({"messages": list(_history(request))}, stream_mode=["updates", "values"]):
        if mode == "values":
            final = list(data["messages"])
            continue
        for update in data.values():
            for message in update.get("messages", []) if isinstance(update, dict) else []:
                if isinstance(message, ai_message):
                    yield from _events(message, calls={})
                    usage = _usage(message)
                    if usage is not None:
                        yield usage
                    yield End("tool_calls" if message.tool_calls else "stop")
    request.state["history"] = final


# The tools are ``request.tool_functions()`` given to ``create_react_agent`` as plain functions, with no
# interrupt or human-in-the-loop machinery. The graph's message list is kept in ``request.state`` across
# turns. The model node's message chunks map onto canonical events with ``_langchain``'s mapping, and each
# model response ends with an ``End``, ``tool_calls`` when the tool node runs next. A non-streamed case
# streams the graph's updates instead, so its model requests are not streamed.
def langgraph_react_deepseek(request: Any) -> Iterator[Event]:
    """``create_react_agent`` over ``ChatDeepSeek`` (reasoning_content)."""
    kwargs = _openai_kwargs(request)
    llm = optional("langchain_deepseek").ChatDeepSeek(
        model="deepseek-reasoner", api_base=kwargs.pop("base_url"), **kwargs
    )
    yield from _run(request, llm)


def langgraph_react_openai_responses(request: Any) -> Iterator[Event]:
    """``create_react_agent`` over ``ChatOpenAI(use_responses_api=True)`` (reasoning summaries)."""
    llm = optional("langchain_openai").ChatOpenAI(
        model=request.model,
        use_responses_api=True,
        reasoning={"effort": "medium", "summary": "auto"},
        include=["reasoning.encrypted_content"],  # what a tool loop passes back (langchain-openai docs)
        **_openai_kwargs(request),
    )
    yield from _run(request, llm)


langgraph_react_openai_responses.thinkwire_front_door = "openai-responses"  # type: ignore[attr-defined]
