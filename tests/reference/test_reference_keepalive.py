"""The reference gateway keeps a client's stream alive while its upstream is silent: its front door's
keepalive (an SSE comment on the chat door, Anthropic's ping on the Anthropic door), written only between
whole frames, until the client leaves (which the upstream then sees)."""

from __future__ import annotations

import httpx
import pytest
from _reference_fakes import SAFETY, Answer, FakeProvider

from harness.dialects import get_dialect
from harness.events import End, Message, ReasoningDelta, TextDelta
from harness.reference.gateway import Gateway

EVENTS = [ReasoningDelta("First thought."), ReasoningDelta(" Second."), TextDelta("Answer."), End()]


@pytest.mark.parametrize(
    ("door", "path", "variant", "marker"),
    [
        ("openai-chat", "/v1/chat/completions", "reasoning_details", b": keepalive\n\n"),
        ("anthropic-messages", "/v1/messages", "thinking", b'event: ping\ndata: {"type": "ping"}\n\n'),
    ],
)
def test_a_silent_upstream_gets_keepalives_between_frames(
    door: str, path: str, variant: str, marker: bytes
) -> None:
    answer = Answer(EVENTS, "openai-chat", "reasoning_content", hold_after=2)  # then silent
    front = get_dialect(door)
    spec = front.build_request(
        [Message("user", "Think.")], model="openai-chat:reasoning_content/m", stream=True, variant=variant
    )
    with FakeProvider([answer]) as up, Gateway(up.base_url, keepalive=0.05) as gw:
        got = b""
        with httpx.stream("POST", gw.base_url + path, json=spec.body, timeout=SAFETY) as r:
            assert r.status_code == 200
            for chunk in r.iter_raw():
                got += chunk
                after_reasoning = got.split(b"First thought.", 1)[-1] if b"First thought." in got else b""
                if after_reasoning.count(marker) >= 3:  # three in a row: the upstream is still silent
                    break
        assert up.peer_closed.wait(SAFETY)  # leaving closed the upstream's response too
    _, _, rest = got.partition(b"First thought.")
    frames_then = rest.split(marker)
    assert all(part.endswith(b"\n\n") or part == b"" for part in frames_then[:-1])  # never inside a frame
    obs = front.observer(variant)
    events = obs.feed(got)
    assert [e.text for e in events if isinstance(e, ReasoningDelta)] == ["First thought."]
