"""Every fidelity rule can fail: a small answer that breaks it, and one that keeps it."""
# ruff: noqa: E501  (literal wire frames stay on one line)

from __future__ import annotations

import json
from typing import Any

import pytest

from tools.fidelity import RULES
from tools.fidelity._rules import Seen
from tools.fidelity._shapes import units
from tools.fidelity._wire import read_wire


def _seen(
    dialect: str, body: bytes, content_type: str, request: dict[str, Any] | None = None, target: str = "/x"
) -> Seen:
    wire = read_wire(body, content_type)
    return Seen(target, request or {}, wire, units(dialect, wire), content_type != "application/json")


def _sse(*frames: tuple[str, str]) -> bytes:
    return b"".join(f"event: {e}\ndata: {d}\n\n".encode() for e, d in frames)


def _ant(
    *, pad: str = "   ", ping: str = '{"type": "ping"}', empty: bool = True, details: bool = False
) -> bytes:
    usage = {"input_tokens": 1, "output_tokens": 1}
    if details:
        usage["output_tokens_details"] = {"thinking_tokens": 1}  # type: ignore[assignment]
    start = json.dumps({"type": "message_start", "message": {"usage": usage}}, separators=(",", ":"))
    frames = [
        ("message_start", start[:-1] + pad + "}"),
        (
            "content_block_start",
            '{"type":"content_block_start","index":0,"content_block":{"type":"thinking"}' + pad + "}",
        ),
        ("ping", ping),
        (
            "content_block_delta",
            '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"a"}}',
        ),
    ]
    if empty:
        frames.append(
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":""}}',
            )
        )
    frames += [
        ("content_block_delta", '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"s"}}'),
        ("content_block_stop", '{"type":"content_block_stop","index":0}'),
        ("message_delta", '{"type":"message_delta","delta":{},"usage":{"output_tokens":1}}'),
        ("message_stop", '{"type":"message_stop"}'),
    ]  # fmt: skip
    return _sse(*frames)


ANT_CT = "text/event-stream; charset=utf-8"
GEM_ARRAY = b'[{\n  "candidates": [{"content": {"parts": [{"text": "t", "thought": true}]}}]\n}\n]'
GEM_SSE = b'data: {"candidates": [{"content": {"parts": [{"text": "t", "thought": true}]}}]}\r\n\r\n'
THOUGHTS = {"generationConfig": {"thinkingConfig": {"includeThoughts": True}}}
CHAT_USAGE = b'data: {"choices":[],"usage":{"prompt_tokens":1}}\n\ndata: [DONE]\n\n'
RESP = _sse(
    ("response.created", '{"type":"response.created","response":{"store":false}}'),
    ("response.reasoning_summary_text.delta", '{"type":"response.reasoning_summary_text.delta","delta":"x"}'),
    ("response.output_item.done", '{"type":"response.output_item.done","item":{"type":"reasoning",'
     '"encrypted_content":"e"}}'),
)  # fmt: skip
SUMMARY_ASKED = {"reasoning": {"summary": "auto"}, "include": ["reasoning.encrypted_content"], "store": False}

# rule name -> (a seen that keeps it, a seen that breaks it)
CASES: dict[str, tuple[Seen, Seen]] = {
    "alt-sse": (
        _seen("gemini", GEM_ARRAY, "application/json", THOUGHTS, "/m:streamGenerateContent"),
        _seen("gemini", GEM_SSE, "text/event-stream", THOUGHTS, "/m:streamGenerateContent"),
    ),
    "thoughts-only-when-asked": (
        _seen(
            "gemini",
            GEM_SSE,
            "text/event-stream",
            {"generation_config": {"thinking_config": {"include_thoughts": True}}},
        ),
        _seen("gemini", GEM_SSE, "text/event-stream", {}),
    ),
    "store-defaults-true": (
        _seen("openai-responses", RESP, ANT_CT, SUMMARY_ASKED),
        _seen("openai-responses", RESP, ANT_CT, {k: v for k, v in SUMMARY_ASKED.items() if k != "store"}),
    ),
    "summary-only-when-asked": (
        _seen("openai-responses", RESP, ANT_CT, SUMMARY_ASKED),
        _seen("openai-responses", RESP, ANT_CT, {"include": ["reasoning.encrypted_content"], "store": False}),
    ),
    "encrypted-only-when-asked": (
        _seen("openai-responses", RESP, ANT_CT, SUMMARY_ASKED),
        _seen("openai-responses", RESP, ANT_CT, {"reasoning": {"summary": "auto"}, "store": False}),
    ),
    "usage-chunk-only-when-asked": (
        _seen("openai-chat", CHAT_USAGE, "text/event-stream", {"stream_options": {"include_usage": True}}),
        _seen("openai-chat", CHAT_USAGE, "text/event-stream", {"stream": True}),
    ),
    "thinking-only-when-asked": (
        _seen("anthropic-messages", _ant(), ANT_CT, {"thinking": {"type": "adaptive"}}),
        _seen("anthropic-messages", _ant(), ANT_CT, {"thinking": {"type": "disabled"}}),
    ),
    "empty-thinking-delta-before-signature": (
        _seen("anthropic-messages", _ant(), ANT_CT),
        _seen("anthropic-messages", _ant(empty=False), ANT_CT),
    ),
    "ping-after-block-start": (
        _seen("anthropic-messages", _ant(), ANT_CT),
        _seen("anthropic-messages", _ant(ping='{"type":"ping"}'), ANT_CT),
    ),
    "padded-data": (
        _seen("anthropic-messages", _ant(), ANT_CT),
        _seen("anthropic-messages", _ant(pad=""), ANT_CT),
    ),
    "output-tokens-details-in-message-delta": (
        _seen("anthropic-messages", _ant(), ANT_CT),
        _seen("anthropic-messages", _ant(details=True), ANT_CT),
    ),
}


def test_every_rule_has_a_case() -> None:
    assert set(CASES) == {r.name for r in RULES}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_rule_keeps_and_breaks(rule: Any) -> None:
    kept, broken = CASES[rule.name]
    assert rule.check(kept) is None
    assert isinstance(rule.check(broken), str)
