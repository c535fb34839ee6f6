"""cohere dialect: v2 chat frames both ways (composed from the documented event shapes), hypothesis
round trips under any split, message-end errors, the request codec, and the cohere SDK's own stream
types reading the emitter's bytes."""

# ruff: noqa: E501  (literal wire frames stay on one line)
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import encode_frames
from harness.dialects import get_dialect
from harness.events import (
    End,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    StreamError,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    Turn,
    Usage,
    coalesce,
    strip_items,
)
from harness.strategies import Chunking, reasoning_turns, sse_chunkings

COHERE = get_dialect("cohere")


def _event(kind: str, **fields: object) -> bytes:
    """One event of Cohere's v2 chat stream as its docs describe it: an ``event:`` line naming the type,
    then the JSON object on one ``data:`` line (``type`` first, then the event's own fields)."""
    body = {"type": kind, **fields} if kind != "message-start" else {"id": fields["id"], "type": kind,
                                                                     "delta": fields["delta"]}
    return f"event: {kind}\ndata: {json.dumps(body, separators=(',', ':'))}\n\n".encode()


def _content(**content: str) -> dict[str, object]:
    return {"message": {"content": content}}


# A thinking stream composed from the documented shapes: content index 0 is the thinking item, index 1 the
# answer; message-end carries finish_reason COMPLETE.
DOCUMENTED = b"".join([
    _event("message-start", id="cohere-mock", delta={"message": {"role": "assistant"}}),
    _event("content-start", index=0, delta=_content(type="thinking", thinking="")),
    _event("content-delta", index=0, delta=_content(thinking="The")),
    _event("content-delta", index=0, delta=_content(thinking=" answer")),
    _event("content-end", index=0),
    _event("content-start", index=1, delta=_content(type="text", text="")),
    _event("content-delta", index=1, delta=_content(text="4.")),
    _event("content-end", index=1),
    _event("message-end", delta={"finish_reason": "COMPLETE"}),
])  # fmt: skip
DOCUMENTED_TURN: Turn = (ReasoningDelta("The"), ReasoningDelta(" answer"), TextDelta("4."), End("stop"))


def observe(chunks: list[bytes]) -> list:  # type: ignore[type-arg]
    o = COHERE.observer("thinking")
    out = []
    for c in chunks:
        out += o.feed(c)
    return out + o.end()


def wire(turn: Turn) -> bytes:
    e = COHERE.emitter("thinking", model="command-a-reasoning-08-2025")
    return b"".join(encode_frames(e.feed(turn) + e.close(), "sse"))


def canon(events: list) -> Turn:  # type: ignore[type-arg]
    return strip_items(coalesce(events))


def test_the_documented_stream_reads_as_thinking_then_text_one_byte_at_a_time() -> None:
    assert canon(observe([DOCUMENTED])) == canon(list(DOCUMENTED_TURN))
    assert canon(observe([DOCUMENTED[i : i + 1] for i in range(len(DOCUMENTED))])) == canon(list(DOCUMENTED_TURN))


def test_the_emitter_reproduces_the_documented_frames() -> None:
    assert wire(DOCUMENTED_TURN) == DOCUMENTED


def test_tool_call_frames_and_usage_on_message_end() -> None:
    turn: Turn = (
        ReasoningDelta("I need the tool."),
        ToolCallDelta(0, "get_weather_j3f0", "get_weather", '{"city":'),
        ToolCallDelta(0, None, None, '"Paris"}'),
        Usage(10, 4),
        End("tool_calls"),
    )
    frames = [f for f in wire(turn).split(b"\n\n") if f]
    assert frames[4] == b'event: tool-call-start\ndata: {"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"get_weather_j3f0","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":"}}}}}'
    assert frames[-1].endswith(b'"finish_reason":"TOOL_CALL","usage":{"billed_units":{"input_tokens":10,"output_tokens":4},"tokens":{"input_tokens":10,"output_tokens":4}}}}')
    assert canon(observe([wire(turn)])) == canon(turn)


def test_message_end_with_an_error_is_a_stream_error_and_data_after_it_a_notice() -> None:
    e = COHERE.emitter("thinking")
    raw = b"".join(encode_frames(e.feed((ReasoningDelta("x"), StreamError("overloaded"))), "sse"))
    raw += b'data: {"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"late"}}}}\n\n'
    events = observe([raw])
    assert StreamError("overloaded") in events
    assert any(isinstance(ev, Notice) and ev.code == "data-after-end" for ev in events)


def test_done_sentinel_is_read_and_eof_without_message_end_is_noticed() -> None:
    assert not [ev for ev in observe([b"data: [DONE]\n\n"]) if not isinstance(ev, Notice)]
    events = observe([DOCUMENTED.rsplit(b"event: message-end", 1)[0]])
    assert Notice("no-terminator", "EOF before message-end") in events


@given(data=st.data(), chunking=sse_chunkings(max_cuts=16))
def test_round_trip_under_arbitrary_splits(data: st.DataObject, chunking: Chunking) -> None:
    turn = data.draw(reasoning_turns(variant="cohere:thinking"))
    assert canon(observe(chunking.split(wire(turn)))) == canon(turn)


@given(data=st.data())
def test_non_streaming_round_trip(data: st.DataObject) -> None:
    turn = data.draw(reasoning_turns(variant="cohere:thinking"))
    body = COHERE.emit_response(turn, "thinking")
    assert canon(COHERE.observe_response(body)) == canon(turn)


def test_request_codec_carries_thinking_back_as_a_content_item() -> None:
    msgs = [
        Message.user("Weather?"),
        Message("assistant", (ReasoningBlock("I need the tool."), ToolCallBlock("c1", "get_weather", '{"city":"Paris"}'))),
        Message.tool("c1", "18°C"),
    ]
    spec = COHERE.build_request(msgs, model="command-a-reasoning-08-2025", stream=True, variant="thinking")
    assert spec.path == "/v2/chat"
    assert spec.body["thinking"] == {"type": "enabled"}
    assert spec.body["messages"][1] == {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "I need the tool."}],
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}],
    }
    assert COHERE.parse_request(spec.body) == msgs


def test_error_body_reads_back_as_a_stream_error() -> None:
    body = COHERE.error_body(429, "too many requests")
    assert json.loads(body) == {"id": "mock-error", "message": "too many requests"}
    assert COHERE.observe_response(body) == [StreamError("too many requests")]


def test_the_cohere_sdk_parses_the_emitter_output() -> None:
    types = pytest.importorskip("cohere.v2.types.v2chat_stream_response")
    from pydantic import TypeAdapter

    adapter: TypeAdapter[object] = TypeAdapter(types.V2ChatStreamResponse)
    turn: Turn = (ReasoningDelta("Let me think."), TextDelta("Answer."), End("stop"))
    e = COHERE.emitter("thinking")
    kinds = []
    for f in e.feed(turn) + e.close():
        event = adapter.validate_python(json.loads(f.data))
        kinds.append(event.type)  # type: ignore[attr-defined]
        if event.type == "content-delta":  # type: ignore[attr-defined]
            content = event.delta.message.content  # type: ignore[attr-defined]
            assert (content.thinking or content.text) in ("Let me think.", "Answer.")
    assert kinds[0] == "message-start"
    assert kinds[-1] == "message-end"
