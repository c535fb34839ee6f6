"""Portkey's non-strict mode forwards Anthropic and Gemini thinking on an OpenAI-chat front door as
``delta.content_blocks[]``: the chat observer reads it as reasoning whatever text fields the profile
names, streamed and whole, so such a gateway is never read as sending no reasoning (issue 46 item 0)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from harness.dialects import Reading, get_dialect
from harness.events import ReasoningDelta, ReasoningSignature, TextDelta

CHAT = get_dialect("openai-chat")
THINKING = {"type": "thinking", "thinking": "Let me think.", "signature": "EqQBsig=="}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    body = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [choice]}
    return "data: " + json.dumps(body) + "\n\n"


STREAM = (
    _chunk({"role": "assistant", "content": ""})
    + _chunk({"content_blocks": [THINKING]})
    + _chunk({"content": "Answer."})
    + _chunk({}, "stop")
    + "data: [DONE]\n\n"
).encode()
WHOLE = json.dumps(
    {
        "id": "c1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "Answer.",
                    "content_blocks": [THINKING, {"type": "text", "text": "Answer."}],
                },
                "finish_reason": "stop",
            }
        ],
    }
).encode()


@pytest.mark.parametrize("fields", [None, ("reasoning_content",), ("reasoning", "reasoning_content")])
def test_content_blocks_thinking_is_read_as_reasoning(fields: tuple[str, ...] | None) -> None:
    reading = Reading(reasoning_fields=fields)
    streamed = CHAT.observer(reading=reading).feed(STREAM)
    for events in (streamed, CHAT.observe_response(WHOLE, reading=reading)):
        assert [e for e in events if isinstance(e, ReasoningDelta)] == [ReasoningDelta("Let me think.")]
        assert ReasoningSignature("EqQBsig==") in events
        assert [e.text for e in events if isinstance(e, TextDelta)] == ["Answer."]


def test_a_named_field_still_wins_over_the_forwarded_blocks() -> None:
    both = _chunk({"reasoning_content": "Named.", "content_blocks": [THINKING]}) + "data: [DONE]\n\n"
    events = CHAT.observer(reading=Reading(reasoning_fields=("reasoning_content",))).feed(both.encode())
    assert [e.text for e in events if isinstance(e, ReasoningDelta)] == ["Named."]
