"""openai-chat dialect: literal frames both ways, captures, hypothesis round trips under any chunking,
observer notices and options, the request codec, strict DeepSeek/Kimi profiles with exact 400 bodies,
and the official ``openai`` SDK reading the emitter's bytes."""

# ruff: noqa: E501  (literal wire bytes and bodies stay on one line)
from __future__ import annotations

import json
from dataclasses import replace as dc_replace
from typing import Any

import httpx
import pytest
from frames_chat import CAPTURES, CASES, MODEL, Case
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import encode_frames
from harness.dialects import Frame, Reading, get_dialect
from harness.dialects.openai_chat._rules import deepseek_body
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
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
    turn_events,
)
from harness.strategies import Chunking, reasoning_turns, sse_chunkings

CHAT = get_dialect("openai-chat")
VARIANTS = list(CHAT.variants)
ITEM_IDS = {"openrouter-openai", "openrouter-items"}
"""Variants whose wire names each reasoning item (OpenRouter in front of OpenAI: the rs_ id)."""


def _norm(data: str) -> str:
    if data.startswith("{"):
        obj = json.loads(data)
        obj["id"] = "ID"
        return json.dumps(obj)
    return data


def emit(turn: Turn, variant: str) -> list[Frame]:
    e = CHAT.emitter(variant, model=MODEL)
    return e.feed(turn) + e.close()


def observe(chunks: list[bytes], variant: str | None = None, **options: Any) -> list[Event]:
    o = CHAT.observer(variant, reading=Reading(**options))
    out: list[Event] = []
    for c in chunks:
        out += o.feed(c)
    return out + o.end()


def canon(events: Any) -> Turn:
    return strip_items(coalesce(events))


def wire(turn: Turn, variant: str) -> bytes:
    return b"".join(encode_frames(emit(turn, variant), "sse"))


# -- literal tables ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_emitter_reproduces_frames(case: Case) -> None:
    got = [(_norm(f.data), f.tags) for f in emit(case.turn, case.variant)]
    assert got == [(_norm(d), t) for d, t in case.frames]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_observer_reads_frames(case: Case) -> None:
    data = b"".join(encode_frames([Frame(d) for d, _ in case.frames], "sse"))
    assert canon(observe([data], case.variant)) == canon(case.turn)
    # one byte per write: same answer
    assert canon(observe([data[i : i + 1] for i in range(len(data))], case.variant)) == canon(case.turn)


@pytest.mark.parametrize(("name", "options", "data", "turn"), CAPTURES, ids=[c[0] for c in CAPTURES])
def test_observer_reads_catalog_captures(
    name: str, options: dict[str, bool], data: bytes, turn: Turn
) -> None:
    assert canon(observe([data], **options)) == canon(turn)
    assert canon(observe([data[i : i + 1] for i in range(len(data))], **options)) == canon(turn)


def test_every_variant_has_a_literal_table_and_a_catalog_id() -> None:
    assert {c.variant for c in CASES} == set(VARIANTS)
    assert {v.catalog_id for v in CHAT.variants.values()} == {
        "CC-RC",
        "CC-R",
        "CC-RD",
        "CC-THINK",
        "CC-HARMONY",
        "CC-GEMINI",
        "CC-AZURE",
        "CC-MISTRAL",
        "CC-USAGE",
        "CC-MIRROR",
    }


# -- hypothesis round trips ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data(), chunking=sse_chunkings(max_cuts=16))
def test_round_trip_under_arbitrary_splits(variant: str, data: st.DataObject, chunking: Chunking) -> None:
    turn = data.draw(reasoning_turns(variant=CHAT.variants[variant]))
    assert canon(observe(chunking.split(wire(turn, variant)), variant)) == canon(turn)


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_round_trip_one_byte_per_write(variant: str, data: st.DataObject) -> None:
    turn = data.draw(reasoning_turns(variant=CHAT.variants[variant], max_deltas=3))
    raw = wire(turn, variant)
    assert canon(observe([raw[i : i + 1] for i in range(len(raw))], variant)) == canon(turn)


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
def test_non_streaming_round_trip(variant: str, data: st.DataObject) -> None:
    turn = data.draw(reasoning_turns(variant=CHAT.variants[variant]))
    body = CHAT.emit_response(turn, variant, model=MODEL)
    read = assemble(CHAT.observe_response(body, variant=variant))
    if variant in ITEM_IDS:  # the wire names every reasoning item (rs_mockN when the turn named none)
        assert all(b.id.startswith("rs_") for b in read.content if isinstance(b, ReasoningBlock))
        read = Message(read.role, tuple(dc_replace(b, id="") if isinstance(b, ReasoningBlock) else b for b in read.content))
    assert read == assemble(strip_items(turn))
    assert canon(CHAT.observe_response(body, variant=variant))[-1] == turn[-1]


@pytest.mark.parametrize("variant", VARIANTS)
def test_round_trip_over_codec_chunkers_and_perturbations(variant: str) -> None:
    import harness.codec as codec

    chunkers = getattr(codec, "CHUNKERS", None)
    perturbations = getattr(codec, "PERTURBATIONS", None)
    if chunkers is None and perturbations is None:
        pytest.skip("harness.codec has no CHUNKERS/PERTURBATIONS yet")
    turn = (
        CASES[0].turn
        if variant == "reasoning_content"
        else next(c.turn for c in CASES if c.variant == variant)
    )
    frames = emit(turn, variant)
    for name, entry in (perturbations or {"none": None}).items():
        if entry is not None and ("sse" not in entry.transports or not entry.lossless):
            continue
        pieces = encode_frames(frames, "sse", name)
        for cname, chunker in (chunkers or {"whole": None}).items():
            chunks = list(chunker(pieces)) if chunker is not None else [b"".join(pieces)]
            assert canon(observe(chunks, variant)) == canon(turn), (name, cname)


# -- observer behaviour --------------------------------------------------------------------------


def sse(*objs: Any) -> bytes:
    out = b""
    for o in objs:
        out += b"data: " + (o if isinstance(o, bytes) else json.dumps(o).encode()) + b"\n\n"
    return out


def delta(**d: Any) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": d, "finish_reason": None}]}


def test_mirrored_fields_are_read_once_with_one_notice() -> None:
    data = sse(
        delta(reasoning_content="ab", reasoning="ab"),
        delta(reasoning_content="cd", reasoning="cd"),
        delta(content="x"),
        b"[DONE]",
    )
    events = observe([data])
    assert [e for e in events if isinstance(e, Notice)] == [Notice("mirrored", "reasoning_content,reasoning")]
    assert canon(events) == (ReasoningDelta("abcd"), TextDelta("x"), End("stop"))


def test_priority_order_is_configurable() -> None:
    data = sse(delta(reasoning_content="rc", reasoning="r"), b"[DONE]")
    assert canon(observe([data])) == (ReasoningDelta("rc"), End("stop"))
    assert canon(observe([data], reasoning_fields=("reasoning", "reasoning_content"))) == (
        ReasoningDelta("r"),
        End("stop"),
    )
    assert canon(observe([data], reasoning_fields=("reasoning",))) == (ReasoningDelta("r"), End("stop"))
    notices = [e for e in observe([data]) if isinstance(e, Notice)]
    assert notices == [Notice("mirrored", "reasoning_content,reasoning (texts differ)")]


def test_reasoning_text_field_and_reasoning_and_content_in_one_delta() -> None:
    data = sse(delta(reasoning_text="r", content="t"), b"[DONE]")
    assert canon(observe([data])) == (ReasoningDelta("r"), TextDelta("t"), End("stop"))


def test_structured_reasoning_wins_over_inline_tags() -> None:
    data = sse(
        delta(reasoning_content="Structured."),
        delta(content="<think>quoted</think> plain"),
        b"[DONE]",
    )
    assert canon(observe([data])) == (
        ReasoningDelta("Structured."),
        TextDelta("<think>quoted</think> plain"),
        End("stop"),
    )


def test_inline_think_in_a_structured_variant_stream_without_structured_reasoning() -> None:
    data = sse(delta(content="<think>r</think>t"), b"[DONE]")
    assert canon(observe([data], "reasoning_content")) == (ReasoningDelta("r"), TextDelta("t"), End("stop"))


def test_non_leading_tag_stays_content() -> None:
    text = "Use the <think> tag like this: <think>x</think> and close it."
    assert canon(observe([sse(delta(content=text), b"[DONE]")])) == (TextDelta(text), End("stop"))


def test_never_closed_think_block() -> None:
    events = observe([sse(delta(content="<think>forever"), b"[DONE]")])
    assert canon(events) == (ReasoningDelta("forever"), End("stop"))
    assert Notice("think-unclosed", "a <think> block was never closed") in events


@pytest.mark.parametrize("variant", ["usage-only", "think-tags"])
def test_text_held_as_a_possible_tag_goes_out_when_its_choice_finishes(variant: str) -> None:
    """A ``<`` that could open ``<think>`` is held back; the finish chunk ends the content, so it
    is observed there, before the usage chunk that follows (hypothesis found it after the usage)."""
    finish = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    usage = {"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}
    events = observe([sse(delta(content="<"), finish, usage, b"[DONE]")], variant)
    assert events == [TextDelta("<"), Usage(1, 2, None, 3), End("stop")]
    unclosed = observe([sse(delta(content="<think>r"), finish, usage, b"[DONE]")], variant)
    assert [type(e).__name__ for e in unclosed] == ["ReasoningDelta", "Notice", "Usage", "End"]  # once


def test_implicit_default_follows_the_variant() -> None:
    data = sse(delta(content="r</think>t"), b"[DONE]")
    assert canon(observe([data], "think-implicit")) == (ReasoningDelta("r"), TextDelta("t"), End("stop"))
    assert canon(observe([data], "think-tags")) == (TextDelta("r</think>t"), End("stop"))
    assert canon(observe([data], "think-implicit", implicit_think=False)) == (
        TextDelta("r</think>t"),
        End("stop"),
    )


def test_end_reason_is_the_last_finish_reason_and_only_at_done() -> None:
    fin = {"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}
    o = CHAT.observer()
    assert o.feed(sse(fin)) == []
    assert o.feed(sse(b"[DONE]")) == [End("length")]
    assert canon(observe([sse(delta(content="x"), b"[DONE]")])) == (TextDelta("x"), End("stop"))


def test_tool_call_deltas() -> None:
    data = sse(
        delta(
            tool_calls=[
                {"index": 0, "id": "c1", "type": "function", "function": {"name": "f", "arguments": ""}}
            ]
        ),
        delta(tool_calls=[{"index": 0, "function": {"arguments": '{"a"'}}]),
        delta(tool_calls=[{"index": 0, "function": {"arguments": ":1}"}}]),
        delta(
            tool_calls=[
                {"index": 1, "id": "c2", "type": "function", "function": {"name": "g", "arguments": "{}"}}
            ]
        ),
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
        b"[DONE]",
    )
    assert canon(observe([data])) == (
        ToolCallDelta(0, "c1", "f", '{"a":1}'),
        ToolCallDelta(1, "c2", "g", "{}"),
        End("tool_calls"),
    )


def test_usage_with_reasoning_tokens() -> None:
    data = sse(
        {
            "choices": [],
            "usage": {
                "prompt_tokens": 12,
                "completion_tokens": 40,
                "total_tokens": 52,
                "completion_tokens_details": {"reasoning_tokens": 28},
            },
        },
        b"[DONE]",
    )
    assert canon(observe([data])) == (Usage(12, 40, 28, 52), End("stop"))
    nulls = sse({"choices": [{"index": 0, "delta": {"content": "x"}}], "usage": None}, b"[DONE]")
    assert canon(observe([nulls])) == (TextDelta("x"), End("stop"))


def test_error_frame_is_a_stream_error() -> None:
    data = sse({"error": {"message": "boom", "type": "server_error", "code": "internal"}})
    events = observe([data])
    assert events == [StreamError("boom", "internal", None)]
    openrouter = sse(
        {
            "error": {
                "code": 502,
                "message": "Provider disconnected unexpectedly",
                "metadata": {"error_type": "provider_unavailable"},
            },
            "choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "error"}],
        }
    )
    assert observe([openrouter]) == [
        StreamError("Provider disconnected unexpectedly", "provider_unavailable", 502)
    ]


def test_notices_for_malformed_unknown_after_end_and_no_terminator() -> None:
    events = observe([sse(b"{not json", {"weird": 1}, delta(content="x"), b"[DONE]", delta(content="y"))])
    assert [e for e in events if isinstance(e, Notice)] == [
        Notice("malformed-json", "{not json"),
        Notice("unknown-frame", '{"weird": 1}'),
        Notice(
            "data-after-end", '{"choices": [{"index": 0, "delta": {"content": "y"}, "finish_reason": null}]}'
        ),
    ]
    assert canon(events) == (TextDelta("x"), End("stop"))
    cut = observe([sse(delta(content="x"))])
    assert cut == [TextDelta("x"), Notice("no-terminator", "EOF without data: [DONE]")]


def test_sse_anomalies_become_notices() -> None:
    events = observe([b"\xef\xbb\xbf" + sse(delta(content="x"), b"[DONE]")])
    assert Notice("sse-bom") in events
    events = observe([sse(delta(content="x")) + b'data: {"choices":[]}'])
    assert [e.code for e in events if isinstance(e, Notice)] == [
        "sse-partial-line",
        "sse-unterminated",
        "no-terminator",
    ]


def test_redacted_and_signature_from_reasoning_details() -> None:
    data = sse(
        delta(reasoning_details=[{"type": "reasoning.encrypted", "data": "opaque", "index": 0}]),
        delta(reasoning_details=[{"type": "reasoning.summary", "summary": "Plan.", "index": 1}]),
        delta(reasoning_details=[{"type": "reasoning.text", "signature": "sig", "index": 1}]),
        b"[DONE]",
    )
    assert canon(observe([data])) == (
        RedactedReasoning("opaque"),
        ReasoningDelta("Plan."),
        ReasoningSignature("sig"),
        End("stop"),
    )
    # a narrowed text priority reads no text from reasoning_details, but never hides its opaque parts
    assert canon(observe([data], reasoning_fields=("reasoning",))) == (
        RedactedReasoning("opaque"),
        ReasoningSignature("sig"),
        End("stop"),
    )


def test_mistral_mixed_list_in_one_delta() -> None:
    data = sse(
        delta(
            content=[
                {"type": "thinking", "thinking": [{"type": "text", "text": "hm"}]},
                {"type": "text", "text": "The answer is "},
            ]
        ),
        delta(content="4"),
        b"[DONE]",
    )
    assert canon(observe([data])) == (ReasoningDelta("hm"), TextDelta("The answer is 4"), End("stop"))


def test_observe_response_catalog_body() -> None:
    body = b'{"id":"ds-ns-1","object":"chat.completion","created":1741570500,"model":"deepseek-v4-flash","choices":[{"index":0,"message":{"role":"assistant","content":"Hello!","reasoning_content":"The user greets me."},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"completion_tokens_details":{"reasoning_tokens":4}}}'
    assert canon(CHAT.observe_response(body)) == (
        ReasoningDelta("The user greets me."),
        TextDelta("Hello!"),
        Usage(10, 9, 4, 19),
        End("stop"),
    )
    # DeepSeek non-streaming keep-alive newlines before the body
    assert canon(CHAT.observe_response(b"\n\n" + body))[0] == ReasoningDelta("The user greets me.")
    assert CHAT.observe_response(CHAT.error_body(400, "bad", "invalid_request_error")) == [
        StreamError("bad", "invalid_request_error", None)
    ]


def test_error_body_shape() -> None:
    # OpenAI's 429: type "requests" (or "tokens"), code "rate_limit_exceeded"; the SDK's fields
    assert CHAT.error_body(429, "slow down", "rate_limit_exceeded") == (
        b'{"error":{"message":"slow down","type":"requests","param":null,"code":"rate_limit_exceeded"}}'
    )
    assert CHAT.error_body(400, "bad", None) == (
        b'{"error":{"message":"bad","type":"invalid_request_error","param":null,"code":null}}'
    )


# -- request codec -------------------------------------------------------------------------------

ASSISTANT = Message(
    "assistant",
    (
        ReasoningBlock("I need the weather tool."),
        ToolCallBlock("call_00_mock", "get_weather", '{"city":"Paris"}'),
    ),
)
HISTORY = [Message.user("Weather in Paris?"), ASSISTANT, Message.tool("call_00_mock", "18°C, clear")]


def test_build_request_reasoning_content_matches_the_catalog_continuation() -> None:
    spec = CHAT.build_request(HISTORY, model="deepseek-v4-flash", stream=False, variant="reasoning_content")
    assert spec.path == "/v1/chat/completions"
    assert spec.body == {
        "model": "deepseek-v4-flash",
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": None,
                "reasoning_content": "I need the weather tool.",
                "tool_calls": [
                    {
                        "id": "call_00_mock",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_00_mock", "content": "18°C, clear"},
        ],
        "stream": False,
    }
    streamed = CHAT.build_request(HISTORY, model="m", stream=True, variant="reasoning_content")
    assert streamed.body["stream_options"] == {"include_usage": True}


@pytest.mark.parametrize(
    ("variant", "fields"),
    [
        ("reasoning_content", {"reasoning_content": "I need the weather tool."}),
        ("reasoning", {"reasoning": "I need the weather tool."}),
        (
            "reasoning_details",
            {
                "reasoning_details": [
                    {
                        "type": "reasoning.text",
                        "text": "I need the weather tool.",
                        "format": "unknown",
                        "index": 0,
                    }
                ]
            },
        ),
        ("think-tags", {"content": "<think>I need the weather tool.</think>"}),
        (
            "mistral",
            {
                "content": [
                    {
                        "type": "thinking",
                        "thinking": [{"type": "text", "text": "I need the weather tool."}],
                        "closed": True,
                    }
                ]
            },
        ),
    ],
)
def test_passback_forms(variant: str, fields: dict[str, Any]) -> None:
    body = CHAT.build_request(HISTORY, model="m", stream=False, variant=variant).body
    msg = body["messages"][1]
    for k, v in fields.items():
        assert msg[k] == v
    assert CHAT.parse_request(body) == HISTORY


def test_reasoning_details_passback_keeps_signature_and_redacted() -> None:
    msg = Message(
        "assistant",
        (ReasoningBlock("", redacted="opaque"), ReasoningBlock("r", signature="sig"), TextBlock("ok")),
    )
    body = CHAT.build_request([msg], model="m", stream=False, variant="reasoning_details").body
    assert body["messages"][0]["reasoning_details"] == [
        {"type": "reasoning.encrypted", "data": "opaque", "format": "unknown", "index": 0},
        {"type": "reasoning.text", "text": "r", "signature": "sig", "format": "unknown", "index": 1},
    ]
    assert CHAT.parse_request(body) == [msg]


def test_streamed_turn_assembles_to_what_build_request_passes_back() -> None:
    case = next(c for c in CASES if c.name == "openrouter-details")
    msg = assemble(canon(observe([wire(case.turn, case.variant)])))
    body = CHAT.build_request([msg], model="m", stream=False, variant="reasoning_details").body
    assert CHAT.parse_request(body) == [msg]
    assert turn_events(msg)[1] == ReasoningSignature("sig_mock_EqQBCkgIAx")


def test_reasoning_item_streamed_after_the_tool_call_goes_back_with_its_id_and_blob() -> None:
    # The LiteLLM proxy's chat stream over a Responses upstream (measured, litellm 1.108.7): the
    # reasoning text (no item id), the tool call, then the reasoning item's id and encrypted_content
    # in a delta of its own. Its echo must carry both (it went to the tool call, id '', before).
    def sse(delta: dict[str, Any]) -> bytes:
        return b"data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]}).encode() + b"\n\n"

    call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    item = {"id": "rs_1", "type": "reasoning", "encrypted_content": "blob==", "summary": [{"type": "summary_text", "text": "R"}]}
    chunks = [sse({"role": "assistant", "reasoning_content": "R"}), sse({"tool_calls": [call]}), sse({"reasoning_items": [item], "content": ""}), b"data: [DONE]\n\n"]
    msg = assemble(observe(chunks, "reasoning_content"))
    assert msg.content == (ReasoningBlock("R", signature="blob==", id="rs_1"), ToolCallBlock("call_1", "f", "{}"))
    body = CHAT.build_request([msg], model="m", stream=False, echo_fields=("reasoning_items",)).body
    assert body["messages"][0]["reasoning_items"] == [item]


def test_kimi_needs_empty_reasoning_content_on_tool_calls_without_reasoning() -> None:
    msg = Message("assistant", (ToolCallBlock("c1", "f", "{}"),))
    body = CHAT.build_request([msg], model="m", stream=False, variant="reasoning_content").body
    assert body["messages"][0]["reasoning_content"] == ""


def test_parse_request_other_forms() -> None:
    body = {
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": "<think>x</think>hello"},
            {"role": "assistant", "content": "plain <think>x</think>", "reasoning_text": "rt"},
        ]
    }
    assert CHAT.parse_request(body) == [
        Message("system", (TextBlock("be brief"),)),
        Message.user("hi"),
        Message("assistant", (ReasoningBlock("x"), TextBlock("hello"))),
        Message("assistant", (ReasoningBlock("rt"), TextBlock("plain <think>x</think>"))),
    ]


# -- provider rules -----------------------------------------------------------------------------

DS1 = b'{"error":{"message":"Missing `reasoning_content` field in the assistant message at message index 1. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}'
DS2 = b'{"error":{"message":"The `reasoning_content` in the thinking mode must be passed back to the API.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}'
KIMI = b'{"error":{"message":"thinking is enabled but reasoning_content is missing in assistant tool call message at index 1","type":"invalid_request_error"}}'


def request(variant: str = "reasoning_content", **assistant_changes: Any) -> dict[str, Any]:
    body = CHAT.build_request(HISTORY, model="deepseek-v4-flash", stream=True, variant=variant).body
    msg = body["messages"][1]
    for k, v in assistant_changes.items():
        if v is ...:
            msg.pop(k, None)
        else:
            msg[k] = v
    return body


def test_profiles_listed() -> None:
    assert set(CHAT.provider_rules()) == {
        "lenient",
        "deepseek-v3.2",
        "deepseek-v4",
        "deepseek-r1",
        "kimi",
        "openai",
        "gemini-3-openai",
        "openrouter",
        "openrouter-openai",
        "openrouter-gemini",
        "minimax",
        "zai-coding",
        "vllm",
    }
    for p in CHAT.provider_rules().values():
        assert p.dialect == "openai-chat"
        assert p.description


def test_lenient_accepts_anything() -> None:
    lenient = CHAT.provider_rules()["lenient"]
    assert lenient.validate(request(reasoning_content=...), [ASSISTANT]) is None
    turn = (ReasoningDelta("r"), End())
    assert lenient.shape({}, turn) == turn


def test_deepseek_v32_passes_with_reasoning_content() -> None:
    assert CHAT.provider_rules()["deepseek-v3.2"].validate(request(), [ASSISTANT]) is None


def test_deepseek_v32_missing_is_ds1_with_the_message_index() -> None:
    rej = CHAT.provider_rules()["deepseek-v3.2"].validate(request(reasoning_content=...), [ASSISTANT])
    assert rej is not None
    assert (rej.status, rej.body, rej.rule) == (400, DS1, "deepseek-reasoning-content-missing")
    assert rej.differences == (("messages[1].reasoning_content", None, "I need the weather tool."),)


def test_deepseek_null_counts_as_missing() -> None:
    rej = CHAT.provider_rules()["deepseek-v4"].validate(request(reasoning_content=None), [ASSISTANT])
    assert rej is not None
    assert rej.body == DS2


def test_deepseek_v4_missing_is_ds2() -> None:
    rules = CHAT.provider_rules()["deepseek-v4"]
    assert rules.validate(request(), [ASSISTANT]) is None
    rej = rules.validate(request(reasoning_content=...), [ASSISTANT])
    assert rej is not None
    assert (rej.status, rej.body) == (400, DS2)
    assert len(DS2) == 175  # the catalog's byte count of the real capture


def test_deepseek_altered_reasoning_counts_as_lost() -> None:
    rej = CHAT.provider_rules()["deepseek-v4"].validate(request(reasoning_content="I need"), [ASSISTANT])
    assert rej is not None
    assert (rej.status, rej.body, rej.rule) == (400, DS2, "deepseek-reasoning-content-altered")
    assert rej.differences == (("messages[1].reasoning_content", "I need", "I need the weather tool."),)


def test_deepseek_checks_every_later_request_and_ignores_non_tool_turns() -> None:
    answer = Message("assistant", (ReasoningBlock("Tool answered."), TextBlock("18°C and clear.")))
    history = [*HISTORY, answer, Message.user("And in Rome?")]
    body = CHAT.build_request(history, model="m", stream=True, variant="reasoning_content").body
    rules = CHAT.provider_rules()["deepseek-v3.2"]
    body["messages"][3].pop("reasoning_content")  # the non-tool answer: may be dropped
    assert rules.validate(body, [ASSISTANT, answer]) is None
    body["messages"][1].pop("reasoning_content")  # the tool turn, two user messages back
    rej = rules.validate(body, [ASSISTANT, answer])
    assert rej is not None
    assert rej.body == DS1


def test_deepseek_thinking_disabled_enforces_nothing_and_streams_no_reasoning() -> None:
    rules = CHAT.provider_rules()["deepseek-v4"]
    body = request(reasoning_content=...) | {"thinking": {"type": "disabled"}}
    assert rules.validate(body, [ASSISTANT]) is None
    turn = (ReasoningDelta("r"), TextDelta("t"), End())
    assert rules.shape(body, turn) == (TextDelta("t"), End())
    assert rules.shape({"thinking": {"type": "enabled"}}, turn) == turn


def test_deepseek_r1_rejects_reasoning_content_in_input() -> None:
    rules = CHAT.provider_rules()["deepseek-r1"]
    assert rules.validate(request(reasoning_content=...), [ASSISTANT]) is None
    rej = rules.validate(request(), [ASSISTANT])
    assert rej is not None
    assert (rej.status, rej.rule) == (400, "deepseek-r1-no-reasoning-input")
    assert rej.body == deepseek_body(
        "The `reasoning_content` field is not supported in input messages of deepseek-reasoner."
    )
    assert rej.differences == (("messages[1].reasoning_content", "I need the weather tool.", None),)


def test_kimi_requires_the_key_even_empty() -> None:
    rules = CHAT.provider_rules()["kimi"]
    assert rules.validate(request(), [ASSISTANT]) is None
    assert rules.validate(request(reasoning_content=""), [ASSISTANT]) is None
    rej = rules.validate(request(reasoning_content=...), [ASSISTANT])
    assert rej is not None
    assert (rej.status, rej.body, rej.rule) == (400, KIMI, "kimi-reasoning-content-missing")
    assert rej.differences == (("messages[1].reasoning_content", None, ""),)


# -- the official openai SDK reads the emitter's bytes --------------------------------------------


def _sdk_stream(raw: bytes) -> list[Any]:
    import openai

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v1/chat/completions"
        return httpx.Response(200, content=raw, headers={"content-type": "text/event-stream"})

    client = openai.OpenAI(
        base_url="http://mock/v1",
        api_key="sk-x",
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
    )
    stream = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "hi"}], stream=True
    )
    return list(stream)


@pytest.mark.parametrize(
    ("variant", "field"),
    [
        ("reasoning_content", "reasoning_content"),
        ("reasoning", "reasoning"),
        ("reasoning_details", "reasoning"),
        ("azure", "reasoning_content"),
    ],
)
def test_openai_sdk_sees_reasoning_as_extra_field(variant: str, field: str) -> None:
    turn = (
        ReasoningDelta("Let me think."),
        ToolCallDelta(0, "call_1", "get_weather", '{"city":"Paris"}'),
        Usage(5, 7, 3, 12),
        End("tool_calls"),
    )
    chunks = [c for c in _sdk_stream(wire(turn, variant)) if not c.choices or c.choices[0].delta]
    reasoning = "".join((c.choices[0].delta.model_extra or {}).get(field) or "" for c in chunks if c.choices)
    assert reasoning == "Let me think."
    calls = [tc for c in chunks if c.choices for tc in (c.choices[0].delta.tool_calls or [])]
    assert calls[0].id == "call_1"
    assert calls[0].function.name == "get_weather"
    assert "".join(tc.function.arguments or "" for tc in calls) == '{"city":"Paris"}'
    assert [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason] == [
        "tool_calls"
    ]
    usage = next(c.usage for c in chunks if c.usage is not None)
    assert (
        usage.prompt_tokens,
        usage.completion_tokens,
        usage.completion_tokens_details.reasoning_tokens,
    ) == (5, 7, 3)


@pytest.mark.parametrize(
    "variant", ["think-tags", "think-split", "usage-only", "mistral", "mm-think", "harmony", "gemini-openai"]
)
def test_openai_sdk_reads_content(variant: str) -> None:
    turn = (ReasoningDelta("hm"), TextDelta("Hello!"), End("stop"))
    chunks = _sdk_stream(wire(turn, variant))
    contents = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    texts = "".join(x for x in contents if isinstance(x, str))
    expected = {
        "think-tags": "<think>hm</think>Hello!",
        "think-split": "<think>hm</think>Hello!",
        "usage-only": "Hello!",
        "mistral": "Hello!",
        "mm-think": "<mm:think>hm</mm:think>Hello!",
        "harmony": "<|channel|>analysis<|message|>hm<|end|><|start|>assistant<|channel|>final<|message|>Hello!",
        "gemini-openai": "<thought>hm</thought>Hello!",
    }
    assert texts == expected[variant]


def test_openai_sdk_raises_on_the_error_frame() -> None:
    import openai

    turn = (
        ReasoningDelta("Hmm"),
        StreamError("Provider disconnected unexpectedly", "provider_unavailable", 502),
    )
    with pytest.raises(openai.APIError, match="Provider disconnected unexpectedly"):
        _sdk_stream(wire(turn, "reasoning"))


def test_openai_sdk_keeps_gemini_s_extra_content_on_the_tool_call() -> None:
    turn = (ToolCallDelta(0, "function-call-1", "get_weather", "{}"), ReasoningSignature("Cisig"), End("tool_calls"))
    chunks = _sdk_stream(wire(turn, "gemini-openai"))
    (call,) = [tc for c in chunks if c.choices for tc in (c.choices[0].delta.tool_calls or [])]
    assert call.model_extra["extra_content"] == {"google": {"thought_signature": "Cisig"}}


def test_azure_first_chunk_has_no_choice_and_annotations_have_no_delta() -> None:
    chunks = _sdk_stream(wire((TextDelta("Hi"), End("stop")), "azure"))
    assert chunks[0].choices == []
    assert chunks[0].model_extra["prompt_filter_results"][0]["prompt_index"] == 0
    annotations = [c for c in chunks if c.choices and c.id == ""]
    assert len(annotations) == 2
    assert all(c.choices[0].delta is None for c in annotations)


# Azure's documented stream with the asynchronous filter (learn.microsoft.com, content filter, "Sample
# response stream"), abbreviated to its distinct frames.
AZURE_DOC = (
    b'data: {"id":"","object":"","created":0,"model":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}}}],"choices":[],"usage":null} \n\n'
    b'data: {"id":"chatcmpl-7rCNsVeZy0PGnX3H6jK8STps5nZUY","object":"chat.completion.chunk","created":1692913344,"model":"gpt-35-turbo","choices":[{"index":0,"finish_reason":null,"delta":{"role":"assistant"}}],"usage":null} \n\n'
    b'data: {"id":"chatcmpl-7rCNsVeZy0PGnX3H6jK8STps5nZUY","object":"chat.completion.chunk","created":1692913344,"model":"gpt-35-turbo","choices":[{"index":0,"finish_reason":null,"delta":{"content":"Color"}}],"usage":null} \n\n'
    b'data: {"id":"","object":"","created":0,"model":"","choices":[{"index":0,"finish_reason":null,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}},"content_filter_offsets":{"check_offset":44,"start_offset":44,"end_offset":198}}],"usage":null} \n\n'
    b'data: {"id":"chatcmpl-7rCNsVeZy0PGnX3H6jK8STps5nZUY","object":"chat.completion.chunk","created":1692913344,"model":"gpt-35-turbo","choices":[{"index":0,"finish_reason":"stop","delta":{}}],"usage":null} \n\n'
    b"data: [DONE] \n\n"
)


def test_observer_reads_azure_s_documented_stream_without_notices() -> None:
    events = observe([AZURE_DOC])
    assert canon(events) == (TextDelta("Color"), End("stop"))
    assert not [e for e in events if isinstance(e, Notice)]


def test_gemini_openai_message_level_signature_and_history_round_trip() -> None:
    body = b'{"choices":[{"index":0,"message":{"role":"assistant","content":"Of course.","extra_content":{"google":{"thought_signature":"CiIBtext"}}},"finish_reason":"stop"}]}'
    assert assemble(CHAT.observe_response(body, variant="gemini-openai")).content == (
        TextBlock("Of course.", signature="CiIBtext"),
    )
    msg = Message("assistant", (TextBlock("Of course.", signature="CiIBtext"),))
    spec = CHAT.build_request([Message.user("hi"), msg], model=MODEL, stream=True, variant="gemini-openai")
    assert spec.body["messages"][1]["extra_content"] == {"google": {"thought_signature": "CiIBtext"}}
    assert CHAT.parse_request(spec.body)[1] == msg


def test_azure_non_streaming_envelope() -> None:
    obj = json.loads(CHAT.emit_response((TextDelta("Hi"), End("stop")), "azure", model=MODEL))
    assert list(obj) == sorted(obj)
    assert obj["prompt_filter_results"][0]["content_filter_results"]["hate"] == {"filtered": False, "severity": "safe"}
    assert obj["choices"][0]["content_filter_results"]["violence"]["severity"] == "safe"
