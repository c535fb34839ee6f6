"""Bedrock dialect: literal frames both ways, botocore as the decoding oracle (EventStreamBuffer and the
ConverseStream event parser), hypothesis round trips, observer notices, request codec, bedrock-claude."""

# ruff: noqa: E501  (literal wire payloads and bodies stay on one line)
from __future__ import annotations

import base64
import json
import re
from typing import Any

import botocore.session
import pytest
from botocore.eventstream import EventStream, EventStreamBuffer
from botocore.exceptions import EventStreamError
from botocore.parsers import EventStreamJSONParser
from frames_bedrock import CASES, MODEL
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import encode_frames
from harness.codec._eventstream import encode_frame
from harness.dialects import Frame, get_dialect
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    Turn,
    Usage,
    assemble,
    coalesce,
    strip_items,
)
from harness.strategies import Chunking, reasoning_turns, sse_chunkings

BEDROCK = get_dialect("bedrock-converse")


def _norm(events: list[Event] | Turn) -> Turn:
    return strip_items(coalesce(events))


def _bytes(frames: list[Frame]) -> bytes:
    return b"".join(encode_frames(frames, "eventstream"))


def _observe(chunks: list[bytes]) -> list[Event]:
    obs = BEDROCK.observer()
    out: list[Event] = []
    for c in chunks:
        out += obs.feed(c)
    return out + obs.end()


def _frames(table: list[tuple[str, str, str]]) -> list[Frame]:
    return [Frame(data, event=event, message_type=kind) for event, kind, data in table]


def _emit(variant: str, turn: Turn) -> list[Frame]:
    em = BEDROCK.emitter(variant, model=MODEL)
    return em.feed(turn) + em.close()


_IDS = re.compile(r"msg_bdrk_mock\d+")


def _literal(f: Frame) -> str:
    """A frame's data with an invoke chunk's message id (numbered per emitter) read as ``msg_bdrk_mockN``."""
    if f.event != "chunk":
        return f.data
    obj = json.loads(f.data)
    raw = _IDS.sub("msg_bdrk_mockN", base64.b64decode(obj["bytes"]).decode())
    return json.dumps(
        {"bytes": base64.b64encode(raw.encode()).decode(), "p": obj["p"]}, separators=(",", ":")
    )


# -- the literal table, both directions ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "desc", "turn", "table"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_emitter_reproduces_the_literal_frames(
    variant: str, desc: str, turn: Turn, table: list[tuple[str, str, str]]
) -> None:
    assert [(f.event, f.message_type, _literal(f)) for f in _emit(variant, turn)] == table


@pytest.mark.parametrize(
    ("variant", "desc", "turn", "table"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_observer_reads_the_literal_frames(
    variant: str, desc: str, turn: Turn, table: list[tuple[str, str, str]]
) -> None:
    data = _bytes(_frames(table))
    whole = _observe([data])
    assert _norm(whole) == _norm(turn)
    assert [e for e in whole if isinstance(e, Notice)] == []
    assert _observe([data[i : i + 1] for i in range(len(data))]) == whole


def test_invoke_chunks_carry_the_anthropic_emitters_events() -> None:
    """Each chunk's JSON is the Anthropic emitter's event (recorded shapes: the empty thinking_delta
    before the signature, the empty first input_json_delta), less the ping and the space padding, with
    Bedrock's invocation metrics added to message_stop."""
    _, _, turn, table = CASES[2]
    decoded = [json.loads(base64.b64decode(json.loads(data)["bytes"])) for _, _, data in table]
    anthropic = get_dialect("anthropic-messages").emitter("thinking", model=MODEL)
    direct = [json.loads(f.data) for f in anthropic.feed(turn) + anthropic.close() if f.event != "ping"]
    for event in direct:
        if event["type"] == "message_start":
            event["message"]["id"] = "msg_bdrk_mockN"
    assert decoded[:-1] == direct[:-1]
    assert decoded[-1] == {
        "type": "message_stop",
        "amazon-bedrock-invocationMetrics": {
            "inputTokenCount": 40,
            "outputTokenCount": 25,
            "invocationLatency": 900,
            "firstByteLatency": 300,
        },
    }
    assert decoded[3] == {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "thinking_delta", "thinking": ""},
    }
    assert decoded[4] == {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "signature_delta", "signature": "sig_mock_bedrock"},
    }
    assert all(b" }" not in base64.b64decode(json.loads(data)["bytes"]) for _, _, data in table)


# -- botocore as the oracle --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "desc", "turn", "table"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_botocore_event_stream_buffer_decodes_the_emitter_bytes(
    variant: str, desc: str, turn: Turn, table: list[tuple[str, str, str]]
) -> None:
    data = _bytes(_emit(variant, turn))
    buf = EventStreamBuffer()
    buf.add_data(data[:7])
    got = list(buf)
    buf.add_data(data[7:])
    got += list(buf)
    assert [
        (
            m.headers[":event-type"],
            m.headers[":message-type"],
            _literal(Frame(m.payload.decode(), event=m.headers[":event-type"])),
        )
        for m in got
    ] == table
    assert all(m.headers[":content-type"] == "application/json" for m in got)


class _Raw:
    def __init__(self, data: bytes, size: int) -> None:
        self._chunks = [data[i : i + size] for i in range(0, len(data), size)]

    def stream(self) -> Any:
        return iter(self._chunks)

    def close(self) -> None:
        pass


def _botocore_stream(data: bytes, operation: str, size: int = 13) -> list[dict[str, Any]]:
    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    op = model.operation_model(operation)
    name = next(iter(op.output_shape.members))
    shape = op.output_shape.members[name]
    return list(EventStream(_Raw(data, size), shape, EventStreamJSONParser(), operation))


def test_botocore_converse_stream_parser_reads_the_emitter_output() -> None:
    _, _, turn, _ = CASES[0]
    events = _botocore_stream(_bytes(_emit("converse", turn)), "ConverseStream")
    assert events == [
        {"messageStart": {"role": "assistant"}},
        {
            "contentBlockDelta": {
                "delta": {"reasoningContent": {"text": "Inspect the file first."}},
                "contentBlockIndex": 0,
            }
        },
        {
            "contentBlockDelta": {
                "delta": {"reasoningContent": {"signature": "sig_mock_bedrock"}},
                "contentBlockIndex": 0,
            }
        },
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {
            "contentBlockStart": {
                "start": {"toolUse": {"toolUseId": "tooluse_mock1", "name": "read_file"}},
                "contentBlockIndex": 1,
            }
        },
        {
            "contentBlockDelta": {
                "delta": {"toolUse": {"input": '{"path":"README.md"}'}},
                "contentBlockIndex": 1,
            }
        },
        {"contentBlockStop": {"contentBlockIndex": 1}},
        {"messageStop": {"stopReason": "tool_use"}},
        {
            "metadata": {
                "usage": {"inputTokens": 40, "outputTokens": 25, "totalTokens": 65},
                "metrics": {"latencyMs": 900},
            }
        },
    ]


def test_botocore_decodes_redacted_content_as_bytes() -> None:
    _, _, turn, _ = CASES[1]
    events = _botocore_stream(_bytes(_emit("converse", turn)), "ConverseStream")
    assert events[1] == {
        "contentBlockDelta": {
            "delta": {
                "reasoningContent": {"redactedContent": base64.b64decode("EmwKAhgBEgy3va3pzix/LafPsn4a")}
            },
            "contentBlockIndex": 0,
        }
    }


def test_botocore_invoke_stream_parser_reads_the_chunks() -> None:
    _, _, turn, _ = CASES[2]
    events = _botocore_stream(_bytes(_emit("invoke", turn)), "InvokeModelWithResponseStream")
    decoded = [json.loads(e["chunk"]["bytes"]) for e in events]
    assert decoded[2] == {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "thinking_delta", "thinking": "Inspect the file first."},
    }


def test_botocore_raises_on_the_exception_frame() -> None:
    frames = BEDROCK.emitter("converse").feed([TextDelta("Hi"), StreamError("Too many requests", status=429)])
    assert (frames[-1].event, frames[-1].message_type, frames[-1].data) == (
        "throttlingException",
        "exception",
        '{"message":"Too many requests"}',
    )
    with pytest.raises(EventStreamError, match=r"throttlingException.*Too many requests"):
        _botocore_stream(_bytes(frames), "ConverseStream")
    events = _observe([_bytes(frames)])
    assert events[-1] == StreamError("Too many requests", "throttlingException", 429)
    assert [e for e in events if isinstance(e, Notice)] == []  # an exception ends the stream


# -- hypothesis round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(BEDROCK.variants))
@given(data=st.data(), chunking=sse_chunkings(max_cuts=16))
def test_round_trip_under_arbitrary_splits(variant: str, data: st.DataObject, chunking: Chunking) -> None:
    turn = data.draw(reasoning_turns(variant=f"bedrock-converse:{variant}"))
    em = BEDROCK.emitter(variant)
    raw = _bytes(em.feed(turn) + em.close())
    assert _norm(_observe(chunking.split(raw))) == _norm(turn)


@pytest.mark.parametrize("variant", list(BEDROCK.variants))
@given(data=st.data())
def test_non_streaming_round_trip(variant: str, data: st.DataObject) -> None:
    turn = data.draw(reasoning_turns(variant=f"bedrock-converse:{variant}"))
    events = BEDROCK.observe_response(BEDROCK.emit_response(turn, variant))
    assert assemble(strip_items(events)) == assemble(strip_items(turn))
    assert events[-1] == next(e for e in turn if isinstance(e, End))


# -- observer notices -------------------------------------------------------------------------------------


def test_crc_corruption_is_a_notice_and_stops_reading() -> None:
    good = _bytes(BEDROCK.emitter("converse").feed([TextDelta("Hi")]))
    bad = bytearray(encode_frame("contentBlockDelta", '{"contentBlockIndex":1,"delta":{"text":"lost"}}'))
    bad[-1] ^= 0xFF
    events = _observe([good + bytes(bad), good])
    assert events[0] == TextDelta("Hi", "0")
    crc = [e for e in events if isinstance(e, Notice) and e.code == "eventstream-crc"]
    assert len(crc) == 1
    assert crc[0].detail.startswith(f"eventstream message at offset {len(good)}: message CRC mismatch")
    assert not any(isinstance(e, TextDelta) and e.text == "lost" for e in events)
    assert events[-1] == Notice("no-terminator", "the stream closed early")


def test_unknown_events_fields_and_missing_terminator_are_notices() -> None:
    frames = [
        Frame('{"role":"assistant","p":"ab","extra":1}', event="messageStart"),
        Frame('{"contentBlockIndex":0,"delta":{"text":"Hi"}}', event="contentBlockDelta"),
        Frame('{"type":"thinkwire.unknown"}', event="thinkwire.unknown"),
        Frame('{"stopReason":"end_turn"}', event="messageStop"),
    ]
    events = _observe([_bytes(frames)])
    assert events == [
        Notice("unknown-field", "messageStart.extra"),
        TextDelta("Hi", "0"),
        Notice("unknown-event", "thinkwire.unknown"),
        Notice("no-terminator", "messageStop without metadata"),
    ]


def test_truncated_stream_is_a_notice() -> None:
    data = _bytes(_emit("converse", CASES[0][2]))
    events = _observe([data[:-3]])
    assert events[-2].code == "eventstream-truncated"  # type: ignore[union-attr]
    assert events[-1] == Notice("no-terminator", "messageStop without metadata")


def test_data_after_the_end_is_noticed() -> None:
    frames = _emit("converse", (TextDelta("Hi"), End()))
    events = _observe([_bytes([*frames, frames[-1]])])
    assert Notice("data-after-end", "metadata") in events


def _chunk(event: dict[str, Any]) -> Frame:
    raw = base64.b64encode(json.dumps(event).encode()).decode()
    return Frame(json.dumps({"bytes": raw, "p": "abc"}), event="chunk")


START_MESSAGE = {
    "id": "msg_bdrk_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
    "usage": {"input_tokens": 3, "output_tokens": 1},
}  # fmt: skip
"""A ``message_start``'s message with every field the anthropic SDK's ``Message`` requires."""


def test_invoke_chunks_get_the_anthropic_observers_notices() -> None:
    """The Anthropic observer reads each chunk's event, so an invoke stream gets its notices: an empty
    signature, a delta of the wrong block type or with no block, and data after message_stop."""
    thinking = {"type": "thinking", "thinking": "", "signature": ""}
    frames = [
        _chunk({"type": "message_start", "message": START_MESSAGE}),
        _chunk({"type": "content_block_start", "index": 0, "content_block": thinking}),
        _chunk(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Hm"}}
        ),
        _chunk(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": ""}}
        ),
        _chunk({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}}),
        _chunk({"type": "content_block_delta", "index": 4, "delta": {"type": "text_delta", "text": "y"}}),
        _chunk(
            {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}}
        ),
        _chunk({"type": "message_stop"}),
        _chunk({"type": "message_stop"}),
    ]
    events = _observe([_bytes(frames)])
    notices = [e for e in events if isinstance(e, Notice)]
    assert notices == [
        Notice("empty-signature", "0"),
        Notice("delta-type-mismatch", "text_delta in a thinking block 0"),
        Notice("delta-without-start", "4"),
        Notice("data-after-end", "message_stop"),
    ]
    assert Usage(3, 5, None, 8) in events
    assert events[-2:] == [End("stop"), notices[-1]]


def test_invoke_stream_without_message_stop_has_no_terminator() -> None:
    frames = _emit("invoke", (TextDelta("Hi"), End()))
    events = _observe([_bytes(frames[:-1])])
    assert events[-1] == Notice("no-terminator", "EOF before message_stop")
    assert _observe([_bytes(frames)])[-1] == End("stop")


# -- request codec ---------------------------------------------------------------------------------------

ASSISTANT = Message(
    "assistant",
    (
        ReasoningBlock("Inspect the file first.", signature="sig_mock_bedrock"),
        ToolCallBlock("tooluse_mock1", "read_file", '{"path":"README.md"}'),
    ),
)
CONVERSATION = [
    Message("system", (TextBlock("Be brief."),)),
    Message.user("Summarise README.md"),
    ASSISTANT,
    Message.tool("tooluse_mock1", "# thinkwire"),
]


def test_build_converse_request() -> None:
    spec = BEDROCK.build_request(CONVERSATION, model=MODEL, stream=True, variant="converse")
    assert spec.path == f"/model/{MODEL}/converse-stream"
    assert spec.body == {
        "messages": [
            {"role": "user", "content": [{"text": "Summarise README.md"}]},
            {
                "role": "assistant",
                "content": [
                    {
                        "reasoningContent": {
                            "reasoningText": {
                                "text": "Inspect the file first.",
                                "signature": "sig_mock_bedrock",
                            }
                        }
                    },
                    {
                        "toolUse": {
                            "toolUseId": "tooluse_mock1",
                            "name": "read_file",
                            "input": {"path": "README.md"},
                        }
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"toolResult": {"toolUseId": "tooluse_mock1", "content": [{"text": "# thinkwire"}]}}
                ],
            },
        ],
        "system": [{"text": "Be brief."}],
        "inferenceConfig": {"maxTokens": 4096},
        "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 1024}},
    }
    assert BEDROCK.parse_request(spec.body) == CONVERSATION


def test_build_invoke_request_is_anthropic_shaped() -> None:
    spec = BEDROCK.build_request(CONVERSATION, model=MODEL, stream=True, variant="invoke")
    assert spec.path == f"/model/{MODEL}/invoke-with-response-stream"
    assert spec.body["anthropic_version"] == "bedrock-2023-05-31"
    assert spec.body["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": "Inspect the file first.",
        "signature": "sig_mock_bedrock",
    }
    assert BEDROCK.parse_request(spec.body) == CONVERSATION
    assert (
        BEDROCK.build_request(CONVERSATION, model="m", stream=False, variant="converse").path
        == "/model/m/converse"
    )


def test_redacted_reasoning_passes_back_as_redacted_content() -> None:
    msg = Message("assistant", (ReasoningBlock("", redacted="EmwKAhgB"), ToolCallBlock("t1", "f", "{}")))
    spec = BEDROCK.build_request([Message.user("hi"), msg], model="m", stream=True, variant="converse")
    assert spec.body["messages"][1]["content"][0] == {"reasoningContent": {"redactedContent": "EmwKAhgB"}}
    assert BEDROCK.parse_request(spec.body)[1] == msg


# -- bedrock-claude rules ----------------------------------------------------------------------------


def _request(assistant: Message, variant: str = "converse") -> dict[str, Any]:
    msgs = [Message.user("Summarise README.md"), assistant, Message.tool("tooluse_mock1", "# thinkwire")]
    return BEDROCK.build_request(msgs, model=MODEL, stream=True, variant=variant).body


def _body(rejection: Any) -> str:
    assert rejection is not None
    assert rejection.status == 400
    assert rejection.headers == (("x-amzn-ErrorType", "ValidationException"),)
    return str(json.loads(rejection.body)["message"])


@pytest.mark.parametrize("variant", ["converse", "invoke"])
def test_bedrock_claude_accepts_unmodified_reasoning(variant: str) -> None:
    assert (
        BEDROCK.provider_rules()["bedrock-claude"].validate(_request(ASSISTANT, variant), [ASSISTANT]) is None
    )


def test_bedrock_claude_rejects_reasoning_dropped_before_tool_use() -> None:
    stripped = Message("assistant", (ASSISTANT.content[1],))
    rejection = BEDROCK.provider_rules()["bedrock-claude"].validate(_request(stripped), [ASSISTANT])
    assert _body(rejection) == (
        "The model returned the following errors: messages.1.content.0.type: Expected `thinking` or "
        "`redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must "
        "start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We "
        "recommend you include thinking blocks from previous turns. To avoid this requirement, disable "
        "`thinking`. Please consult our documentation at "
        "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
    )
    assert rejection.rule == "bedrock-claude/reasoning-missing"  # type: ignore[union-attr]


def test_bedrock_claude_rejects_an_altered_signature() -> None:
    altered = Message(
        "assistant", (ReasoningBlock("Inspect the file first.", signature="sig_mock_X"), ASSISTANT.content[1])
    )
    rejection = BEDROCK.provider_rules()["bedrock-claude"].validate(_request(altered), [ASSISTANT])
    assert _body(rejection) == (
        "The model returned the following errors: messages.1.content.0: Invalid `signature` in `thinking` block"
    )
    assert rejection.differences == (  # type: ignore[union-attr]
        ("messages[1].content[0].reasoningContent.reasoningText.signature", "sig_mock_X", "sig_mock_bedrock"),
    )


def test_bedrock_claude_rejects_modified_reasoning_text() -> None:
    edited = Message(
        "assistant", (ReasoningBlock("Edited.", signature="sig_mock_bedrock"), ASSISTANT.content[1])
    )
    rejection = BEDROCK.provider_rules()["bedrock-claude"].validate(_request(edited), [ASSISTANT])
    assert _body(rejection) == (
        "The model returned the following errors: messages.1.content.0: `thinking` or `redacted_thinking` "
        "blocks in the latest assistant message cannot be modified. These blocks must remain as they were in "
        "the original response."
    )


def test_bedrock_claude_rejects_dropped_redacted_content() -> None:
    emitted = Message("assistant", (ReasoningBlock("", redacted="EmwKAhgB"), ASSISTANT.content[1]))
    assert BEDROCK.provider_rules()["bedrock-claude"].validate(_request(emitted), [emitted]) is None
    dropped = Message("assistant", (ASSISTANT.content[1],))
    assert "Expected `thinking` or `redacted_thinking`" in _body(
        BEDROCK.provider_rules()["bedrock-claude"].validate(_request(dropped), [emitted])
    )


def test_lenient_accepts_anything() -> None:
    stripped = Message("assistant", (ASSISTANT.content[1],))
    assert BEDROCK.provider_rules()["lenient"].validate(_request(stripped), [ASSISTANT]) is None


def test_error_body_shape() -> None:
    assert BEDROCK.error_body(429, "Too many requests") == b'{"message":"Too many requests"}'
    assert BEDROCK.content_type == "application/vnd.amazon.eventstream"
