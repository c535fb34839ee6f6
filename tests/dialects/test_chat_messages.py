"""The strict Chat Completions upstreams read ``messages[]`` as openai-python types it
(dialects/openai_chat/_audit): each rule fires on what OpenAI (and DeepSeek, where its words are known)
rejects, with that provider's error object, and on nothing the real APIs accept."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest
from openai.types.chat import ChatCompletionMessageParam

from harness._json import loads
from harness.dialects import get_dialect
from harness.dialects.openai_chat._audit import DEEPSEEK_WORDS, OPENAI_WORDS, ROLES, messages_problem
from harness.events import Message, TextBlock
from harness.recording import read_cassette
from harness.recording._corpus import locate, open_corpus

USER = {"role": "user", "content": "weather in Paris and Rome?"}


def call(cid: str, args: Any = '{"city": "Paris"}') -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": "get_weather", "arguments": args}}


def calls(*ids: str, content: Any = None) -> dict[str, Any]:
    return {"role": "assistant", "content": content, "tool_calls": [call(i) for i in ids]}


def tool(cid: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": cid, "content": "sunny"}


REJECTED: list[tuple[str, list[Any], str, int]] = [
    # (id, messages, rule, the message index it names)
    (
        "assistant-null-content",
        [USER, {"role": "assistant", "content": None}, USER],
        "chat/assistant-without-content",
        1,
    ),
    ("assistant-no-content-key", [USER, {"role": "assistant"}, USER], "chat/assistant-without-content", 1),
    (
        "assistant-empty-tool-calls",
        [USER, {"role": "assistant", "tool_calls": []}],
        "chat/assistant-without-content",
        1,
    ),
    (
        "object-arguments",
        [USER, {"role": "assistant", "tool_calls": [call("c1", {"city": "Paris"})]}, tool("c1")],
        "chat/arguments-not-string",
        1,
    ),
    ("tool-first", [tool("c1"), USER], "chat/tool-without-call", 0),
    ("tool-after-user", [USER, tool("c1")], "chat/tool-without-call", 1),
    (
        "tool-after-plain-answer",
        [USER, {"role": "assistant", "content": "Hi"}, tool("c1")],
        "chat/tool-without-call",
        2,
    ),
    ("call-unanswered", [USER, calls("c1"), USER], "chat/unanswered-tool-calls", 1),
    ("call-unanswered-at-end", [USER, calls("c1")], "chat/unanswered-tool-calls", 1),
    ("one-of-two-answered", [USER, calls("c1", "c2"), tool("c1")], "chat/unanswered-tool-calls", 1),
    ("answer-names-another-call", [USER, calls("c1"), tool("c9")], "chat/unanswered-tool-calls", 1),
    (
        "system-between-call-and-answer",  # gptme/gptme#3421 against DeepSeek
        [USER, calls("c1"), {"role": "system", "content": "note"}, tool("c1")],
        "chat/unanswered-tool-calls",
        1,
    ),
]

ACCEPTED: list[tuple[str, list[Any]]] = [
    ("plain", [USER]),
    ("tool-loop", [USER, calls("c1"), tool("c1"), {"role": "assistant", "content": "Sunny."}, USER]),
    ("parallel-answered-out-of-order", [USER, calls("c1", "c2"), tool("c2"), tool("c1")]),
    ("content-beside-calls", [USER, calls("c1", content="Let me look."), tool("c1")]),
    ("empty-string-content", [USER, {"role": "assistant", "content": ""}, USER]),
    ("content-parts", [USER, {"role": "assistant", "content": [{"type": "text", "text": "Hi"}]}, USER]),
    ("refusal-with-content", [USER, {"role": "assistant", "content": "No.", "refusal": "No."}, USER]),
    ("legacy-function-call", [USER, {"role": "assistant", "content": None, "function_call": {"name": "f"}}]),
    ("legacy-function-role", [USER, {"role": "function", "name": "f", "content": "x"}]),
    ("unknown-role-undocumented", [{"role": "model", "content": "hi"}]),
    ("extra-answer-undocumented", [USER, calls("c1"), tool("c1"), tool("c9")]),
    (
        "null-arguments-undocumented",
        [USER, {"role": "assistant", "tool_calls": [call("c1", None)]}, tool("c1")],
    ),
    (
        "developer-and-system",
        [{"role": "developer", "content": "x"}, {"role": "system", "content": "y"}, USER],
    ),
    ("reasoning-content-beside", [USER, {**calls("c1"), "reasoning_content": ""}, tool("c1")]),
]


@pytest.mark.parametrize(
    ("messages", "rule", "index"), [r[1:] for r in REJECTED], ids=[r[0] for r in REJECTED]
)
def test_the_rule_fires(messages: list[Any], rule: str, index: int) -> None:
    problem = messages_problem(messages)
    assert problem is not None
    assert (problem.rule, problem.index) == (rule, index)


@pytest.mark.parametrize("messages", [r[1] for r in ACCEPTED], ids=[r[0] for r in ACCEPTED])
def test_nothing_fires_on_what_the_api_accepts(messages: list[Any]) -> None:
    assert messages_problem(messages) is None


def test_the_roles_are_the_installed_sdks() -> None:
    roles = set()
    for member in typing.get_args(ChatCompletionMessageParam):
        (literal,) = typing.get_args(typing.get_type_hints(member)["role"])
        roles.add(typing.get_args(literal)[0] if typing.get_args(literal) else literal)
    assert roles == ROLES


def _rules(name: str) -> Any:
    return get_dialect("openai-chat").provider_rules()[name]


EMITTED = [Message("assistant", (TextBlock("Hi"),))]


def _error(rules: str, messages: list[Any]) -> dict[str, Any] | None:
    rejection = _rules(rules).validate({"model": "m", "messages": messages}, EMITTED)
    if rejection is None:
        return None
    assert (rejection.status, rejection.family) == (400, "request")
    assert rejection.rule in _rules(rules).request_rules
    error: dict[str, Any] = loads(rejection.body)["error"]
    return error


def test_openai_answers_in_its_own_words() -> None:
    assert _error("openai", [USER, {"role": "assistant", "content": None}, USER]) == {
        "message": "Invalid value for 'content': expected a string, got null.",
        "type": "invalid_request_error",
        "param": "messages.[1].content",
        "code": None,
    }
    args = _error("openai", [USER, {"role": "assistant", "tool_calls": [call("c1", {"a": 1})]}, tool("c1")])
    assert args == {
        "message": "Invalid type for 'messages[1].tool_calls[0].function.arguments': expected a string, but "
        "got an object instead.",
        "type": "invalid_request_error",
        "param": "messages[1].tool_calls[0].function.arguments",
        "code": "invalid_type",
    }
    orphan = _error("openai", [USER, tool("c1")])
    assert orphan is not None
    assert orphan["message"] == (
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
        "'tool_calls'."
    )
    unanswered = _error("openai", [USER, calls("c1", "c2"), tool("c1")])
    assert unanswered is not None
    assert unanswered["message"].endswith("The following tool_call_ids did not have response messages: c2")


@pytest.mark.parametrize("rules", ["deepseek-v3.2", "deepseek-v4", "deepseek-r1"])
def test_deepseek_answers_in_its_own_words_and_only_where_they_are_known(rules: str) -> None:
    orphan = _error(rules, [USER, tool("c1")])
    assert orphan == {
        "message": "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_request_error",
    }
    between = [
        USER,
        {**calls("c1"), "reasoning_content": "r"},
        {"role": "system", "content": "x"},
        tool("c1"),
    ]
    unanswered = _error(rules, between)
    assert unanswered is not None
    assert unanswered["message"].endswith("(insufficient tool messages following tool_calls message)")
    # DeepSeek's answer to a schema problem is not documented: accepted
    assert _error(rules, [USER, {"role": "assistant", "content": None}, USER]) is None
    assert set(DEEPSEEK_WORDS) < set(OPENAI_WORDS)


def test_kimi_and_the_lenient_upstream_accept_a_malformed_history() -> None:
    for rules in ("kimi", "lenient"):
        assert _rules(rules).validate({"messages": [USER, tool("c1")]}, EMITTED) is None


def _recorded_chat_requests() -> list[tuple[str, dict[str, Any]]]:
    root = Path(__file__).resolve().parents[2]
    paths = sorted((root / "recordings").glob("deepseek-*.jsonl"))
    corpus = open_corpus(locate())
    if corpus is not None:
        names = ("openai-chat-", "deepseek-", "openrouter-", "groq-", "mistral-")
        paths += sorted(corpus.path(e.name) for e in corpus.manifest.entries if e.name.startswith(names))
    out = []
    for p in paths:
        for n, ex in enumerate(read_cassette(p).exchanges):
            body = loads(ex.request_body) if ex.request_body else None
            if isinstance(body, dict) and isinstance(body.get("messages"), list):
                out.append((f"{p.name}#{n} ({ex.status})", body))
    return out


def test_every_recorded_request_passes_the_audit() -> None:
    """Recorded requests answered 200, and DeepSeek's recorded 400s, whose cause is reasoning_content."""
    requests = _recorded_chat_requests()
    assert requests, "no recorded chat request found"
    for where, body in requests:
        assert messages_problem(body["messages"]) is None, where
