"""gemini-interactions dialect: literal frames both ways (composed from google-genai's Interactions
types and the streaming docs' framing), the observer's protocol notices, hypothesis round trips under any
split, the request codec, the strict rules, and google-genai's own types reading the emitter's output."""

# ruff: noqa: E501  (literal wire frames stay on one line)
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import encode_frames
from harness.dialects import answer_for, get_dialect
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    Turn,
    Usage,
    assemble,
    coalesce,
    strip_items,
)
from harness.strategies import Chunking, reasoning_turns, sse_chunkings

GI = get_dialect("gemini-interactions")
RULES = GI.provider_rules()["gemini-interactions"]
SIG = "EpQBCnoBjz1rX0aZ3hV5uKq2c4m8yT1oWb7LdN6eRf9sJ2gH0iPvQxA="


def _event(kind: str, **fields: object) -> bytes:
    """One Interactions SSE event as the streaming docs show it: ``event:`` naming the type, the JSON on
    one ``data:`` line with ``event_type`` last."""
    body = {**fields, "event_type": kind}
    return f"event: {kind}\ndata: {json.dumps(body, separators=(',', ':'))}\n\n".encode()


HEAD = {"id": "v1_mock-interaction", "status": "in_progress", "object": "interaction", "model": "mock-model"}
START = _event("interaction.created", interaction=HEAD) + _event(
    "interaction.status_update", interaction_id="v1_mock-interaction", status="in_progress"
)


def _done(status: str = "completed", **extra: object) -> bytes:
    return _event("interaction.completed", interaction={**HEAD, "status": status, **extra})


# A thought step with a summary and its signature, then the answer.
SUMMARY = b"".join([
    START,
    _event("step.start", index=0, step={"type": "thought"}),
    _event("step.delta", index=0, delta={"type": "thought_summary", "content": {"type": "text", "text": "17 has no"}}),
    _event("step.delta", index=0, delta={"type": "thought_summary", "content": {"type": "text", "text": " divisor."}}),
    _event("step.delta", index=0, delta={"type": "thought_signature", "signature": SIG}),
    _event("step.stop", index=0),
    _event("step.start", index=1, step={"type": "model_output"}),
    _event("step.delta", index=1, delta={"type": "text", "text": "Prime."}),
    _event("step.stop", index=1),
    _done(),
])  # fmt: skip
SUMMARY_TURN: Turn = (
    ReasoningDelta("17 has no"),
    ReasoningDelta(" divisor."),
    ReasoningSignature(SIG),
    TextDelta("Prime."),
    End(),
)

# A signature-only thought step, a function call and its usage (thoughts counted apart from output).
CALL = b"".join([
    START,
    _event("step.start", index=0, step={"type": "thought"}),
    _event("step.delta", index=0, delta={"type": "thought_signature", "signature": SIG}),
    _event("step.stop", index=0),
    _event("step.start", index=1, step={"type": "function_call", "id": "call_k2w9", "name": "get_weather", "arguments": {}}),
    _event("step.delta", index=1, delta={"type": "arguments_delta", "arguments": '{"city":"Paris"}'}),
    _event("step.stop", index=1),
    _done("requires_action", usage={"total_input_tokens": 10, "total_output_tokens": 15, "total_thought_tokens": 5, "total_tokens": 30}),
])  # fmt: skip
CALL_TURN: Turn = (
    ReasoningSignature(SIG),
    ToolCallDelta(0, "call_k2w9", "get_weather", '{"city":"Paris"}'),
    Usage(10, 20, 5, 30),
    End("tool_calls"),
)


def observe(chunks: list[bytes]) -> list[Event]:
    o = GI.observer("summaries")
    out: list[Event] = []
    for c in chunks:
        out += o.feed(c)
    return out + o.end()


def wire(turn: Turn, variant: str = "summaries") -> bytes:
    e = GI.emitter(variant)
    return b"".join(encode_frames(e.feed(turn) + e.close(), "sse"))


def canon(events: list[Event] | Turn) -> Turn:
    return strip_items(coalesce(list(events)))


@pytest.mark.parametrize(
    ("raw", "turn"), [(SUMMARY, SUMMARY_TURN), (CALL, CALL_TURN)], ids=["summary", "call"]
)
def test_literal_frames_both_ways(raw: bytes, turn: Turn) -> None:
    assert wire(turn) == raw
    assert canon(observe([raw])) == canon(turn)
    assert canon(observe([raw[i : i + 1] for i in range(len(raw))])) == canon(turn)


def test_the_signature_is_its_thought_steps_and_never_text() -> None:
    message = assemble(observe([SUMMARY]))
    assert message.content == (
        ReasoningBlock("17 has no divisor.", signature=SIG, id="0"),
        TextBlock("Prime.", id="1"),
    )


BROKEN: list[tuple[str, bytes, str, Event]] = [
    ("delta for a step never started", START + _event("step.delta", index=3, delta={"type": "text", "text": "x"}) + _done(),
     "delta-without-start", TextDelta("x", item="3")),
    ("delta after its step stopped", START + _event("step.start", index=0, step={"type": "model_output"}) + _event("step.stop", index=0)
     + _event("step.delta", index=0, delta={"type": "text", "text": "late"}) + _done(), "delta-without-start", TextDelta("late", item="0")),
    ("summary delta in a model_output step", START + _event("step.start", index=0, step={"type": "model_output"})
     + _event("step.delta", index=0, delta={"type": "thought_summary", "content": {"type": "text", "text": "hm"}}) + _event("step.stop", index=0) + _done(),
     "delta-type-mismatch", ReasoningDelta("hm", item="0")),
    ("text delta in a thought step", START + _event("step.start", index=0, step={"type": "thought"})
     + _event("step.delta", index=0, delta={"type": "text", "text": "leak"}) + _event("step.stop", index=0) + _done(),
     "delta-type-mismatch", TextDelta("leak", item="0")),
    ("a step started twice", START + _event("step.start", index=0, step={"type": "thought"}) + _event("step.stop", index=0)
     + _event("step.start", index=0, step={"type": "thought"}) + _event("step.stop", index=0) + _done(), "second-lifecycle", End()),
    ("a step never stopped", START + _event("step.start", index=0, step={"type": "model_output"}) + _done(), "unclosed-block", End()),
    ("an empty signature", START + _event("step.start", index=0, step={"type": "thought"})
     + _event("step.delta", index=0, delta={"type": "thought_signature", "signature": ""}) + _event("step.stop", index=0) + _done(), "empty-signature", End()),
    ("event line disagreeing with event_type", b'event: step.stop\ndata: {"index":0,"event_type":"step.start","step":{"type":"thought"}}\n\n' + _done(),
     "event-mismatch", End()),
    ("no interaction.completed", START, "no-terminator", Notice("no-terminator", "EOF before interaction.completed")),
    ("data after the end", SUMMARY + _event("step.delta", index=1, delta={"type": "text", "text": "more"}), "data-after-end", End()),
]  # fmt: skip


@pytest.mark.parametrize(("raw", "kind", "still_read"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_protocol_breaks_are_noticed_and_never_repaired(raw: bytes, kind: str, still_read: Event) -> None:
    events = observe([raw])
    assert kind in {ev.code for ev in events if isinstance(ev, Notice)}
    assert still_read in events  # read as it came (the lenient reading other checks judge), not fixed


def test_error_event_and_failed_status_are_stream_errors() -> None:
    e = GI.emitter("summaries")
    raw = b"".join(
        encode_frames(e.feed((ReasoningDelta("x"), StreamError("quota exceeded", status=429))), "sse")
    )
    assert raw.endswith(
        b'data: {"error":{"code":"resource_exhausted","message":"quota exceeded"},"event_type":"error"}\n\n'
    )
    assert StreamError("quota exceeded", "resource_exhausted") in observe([raw])
    assert StreamError("interaction failed", "failed") in observe([START + _done("failed")])


@given(
    data=st.data(),
    chunking=sse_chunkings(max_cuts=16),
    variant=st.sampled_from(["summaries", "signature-only"]),
)
def test_round_trip_under_arbitrary_splits(data: st.DataObject, chunking: Chunking, variant: str) -> None:
    turn = data.draw(reasoning_turns(variant=f"gemini-interactions:{variant}"))
    assert canon(observe(chunking.split(wire(turn, variant)))) == canon(turn)


@given(data=st.data())
def test_non_streaming_round_trip(data: st.DataObject) -> None:
    turn = data.draw(reasoning_turns(variant="gemini-interactions:summaries"))
    body = GI.emit_response(turn, "summaries")
    assert canon(GI.observe_response(body)) == canon(turn)


HISTORY = [
    Message("system", (TextBlock("Be brief."),)),
    Message.user("Weather in Paris?"),
    Message("assistant", (ReasoningBlock("I need the tool.", signature=SIG), ToolCallBlock("call_k2w9", "get_weather", '{"city":"Paris"}'))),
    Message.tool("call_k2w9", "18°C", "get_weather"),
]  # fmt: skip
STEPS = [
    {"type": "user_input", "content": [{"type": "text", "text": "Weather in Paris?"}]},
    {"type": "thought", "signature": SIG, "summary": [{"type": "text", "text": "I need the tool."}]},
    {"type": "function_call", "id": "call_k2w9", "name": "get_weather", "arguments": {"city": "Paris"}},
    {"type": "function_result", "call_id": "call_k2w9", "name": "get_weather", "result": "18°C"},
]


def test_request_codec_replays_the_models_steps() -> None:
    spec = GI.build_request(HISTORY, model="gemini-3-flash-preview", stream=True, variant="summaries")
    assert spec.path == "/v1/interactions"
    assert spec.body == {
        "model": "gemini-3-flash-preview", "input": STEPS, "stream": True, "store": False,
        "system_instruction": "Be brief.", "generation_config": {"thinking_summaries": "auto"},
    }  # fmt: skip
    assert GI.parse_request(spec.body) == HISTORY
    assert GI.wants_stream(spec.path, spec.body)


def test_the_sdk_accepts_the_request_body() -> None:
    types = pytest.importorskip("google.genai._gaos.types.interactions.createmodelinteraction")
    spec = GI.build_request(HISTORY, model="gemini-3-flash-preview", stream=True, variant="summaries")
    body = types.CreateModelInteraction.model_validate(spec.body)
    assert [s.type for s in body.input] == ["user_input", "thought", "function_call", "function_result"]


@pytest.mark.parametrize(("given", "messages"), [
    ({"model": "m", "input": "Hi"}, [Message.user("Hi")]),
    ({"model": "m", "input": {"type": "text", "text": "Hi"}}, [Message.user("Hi")]),
    ({"model": "m", "input": [{"type": "text", "text": "Hi"}]}, [Message.user("Hi")]),
])  # fmt: skip
def test_the_other_input_forms_are_one_user_turn(given: dict[str, object], messages: list[Message]) -> None:
    assert GI.parse_request(given) == messages


def _emitted() -> list[Message]:
    return [assemble(observe([CALL]))]


def _request(steps: list[dict[str, object]], **extra: object) -> dict[str, object]:
    return {"model": "gemini-3-flash-preview", "input": steps, "store": False, **extra}


SIGNED = [STEPS[0], {"type": "thought", "signature": SIG}, STEPS[2], STEPS[3]]


@pytest.mark.parametrize(("steps", "rule"), [
    (SIGNED, None),
    ([STEPS[0], {"type": "thought"}, STEPS[2], STEPS[3]], "gemini-interactions/missing-signature"),
    ([STEPS[0], STEPS[2], STEPS[3]], "gemini-interactions/thought-step-dropped"),
    ([STEPS[0], {"type": "thought", "signature": SIG[:-1]}, STEPS[2], STEPS[3]], "gemini-interactions/signature-altered"),
])  # fmt: skip
def test_strict_rules(steps: list[dict[str, object]], rule: str | None) -> None:
    rejection = RULES.validate(_request(steps), _emitted())
    assert (rejection.rule if rejection else None) == rule
    if rejection is not None:
        assert rejection.status == 400
        assert json.loads(rejection.body)["error"]["code"] == "invalid_argument"


def test_server_side_state_is_not_replayed_history() -> None:
    request = _request([STEPS[3]], previous_interaction_id="v1_prev")
    assert RULES.validate(request, _emitted()) is None


def test_the_sdk_maps_the_400_body_to_its_client_error() -> None:
    errors = pytest.importorskip("google.genai._gaos.errors.createinteraction")
    rejection = RULES.validate(_request([STEPS[0], {"type": "thought"}, STEPS[2]]), _emitted())
    assert rejection is not None
    data = errors.CreateInteractionClientErrorData.model_validate_json(rejection.body)
    assert data.error.code == "invalid_argument"
    assert "missing its signature" in (data.error.message or "")
    # Google's generateContent body (numeric code) fails the SDK's typed error model (its public client
    # still raises BadRequestError for it: tests/reference/test_interactions_door.py):
    with pytest.raises(ValueError, match="valid string"):
        errors.CreateInteractionClientErrorData.model_validate_json(
            b'{"error": {"code": 400, "message": "m", "status": "INVALID_ARGUMENT"}}'
        )


@pytest.mark.parametrize(
    ("config", "summaries"),
    [({"thinking_summaries": "auto"}, True), ({"thinking_summaries": "none"}, False), ({}, False)],
)
def test_summaries_only_when_the_request_asks(config: dict[str, str], summaries: bool) -> None:
    request = {"model": "m", "input": "Hi", "generation_config": config}
    answer = answer_for("gemini-interactions", "summaries", request)
    shaped = answer.shape(SUMMARY_TURN)
    assert (ReasoningDelta("17 has no") in shaped) is summaries
    assert ReasoningSignature(SIG) in shaped  # the signature is always there
    assert RULES.shape(request, SUMMARY_TURN) == shaped


def test_google_genai_reads_every_frame_and_the_whole_body() -> None:
    sse = pytest.importorskip("google.genai._gaos.types.interactions.interactionssestreamevent")
    interaction = pytest.importorskip("google.genai._gaos.types.interactions.interaction")
    turn: Turn = (ReasoningDelta("Let me see."), ReasoningSignature(SIG), TextDelta("A."),
                  ToolCallDelta(0, "call_1", "get_weather", '{"city":"Paris"}'), Usage(10, 20, 5, 30), End("tool_calls"))  # fmt: skip
    e = GI.emitter("summaries")
    seen = []
    for f in e.feed(turn) + e.close():
        event = sse.InteractionSSEStreamEvent.model_validate({"data": json.loads(f.data)}).data
        assert event.event_type == f.event
        seen.append(getattr(getattr(event, "delta", None), "type", None) or event.event_type)
    assert seen == [
        "interaction.created", "interaction.status_update", "step.start", "thought_summary", "thought_signature",
        "step.stop", "step.start", "text", "step.stop", "step.start", "arguments_delta", "step.stop",
        "interaction.completed",
    ]  # fmt: skip
    body = interaction.Interaction.model_validate_json(GI.emit_response(turn, "summaries"))
    assert [s.type for s in body.steps] == ["thought", "model_output", "function_call"]
    assert body.steps[0].signature == SIG
    assert body.status == "requires_action"
    assert body.usage.total_thought_tokens == 5
