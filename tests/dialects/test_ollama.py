"""ollama dialect: catalog NDJSON both ways, hypothesis round trips under any split, error and done
lines, request codec (think flag, thinking passback), profiles, and the ollama SDK over MockTransport."""

# ruff: noqa: E501  (literal wire lines stay on one line)
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import httpx
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

OLLAMA = get_dialect("ollama")

# wire-formats.md §6, verbatim (emitter reproduces it modulo created_at)
CATALOG = [
    '{"model":"qwen3","created_at":"2026-03-09T20:20:30.224Z","message":{"role":"assistant","content":"","thinking":"The user"},"done":false}',
    '{"model":"qwen3","created_at":"2026-03-09T20:20:30.251Z","message":{"role":"assistant","content":"","thinking":" says hi."},"done":false}',
    '{"model":"qwen3","created_at":"2026-03-09T20:20:30.301Z","message":{"role":"assistant","content":"Hello!"},"done":false}',
    '{"model":"qwen3","created_at":"2026-03-09T20:20:30.330Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":812000000,"load_duration":1000000,"prompt_eval_count":12,"prompt_eval_duration":5000000,"eval_count":9,"eval_duration":80000000}',
]
CATALOG_TURN: Turn = (
    ReasoningDelta("The user"),
    ReasoningDelta(" says hi."),
    TextDelta("Hello!"),
    Usage(12, 9),
    End("stop"),
)
TAGS = [{"reasoning"}, {"reasoning"}, {"text", "reasoning-done"}, {"terminal", "usage"}]


def _norm(line: str) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(line)
    obj.pop("created_at", None)
    return obj


def canon(events: Any) -> Turn:
    """Compare modulo ids: Ollama tool calls carry no id (ollama SDK types)."""
    return tuple(
        replace(e, id=None) if isinstance(e, ToolCallDelta) else e for e in strip_items(coalesce(events))
    )


def observe(chunks: list[bytes]) -> list[Event]:
    o = OLLAMA.observer("native")
    out: list[Event] = []
    for c in chunks:
        out += o.feed(c)
    return out + o.end()


def wire(turn: Turn) -> bytes:
    e = OLLAMA.emitter("native", model="qwen3")
    return b"".join(encode_frames(e.feed(turn) + e.close(), "jsonl"))


def test_emitter_reproduces_catalog_lines() -> None:
    e = OLLAMA.emitter("native", model="qwen3")
    frames = e.feed(CATALOG_TURN) + e.close()
    assert [_norm(f.data) for f in frames] == [_norm(x) for x in CATALOG]
    assert [set(f.tags) for f in frames] == TAGS


def test_observer_reads_catalog_lines() -> None:
    raw = "".join(x + "\n" for x in CATALOG).encode()
    assert canon(observe([raw])) == canon(CATALOG_TURN)
    assert canon(observe([raw[i : i + 1] for i in range(len(raw))])) == canon(CATALOG_TURN)


def test_tool_calls_with_object_arguments_on_the_thinking_line() -> None:
    raw = b'{"model":"qwen3","created_at":"x","message":{"role":"assistant","content":"","thinking":"Use the tool.","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}\n{"model":"qwen3","created_at":"x","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}\n'
    assert canon(observe([raw])) == (
        ReasoningDelta("Use the tool."),
        ToolCallDelta(0, None, "get_weather", '{"city":"Paris"}'),
        End("tool_calls"),
    )


def test_emitter_buffers_a_tool_call_until_complete() -> None:
    e = OLLAMA.emitter("native")
    assert e.feed([ToolCallDelta(0, "c", "f", '{"a":')]) == []
    assert e.feed([ToolCallDelta(0, None, None, "1}")]) == []
    frames = e.feed([End("tool_calls")])
    assert json.loads(frames[0].data)["message"]["tool_calls"] == [
        {"function": {"name": "f", "arguments": {"a": 1}}}
    ]
    assert json.loads(frames[1].data)["done_reason"] == "stop"


def test_error_line_and_notices() -> None:
    assert observe([b'{"error":"model not found"}\n']) == [StreamError("model not found")]
    events = observe([b"{oops\n" + CATALOG[2].encode() + b"\n"])
    assert events == [
        Notice("malformed-json", "{oops"),
        TextDelta("Hello!"),
        Notice("no-terminator", "EOF without a done:true line"),
    ]
    after = observe([(CATALOG[3] + "\n" + CATALOG[2] + "\n").encode()])
    assert [e.code for e in after if isinstance(e, Notice)] == ["data-after-end"]
    crlf = observe([(CATALOG[2] + "\r\n" + CATALOG[3] + "\r\n").encode()])
    assert Notice("jsonl-crlf") in crlf


@given(data=st.data(), chunking=sse_chunkings(max_cuts=16))
def test_round_trip_under_arbitrary_splits(data: st.DataObject, chunking: Chunking) -> None:
    turn = data.draw(reasoning_turns(variant=OLLAMA.variants["native"]))
    assert canon(observe(chunking.split(wire(turn)))) == canon(turn)


@given(data=st.data())
def test_non_streaming_round_trip(data: st.DataObject) -> None:
    turn = data.draw(reasoning_turns(variant=OLLAMA.variants["native"]))
    assert canon(OLLAMA.observe_response(OLLAMA.emit_response(turn, "native"))) == canon(turn)


def test_request_codec_think_flag_and_thinking_passback() -> None:
    history = [
        Message.user("Weather?"),
        Message(
            "assistant",
            (ReasoningBlock("Use the tool."), ToolCallBlock("", "get_weather", '{"city":"Paris"}')),
        ),
        Message.tool("", "18C", "get_weather"),
    ]
    spec = OLLAMA.build_request(history, model="qwen3", stream=True, variant="native")
    assert spec.path == "/api/chat"
    assert spec.body == {
        "model": "qwen3",
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": "",
                "thinking": "Use the tool.",
                "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}],
            },
            {"role": "tool", "content": "18C", "tool_name": "get_weather"},
        ],
        "stream": True,
        "think": True,
    }
    assert OLLAMA.parse_request(spec.body) == history
    assert (
        OLLAMA.build_request(history, model="q", stream=False, variant="native", think=False).body["think"]
        is False
    )


def test_profiles() -> None:
    profiles = OLLAMA.provider_rules()
    assert set(profiles) == {"lenient", "ollama"}
    turn = (ReasoningDelta("r"), TextDelta("t"), End())
    assert profiles["lenient"].shape({}, turn) == turn
    assert profiles["ollama"].shape({"think": True}, turn) == turn
    assert profiles["ollama"].shape({"think": False}, turn) == (TextDelta("t"), End())
    assert profiles["ollama"].shape({}, turn) == turn  # a thinking model thinks unless think is false
    assert profiles["ollama"].validate({"messages": []}, []) is None
    assert OLLAMA.error_body(404, "model not found") == b'{"error":"model not found"}'


def _client(raw: bytes, path: str = "/api/chat") -> Any:
    import ollama

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == path
        return httpx.Response(200, content=raw, headers={"content-type": "application/x-ndjson"})

    client = ollama.Client(host="http://mock")
    client._client = httpx.Client(base_url="http://mock", transport=httpx.MockTransport(handler))
    return client


def test_ollama_sdk_reads_the_emitter() -> None:
    turn = (
        ReasoningDelta("Let me think."),
        ToolCallDelta(0, None, "get_weather", '{"city":"Paris"}'),
        TextDelta("ok"),
        Usage(3, 4),
        End("stop"),
    )
    parts = list(
        _client(wire(turn)).chat(
            model="qwen3", messages=[{"role": "user", "content": "hi"}], stream=True, think=True
        )
    )
    assert "".join(p.message.thinking or "" for p in parts) == "Let me think."
    assert "".join(p.message.content or "" for p in parts) == "ok"
    calls = [c for p in parts for c in (p.message.tool_calls or [])]
    assert [(c.function.name, dict(c.function.arguments)) for c in calls] == [
        ("get_weather", {"city": "Paris"})
    ]
    assert parts[-1].done is True
    assert (parts[-1].prompt_eval_count, parts[-1].eval_count) == (3, 4)


def test_ollama_sdk_raises_on_the_error_line() -> None:
    import ollama

    raw = wire((TextDelta("x"), StreamError("out of memory")))
    with pytest.raises(ollama.ResponseError, match="out of memory"):
        list(_client(raw).chat(model="qwen3", messages=[{"role": "user", "content": "hi"}], stream=True))


def test_generate_lines_and_the_ollama_sdk_reading_them() -> None:
    turn = (ReasoningDelta("Rayleigh "), ReasoningDelta("scattering."), TextDelta("Blue light scatters."), Usage(3, 4), End("stop"))
    e = OLLAMA.emitter("generate", model="qwen3")
    frames = e.feed(turn) + e.close()
    assert _norm(frames[0].data) == {"model": "qwen3", "response": "", "thinking": "Rayleigh ", "done": False}
    assert _norm(frames[2].data) == {"model": "qwen3", "response": "Blue light scatters.", "done": False}
    assert _norm(frames[-1].data)["context"]
    raw = b"".join(encode_frames(frames, "jsonl"))
    parts = list(_client(raw, "/api/generate").generate(model="qwen3", prompt="Why blue?", stream=True, think=True))
    assert "".join(p.thinking or "" for p in parts) == "Rayleigh scattering."
    assert "".join(p.response or "" for p in parts) == "Blue light scatters."
    assert parts[-1].done is True
    o = OLLAMA.observer("generate")
    assert canon(o.feed(raw) + o.end()) == canon(list(turn))


def test_generate_request_is_one_prompt_and_reads_back() -> None:
    msgs = [Message("system", (TextBlock("Be brief."),)), Message.user("Why blue?")]
    spec = OLLAMA.build_request(msgs, model="qwen3", stream=False, variant="generate")
    assert (spec.path, spec.body) == ("/api/generate", {"model": "qwen3", "prompt": "Why blue?", "stream": False, "think": True, "system": "Be brief."})
    assert OLLAMA.parse_request(spec.body) == msgs
    assert OLLAMA.wants_stream(spec.path, spec.body) is False
