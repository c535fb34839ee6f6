"""Anthropic Messages dialect: literal frames both ways, hypothesis round trips under any chunking and
perturbation, observer notices, request codec, the anthropic / deepseek-anthropic profiles' exact 400s, and
the anthropic SDK reading the emitter's bytes."""

# ruff: noqa: E501  (literal wire bytes and bodies stay on one line)
from __future__ import annotations

import json
import re
from typing import Any

import pytest
from frames_anthropic import CASES, MODEL
from hypothesis import given
from hypothesis import strategies as st

from harness import codec
from harness.codec import encode_frames
from harness.dialects import Frame, get_dialect
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
    coalesce,
    strip_items,
)
from harness.strategies import Chunking, reasoning_turns, sse_chunkings

ANT = get_dialect("anthropic-messages")
_IDS = re.compile(r"mock\d+")


def _norm(events: list[Event] | Turn) -> Turn:
    return strip_items(coalesce(events))


def _observe(chunks: list[bytes]) -> list[Event]:
    obs = ANT.observer()
    out: list[Event] = []
    for c in chunks:
        out += obs.feed(c)
    return out + obs.end()


def _notices(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.code, e.detail) for e in events if isinstance(e, Notice)]


def _sse(frames: list[tuple[str, str, list[str]]]) -> list[bytes]:
    return encode_frames([Frame(data, event=event) for event, data, _ in frames], "sse")


def _frame(obj: dict[str, Any], event: str | None = "") -> bytes:
    name = obj["type"] if event == "" else event
    head = f"event: {name}\n" if name is not None else ""
    return f"{head}data: {json.dumps(obj)}\n\n".encode()


# -- the literal table, both directions ---------------------------------------------------------------


@pytest.mark.parametrize(("variant", "desc", "turn", "frames"), CASES, ids=[c[0] for c in CASES])
def test_emitter_reproduces_the_literal_frames(
    variant: str, desc: str, turn: Turn, frames: list[Any]
) -> None:
    em = ANT.emitter(variant, model=MODEL)
    got = [(f.event, _IDS.sub("mockN", f.data), sorted(f.tags)) for f in em.feed(turn) + em.close()]
    assert got == [tuple(f) for f in frames]


@pytest.mark.parametrize(("variant", "desc", "turn", "frames"), CASES, ids=[c[0] for c in CASES])
def test_observer_reads_the_literal_frames(variant: str, desc: str, turn: Turn, frames: list[Any]) -> None:
    pieces = _sse(frames)
    whole = _observe(pieces)
    assert _norm(whole) == _norm(turn)
    assert _notices(whole) == []
    data = b"".join(pieces)
    assert _observe([data[i : i + 1] for i in range(len(data))]) == whole


def test_observer_maps_blocks_to_items_and_signatures_never_to_text() -> None:
    events = _observe(_sse(CASES[0][3]))
    assert events == [
        ReasoningDelta("The user wants the weather", item="0"),
        ReasoningDelta(" in Paris.", item="0"),
        ReasoningSignature("sig_mock_EqQBCgIYAhIM1gbcDa9GJwZA2b3h", item="0"),
        ToolCallDelta(0, "toolu_01Paris", "get_weather", "", item="1"),
        ToolCallDelta(0, None, None, "", item="1"),  # the empty first input_json_delta, as recorded
        ToolCallDelta(0, None, None, '{"city": "Par', item="1"),
        ToolCallDelta(0, None, None, 'is"}', item="1"),
        Usage(472, 180, None, 652),
        End("tool_calls"),
    ]


# -- hypothesis round trips ----------------------------------------------------------------------------


def _lossless() -> list[str]:
    perts = getattr(codec, "PERTURBATIONS", {"none": None})
    return sorted(n for n, p in perts.items() if p is None or (p.lossless and "sse" in p.transports))


def _turn(data: st.DataObject, variant: str) -> Turn:
    turn = data.draw(reasoning_turns(variant=f"anthropic-messages:{variant}"))
    if variant == "omitted" and data.draw(st.booleans()):
        turn = (ReasoningSignature("sig_" + data.draw(st.text("abcXYZ019", min_size=1, max_size=8))), *turn)
    return turn


@pytest.mark.parametrize("variant", list(ANT.variants))
@given(data=st.data(), chunking=sse_chunkings(max_cuts=16), perturbation=st.sampled_from(_lossless()))
def test_round_trip_under_any_chunking(
    variant: str, data: st.DataObject, chunking: Chunking, perturbation: str
) -> None:
    turn = _turn(data, variant)
    em = ANT.emitter(variant)
    pieces = encode_frames(em.feed(turn) + em.close(), "sse", perturbation)
    assert _norm(_observe(chunking.pieces(pieces))) == _norm(turn)


@pytest.mark.parametrize("chunker", ["bytes", "utf8-split", "tiny", "whole"])
@pytest.mark.parametrize("variant", list(ANT.variants))
def test_round_trip_through_named_chunkers(variant: str, chunker: str) -> None:
    chunkers = getattr(codec, "CHUNKERS", None)
    if chunkers is None:
        pytest.skip("harness.codec has no CHUNKERS")
    turn: Turn = (ReasoningDelta("思考 über"), ReasoningSignature("sig_x"), TextDelta("Grüße"), End())
    em = ANT.emitter(variant)
    writes = chunkers[chunker](encode_frames(em.feed(turn) + em.close(), "sse"))
    want = turn if variant != "omitted" else turn[1:]
    assert _norm(_observe(writes)) == _norm(want)


@pytest.mark.parametrize("variant", list(ANT.variants))
@given(data=st.data())
def test_non_streaming_round_trip(variant: str, data: st.DataObject) -> None:
    turn = _turn(data, variant)
    body = ANT.emit_response(turn, variant)
    assert _norm(ANT.observe_response(body)) == _norm(turn)


# -- observer: errors, notices ---------------------------------------------------------------------------

_START = _frame(
    {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [],
            "usage": {"input_tokens": 5, "output_tokens": 1},
        },
    }
)
_TEXT = _frame({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
_DELTA = _frame({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}})
_STOP = _frame({"type": "message_stop"})


def test_mid_stream_error_frame_is_a_stream_error() -> None:
    catalog = b'event: error\ndata: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011Ce3HwQb6vtbs9LQVmh4oe"}\n\n'
    assert _observe([_START, _TEXT, _DELTA, catalog]) == [
        TextDelta("Hi", item="0"),
        StreamError("Overloaded", "overloaded_error"),
    ]
    em = ANT.emitter("thinking")
    frames = em.feed([TextDelta("Hi"), StreamError("Overloaded", "overloaded_error")])
    assert frames[-1].event == "error"
    assert frames[-1].tags == frozenset({"error"})
    assert json.loads(frames[-1].data) == {
        "type": "error",
        "error": {"details": None, "type": "overloaded_error", "message": "Overloaded"},
        "request_id": json.loads(frames[-1].data)["request_id"],
    }
    assert em.close() == []


def test_frames_without_event_lines_are_read_but_noticed() -> None:
    bare = [_frame(json.loads(f.split(b"data: ", 1)[1]), event=None) for f in (_START, _TEXT, _DELTA, _STOP)]
    events = _observe(bare)
    assert [e for e in events if not isinstance(e, Notice)] == [TextDelta("Hi", item="0"), End("stop")]
    assert _notices(events) == [("missing-event-line", "message_start")]


def test_thinking_usage_ping_unknown_malformed_after_end_and_eof() -> None:
    delta = _frame(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "max_tokens"},
            "usage": {"output_tokens": 9, "output_tokens_details": {"thinking_tokens": 4}},
        }
    )
    events = _observe(
        [
            b"\xef\xbb\xbf" + _START,
            _frame({"type": "ping"}),
            _frame({"type": "made_up"}),
            _TEXT,
            b'event: content_block_delta\ndata: {"type": "content_bl\n\n',
            _frame(
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "citations_delta", "citation": {}},
                }
            ),
            _frame(
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "signature_delta", "signature": ""},
                }
            ),
            delta,
            _STOP,
            _DELTA,
        ]
    )
    assert [e for e in events if not isinstance(e, Notice)] == [Usage(5, 9, 4, 14), End("length")]
    assert _notices(events) == [
        ("sse-bom", ""),
        ("unknown-event", "made_up"),
        ("malformed-json", '{"type": "content_bl'),
        ("unknown-delta", "citations_delta"),
        ("delta-type-mismatch", "signature_delta in a text block 0"),  # a text block has no signature
        ("empty-signature", "0"),
        ("data-after-end", "content_block_delta"),
    ]
    assert _observe([_START, _TEXT, _DELTA]) == [
        TextDelta("Hi", item="0"),
        Notice("no-terminator", "EOF before message_stop"),
    ]
    unterminated = _observe([_START, _STOP[:-1]])
    assert ("sse-unterminated", "") in _notices(unterminated)
    assert unterminated[-1] == Notice("no-terminator", "EOF before message_stop")


def test_second_message_start_is_noticed() -> None:
    assert _notices(_observe([_START, _START, _STOP])) == [("second-lifecycle", "a second message_start")]


def test_a_message_event_before_message_start_is_noticed_once() -> None:
    assert _notices(_observe([_TEXT, _DELTA, _STOP])) == [("before-message-start", "content_block_start")]
    assert _notices(_observe([_STOP])) == [("before-message-start", "message_stop")]
    ping, error = _frame({"type": "ping"}), _frame({"type": "error", "error": {"type": "overloaded_error"}})
    assert _notices(_observe([ping, _START, _TEXT, _DELTA, _STOP])) == []  # ping may come first
    assert _notices(_observe([error])) == []  # so may an error


def test_close_without_end_stops_the_open_block_once() -> None:
    em = ANT.emitter("thinking")
    em.feed([ReasoningDelta("a")])
    frames = em.close()
    assert [f.event for f in frames] == ["content_block_stop", "message_delta", "message_stop"]
    assert "reasoning-done" in frames[0].tags
    assert em.close() == []


# -- request codec ---------------------------------------------------------------------------------------

SIG = "sig_mock_EqQBCgIYAhIM1gbcDa9GJwZA2b3h"
ASSISTANT = Message(
    "assistant",
    (
        ReasoningBlock("The user wants the weather in Paris.", signature=SIG),
        ReasoningBlock("", redacted="mock-opaque-redacted"),
        TextBlock("Checking."),
        ToolCallBlock("toolu_01Paris", "get_weather", '{"city":"Paris"}'),
    ),
)
CONVERSATION = [
    Message("system", (TextBlock("Be brief."),)),
    Message.user("Weather in Paris?"),
    ASSISTANT,
    Message.tool("toolu_01Paris", "18°C, clear"),
]


def test_build_request_keeps_blocks_in_order_with_signatures() -> None:
    spec = ANT.build_request(CONVERSATION, model=MODEL, stream=True, variant="thinking")
    assert spec.path == "/v1/messages"
    assert any(spec.path.endswith(s) for s in ANT.path_suffixes)
    assert spec.body == {
        "model": MODEL,
        "max_tokens": 4096,
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "thinking",
                        "thinking": "The user wants the weather in Paris.",
                        "signature": SIG,
                    },
                    {"type": "redacted_thinking", "data": "mock-opaque-redacted"},
                    {"type": "text", "text": "Checking."},
                    {
                        "type": "tool_use",
                        "id": "toolu_01Paris",
                        "name": "get_weather",
                        "input": {"city": "Paris"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_01Paris", "content": "18°C, clear"}
                ],
            },
        ],
        "stream": True,
    }
    assert "anthropic-beta" not in spec.headers
    inter = ANT.build_request(CONVERSATION, model=MODEL, stream=True, variant="interleaved")
    assert inter.headers["anthropic-beta"] == "interleaved-thinking-2025-05-14"


def test_parse_request_inverts_build_request() -> None:
    spec = ANT.build_request(CONVERSATION, model=MODEL, stream=False, variant="thinking")
    assert ANT.parse_request(spec.body) == CONVERSATION


# -- provider rules ------------------------------------------------------------------------------------

STRICT = ANT.provider_rules()["anthropic"]
EMITTED = [
    Message(
        "assistant",
        (
            ReasoningBlock("The user wants the weather in Paris.", signature=SIG),
            ToolCallBlock("toolu_01Paris", "get_weather", '{"city":"Paris"}'),
        ),
    )
]


def _body(
    *assistant: dict[str, Any], thinking: dict[str, Any] | None = None, tail: bool = True
) -> dict[str, Any]:
    msgs: list[dict[str, Any]] = [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": list(assistant)},
    ]
    if tail:
        msgs.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_01Paris", "content": "18°C"}],
            }
        )
    return {
        "model": MODEL,
        "max_tokens": 4096,
        "thinking": thinking or {"type": "enabled", "budget_tokens": 2048},
        "messages": msgs,
    }


_THINK = {"type": "thinking", "thinking": "The user wants the weather in Paris.", "signature": SIG}
_TOOL = {"type": "tool_use", "id": "toolu_01Paris", "name": "get_weather", "input": {"city": "Paris"}}


def _message(rejection: Any) -> str:
    body = json.loads(rejection.body)
    assert body["type"] == "error"
    assert body["error"]["type"] == "invalid_request_error"
    assert body["request_id"].startswith("req_")
    assert set(body) == {"type", "error", "request_id"}
    return str(body["error"]["message"])


def test_anthropic_accepts_the_unmodified_passback() -> None:
    assert STRICT.validate(_body(_THINK, _TOOL), EMITTED) is None
    built = ANT.build_request(
        [Message.user("Weather in Paris?"), EMITTED[0], Message.tool("toolu_01Paris", "18°C")],
        model=MODEL,
        stream=True,
        variant="thinking",
    )
    assert STRICT.validate(built.body, EMITTED) is None
    assert ANT.provider_rules()["lenient"].validate(_body(_TOOL), EMITTED) is None


def test_anthropic_rejects_missing_thinking_before_tool_use() -> None:
    rejection = STRICT.validate(_body(_TOOL), EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "anthropic/missing-thinking")
    assert _message(rejection) == (
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
    )
    text_first = STRICT.validate(_body({"type": "text", "text": "Checking."}, _TOOL), EMITTED)
    assert text_first is not None
    assert _message(text_first).startswith(
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`."
    )


def test_anthropic_rejects_a_thinking_block_without_its_signature_field() -> None:
    """Schema validation first, as captured in JohnnyZ93/oai-compatible-copilot#217 ("messages.2.content.1.
    thinking.signature: Field required"): a truncated or client-made block has no signature at all."""
    block = {k: v for k, v in _THINK.items() if k != "signature"}
    rejection = STRICT.validate(_body(block, _TOOL), EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule, rejection.family) == (
        400,
        "anthropic/signature-required",
        "passback",
    )
    assert _message(rejection) == "messages.1.content.0.thinking.signature: Field required"
    alone = STRICT.validate(_body(block), EMITTED)  # before the 'final block cannot be thinking' rule
    assert alone is not None
    assert alone.rule == "anthropic/signature-required"


@pytest.mark.parametrize("signature", ["", "sig_mock_EqQBCgIYAhIM1gbcDa9GJwZA2b3X"])
def test_anthropic_rejects_an_altered_or_emptied_signature(signature: str | None) -> None:
    block = {k: v for k, v in _THINK.items() if k != "signature"}
    if signature is not None:
        block["signature"] = signature
    rejection = STRICT.validate(_body(block, _TOOL), EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "anthropic/invalid-signature")
    assert _message(rejection) == "messages.1.content.0: Invalid `signature` in `thinking` block"
    assert rejection.body.startswith(
        b'{"type":"error","error":{"type":"invalid_request_error","message":"messages.1.content.0: Invalid `signature` in `thinking` block"},"request_id":"req_'
    )


def test_anthropic_rejects_modified_thinking_in_the_latest_assistant_message() -> None:
    edited = {**_THINK, "thinking": "The user wants the weather in Lyon."}
    rejection = STRICT.validate(_body(edited, _TOOL), EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "anthropic/thinking-modified")
    assert _message(rejection) == (
        "messages.1.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response."
    )
    emitted = [
        Message(
            "assistant", (EMITTED[0].content[0], ReasoningBlock("", redacted="opaque"), EMITTED[0].content[1])
        )
    ]
    dropped = STRICT.validate(_body(_THINK, _TOOL), emitted)  # the redacted block was filtered out
    assert dropped is not None
    assert _message(dropped).startswith(
        "messages.1.content.1: `thinking` or `redacted_thinking` blocks in the latest"
    )
    assert (
        STRICT.validate(_body(_THINK, {"type": "redacted_thinking", "data": "opaque"}, _TOOL), emitted)
        is None
    )


def test_anthropic_earlier_edited_thinking_fails_its_signature() -> None:
    edited = {**_THINK, "thinking": "edited"}
    body = _body(edited, _TOOL)
    body["messages"] += [
        {"role": "assistant", "content": [{"type": "text", "text": "18°C."}]},
        {"role": "user", "content": "Thanks"},
    ]
    rejection = STRICT.validate(body, EMITTED)
    assert rejection is not None
    assert _message(rejection) == "messages.1.content.0: Invalid `signature` in `thinking` block"
    body["messages"][1]["content"][0] = _THINK
    assert STRICT.validate(body, EMITTED) is None


def test_anthropic_rejects_thinking_that_is_not_first() -> None:
    body = _body({"type": "text", "text": "Checking."}, _THINK, _TOOL)
    body["messages"] += [
        {"role": "assistant", "content": [{"type": "text", "text": "18°C."}]},
        {"role": "user", "content": "ok"},
    ]
    rejection = STRICT.validate(body, EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "anthropic/thinking-not-first")
    assert _message(rejection) == (
        "messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text."
    )


def test_anthropic_rejects_a_trailing_thinking_block() -> None:
    rejection = STRICT.validate(_body(_THINK, tail=False) | {}, EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "anthropic/final-thinking")
    assert _message(rejection) == "messages.1: The final block in an assistant message cannot be `thinking`."


def test_anthropic_rejects_thinking_in_a_final_assistant_message_when_disabled() -> None:
    body = _body(_THINK, {"type": "text", "text": "It is"}, thinking={"type": "disabled"}, tail=False)
    rejection = STRICT.validate(body, EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "anthropic/thinking-disabled")
    assert _message(rejection) == (
        "messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request."
    )
    assert (
        STRICT.validate(
            _body({"type": "text", "text": "It is"}, thinking={"type": "disabled"}, tail=False), EMITTED
        )
        is None
    )
    assert STRICT.validate(_body(_TOOL, thinking={"type": "disabled"}), EMITTED) is None


def test_deepseek_anthropic_requires_thinking_on_tool_use_turns() -> None:
    ds = ANT.provider_rules()["deepseek-anthropic"]
    rejection = ds.validate(_body(_TOOL), EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "deepseek-anthropic/missing-thinking")
    assert rejection.body == (
        b'{"error":{"message":"The `content[].thinking` in the thinking mode must be passed back to the API.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}'
    )
    unsigned = {"type": "thinking", "thinking": "The user wants the weather in Paris."}
    assert ds.validate(_body(unsigned, _TOOL), EMITTED) is None  # DeepSeek checks no signature
    assert ds.validate(_body(_TOOL, thinking={"type": "disabled"}), EMITTED) is None


@pytest.mark.parametrize("rules", ["anthropic", "deepseek-anthropic"])
def test_shape_streams_no_thinking_unless_enabled(rules: str) -> None:
    turn: Turn = (
        RedactedReasoning("x"),
        ReasoningDelta("hmm"),
        ReasoningSignature("sig"),
        TextDelta("Hi"),
        End(),
    )
    shaped = ANT.provider_rules()[rules]
    assert shaped.shape({"thinking": {"type": "enabled", "budget_tokens": 2048}}, turn) == turn
    assert shaped.shape({"thinking": {"type": "disabled"}}, turn) == (TextDelta("Hi"), End())
    no_config = shaped.shape({}, turn)
    assert no_config == ((TextDelta("Hi"), End()) if rules == "anthropic" else turn)
    assert ANT.provider_rules()["lenient"].shape({"thinking": {"type": "disabled"}}, turn) == turn


# -- the anthropic SDK reads the emitter's bytes ---------------------------------------------------------


def _client(body: bytes, seen: list[str]) -> Any:
    anthropic = pytest.importorskip("anthropic")
    httpx = pytest.importorskip("httpx2")  # anthropic>=2 runs on the httpx2 fork and refuses httpx clients

    def handler(request: Any) -> Any:
        seen.append(request.url.path)
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    return anthropic.Anthropic(
        api_key="sk-ant-test",
        base_url="http://mock",
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
        max_retries=0,
    )


def _body_of(variant: str) -> tuple[Turn, bytes]:
    turn = next(c[2] for c in CASES if c[0] == variant)
    em = ANT.emitter(variant, model=MODEL)
    return turn, b"".join(encode_frames(em.feed(turn) + em.close(), "sse"))


def test_anthropic_sdk_stream_helper_accumulates_thinking_signature_and_tool_use() -> None:
    _, body = _body_of("thinking")
    seen: list[str] = []
    client = _client(body, seen)
    with client.messages.stream(
        model=MODEL, max_tokens=4096, messages=[{"role": "user", "content": "Weather?"}]
    ) as stream:
        kinds = [ev.type for ev in stream]
        final = stream.get_final_message()
    assert seen == ["/v1/messages"]
    assert "thinking" in kinds
    assert "signature" in kinds
    assert [b.type for b in final.content] == ["thinking", "tool_use"]
    assert final.content[0].thinking == "The user wants the weather in Paris."
    assert final.content[0].signature == SIG
    assert (final.content[1].id, final.content[1].name, final.content[1].input) == (
        "toolu_01Paris",
        "get_weather",
        {"city": "Paris"},
    )
    assert final.stop_reason == "tool_use"
    assert final.usage.output_tokens == 180


@pytest.mark.parametrize("variant", ["redacted", "omitted", "interleaved"])
def test_anthropic_sdk_reads_every_variant(variant: str) -> None:
    turn, body = _body_of(variant)
    client = _client(body, [])
    events = list(
        client.messages.create(
            model=MODEL, max_tokens=4096, messages=[{"role": "user", "content": "hi"}], stream=True
        )
    )
    assert events[0].type == "message_start"
    assert events[-1].type == "message_stop"
    with client.messages.stream(
        model=MODEL, max_tokens=4096, messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        final = stream.get_final_message()
    kinds = [b.type for b in final.content]
    if variant == "redacted":
        assert kinds == ["redacted_thinking", "text"]
        assert final.content[0].data == "mock-opaque-redacted"
    elif variant == "omitted":
        assert kinds == ["thinking", "text"]
        assert (final.content[0].thinking, final.content[0].signature) == ("", "sig_mock_omitted")
        assert final.usage.output_tokens_details.thinking_tokens == 15
    else:
        assert kinds == ["thinking", "text", "thinking", "tool_use"]
        assert [b.signature for b in final.content if b.type == "thinking"] == ["sig_a", "sig_b"]
    assert (
        final.content[kinds.index("text")].text == "".join(e.text for e in turn if isinstance(e, TextDelta))
        or variant == "interleaved"
    )


def test_anthropic_sdk_skips_frames_without_event_lines() -> None:
    """Known quirk (wire-formats.md §1.3): the SDK drops frames with no ``event:``; our observer reads them."""
    _, body = _body_of("redacted")
    bare = re.sub(rb"event: [^\n]*\n", b"", body)
    events = list(
        _client(bare, []).messages.create(
            model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "hi"}], stream=True
        )
    )
    assert events == []
    ours = _observe([bare])
    assert _norm(ours) == _norm(CASES[1][2])
    assert _notices(ours) == [("missing-event-line", "message_start")]


def test_anthropic_sdk_accumulates_nothing_without_message_start() -> None:
    """Ground truth of the ``before-message-start`` grammar break: the SDK skips the event a leading BOM
    left unnamed (message_start), and its MessageStream then accumulates nothing from the rest: the
    raw events pass, the accumulated ones (``text``, ``thinking``) and the final message never come."""
    _, body = _body_of("redacted")
    events = list(
        _client(b"\xef\xbb\xbf" + body, []).messages.create(
            model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "hi"}], stream=True
        )
    )
    assert events[0].type == "content_block_start"  # message_start was skipped
    without = body[body.index(b"event: content_block_start") :]
    with _client(without, []).messages.stream(
        model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        kinds = {ev.type for ev in stream}
        assert "content_block_delta" in kinds
        assert "text" not in kinds
        with pytest.raises(AssertionError):
            stream.get_final_message()
    assert ("before-message-start", "content_block_start") in _notices(_observe([without]))


def test_anthropic_sdk_raises_on_the_error_event() -> None:
    anthropic = pytest.importorskip("anthropic")
    em = ANT.emitter("thinking", model=MODEL)
    body = b"".join(
        encode_frames(em.feed([TextDelta("Hi"), StreamError("Overloaded", "overloaded_error")]), "sse")
    )
    stream = _client(body, []).messages.create(
        model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "hi"}], stream=True
    )
    with pytest.raises(anthropic.APIStatusError, match="Overloaded"):
        list(stream)


ADAPTIVE = ANT.provider_rules()["anthropic-adaptive"]


def test_adaptive_only_models_refuse_thinking_enabled_with_the_real_400() -> None:
    body = {
        "model": "claude-opus-4-7",
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "messages": [],
    }
    rejection = ADAPTIVE.validate(body, [])
    assert rejection is not None
    assert (rejection.status, rejection.rule, rejection.family) == (
        400,
        "anthropic/thinking-enabled-unsupported",
        "request",
    )
    assert _message(rejection) == (
        '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and '
        '"output_config.effort" to control thinking behavior.'
    )
    assert ADAPTIVE.validate({**body, "thinking": {"type": "adaptive"}}, []) is None


@pytest.mark.parametrize(("display", "shown"), [(None, False), ("omitted", False), ("summarized", True)])
def test_adaptive_models_omit_thinking_text_unless_summarized_is_asked_for(
    display: str | None, shown: bool
) -> None:
    thinking: dict[str, Any] = {"type": "adaptive"}
    if display is not None:
        thinking["display"] = display
    turn = (ReasoningDelta("Plan."), ReasoningSignature("sig_x"), TextDelta("Hi."))
    shaped = ADAPTIVE.shape({"thinking": thinking}, turn)
    assert (ReasoningDelta("Plan.") in shaped) is shown
    assert ReasoningSignature("sig_x") in shaped
    assert TextDelta("Hi.") in shaped


def test_the_adaptive_variant_asks_for_adaptive_thinking_summarized_with_an_effort_and_no_beta() -> None:
    spec = ANT.build_request([Message.user("Hi")], model=MODEL, stream=True, variant="adaptive")
    assert spec.body["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert spec.body["output_config"] == {"effort": "high"}
    assert "anthropic-beta" not in spec.headers
    omitted = ANT.build_request([Message.user("Hi")], model=MODEL, stream=True, variant="omitted")
    assert omitted.body["thinking"]["display"] == "omitted"
