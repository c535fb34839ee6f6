"""The reference gateway's Gemini Interactions front door: a client speaking ``/v1/interactions``
(stream and whole body) over an upstream of another dialect and over an Interactions upstream; thought
steps keep their signature both ways, and an upstream error comes back in the Interactions error body."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from _reference_fakes import SAFETY, Answer, FakeProvider

from harness.dialects import get_dialect
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningDelta,
    ReasoningSignature,
    TextDelta,
    ToolCallDelta,
    assemble,
    coalesce,
    strip_items,
)

GI = get_dialect("gemini-interactions")
SIG = "EpQBCnoBjz1rX0aZ3hV5uKq2c4m8yT1o"


def interactions(
    base: str, history: list[Message], *, model: str, stream: bool = True
) -> tuple[int, bytes, list[Event]]:
    spec = GI.build_request(history, model=model, stream=stream, variant="summaries")
    r = httpx.post(base + spec.path, json=spec.body, headers=dict(spec.headers), timeout=SAFETY)
    if r.status_code >= 400:
        return r.status_code, r.content, []
    if not stream:
        return r.status_code, r.content, GI.observe_response(r.content)
    obs = GI.observer("summaries")
    events = obs.feed(r.content) + obs.end()
    assert not [e for e in events if isinstance(e, Notice)], events
    return r.status_code, r.content, events


TURN: list[Event] = [ReasoningDelta("Hmm."), ReasoningSignature(SIG), TextDelta("Hi"), End()]


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize(
    ("dialect", "variant"), [("anthropic-messages", "thinking"), ("gemini-interactions", "summaries")]
)
def test_the_door_keeps_thought_signatures(
    gateway_for: Any, stream: bool, dialect: str, variant: str
) -> None:
    up, gw = gateway_for([Answer(TURN, dialect=dialect, variant=variant)])
    status, _, events = interactions(gw.base_url, [Message.user("hi")], model=f"{dialect}/m", stream=stream)
    assert status == 200
    assert strip_items(coalesce(events)) == (
        ReasoningDelta("Hmm."),
        ReasoningSignature(SIG),
        TextDelta("Hi"),
        End(),
    )
    assert up.paths == ["/v1/messages" if dialect == "anthropic-messages" else "/v1/interactions"]


def test_a_tool_turn_replays_the_thought_step_with_its_signature(gateway_for: Any) -> None:
    call: list[Event] = [
        ReasoningSignature(SIG),
        ToolCallDelta(0, "call_1", "get_weather", '{"city":"Paris"}'),
        End("tool_calls"),
    ]
    answer = [TextDelta("18°C"), End()]
    up, gw = gateway_for(
        [
            Answer(call, dialect="gemini-interactions", variant="signature-only"),
            Answer(answer, dialect="gemini-interactions", variant="signature-only"),
        ]
    )
    model = "gemini-interactions:signature-only/gemini-3-flash-preview"
    history = [Message.user("Weather?")]
    status, _, events = interactions(gw.base_url, history, model=model)
    assert status == 200
    history += [assemble(events), Message.tool("call_1", "18°C", "get_weather")]
    status, _, events = interactions(gw.base_url, history, model=model)
    assert status == 200
    assert up.bodies[1]["input"][1:3] == [
        {"type": "thought", "signature": SIG},
        {"type": "function_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}},
    ]
    assert GI.provider_rules()["gemini-interactions"].validate(up.bodies[1], [assemble(call)]) is None


def test_an_upstream_error_comes_back_in_the_interactions_error_body(gateway_for: Any) -> None:
    _, gw = gateway_for([Answer(status=400, error="thought step missing", dialect="gemini-interactions")])
    status, raw, _ = interactions(gw.base_url, [Message.user("hi")], model="gemini-interactions/m")
    assert status == 400
    assert httpx.Response(400, content=raw).json() == {
        "error": {"code": "invalid_argument", "message": "thought step missing"}
    }


def test_the_google_genai_client_reads_the_mocks_stream_body_and_400() -> None:
    """The installed google-genai client against this dialect's answers: every stream event typed,
    the whole Interaction, and the strict rules' 400 body raised as its documented BadRequestError."""
    genai = pytest.importorskip("google.genai")
    errors = pytest.importorskip("google.genai._interactions_errors")
    turn: list[Event] = [ReasoningDelta("Hmm."), ReasoningSignature(SIG), TextDelta("Hi"), End()]
    rules = GI.provider_rules()["gemini-interactions"]
    bad = {"model": "m", "input": [{"type": "user_input"}, {"type": "thought"}], "store": False}
    rejection = rules.validate(bad, [])
    assert rejection is not None
    message = str(httpx.Response(400, content=rejection.body).json()["error"]["message"])
    answers = [Answer(turn, dialect="gemini-interactions", variant="summaries")] * 2
    answers.append(Answer(status=400, error=message, dialect="gemini-interactions"))
    with FakeProvider(answers) as up:
        client = genai.Client(api_key="test-key", http_options={"base_url": up.base_url})
        stream = client.interactions.create(model="gemini-3-flash-preview", input="hi", stream=True)
        kinds = [getattr(getattr(ev, "delta", None), "type", None) or ev.event_type for ev in stream]
        assert kinds == [
            "interaction.created", "interaction.status_update", "step.start", "thought_summary",
            "thought_signature", "step.stop", "step.start", "text", "step.stop", "interaction.completed",
        ]  # fmt: skip
        whole = client.interactions.create(model="gemini-3-flash-preview", input="hi")
        assert [s.type for s in whole.steps] == ["thought", "model_output"]
        assert whole.steps[0].signature == SIG
        with pytest.raises(errors.BadRequestError) as raised:
            client.interactions.create(model="gemini-3-flash-preview", input="hi")
        assert raised.value.status_code == 400
        assert message in str(raised.value)
        assert up.paths[0].endswith("/interactions")
