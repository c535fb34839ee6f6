"""The reference gateway end to end: a fake provider (harness.net) behind it, an OpenAI-chat client in
front; plus its pure parts (model routing, the pump's cancel path) without sockets."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from _reference_fakes import SAFETY, Answer

from harness._errors import UnknownName
from harness.dialects import get_dialect
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningDelta,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
    assemble,
    coalesce,
)
from harness.reference._core import Route, UpstreamPipe, error_message, parse_model
from harness.reference.gateway import Gateway

CHAT = get_dialect("openai-chat")
TURN: list[Event] = [
    ReasoningDelta("I think"),
    ReasoningDelta(" so."),
    TextDelta("Hi!"),
    Usage(3, 9, 5, 12),
    End(),
]
TOOL_TURN: list[Event] = [
    ReasoningDelta("I need the weather tool."),
    ToolCallDelta(0, "call_00_mock", "get_weather", '{"city":"Paris"}'),
    End("tool_calls"),
]


def chat(
    base: str, messages: list[Message], *, model: str = "m", stream: bool = True, **extra: Any
) -> tuple[int, bytes, list[Event]]:
    """What the harness's front door does: build, send, observe (reasoning_details variant)."""
    spec = CHAT.build_request(messages, model=model, stream=stream, variant="reasoning_details", **extra)
    r = httpx.post(base + spec.path, json=spec.body, timeout=SAFETY)
    if r.status_code >= 400 or not stream:
        return r.status_code, r.content, CHAT.observe_response(r.content) if r.status_code < 400 else []
    obs = CHAT.observer("reasoning_details")
    return r.status_code, r.content, obs.feed(r.content) + obs.end()


def content(events: list[Event]) -> list[Event]:
    return [e for e in coalesce(events) if not isinstance(e, Notice)]


# --------------------------------------------------------------------------------------------------
# Routing (pure)


@pytest.mark.parametrize(
    ("model", "route"),
    [
        ("m", Route("openai-chat", "reasoning_content", "m")),
        ("openai-chat:reasoning/qwen3", Route("openai-chat", "reasoning", "qwen3")),
        ("gemini/gemini-3-pro", Route("gemini", "thought", "gemini-3-pro")),
        (
            "anthropic/claude-sonnet-4.5",
            Route("openai-chat", "reasoning_content", "anthropic/claude-sonnet-4.5"),
        ),
    ],
)
def test_parse_model(model: str, route: Route) -> None:
    assert parse_model(model) == route


def test_parse_model_unknown_variant() -> None:
    with pytest.raises(UnknownName, match="unknown openai-chat variant 'nope': valid: "):
        parse_model("openai-chat:nope/m")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"error":{"message":"bad thing","type":"invalid_request_error"}}', "bad thing"),
        (b'{"message":"Too many requests"}', "Too many requests"),
        (b'{"error":"model not found"}', "model not found"),
        (b'[{"error":{"code":400,"message":"gemini says no"}}]', "gemini says no"),
        (b"plain text", "plain text"),
    ],
)
def test_error_message(body: bytes, message: str) -> None:
    assert error_message(body) == message


# --------------------------------------------------------------------------------------------------
# Streaming


def test_reasoning_content_reaches_client_as_delta_reasoning(gateway_for: Any) -> None:
    up, gw = gateway_for([Answer(TURN)])
    status, raw, events = chat(gw.base_url, [Message.user("hi")])
    assert status == 200
    assert b'"reasoning":"I think"' in raw
    assert b'"reasoning_details":[{"type":"reasoning.text"' in raw
    assert b'"reasoning_content"' not in raw
    assert content(events) == [
        ReasoningDelta("I think so."),
        TextDelta("Hi!"),
        Usage(3, 9, 5, 12),
        End("stop"),
    ]
    assert raw.count(b"data: [DONE]") == 1
    assert up.bodies[0]["model"] == "m"
    assert up.bodies[0]["stream"] is True


def test_usage_only_when_the_client_asks(gateway_for: Any) -> None:
    _, gw = gateway_for([Answer(TURN)])
    spec = CHAT.build_request([Message.user("hi")], model="m", stream=True, variant="reasoning_details")
    body = {k: v for k, v in spec.body.items() if k != "stream_options"}
    raw = httpx.post(gw.base_url + spec.path, json=body, timeout=SAFETY).content
    assert b'"usage"' not in raw
    assert b"data: [DONE]" in raw


@pytest.mark.parametrize("split", [None, 1])
def test_every_frame_forwarded_as_it_arrives(gateway_for: Any, split: int | None) -> None:
    _, gw = gateway_for([Answer(TURN, split=split)])
    _status, _, events = chat(gw.base_url, [Message.user("hi")])
    assert content(events)[:2] == [ReasoningDelta("I think so."), TextDelta("Hi!")]


@pytest.mark.parametrize(
    ("dialect", "variant"),
    [("gemini", "thought"), ("bedrock-converse", "converse"), ("openai-chat", "think-tags")],
)
def test_other_upstream_dialects(gateway_for: Any, dialect: str, variant: str) -> None:
    turn = [ReasoningDelta("Hmm."), TextDelta("Answer."), End()]
    _up, gw = gateway_for([Answer(turn, dialect=dialect, variant=variant)])
    status, raw, events = chat(gw.base_url, [Message.user("hi")], model=f"{dialect}:{variant}/x-model")
    assert status == 200, raw
    got = content(events)
    assert [e for e in got if isinstance(e, ReasoningDelta | TextDelta)] == [
        ReasoningDelta("Hmm."),
        TextDelta("Answer."),
    ]
    assert isinstance(got[-1], End)


def test_tool_turn_then_continuation_carries_reasoning_content(gateway_for: Any) -> None:
    final = [ReasoningDelta("The tool says 18°C."), TextDelta("It is 18°C."), End()]
    up, gw = gateway_for([Answer(TOOL_TURN), Answer(final)])
    _, _, events = chat(gw.base_url, [Message.user("Weather in Paris?")])
    assistant = assemble(events)
    assert [c.name for c in assistant.tool_calls] == ["get_weather"]
    history = [Message.user("Weather in Paris?"), assistant, Message.tool("call_00_mock", "18°C, clear")]
    status, _, events2 = chat(gw.base_url, history)
    assert status == 200
    sent = up.bodies[1]["messages"][1]
    assert sent["reasoning_content"] == "I need the weather tool."
    assert sent["tool_calls"][0]["id"] == "call_00_mock"
    assert up.bodies[1]["messages"][2] == {
        "role": "tool",
        "tool_call_id": "call_00_mock",
        "content": "18°C, clear",
    }
    assert assemble(events2).text == "It is 18°C."


def test_lose_passback_strips_reasoning_content(gateway_for: Any) -> None:
    up, gw = gateway_for([Answer(TOOL_TURN), Answer([TextDelta("ok"), End()])], faults=("lose-passback",))
    _, _, events = chat(gw.base_url, [Message.user("q")])
    chat(gw.base_url, [Message.user("q"), assemble(events), Message.tool("call_00_mock", "r")])
    sent = up.bodies[1]["messages"][1]
    assert sent.get("reasoning_content", "") == ""
    assert sent["tool_calls"][0]["id"] == "call_00_mock"


def test_mid_stream_error_is_an_error_frame_without_done(gateway_for: Any) -> None:
    turn = [ReasoningDelta("Working"), StreamError("Overloaded", "overloaded_error", 529)]
    _, gw = gateway_for([Answer(turn)])
    _, raw, events = chat(gw.base_url, [Message.user("hi")])
    assert b'"error":{' in raw
    assert b"Overloaded" in raw
    assert b"[DONE]" not in raw
    assert [type(e) for e in content(events)] == [ReasoningDelta, StreamError]
    _, gw2 = gateway_for([Answer(turn)], faults=("swallow-stream-error",))
    _, raw2, events2 = chat(gw2.base_url, [Message.user("hi")])
    assert b'"error"' not in raw2
    assert raw2.count(b"data: [DONE]") == 1
    assert content(events2) == [ReasoningDelta("Working"), End("stop")]


def test_double_done(gateway_for: Any) -> None:
    _, gw = gateway_for([Answer(TURN)], faults=("double-done",))
    _, raw, events = chat(gw.base_url, [Message.user("hi")])
    assert raw.count(b"data: [DONE]") == 2
    assert any(isinstance(e, Notice) and e.code == "data-after-end" for e in events)


def test_break_utf8(gateway_for: Any) -> None:
    turn = [ReasoningDelta("18°C"), TextDelta("ok"), End()]
    _, gw = gateway_for([Answer(turn, split=1)])
    assert content(chat(gw.base_url, [Message.user("hi")])[2])[0] == ReasoningDelta("18°C")
    _, bad = gateway_for([Answer(turn, split=1)], faults=("break-utf8",))
    got = content(chat(bad.base_url, [Message.user("hi")])[2])[0]
    assert isinstance(got, ReasoningDelta)
    assert "\ufffd" in got.text


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        ((), [ReasoningDelta("I think so."), TextDelta("Hi!")]),
        (("drop-reasoning",), [TextDelta("Hi!")]),
        (("reasoning-into-content",), [TextDelta("I think so.Hi!")]),
        (
            ("replay-done",),
            [
                ReasoningDelta("I think so."),
                TextDelta("Hi!"),
                ReasoningDelta("I think so."),
                TextDelta("Hi!"),
            ],
        ),
    ],
)
def test_stream_faults_through_the_gateway(
    gateway_for: Any, fault: tuple[str, ...], expected: list[Event]
) -> None:
    _, gw = gateway_for([Answer(TURN)], faults=fault)
    got = [
        e
        for e in content(chat(gw.base_url, [Message.user("hi")])[2])
        if isinstance(e, ReasoningDelta | TextDelta)
    ]
    assert got == expected


def test_drop_reasoning_tokens(gateway_for: Any) -> None:
    _, gw = gateway_for([Answer(TURN)], faults=("drop-reasoning-tokens",))
    usage = [e for e in chat(gw.base_url, [Message.user("hi")])[2] if isinstance(e, Usage)]
    assert usage == [Usage(3, 9, None, 12)]


# --------------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize("stream", [True, False])
def test_upstream_400_reaches_the_client_as_400(gateway_for: Any, stream: bool) -> None:
    msg = "Missing `reasoning_content` field in the assistant message at message index 1."
    _, gw = gateway_for([Answer(status=400, error=msg)])
    status, raw, _ = chat(gw.base_url, [Message.user("hi")], stream=stream)
    assert status == 400
    assert httpx.Response(400, content=raw).json()["error"]["message"] == msg


@pytest.mark.parametrize("stream", [True, False])
def test_hide_upstream_error(gateway_for: Any, stream: bool) -> None:
    _, gw = gateway_for([Answer(status=429, error="Rate limit")], faults=("hide-upstream-error",))
    status, raw, events = chat(gw.base_url, [Message.user("hi")], stream=stream)
    assert status == 200
    assert b"Rate limit" not in raw
    assert content(events) == [End("stop")]


def test_upstream_unreachable_is_502() -> None:
    from harness.drivers._process import free_port

    with Gateway(f"http://127.0.0.1:{free_port()}") as gw:
        status, raw, _ = chat(gw.base_url, [Message.user("hi")])
    assert status == 502
    assert b"upstream unreachable" in raw


def test_routes() -> None:
    with Gateway("http://127.0.0.1:9") as gw:
        assert httpx.get(gw.base_url + "/health").status_code == 200
        assert httpx.post(gw.base_url + "/nope", json={}).status_code == 404
        r = httpx.post(gw.base_url + "/v1/chat/completions", content=b"{not json")
        assert r.status_code == 400
        assert r.json()["error"]["type"] == "invalid_request_error"
        r = httpx.post(gw.base_url + "/chat/completions", json={"model": "openai-chat:zzz/m", "messages": []})
        assert r.status_code == 400
        assert "unknown openai-chat variant 'zzz'" in r.json()["error"]["message"]


# --------------------------------------------------------------------------------------------------
# Non-streaming


def test_nonstream_reasoning_separate_and_inline_think_fault(gateway_for: Any) -> None:
    _, gw = gateway_for([Answer(TURN)])
    status, raw, _events = chat(gw.base_url, [Message.user("hi")], stream=False)
    msg = httpx.Response(200, content=raw).json()["choices"][0]["message"]
    assert status == 200
    assert msg["content"] == "Hi!"
    assert msg["reasoning"] == "I think so."
    assert msg["reasoning_details"][0]["text"] == "I think so."
    _, bad = gateway_for([Answer(TURN)], faults=("nonstream-inline-think",))
    raw2 = chat(bad.base_url, [Message.user("hi")], stream=False)[1]
    msg2 = httpx.Response(200, content=raw2).json()["choices"][0]["message"]
    assert msg2["content"] == "<think>I think so.</think>Hi!"
    assert "reasoning" not in msg2


# --------------------------------------------------------------------------------------------------
# Cancellation


def test_client_disconnect_closes_the_upstream(gateway_for: Any) -> None:
    up, gw = gateway_for([Answer(TURN, hold_after=2)])  # start + first reasoning frame, then hold
    spec = CHAT.build_request([Message.user("hi")], model="m", stream=True, variant="reasoning_details")
    obs = CHAT.observer("reasoning_details")
    with (
        httpx.Client(timeout=SAFETY) as client,
        client.stream("POST", gw.base_url + spec.path, json=spec.body) as r,
    ):
        for chunk in r.iter_raw():
            if any(isinstance(e, ReasoningDelta) for e in obs.feed(chunk)):
                break  # the client leaves mid-reasoning
    assert up.peer_closed.wait(SAFETY), "the gateway kept its upstream open after the client left"


class _Peer:
    def __init__(self) -> None:
        self.closed = asyncio.Event()


@pytest.mark.parametrize(("faults", "drained"), [((), False), (("keep-upstream-open",), True)])
def test_pump_after_client_left(faults: tuple[str, ...], drained: bool) -> None:
    """The cancel path without sockets: the client leaves while the gateway waits for the upstream's
    next chunk; the correct gateway abandons that read, the mutant reads the upstream to its end."""
    from harness.codec import encode_frames

    chunks = encode_frames(CHAT.emitter("reasoning_content").feed(TURN), "sse")
    read: list[int] = []

    async def scenario() -> bool:
        peer = _Peer()
        more = asyncio.Event()

        async def upstream() -> AsyncIterator[bytes]:
            for n, c in enumerate(chunks):
                if n == 2:
                    peer.closed.set()  # the client leaves while the gateway waits for chunk 2
                    await more.wait()
                read.append(n)
                yield c

        async def resume() -> None:  # the upstream goes on producing after the client left
            await peer.closed.wait()
            more.set()

        async def deliver(events: list[Event]) -> None:
            pass

        if drained:
            resuming = asyncio.ensure_future(resume())
        gw = Gateway("http://127.0.0.1:9", faults)
        pipe = UpstreamPipe(CHAT, "reasoning_content", gw.faults)
        result = await asyncio.wait_for(gw.pump(peer, upstream(), pipe, deliver), SAFETY)  # type: ignore[arg-type]
        if drained:
            await resuming
        return result

    assert asyncio.run(scenario()) is False
    assert read == (list(range(len(chunks))) if drained else [0, 1])


# --------------------------------------------------------------------------------------------------
# As a process


def test_gateway_process_health_and_sigterm() -> None:
    from harness.drivers._process import free_port

    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "harness.reference.gateway",
            "--port",
            str(port),
            "--upstream",
            "http://127.0.0.1:9",
        ],
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    try:
        deadline = time.monotonic() + SAFETY
        while True:  # readiness probe: bounded, not a verdict
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None
            assert time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(SAFETY) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.stderr is not None
        proc.stderr.close()


# --------------------------------------------------------------------------------------------------
# Anthropic front door


ANT = get_dialect("anthropic-messages")


def messages(
    base: str, history: list[Message], *, model: str, stream: bool = True
) -> tuple[int, bytes, list[Event]]:
    spec = ANT.build_request(history, model=model, stream=stream, variant="thinking")
    r = httpx.post(base + spec.path, json=spec.body, headers=dict(spec.headers), timeout=SAFETY)
    if r.status_code >= 400:
        return r.status_code, r.content, []
    if not stream:
        return r.status_code, r.content, ANT.observe_response(r.content)
    obs = ANT.observer("thinking")
    return r.status_code, r.content, obs.feed(r.content) + obs.end()


@pytest.mark.parametrize("stream", [True, False])
def test_anthropic_front_door_keeps_signatures(gateway_for: Any, stream: bool) -> None:
    from harness.events import ReasoningSignature, strip_items

    turn = [ReasoningDelta("Hmm."), ReasoningSignature("sig_1"), TextDelta("Hi"), End()]
    up, gw = gateway_for([Answer(turn, dialect="anthropic-messages", variant="thinking")])
    status, _, events = messages(
        gw.base_url, [Message.user("hi")], model="anthropic-messages/claude", stream=stream
    )
    assert status == 200
    assert strip_items(content(events)) == (
        ReasoningDelta("Hmm."),
        ReasoningSignature("sig_1"),
        TextDelta("Hi"),
        End(),
    )
    assert up.paths == ["/v1/messages"]
    assert up.bodies[0]["model"] == "claude"


def test_anthropic_front_door_error(gateway_for: Any) -> None:
    _, gw = gateway_for([Answer(status=400, error="thinking blocks missing", dialect="anthropic-messages")])
    status, raw, _ = messages(gw.base_url, [Message.user("hi")], model="anthropic-messages/claude")
    assert status == 400
    body = httpx.Response(400, content=raw).json()
    assert body["type"] == "error"
    assert body["error"]["message"] == "thinking blocks missing"
