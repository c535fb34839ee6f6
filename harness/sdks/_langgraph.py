"""LangGraph's prebuilt ReAct agent as a SUT (langgraph with langchain-deepseek==1.1.1): the graph runs
its own loop, calling the model, running the scenario's tools in its tool node and calling the model
again.

Rule: the tools are ``request.tool_functions()`` given to ``create_react_agent`` as plain functions (no
interrupt or human-in-the-loop machinery); the graph's message list is kept in ``request.state`` across
turns; the model node's message chunks map onto canonical events with ``_langchain``'s mapping, and
each model response ends with an ``End`` (``tool_calls`` when the tool node runs next).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness.events import End, Event
from harness.sdks._framework import optional
from harness.sdks._langchain import _events, _history, _openai_kwargs, _usage

__all__ = ["langgraph_react_deepseek"]


def _run(request: Any, llm: Any) -> Iterator[Event]:
    graph = optional("langgraph.prebuilt").create_react_agent(llm, tools=request.tool_functions())
    messages = optional("langchain_core.messages")
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


def langgraph_react_deepseek(request: Any) -> Iterator[Event]:
    """``create_react_agent`` over ``ChatDeepSeek`` (reasoning_content)."""
    kwargs = _openai_kwargs(request)
    llm = optional("langchain_deepseek").ChatDeepSeek(
        model="deepseek-reasoner", api_base=kwargs.pop("base_url"), **kwargs
    )
    yield from _run(request, llm)
