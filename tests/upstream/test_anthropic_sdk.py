"""The official anthropic SDK as the client over loopback: thinking deltas, a gate, a strict 400."""

from __future__ import annotations

from collections.abc import Iterator

import anthropic
import pytest

from harness.events import End, ReasoningDelta, ReasoningSignature, TextDelta
from harness.upstream import Emit, Gate, MockUpstream, Script

MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture
def client(up: MockUpstream) -> Iterator[anthropic.Anthropic]:
    c = anthropic.Anthropic(base_url=up.base_url + "/anthropic", api_key="sk-ant-test", max_retries=0)
    yield c
    c.close()


def test_thinking_arrives_gated(up: MockUpstream, client: anthropic.Anthropic) -> None:
    steps = (
        Emit((ReasoningDelta("first"),)),
        Gate(reasoning="first", timeout=5),
        Emit((ReasoningDelta(" second"), ReasoningSignature("sig_abc"), TextDelta("Hi!"), End())),
    )
    up.load(Script("anthropic-messages", steps, variant="thinking"))
    thinking: list[str] = []
    text: list[str] = []
    thinking_on = {"type": "enabled", "budget_tokens": 1024}  # no thinking blocks without it (the real API's)
    with client.messages.stream(
        model="m", max_tokens=2048, messages=MESSAGES, thinking=thinking_on  # type: ignore[arg-type]
    ) as stream:
        for ev in stream:
            if ev.type == "content_block_delta" and ev.delta.type == "thinking_delta":
                thinking.append(ev.delta.thinking)
                up.client.observe(ReasoningDelta(ev.delta.thinking))
            elif ev.type == "content_block_delta" and ev.delta.type == "text_delta":
                text.append(ev.delta.text)
        final = stream.get_final_message()
    # the empty thinking_delta before the signature_delta is the real API's (the corpus files anthropic-*)
    assert (thinking, text) == (["first", " second", ""], ["Hi!"])
    assert final.content[0].type == "thinking"
    assert final.content[0].signature == "sig_abc"  # type: ignore[union-attr]
    assert up.requests[0].path == "/anthropic/v1/messages"
    assert [e.act for e in up.timeline.select("upstream") if e.act.startswith("gate")] == [
        "gate-wait",
        "gate-open",
    ]


def test_gate_timeout_when_the_client_does_not_report(up: MockUpstream, client: anthropic.Anthropic) -> None:
    steps = (
        Emit((ReasoningDelta("first"),)),
        Gate(reasoning="first", timeout=0.05),
        Emit((TextDelta("Hi!"), End())),
    )
    up.load(Script("anthropic-messages", steps, variant="thinking"))
    with client.messages.stream(model="m", max_tokens=64, messages=MESSAGES) as stream:  # type: ignore[arg-type]
        assert stream.get_final_message().content[-1].text == "Hi!"  # type: ignore[union-attr]
    (t,) = up.timeline.select("upstream", "gate-timeout")
    assert t.info["seen"] == {"events": 0, "reasoning": "", "text": ""}
