"""The carriers an openai-chat answer or request used (what the front-door client echoes reasoning
back in): read from streamed deltas, a whole body and a request's history; Gemini's call signatures
echoed back in ``extra_content.google`` when the SUT streamed them there."""

from __future__ import annotations

import json

import pytest

from harness.dialects import get_dialect
from harness.events import End, Message, ReasoningDelta, ReasoningSignature, ToolCallDelta, assemble

CHAT = get_dialect("openai-chat")
TURN = [ReasoningDelta("I need the tool."), ToolCallDelta(0, "c1", "get_weather", "{}"), End("tool_calls")]
SIGNED = [*TURN[:2], ReasoningSignature("SIG", item="c1"), TURN[2]]


def stream(variant: str, turn: list) -> bytes:  # type: ignore[type-arg]
    e = CHAT.emitter(variant)
    return b"".join(f"data: {f.data}\n\n".encode() for f in [*e.feed(turn), *e.close()])


@pytest.mark.parametrize(
    ("variant", "carriers"),
    [
        ("reasoning_content", ("reasoning_content",)),
        ("reasoning", ("reasoning",)),
        ("reasoning_details", ("reasoning", "reasoning_details")),  # OpenRouter mirrors its details
        ("minimax-details", ("reasoning_details",)),
        ("think-tags", ()),  # inline: no field carries it
        ("usage-only", ()),
    ],
)
def test_a_streams_carriers_are_the_fields_its_reasoning_rode(
    variant: str, carriers: tuple[str, ...]
) -> None:
    assert CHAT.reasoning_carriers(stream(variant, TURN), form="stream") == carriers
    body = CHAT.emit_response(TURN, variant)
    assert CHAT.reasoning_carriers(body, form="body") == carriers


def test_gemini_call_signatures_are_a_carrier_and_go_back_where_they_came() -> None:
    raw = stream("gemini-openai", SIGNED)
    assert CHAT.reasoning_carriers(raw, form="stream") == ("extra_content",)
    msg = assemble(CHAT.observer("gemini-openai").feed(raw))
    history = [Message.user("q"), msg]
    spec = CHAT.build_request(history, model="m", stream=True, echo_fields=("extra_content",))
    (call,) = spec.body["messages"][1]["tool_calls"]
    assert call["extra_content"] == {"google": {"thought_signature": "SIG"}}
    assert CHAT.reasoning_carriers(json.dumps(spec.body).encode(), form="request") == ("extra_content",)
    plain = CHAT.build_request(history, model="m", stream=True, echo_fields=("reasoning",))
    assert "extra_content" not in plain.body["messages"][1]["tool_calls"][0]


def test_a_requests_carriers_are_those_of_its_assistant_entries() -> None:
    msg = assemble(TURN)
    for echo in (("reasoning_content",), ("reasoning", "thinking_blocks")):
        body = CHAT.build_request([Message.user("q"), msg], model="m", stream=True, echo_fields=echo).body
        assert CHAT.reasoning_carriers(json.dumps(body).encode(), form="request") == echo
