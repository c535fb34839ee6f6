"""``thinkwire serve``'s mock answers each request-dependent row of the request-forms table in the
provider's default form without the row's trigger and in the triggered form with it (one test per
row), and the table itself is data with a source for every row."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from harness.dialects import REQUEST_FORMS
from harness.upstream import MockUpstream, build_plan, demo_conversation

HELLO = [{"role": "user", "content": "hello"}]


@dataclass(frozen=True)
class Row:
    """How to ask one row's mock: the variant served, the request (without the trigger), the trigger,
    and bytes only the triggered form (``on``) or only the default form (``off``) carries."""

    dialect: str
    variant: str
    path: str
    body: Mapping[str, Any]
    trigger: Mapping[str, Any]
    on: bytes
    off: bytes | None = None


def _chat(model: str, **extra: Any) -> dict[str, Any]:
    return {"model": model, "messages": HELLO, "stream": True, **extra}


ANTHROPIC = {"max_tokens": 4096, "messages": HELLO, "stream": True}
ROWS: dict[str, Row] = {
    "openai-responses/reasoning-summary": Row(
        "openai-responses", "summary", "/v1/responses",
        {"model": "gpt-5", "input": "hello", "stream": True}, {"reasoning": {"summary": "auto"}},
        b"response.reasoning_summary_text.delta",
    ),
    "openai-responses-ws/reasoning-summary": Row(
        "openai-responses-ws", "summary", "", {"type": "response.create", "model": "gpt-5", "input": "hi"},
        {"reasoning": {"summary": "auto"}}, b"response.reasoning_summary_text.delta",
    ),
    "openai-responses/encrypted-content": Row(
        "openai-responses", "summary", "/v1/responses",
        {"model": "gpt-5", "input": "hello", "stream": True, "store": False},
        {"include": ["reasoning.encrypted_content"]}, b'"encrypted_content":"EqMB',
    ),
    "anthropic/thinking": Row(
        "anthropic-messages", "thinking", "/v1/messages", {"model": "claude-sonnet-4-5", **ANTHROPIC},
        {"thinking": {"type": "enabled", "budget_tokens": 2048}}, b'"type":"thinking"',
    ),
    "anthropic/display-summarized": Row(
        "anthropic-messages", "adaptive", "/v1/messages",
        {"model": "claude-opus-4-7", **ANTHROPIC, "thinking": {"type": "adaptive"}},
        {"thinking": {"type": "adaptive", "display": "summarized"}}, b'"thinking":"The user',
    ),
    "anthropic/display-omitted": Row(
        "anthropic-messages", "omitted", "/v1/messages",
        {"model": "claude-sonnet-4-5", **ANTHROPIC, "thinking": {"type": "enabled", "budget_tokens": 2048}},
        {"thinking": {"type": "enabled", "budget_tokens": 2048, "display": "omitted"}},
        b"--", b'"thinking":"The user',
    ),
    "bedrock/thinking": Row(
        "bedrock-converse", "converse", "/model/anthropic.claude-sonnet-4-5-20250929-v1:0/converse",
        {"messages": [{"role": "user", "content": [{"text": "hello"}]}]},
        {"additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 1024}}},
        b'"reasoningContent"',
    ),
    "bedrock/display-summarized": Row(  # an adaptive-only model's default display (omitted): no text
        "bedrock-converse", "adaptive", "/model/anthropic.claude-opus-4-7/converse-stream",
        {"messages": [{"role": "user", "content": [{"text": "hello"}]}],
         "additionalModelRequestFields": {"thinking": {"type": "adaptive"}}},
        {"additionalModelRequestFields": {"thinking": {"type": "adaptive", "display": "summarized"}}},
        b"The user",
    ),
    "gemini/include-thoughts": Row(
        "gemini", "thought", "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
        {"contents": [{"role": "user", "parts": [{"text": "hello"}]}]},
        {"generationConfig": {"thinkingConfig": {"includeThoughts": True}}}, b'"thought": true',
    ),
    "gemini-interactions/thinking-summaries": Row(
        "gemini-interactions", "summaries", "/v1/interactions",
        {"model": "gemini-3-flash-preview", "input": "hello", "stream": True},
        {"generation_config": {"thinking_summaries": "auto"}}, b'"type":"thought_summary"',
    ),
    "gemini-openai/include-thoughts": Row(
        "openai-chat", "gemini-openai", "/v1/chat/completions", _chat("gemini-2.5-pro"),
        {"extra_body": {"google": {"thinking_config": {"include_thoughts": True}}}}, b"The user says hello",
    ),
    "minimax/reasoning-split": Row(
        "openai-chat", "minimax-details", "/v1/chat/completions", _chat("MiniMax-M2"),
        {"reasoning_split": True}, b'"reasoning_details":[', b'"content":"<think>',
    ),
    "openai-chat/include-usage": Row(
        "openai-chat", "reasoning", "/v1/chat/completions", _chat("Qwen/Qwen3-8B"),
        {"stream_options": {"include_usage": True}}, b'"prompt_tokens":12',
    ),
    "deepseek/thinking": Row(  # on by default: the trigger turns it off
        "openai-chat", "reasoning_content", "/v1/chat/completions", _chat("deepseek-v4-flash"),
        {"thinking": {"type": "disabled"}}, b"--", b'"reasoning_content":"The user',
    ),
    "qwen3/enable-thinking": Row(  # on by default: the trigger turns it off
        "openai-chat", "reasoning", "/v1/chat/completions", _chat("Qwen/Qwen3-8B"),
        {"chat_template_kwargs": {"enable_thinking": False}}, b"--", b'"reasoning":"The user',
    ),
    "gemini/thinking-budget": Row(  # on by default; budget 0 turns it off on 2.5 Flash (named in the path)
        "gemini", "signature-text", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
        {"contents": [{"role": "user", "parts": [{"text": "hello"}]}]},
        {"generationConfig": {"thinkingConfig": {"thinkingBudget": 0}}}, b"--", b'"thoughtSignature"',
    ),
    "ollama/think": Row(  # a thinking model thinks unless think is false
        "ollama", "native", "/api/chat", {"model": "qwen3", "messages": HELLO, "stream": True},
        {"think": False}, b"--", b'"thinking":"The user',
    ),
}  # fmt: skip
"""Every row of ``REQUEST_FORMS``, keyed by its name (``b"--"``: the triggered form is the absence of
the default's bytes)."""


def test_every_row_of_the_table_has_a_test_and_a_source() -> None:
    assert sorted(r.name for r in REQUEST_FORMS) == sorted(ROWS)
    for r in REQUEST_FORMS:
        assert r.source.startswith("https://"), r.name
        assert r.field, r.name
        assert r.form, r.name
        assert r.default, r.name


@pytest.fixture(scope="module")
def serve() -> Any:
    with MockUpstream() as up:
        yield up


def _answer(up: MockUpstream, row: Row, body: Mapping[str, Any]) -> bytes:
    """What ``thinkwire serve --dialect D --variant V`` answers ``body`` (the WebSocket mode's frames
    come from the same planner the server runs)."""
    conversation = demo_conversation(row.dialect, row.variant)
    if not row.path:
        assert conversation.overflow is not None
        return build_plan(conversation.overflow, request=body, stream=True).body()
    up.load(conversation)
    return httpx.post(up.base_url + row.path, json=dict(body), timeout=10).content


def _merged(body: Mapping[str, Any], trigger: Mapping[str, Any]) -> dict[str, Any]:
    return {**body, **trigger}


@pytest.mark.parametrize("name", sorted(ROWS))
def test_serve_answers_the_default_form_without_the_trigger_and_the_form_with_it(
    serve: Any, name: str
) -> None:
    row = ROWS[name]
    without = _answer(serve, row, row.body)
    with_ = _answer(serve, row, _merged(row.body, row.trigger))
    assert b"Hello! " in without, without[:300]
    assert b"Hello! " in with_, with_[:300]
    if row.on != b"--":
        assert row.on in with_, with_[:600]
        assert row.on not in without, without[:600]
    if row.off is not None:
        assert row.off in without, without[:600]
        assert row.off not in with_, with_[:600]
    if row.dialect == "anthropic-messages" and b'"type":"thinking"' in with_:
        assert b"signature_delta" in with_  # summarised or omitted, a thinking block keeps its signature


@pytest.mark.parametrize(
    ("model", "thinking", "text", "signed"),
    [
        ("claude-mythos-preview", None, False, True),  # thinks by default, display omitted
        ("claude-mythos-preview", {"type": "adaptive", "display": "summarized"}, True, True),
        ("claude-sonnet-4-5", None, False, False),  # off unless asked
    ],
)
def test_a_claude_model_that_thinks_by_default_thinks_unasked(
    serve: Any, model: str, thinking: Any, text: bool, signed: bool
) -> None:
    """The ``anthropic/thinking`` row's default: the model a request names decides whether a request
    without ``thinking`` gets thinking blocks (``THINKS_BY_DEFAULT``, each with its source)."""
    from harness.dialects._request_forms import THINKS_BY_DEFAULT, claude_thinks_by_default

    assert all(src.startswith("https://") for src in THINKS_BY_DEFAULT.values())
    assert claude_thinks_by_default(model) is (model == "claude-mythos-preview")
    body = {"model": model, **ANTHROPIC} | ({"thinking": thinking} if thinking else {})
    serve.load(demo_conversation("anthropic-messages", "thinking"))
    answer = httpx.post(serve.base_url + "/v1/messages", json=body, timeout=10).content
    assert b"Hello! " in answer
    assert (b'"thinking":"The user' in answer) is text, answer[:400]
    assert (b"signature_delta" in answer) is signed, answer[:400]


@pytest.mark.parametrize("profile", ["lenient", "ollama"])
@pytest.mark.parametrize(
    ("extra", "thinks"),
    [({}, True), ({"think": None}, True), ({"think": True}, True), ({"think": "low"}, True),
     ({"think": False}, False)],
)  # fmt: skip
def test_the_ollama_profile_thinks_as_its_request_forms_row_says(
    serve: Any, profile: str, extra: Mapping[str, Any], thinks: bool
) -> None:
    """The strict ``ollama`` profile and the ``ollama/think`` row agree in both directions: a thinking
    model thinks when ``think`` is absent (the profile withheld it then), and not when it is false."""
    from harness.dialects._request_forms import ollama_thinks

    body = {"model": "qwen3", "messages": HELLO, "stream": True, **extra}
    assert ollama_thinks(body) is thinks
    serve.load(demo_conversation("ollama", "native", profile))
    answer = httpx.post(serve.base_url + "/api/chat", json=body, timeout=10).content
    assert b"Hello! " in answer
    assert (b'"thinking":"The user' in answer) is thinks, answer[:300]


@pytest.mark.parametrize(
    ("asked", "thinking", "played", "read"),
    [
        ("claude-mythos-preview", None, "", {"type": "adaptive"}),  # its default, made explicit
        ("mock-model", None, "claude-mythos-preview", {"type": "adaptive"}),  # a gateway renamed it
        ("claude-mythos-preview", {"type": "adaptive", "display": "summarized"}, "", None),  # as asked
        ("claude-sonnet-4-5", None, "claude-mythos-preview", None),  # the named model thinks only if asked
        ("claude-opus-4-7", None, "", None),
    ],
)
def test_the_strict_rules_read_a_request_with_its_models_defaults(
    asked: str, thinking: Any, played: str, read: Any
) -> None:
    """``applied_defaults``: what the strict rules judge, so they agree with the ``anthropic/thinking`` row
    (the rules read an absent ``thinking`` as off)."""
    from harness.dialects import applied_defaults

    body = {"model": asked, **ANTHROPIC} | ({"thinking": thinking} if thinking else {})
    got = applied_defaults("anthropic-messages", body, model=played)
    assert got == (body if read is None else {**body, "thinking": read})
    assert applied_defaults("openai-chat", {"model": asked}, model=played) == {"model": asked}


def test_the_request_forms_page_is_current() -> None:
    from pathlib import Path

    from tools.docs._request_forms import render

    page = Path(__file__).resolve().parents[2] / "docs" / "request-forms.md"
    assert page.read_text(encoding="utf-8") == render(), "run python -m tools.docs._request_forms"


def test_the_thinkwire_serve_command_answers_by_the_request(tmp_path: Any) -> None:
    """The command itself (one row: MiniMax), as a user runs it."""
    import signal
    import subprocess
    import sys

    port_file = tmp_path / "port"
    cmd = [sys.executable, "-m", "harness.cli", "serve", "--dialect", "openai-chat", "--variant",
           "minimax-details", "--port-file", str(port_file)]  # fmt: skip
    serve = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()  # the URL line, flushed once listening
        assert "serving" in line, line
        url = f"http://127.0.0.1:{port_file.read_text().strip()}/v1/chat/completions"
        row = ROWS["minimax/reasoning-split"]
        plain = httpx.post(url, json=dict(row.body), timeout=10).content
        split = httpx.post(url, json=_merged(row.body, row.trigger), timeout=10).content
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.communicate(timeout=30)
    assert serve.returncode == 0
    assert b'"content":"<think>' in plain
    assert b"reasoning_details" not in plain
    assert b'"reasoning_details":[' in split
    assert b"<think>" not in split
