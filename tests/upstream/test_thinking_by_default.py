"""Models that think when the request does not mention thinking: ``thinkwire serve`` answers each of
them with reasoning unless the request turns it off the way the provider documents (Qwen3's
enable_thinking in every place a client puts it, Gemini's thinkingBudget 0 on 2.5 Flash only), and
DeepSeek V4's strict rules hold a tool turn to its reasoning_content when thinking was never named."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx
import pytest

from harness.dialects import get_dialect
from harness.events import Message, ReasoningBlock, ToolCallBlock
from harness.upstream import MockUpstream, demo_conversation

HELLO = [{"role": "user", "content": "hello"}]
GEMINI_BODY = {"contents": [{"role": "user", "parts": [{"text": "hello"}]}]}
BUDGET_0 = {"generationConfig": {"thinkingConfig": {"thinkingBudget": 0}}}


@pytest.fixture(scope="module")
def serve() -> Any:
    with MockUpstream() as up:
        yield up


@pytest.mark.parametrize(
    ("extra", "thinks"),
    [
        ({}, True),
        ({"chat_template_kwargs": {"enable_thinking": True}}, True),
        ({"chat_template_kwargs": {"enable_thinking": False}}, False),  # vLLM / SGLang
        ({"enable_thinking": False}, False),  # DashScope (the openai SDK's extra_body, sent at the top)
        ({"extra_body": {"enable_thinking": False}}, False),
        ({"extra_body": {"chat_template_kwargs": {"enable_thinking": False}}}, False),
    ],
)
def test_qwen3_thinks_unless_enable_thinking_is_false(
    serve: Any, extra: Mapping[str, Any], thinks: bool
) -> None:
    serve.load(demo_conversation("openai-chat", "reasoning"))
    body = {"model": "Qwen/Qwen3-8B", "messages": HELLO, "stream": True, **extra}
    answer = httpx.post(serve.base_url + "/v1/chat/completions", json=body, timeout=10).content
    assert b"Hello! " in answer
    assert (b'"reasoning":"The user' in answer) is thinks, answer[:400]


@pytest.mark.parametrize(
    ("model", "thinks"),
    [("gemini-2.5-flash", False), ("gemini-2.5-flash-lite", False), ("gemini-2.5-pro", True),
     ("gemini-3-flash-preview", True)],
)  # fmt: skip
def test_thinking_budget_0_turns_thinking_off_on_gemini_2_5_flash_only(
    serve: Any, model: str, thinks: bool
) -> None:
    serve.load(demo_conversation("gemini", "signature-text"))
    url = f"{serve.base_url}/v1beta/models/{model}:streamGenerateContent?alt=sse"
    default = httpx.post(url, json=GEMINI_BODY, timeout=10).content
    off = httpx.post(url, json={**GEMINI_BODY, **BUDGET_0}, timeout=10).content
    assert b'"thoughtSignature"' in default, default[:400]  # thinking is on by default on every model
    assert b"Hello! " in off
    assert (b'"thoughtSignature"' in off) is thinks, off[:400]


def _tool_turn(reasoning_content: Any) -> dict[str, Any]:
    call = {"id": "call_00_x", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    assistant: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
    if reasoning_content is not None:
        assistant["reasoning_content"] = reasoning_content
    return {
        "model": "deepseek-v4-flash",
        "messages": [*HELLO, assistant, {"role": "tool", "tool_call_id": "call_00_x", "content": "ok"}],
    }


def test_deepseek_v4_needs_reasoning_content_on_a_tool_turn_when_thinking_was_never_named() -> None:
    rules = get_dialect("openai-chat").provider_rules()["deepseek-v4"]
    emitted = [Message("assistant", (ReasoningBlock("think"), ToolCallBlock("call_00_x", "f", "{}")))]
    missing = rules.validate(_tool_turn(None), emitted)
    assert missing is not None
    assert missing.status == 400
    assert missing.rule == "deepseek-reasoning-content-missing"
    assert rules.validate(_tool_turn("think"), emitted) is None
    assert rules.validate({**_tool_turn(None), "thinking": {"type": "disabled"}}, emitted) is None
