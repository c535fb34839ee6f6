"""LiteLLM SDK adapters, pinned at litellm==1.108.7: ``litellm.completion`` and ``litellm.responses``. LiteLLM
does the provider translation, the HTTP and the stream parsing, which is what is under test; the adapter
only maps LiteLLM's objects onto canonical events, and gives every call an HTTP client of its own."""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from harness.events import (
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    StreamError,
    TextDelta,
    ToolCallDelta,
    ToolResultBlock,
    Usage,
)
from harness.sdks._framework import new_messages

__all__ = ["MODELS", "litellm_completion", "litellm_responses"]

# The LiteLLM model string a LiteLLM user would pick for the case's upstream. It goes by the provider the
# upstream plays, Kimi by LiteLLM's moonshot provider and MiniMax by its minimax provider, else by dialect
# and variant. Anthropic goes by the case's own model name, from which LiteLLM's cost map decides which
# models take adaptive thinking only.
MODELS: Mapping[str, str] = {
    "kimi": "moonshot/{model}",
    "minimax": "minimax/{model}",
    "openai-chat:reasoning_content": "deepseek/deepseek-reasoner",
    "openai-chat:reasoning_details": "openrouter/mock/mock-model",
    "openai-chat:mistral": "mistral/magistral-medium-latest",
    "openai-chat:usage-only": "openai/gpt-5",
    "openai-chat": "hosted_vllm/mock-model",
    "anthropic-messages": "anthropic/{model}",
    "openai-responses": "openai/responses/gpt-5",
}
"""The LiteLLM model string for a case's upstream (``{model}``: the case's model name): its provider
first, then ``dialect:variant``, then ``dialect``."""


def _model(request: Any) -> str:
    keys = (request.provider, f"{request.dialect}:{request.variant}", request.dialect)
    template = next((MODELS[k] for k in keys if k in MODELS), "{model}")
    return template.format(model=request.model)


def _api_base(request: Any) -> str:
    base = str(request.base_url)
    return base if request.dialect == "anthropic-messages" else base + "/v1"


_OPENAI_SDK = ("openai/", "moonshot/")
"""LiteLLM providers whose chat completion goes through the openai SDK (litellm 1.108.7
main.py:6113-6139 dispatches them to ``_complete_custom_openai``, which calls ``openai_chat_completions``
at main.py:2656): their ``client=`` is an
``openai.OpenAI``; every other route here (deepseek, hosted_vllm, openrouter, mistral, minimax,
anthropic, the Responses API and its chat bridge) takes LiteLLM's own ``HTTPHandler``."""


class _Clients:
    """One turn's HTTP client, built as LiteLLM builds its own (``client=``), and the responses it opened.

    Why (measured on litellm 1.108.7, httpcore 1.0.9): a streamed response LiteLLM leaves open is
    closed by the garbage collector, whenever a collection happens to run. On its chat-to-Responses
    bridge that is every mid-stream error: the exception's traceback keeps the stream's iterators alive
    in a reference cycle, and ``CustomStreamWrapper.close()`` would not close the response anyway (it
    closes the iterator's ``http_response``, litellm_core_utils/streaming_handler.py:418-430 and
    llms/base_llm/base_model_iterator.py:84-86, which completion_extras/litellm_responses_transformation/
    handler.py:261-272 never sets; only llms/custom_httpx/llm_http_handler.py:1038 and 1180 do).
    httpcore closes such a stream under its pool's lock (``PoolByteStream.close``,
    _sync/connection_pool.py:409-420), a plain ``threading.Lock``; when the collection runs on a thread
    that holds that lock in the same pool's ``handle_request`` (connection_pool.py:218-228), the thread
    waits on itself forever (encode/httpcore#990). On LiteLLM's one cached module-level client that
    hung the SUT thread and, the lock never released, every later case of the run (each to its
    deadline). A thread thinkwire abandons at a deadline holds no pool lock by itself (httpcore
    releases it before the network I/O, connection_pool.py:224-237), only its open connection; the
    self-deadlocked thread is the one that holds it for good.

    So every LiteLLM call gets a client of its own, and no pool is used again after its turn: the
    collector closing a stream LiteLLM left open can never wait on a lock its own thread holds. What
    LiteLLM left open stays open while its case is observed (closing it then would hide LiteLLM's own
    leak from the cancellation check: the Responses bridge to Anthropic keeps its upstream open after a
    cancel); the conversation's clients are retired when it ends and closed, responses first, when the
    next conversation starts (:func:`_close_retired`, off the caller's thread and bounded)."""

    def __init__(self, api_base: str, model: str) -> None:
        import importlib

        self.opened: list[Any] = []
        if not model.startswith(_OPENAI_SDK) or model.startswith("openai/responses/"):
            handler: Any = importlib.import_module("litellm.llms.custom_httpx.http_handler")
            self.client: Any = handler.HTTPHandler(timeout=30)  # LiteLLM's own (transport, headers)
            self._http: Any = self.client.client
        else:
            import openai

            constants: Any = importlib.import_module("litellm.constants")
            common: Any = importlib.import_module("litellm.llms.openai.common_utils")
            self._http = common.BaseOpenAILLM._get_sync_http_client()  # what LiteLLM gives the openai SDK
            self.client = openai.OpenAI(
                api_key="sk-thinkwire",
                base_url=api_base,
                http_client=self._http,
                timeout=30,
                max_retries=constants.DEFAULT_MAX_RETRIES,
            )
        hooks = dict(self._http.event_hooks)
        self._http.event_hooks = {**hooks, "response": [*hooks.get("response", []), self.opened.append]}

    def close(self) -> None:
        """Every response it opened, then the client (each close takes the pool's lock in turn)."""
        for response in self.opened:
            with contextlib.suppress(Exception):
                response.close()
        with contextlib.suppress(Exception):
            self.client.close()


class _Conversation(list[_Clients]):
    """A conversation's clients, one per turn (``request.state``: the driver closes it when the
    conversation ends, which retires them; :func:`_close_retired` closes them after that case)."""

    def close(self) -> None:
        with _RETIRED_LOCK:
            _RETIRED.extend(self)
        self.clear()


_RETIRED: list[_Clients] = []
_RETIRED_LOCK = threading.Lock()


def _close_retired() -> None:
    """Close the clients of the conversations that have ended, on a thread of their own, waited for 2 s
    at most (a pool lock held for good cannot hang the caller)."""
    with _RETIRED_LOCK:
        retired = _RETIRED[:]
        _RETIRED.clear()
    if not retired:
        return

    def shut() -> None:
        for clients in retired:
            clients.close()

    t = threading.Thread(target=shut, name="thinkwire-litellm-close", daemon=True)
    t.start()
    t.join(2.0)


atexit.register(_close_retired)


def _client(request: Any, model: str) -> Any:
    """This turn's ``client=`` for LiteLLM; a new conversation first closes those of the ended ones."""
    conversation: _Conversation | None = request.state.get("litellm_clients")
    if conversation is None:
        _close_retired()
        conversation = request.state["litellm_clients"] = _Conversation()
    clients = _Clients(_api_base(request), model)
    conversation.append(clients)
    return clients.client


def _litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no network fetch at import
    import importlib

    litellm: Any = importlib.import_module("litellm")  # an optional dependency (nox -s ecosystem)
    litellm.telemetry = False
    return litellm


def _chat_history(request: Any) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = request.state.setdefault("messages", [])
    for m in new_messages(request):
        if m.role == "tool":
            for b in m.content:
                if isinstance(b, ToolResultBlock):
                    history.append({"role": "tool", "tool_call_id": b.call_id, "content": b.content})
        else:
            history.append({"role": m.role, "content": m.text})
    return history


def _dump(obj: Any) -> dict[str, Any]:
    if isinstance(obj, Mapping):
        return dict(obj)
    dump = getattr(obj, "model_dump", None) or getattr(obj, "dict", None)
    return dict(dump()) if dump is not None else {}


def _chat_events(reader: Any, obj: Mapping[str, Any]) -> list[Event]:
    return [
        *reader.reasoning(obj),
        *reader.content(obj.get("content")),
        *reader.tool_calls(obj.get("tool_calls")),
    ]


def _usage(u: Any) -> Usage | None:
    if u is None:
        return None
    details = getattr(u, "completion_tokens_details", None)
    return Usage(
        getattr(u, "prompt_tokens", None),
        getattr(u, "completion_tokens", None),
        getattr(details, "reasoning_tokens", None) if details is not None else None,
        getattr(u, "total_tokens", None),
    )


def _entry(message: Any) -> dict[str, Any]:
    """An assistant message as LiteLLM returned it, as its users append it to their history.

    The adapter keeps the conversation in ``request.state`` as a LiteLLM user does: the messages or input
    items, the assistant turn appended as LiteLLM returned it, built with ``stream_chunk_builder`` for a
    stream. LiteLLM's own passback is then what the upstream sees.
    """
    entry = {k: v for k, v in _dump(message).items() if v is not None and k not in ("function_call", "audio")}
    entry["role"] = "assistant"
    return entry


def litellm_completion(request: Any) -> Iterator[Event]:
    """``litellm.completion(stream=...)`` on the LiteLLM user's own message list."""
    litellm = _litellm()
    yield from _completion_turn(request, litellm, _client(request, _model(request)))


def _completion_turn(request: Any, litellm: Any, client: Any) -> Iterator[Event]:
    from harness.dialects import CARRIERS, Reader

    history = _chat_history(request)
    kwargs: dict[str, Any] = {
        "model": _model(request),
        "messages": history,
        "api_base": _api_base(request),
        "api_key": "sk-thinkwire",
        "timeout": 30,
        "client": client,
        **dict(request.body),
    }
    tools = request.tools_json("openai-chat")
    if tools:
        kwargs["tools"] = tools
    reader = Reader(CARRIERS, False, False)
    if not request.stream:
        resp = litellm.completion(**kwargs)
        choice = resp.choices[0]
        yield from _chat_events(reader, _dump(choice.message))
        usage = _usage(getattr(resp, "usage", None))
        if usage is not None:
            yield usage
        history.append(_entry(choice.message))
        yield End(_finish(choice.finish_reason))
        return
    stream = litellm.completion(**kwargs, stream=True, stream_options={"include_usage": True})
    chunks: list[Any] = []
    finish = "stop"
    try:
        for chunk in stream:
            chunks.append(chunk)
            for choice in chunk.choices:
                yield from _chat_events(reader, _dump(choice.delta))
                if choice.finish_reason:
                    finish = _finish(choice.finish_reason)
            usage = _usage(getattr(chunk, "usage", None))
            if usage is not None:
                yield usage
    finally:
        _close(stream)  # a user who stops reading closes the stream (and its upstream response)
    yield from reader.end_text()
    built = litellm.stream_chunk_builder(chunks, messages=history)
    if built is not None and built.choices:
        history.append(_entry(built.choices[0].message))
    yield End(finish)


def _close(stream: Any) -> None:
    import contextlib

    for obj in (stream, getattr(stream, "completion_stream", None), getattr(stream, "response", None)):
        close = getattr(obj, "close", None)
        if callable(close):
            with contextlib.suppress(Exception):
                close()


def _finish(reason: str | None) -> str:
    return {"tool_calls": "tool_calls", "length": "length", "function_call": "tool_calls"}.get(
        reason or "stop", "stop"
    )


def _input_items(request: Any) -> list[Any]:
    items: list[Any] = request.state.setdefault("input", [])
    for m in new_messages(request):
        if m.role == "tool":
            for b in m.content:
                if isinstance(b, ToolResultBlock):
                    items.append({"type": "function_call_output", "call_id": b.call_id, "output": b.content})
        else:
            items.append({"type": "message", "role": m.role, "content": m.text})
    return items


def _output_events(output: Any) -> Iterator[Event]:
    for n, item in enumerate(output or []):
        d = _dump(item)
        if d.get("type") == "reasoning":
            for part in (d.get("summary") or []) + (d.get("content") or []):
                text = _dump(part).get("text")
                if text:
                    yield ReasoningDelta(text, item=str(d.get("id") or ""))
            if d.get("encrypted_content"):
                yield ReasoningSignature(d["encrypted_content"], item=str(d.get("id") or ""))
        elif d.get("type") == "message":
            for part in d.get("content") or []:
                p = _dump(part)
                if p.get("type") == "output_text" and p.get("text"):
                    yield TextDelta(p["text"])
        elif d.get("type") == "function_call":
            yield ToolCallDelta(n, d.get("call_id"), d.get("name"), d.get("arguments") or "")


def _responses_usage(u: Any) -> Usage | None:
    if u is None:
        return None
    d = _dump(u)
    details = _dump(d.get("output_tokens_details") or {})
    return Usage(
        d.get("input_tokens"), d.get("output_tokens"), details.get("reasoning_tokens"), d.get("total_tokens")
    )


def litellm_responses(request: Any) -> Iterator[Event]:
    """``litellm.responses(stream=...)`` with reasoning summaries and encrypted content requested; the
    user's input list grows by each response's output items (LiteLLM's own passback)."""
    litellm = _litellm()
    yield from _responses_turn(request, litellm, _client(request, _model(request)))


def _responses_turn(request: Any, litellm: Any, client: Any) -> Iterator[Event]:
    items = _input_items(request)
    kwargs: dict[str, Any] = {
        "model": _model(request),
        "input": list(items),
        "api_base": _api_base(request),
        "api_key": "sk-thinkwire",
        "timeout": 30,
        "client": client,
        "reasoning": {"effort": "medium", "summary": "auto"},
        "include": ["reasoning.encrypted_content"],
        "store": False,
        **dict(request.body),
    }
    tools = request.tools_json("openai-responses")
    if tools:
        kwargs["tools"] = tools
    if not request.stream:
        resp = litellm.responses(**kwargs)
        output = list(getattr(resp, "output", None) or [])
        yield from _output_events(output)
        usage = _responses_usage(getattr(resp, "usage", None))
        if usage is not None:
            yield usage
        items += [_dump(o) for o in output]
        yield End("tool_calls" if any(_dump(o).get("type") == "function_call" for o in output) else "stop")
        return
    calls: dict[str, int] = {}
    stream = litellm.responses(**kwargs, stream=True)
    try:
        for ev in stream:
            raw = getattr(ev, "type", "")
            kind = str(getattr(raw, "value", raw))  # LiteLLM's event types are an Enum
            if kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
                yield ReasoningDelta(ev.delta, item=str(getattr(ev, "item_id", "") or ""))
            elif kind == "response.output_text.delta":
                yield TextDelta(ev.delta)
            elif kind == "response.output_item.added" and _dump(ev.item).get("type") == "function_call":
                item = _dump(ev.item)
                calls[str(item.get("id") or "")] = len(calls)
                yield ToolCallDelta(
                    calls[str(item.get("id") or "")], item.get("call_id"), item.get("name"), ""
                )
            elif kind == "response.function_call_arguments.delta":
                yield ToolCallDelta(calls.get(str(getattr(ev, "item_id", "")), 0), None, None, ev.delta)
            elif kind == "response.output_item.done" and _dump(ev.item).get("type") == "reasoning":
                item = _dump(ev.item)
                if item.get("encrypted_content"):
                    yield ReasoningSignature(item["encrypted_content"], item=str(item.get("id") or ""))
            elif kind in ("response.completed", "response.incomplete"):
                response = _dump(ev.response)
                items += [_dump(o) for o in response.get("output") or []]
                usage = _responses_usage(response.get("usage"))
                if usage is not None:
                    yield usage
                yield End("tool_calls" if calls else "stop")
            elif kind in ("response.failed", "error"):
                err = _dump(getattr(ev, "response", None) or {}).get("error") or {}
                msg = _dump(err).get("message") if err else getattr(ev, "message", kind)
                yield StreamError(str(msg or kind))
    finally:
        _close(stream)  # a user who stops reading closes the stream


litellm_responses.thinkwire_front_door = "openai-responses"  # type: ignore[attr-defined]
