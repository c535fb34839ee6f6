"""pi-json dialect: the catalog's v2 record sequence both ways, v1 snapshots not double counted,
hypothesis round trips for both variants under any split, errors, boundaries, request codec."""

# ruff: noqa: E501  (literal records stay on one line)
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import encode_frames
from harness.dialects import get_dialect
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    Turn,
    Usage,
    coalesce,
    strip_items,
)
from harness.strategies import Chunking, reasoning_turns, sse_chunkings

PI = get_dialect("pi-json")

# wire-formats.md §10 PI-JSONL-V2, verbatim
CATALOG_V2 = [
    '{"type":"session","version":3,"id":"00000000-0000-4000-8000-000000000000","timestamp":"2026-09-01T00:00:00.000Z","cwd":"/home/user/project"}',
    '{"type":"agent_start"}',
    '{"type":"turn_start"}',
    '{"type":"message_start","message":{"role":"user","content":"hi","timestamp":1788220800000}}',
    '{"type":"message_end","message":{"role":"user","content":"hi","timestamp":1788220800000}}',
    '{"type":"message_start","message":{"role":"assistant","content":[],"api":"openai-completions","provider":"deepseek","model":"deepseek-v4-flash","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1788220800001}}',
    '{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"thinking_start","contentIndex":0}}',
    '{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"thinking_delta","contentIndex":0,"delta":"The user greets"}}',
    '{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"thinking_delta","contentIndex":0,"delta":" me."}}',
    '{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"thinking_end","contentIndex":0,"content":"The user greets me."}}',
    '{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"text_start","contentIndex":1}}',
    '{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"text_delta","contentIndex":1,"delta":"Hello!"}}',
    '{"type":"message_update","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"assistantMessageEvent":{"type":"text_end","contentIndex":1,"content":"Hello!"}}',
    '{"type":"message_end","message":{"role":"assistant","content":[{"type":"thinking","thinking":"The user greets me.","thinkingSignature":"reasoning_content"},{"type":"text","text":"Hello!"}],"api":"openai-completions","provider":"deepseek","model":"deepseek-v4-flash","usage":{"input":10,"output":9,"cacheRead":0,"cacheWrite":0,"totalTokens":19,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1788220800001}}',
    '{"type":"turn_end","message":{"role":"assistant","content":[{"type":"thinking","thinking":"The user greets me.","thinkingSignature":"reasoning_content"},{"type":"text","text":"Hello!"}],"stopReason":"stop"},"toolResults":[]}',
    '{"type":"agent_end","messages":[],"willRetry":false}',
    '{"type":"agent_settled"}',
]
CATALOG_TURN: Turn = (
    ReasoningDelta("The user greets"),
    ReasoningDelta(" me."),
    TextDelta("Hello!"),
    Usage(10, 9, None, 19),
    End("stop"),
)
_VOLATILE = {"timestamp", "provider", "model", "api", "thinkingSignature", "id"}


def _norm(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _norm(v) for k, v in x.items() if k not in _VOLATILE}
    if isinstance(x, list):
        return [_norm(v) for v in x]
    return x


def canon(events: Any) -> Turn:
    return strip_items(coalesce(events))


def observe(chunks: list[bytes], variant: str = "v2") -> list[Event]:
    o = PI.observer(variant)
    out: list[Event] = []
    for c in chunks:
        out += o.feed(c)
    return out + o.end()


def frames(turn: Turn, variant: str) -> list[Any]:
    e = PI.emitter(variant, model="deepseek-v4-flash", prompt="hi")
    return e.feed(turn) + e.close()


def wire(turn: Turn, variant: str) -> bytes:
    return b"".join(encode_frames(frames(turn, variant), "jsonl"))


def test_v2_emitter_reproduces_the_catalog_sequence() -> None:
    got = [_norm(json.loads(f.data)) for f in frames(CATALOG_TURN, "v2")]
    assert got == [_norm(json.loads(x)) for x in CATALOG_V2]


def test_v2_observer_reads_the_catalog_sequence() -> None:
    raw = "".join(x + "\n" for x in CATALOG_V2).encode()
    assert canon(observe([raw])) == canon(CATALOG_TURN)
    assert canon(observe([raw[i : i + 1] for i in range(len(raw))])) == canon(CATALOG_TURN)


def test_frame_tags() -> None:
    tags = [sorted(f.tags) for f in frames(CATALOG_TURN, "v2")]
    assert tags[:6] == [["start"]] * 6
    assert tags[6:9] == [["reasoning"]] * 3
    assert tags[9] == ["reasoning-done"]
    assert tags[-1] == ["terminal"]


def test_v1_carries_cumulative_snapshots_and_is_read_once() -> None:
    fs = frames(CATALOG_TURN, "v1")
    updates = [json.loads(f.data) for f in fs if json.loads(f.data)["type"] == "message_update"]
    last = updates[-1]
    assert last["message"]["content"] == [
        {"type": "thinking", "thinking": "The user greets me."},
        {"type": "text", "text": "Hello!"},
    ]
    assert last["assistantMessageEvent"]["partial"] == last["message"]
    assert "usage" not in last
    assert all(json.loads(f.data)["type"] != "agent_settled" for f in fs)
    assert canon(observe([wire(CATALOG_TURN, "v1")], "v1")) == canon(CATALOG_TURN)


def test_boundaries_are_not_content() -> None:
    raw = b'{"type":"message_update","assistantMessageEvent":{"type":"thinking_start","contentIndex":0}}\n{"type":"message_update","assistantMessageEvent":{"type":"thinking_end","contentIndex":0,"content":"already streamed"}}\n{"type":"agent_end","messages":[]}\n'
    assert canon(observe([raw])) == (End("stop"),)


@pytest.mark.parametrize("variant", ["v1", "v2"])
def test_tool_call_records(variant: str) -> None:
    turn: Turn = (
        ReasoningDelta("Need a tool."),
        ToolCallDelta(0, "call_1", "read_file", '{"path":"a"}'),
        End("tool_calls"),
    )
    records = [json.loads(f.data) for f in frames(turn, variant)]
    ames = [r["assistantMessageEvent"] for r in records if r["type"] == "message_update"]
    start = next(a for a in ames if a["type"] == "toolcall_start")
    assert ("id" in start, "toolName" in start) == ((True, True) if variant == "v2" else (False, False))
    end = next(a for a in ames if a["type"] == "toolcall_end")
    assert end["toolCall"] == {
        "type": "toolCall",
        "id": "call_1",
        "name": "read_file",
        "arguments": {"path": "a"},
    }
    assert (
        next(r for r in records if r["type"] == "message_end" and r["message"]["role"] == "assistant")[
            "message"
        ]["stopReason"]
        == "toolUse"
    )
    assert canon(observe([wire(turn, variant)], variant)) == canon(turn)


@pytest.mark.parametrize("variant", ["v1", "v2"])
def test_error_message_end_is_a_stream_error(variant: str) -> None:
    turn: Turn = (ReasoningDelta("x"), StreamError("rate limited"))
    events = observe([wire(turn, variant)], variant)
    assert canon(events) == (ReasoningDelta("x"), StreamError("rate limited", "error"))
    assert not any(isinstance(e, Notice) and e.code == "no-terminator" for e in events)


def test_notices() -> None:
    events = observe([b'{"type":"session"}\n{bad\n{"type":"mystery"}\n'])
    assert events == [
        Notice("malformed-json", "{bad"),
        Notice("unknown-frame", '{"type":"mystery"}'),
        Notice("no-terminator", "EOF without agent_end"),
    ]
    after = observe(
        [b'{"type":"agent_end","messages":[]}\n{"type":"agent_settled"}\n{"type":"turn_start"}\n']
    )
    assert after == [End("stop"), Notice("data-after-end", '{"type":"turn_start"}')]


def test_u2028_inside_a_record_does_not_split_it() -> None:
    turn: Turn = (TextDelta("a\u2028b\u2029c"), End("stop"))
    assert canon(observe([wire(turn, "v2")])) == canon(turn)


@pytest.mark.parametrize("variant", ["v1", "v2"])
@given(data=st.data(), chunking=sse_chunkings(max_cuts=16))
def test_round_trip_under_arbitrary_splits(variant: str, data: st.DataObject, chunking: Chunking) -> None:
    turn = data.draw(reasoning_turns(variant=PI.variants[variant]))
    assert canon(observe(chunking.split(wire(turn, variant)), variant)) == canon(turn)


def test_dialect_shape() -> None:
    assert PI.path_suffixes == ()
    assert {v.catalog_id for v in PI.variants.values()} == {"PI-JSONL-V1", "PI-JSONL-V2"}
    assert set(PI.provider_rules()) == {"lenient"}
    assert PI.provider_rules()["lenient"].validate({}, []) is None
    assert canon(PI.observe_response(PI.emit_response(CATALOG_TURN, "v2"))) == canon(CATALOG_TURN)


def test_request_codec_round_trip() -> None:
    history = [
        Message.user("Read a"),
        Message(
            "assistant",
            (ReasoningBlock("Need a tool."), ToolCallBlock("call_1", "read_file", '{"path":"a"}')),
        ),
        Message.tool("call_1", "contents", "read_file"),
        Message("assistant", (TextBlock("Done."),)),
        Message.user("Thanks"),
    ]
    spec = PI.build_request(history, model="m", stream=True, variant="v2")
    assert spec.body["prompt"] == "Thanks"
    assert spec.body["messages"][2] == {
        "role": "toolResult",
        "toolCallId": "call_1",
        "toolName": "read_file",
        "content": [{"type": "text", "text": "contents"}],
    }
    assert PI.parse_request(spec.body) == history
