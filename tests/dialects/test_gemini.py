"""Gemini dialect: literal frames both ways, hypothesis round trips, observer notices, request codec,
provider rules with Google's exact 400 bodies, and google-genai reading the emitter's bytes."""

# ruff: noqa: E501  (literal wire bytes and bodies stay on one line)
from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from frames_gemini import CASES, MODEL
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import Frame, encode_frames
from harness.dialects import get_dialect
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
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
)
from harness.strategies import Chunking, reasoning_turns, sse_chunkings


def encode_sse_crlf(frames: list[Frame]) -> list[bytes]:
    """Gemini's own framing: ``data: <json>`` then CRLF CRLF (what its ``sse_eol = "\\r\\n"`` asks for)."""
    return list(encode_frames(frames, "sse", "crlf"))


GEMINI = get_dialect("gemini")


def _norm(events: list[Event] | Turn) -> Turn:
    return strip_items(coalesce(events))


def _observe(chunks: list[bytes]) -> list[Event]:
    obs = GEMINI.observer()
    out: list[Event] = []
    for c in chunks:
        out += obs.feed(c)
    return out + obs.end()


def _notices(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.code, e.detail) for e in events if isinstance(e, Notice)]


# -- the literal table, both directions ---------------------------------------------------------------


@pytest.mark.parametrize(("variant", "desc", "turn", "frames"), CASES, ids=[c[0] for c in CASES])
def test_emitter_reproduces_the_literal_frames(
    variant: str, desc: str, turn: Turn, frames: list[bytes]
) -> None:
    em = GEMINI.emitter(variant, model=MODEL)
    assert encode_sse_crlf(em.feed(turn) + em.close()) == frames


@pytest.mark.parametrize(("variant", "desc", "turn", "frames"), CASES, ids=[c[0] for c in CASES])
def test_observer_reads_the_literal_frames(variant: str, desc: str, turn: Turn, frames: list[bytes]) -> None:
    whole = _observe(frames)
    assert _norm(whole) == _norm(turn)
    assert _notices(whole) == []
    data = b"".join(frames)
    one_byte = _observe([data[i : i + 1] for i in range(len(data))])
    assert one_byte == whole


def test_catalog_frames_5_1_observe_as_reasoning_then_signed_call() -> None:
    catalog = (
        b'data: {"candidates": [{"content": {"parts": [{"text": "**Planning**\\n\\nI need the weather.","thought": true}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 60,"totalTokenCount": 65,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 60}],"thoughtsTokenCount": 5},"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n'
        b'data: {"candidates": [{"content": {"parts": [{"functionCall": {"name": "get_weather","args": {"city": "Paris"}},"thoughtSignature": "CiIB0e2Kb3a4gkvo"}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 60,"candidatesTokenCount": 15,"totalTokenCount": 80,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 60}],"thoughtsTokenCount": 5},"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n'
    )
    assert _observe([catalog]) == [
        ReasoningDelta("**Planning**\n\nI need the weather."),
        ToolCallDelta(0, None, "get_weather", '{"city":"Paris"}'),
        ReasoningSignature("CiIB0e2Kb3a4gkvo"),
        Usage(60, 20, 5, 80),
        End("tool_calls"),
    ]
    msg = assemble(_observe([catalog]))
    assert msg.content[1] == ToolCallBlock("", "get_weather", '{"city":"Paris"}', "CiIB0e2Kb3a4gkvo")


# -- hypothesis round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(GEMINI.variants))
@given(data=st.data(), chunking=sse_chunkings(max_cuts=16))
def test_round_trip_under_arbitrary_splits(variant: str, data: st.DataObject, chunking: Chunking) -> None:
    turn = data.draw(reasoning_turns(variant=f"gemini:{variant}"))
    em = GEMINI.emitter(variant)
    frames = em.feed(turn) + em.close()
    crlf = chunking.pieces(encode_sse_crlf(frames))
    assert _norm(_observe(crlf)) == _norm(turn)
    lf = chunking.pieces(encode_frames(frames, "sse"))  # the generic LF encoder reads the same
    assert _norm(_observe(lf)) == _norm(turn)


@pytest.mark.parametrize("variant", list(GEMINI.variants))
@given(data=st.data())
def test_non_streaming_round_trip(variant: str, data: st.DataObject) -> None:
    turn = data.draw(reasoning_turns(variant=f"gemini:{variant}"))
    body = GEMINI.emit_response(turn, variant)
    assert assemble(GEMINI.observe_response(body)) == assemble(turn)
    observed = [e for e in GEMINI.observe_response(body) if not isinstance(e, ReasoningDelta | TextDelta)]
    if not any(isinstance(e, Usage) for e in turn):  # a whole body always counts its tokens
        counted = [e for e in observed if isinstance(e, Usage)]
        assert len(counted) == 1
        assert counted[0].input_tokens == 12
        assert counted[0].total_tokens is not None
        observed = [e for e in observed if not isinstance(e, Usage)]
    assert _norm(observed) == (
        _norm([e for e in turn if isinstance(e, ToolCallDelta | ReasoningSignature | Usage | End)])
    )


# -- observer: errors, anomalies, notices ----------------------------------------------------------------

_PRETTY_ERROR = (
    b'{\n  "error": {\n    "code": 503,\n    "message": "The model is overloaded. Please try again later.",\n'
    b'    "status": "UNAVAILABLE"\n  }\n}\n'
)


def test_raw_pretty_printed_error_lines_become_a_stream_error() -> None:
    frames = encode_sse_crlf(GEMINI.emitter("thought").feed([TextDelta("Hi")]))
    events = _observe([*frames, _PRETTY_ERROR])
    assert events[0] == TextDelta("Hi")
    assert events[2] == StreamError("The model is overloaded. Please try again later.", "UNAVAILABLE", 503)
    assert events[1].code == "raw-json-line"  # type: ignore[union-attr]
    assert len(events) == 3  # an error ends the stream: no "no-terminator" notice


def test_mid_stream_error_frame_from_the_emitter() -> None:
    em = GEMINI.emitter("thought")
    frames = em.feed([TextDelta("Hi"), StreamError("Internal error encountered.", status=500)])
    assert (
        frames[-1].data
        == '{"error": {"code": 500,"message": "Internal error encountered.","status": "INTERNAL"}}'
    )
    assert frames[-1].tags == frozenset({"error"})
    assert em.close() == []
    assert _observe(encode_sse_crlf(frames)) == [
        TextDelta("Hi"),
        StreamError("Internal error encountered.", "INTERNAL", 500),
    ]


def test_missing_finish_reason_is_a_no_terminator_notice() -> None:
    frames = encode_sse_crlf(GEMINI.emitter("thought").feed([TextDelta("Hi")]))
    assert _observe(frames) == [
        TextDelta("Hi"),
        Notice("no-terminator", "the stream closed without a finishReason"),
    ]


def test_malformed_json_unknown_fields_and_sse_anomalies_are_notices() -> None:
    stream = (
        b"\xef\xbb\xbf: keep-alive\r\n\r\n"
        b'data: {"candidates": [{"content": {"parts": [{"text": "tru'
        b"\r\n\r\n"
        b'data:{"nonce": "02851a67b0fb34","weird": 1,"candidates": [{"content": {"parts": [{"text": "ok","x": 2}],'
        b'"role": "model"},"finishReason": "STOP","index": 0}]}\r\n\r\n'
        b"garbage line\r\n\r\n"
    )
    events = _observe([stream])
    assert [e for e in events if not isinstance(e, Notice)] == [TextDelta("ok"), End("stop")]
    assert _notices(events) == [
        ("sse-bom", ""),
        ("sse-comment", ": keep-alive"),
        ("malformed-json", '{"candidates": [{"content": {"parts": [{"text": "tru'),
        ("sse-data-no-space", "google-genai only reads 'data: ' with a space"),
        ("unknown-field", "weird"),
        ("unknown-field", "parts[]." + "x"),
        ("malformed-json", "garbage line"),
    ]


def test_unterminated_final_frame_is_not_dispatched() -> None:
    em = GEMINI.emitter("thought")
    frames = encode_sse_crlf(em.feed([TextDelta("Hi"), End()]))
    events = _observe([frames[0], frames[1][:-4]])
    assert [e for e in events if not isinstance(e, Notice)] == [TextDelta("Hi")]
    assert ("sse-unterminated", "") in _notices(events)
    assert ("no-terminator", "the stream closed without a finishReason") in _notices(events)


def test_frames_after_the_finish_reason_are_noticed() -> None:
    em = GEMINI.emitter("thought")
    frames = encode_sse_crlf(em.feed([TextDelta("Hi"), End()]))
    events = _observe([*frames, frames[0]])
    assert ("data-after-finish", "a frame with candidates followed a finishReason") in _notices(events)
    assert events[-1] == Notice("no-terminator", "the stream closed without a finishReason")


def test_close_without_end_emits_the_terminal_frame_once() -> None:
    em = GEMINI.emitter("thought")
    em.feed([TextDelta("Hi")])
    [terminal] = em.close()
    assert terminal.tags == frozenset({"terminal"})
    assert '"finishReason": "STOP"' in terminal.data
    assert em.close() == []


def test_error_body_is_google_pretty_printed() -> None:
    assert GEMINI.error_body(429, "Resource has been exhausted (e.g. check quota).") == (
        b'{\n  "error": {\n    "code": 429,\n    "message": "Resource has been exhausted (e.g. check quota).",\n'
        b'    "status": "RESOURCE_EXHAUSTED"\n  }\n}\n'
    )


# -- request codec ---------------------------------------------------------------------------------------

CONVERSATION = [
    Message("system", (TextBlock("Be brief."),)),
    Message.user("Weather in Paris?"),
    Message(
        "assistant",
        (
            ReasoningBlock("I need the weather."),
            ToolCallBlock("call_1", "get_weather", '{"city":"Paris"}', "CiIB0e2Kb3a4gkvo"),
            ToolCallBlock("call_2", "get_time", '{"tz":"CET"}'),
        ),
    ),
    Message.tool("call_1", "18°C, clear"),
    Message.tool("call_2", "14:00"),
]


def test_build_request_puts_each_signature_on_its_part() -> None:
    spec = GEMINI.build_request(CONVERSATION, model="gemini-3-pro-preview", stream=True, variant="signature")
    assert spec.path == "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse"
    assert spec.body == {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
            {
                "role": "model",
                "parts": [
                    {"text": "I need the weather.", "thought": True},
                    {
                        "functionCall": {"id": "call_1", "name": "get_weather", "args": {"city": "Paris"}},
                        "thoughtSignature": "CiIB0e2Kb3a4gkvo",
                    },
                    {"functionCall": {"id": "call_2", "name": "get_time", "args": {"tz": "CET"}}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "id": "call_1",
                            "name": "get_weather",
                            "response": {"result": "18°C, clear"},
                        }
                    },
                    {
                        "functionResponse": {
                            "id": "call_2",
                            "name": "get_time",
                            "response": {"result": "14:00"},
                        }
                    },
                ],
            },
        ],
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "generationConfig": {"thinkingConfig": {"includeThoughts": True}},
    }
    nonstream = GEMINI.build_request(CONVERSATION, model="m", stream=False, variant="thought")
    assert nonstream.path == "/v1beta/models/m:generateContent"
    assert any(nonstream.path.endswith(s) for s in GEMINI.path_suffixes)


def test_parse_request_inverts_build_request() -> None:
    spec = GEMINI.build_request(CONVERSATION, model="m", stream=True, variant="signature")
    parsed = GEMINI.parse_request(spec.body)
    named = [
        *CONVERSATION[:3],
        Message.tool("call_1", "18°C, clear", "get_weather"),
        Message.tool("call_2", "14:00", "get_time"),
    ]
    assert parsed == named


def test_signature_only_blocks_pass_back_as_empty_text_parts() -> None:
    msg = Message("assistant", (TextBlock("Hello."), ReasoningBlock("", signature="CiIB")))
    spec = GEMINI.build_request([Message.user("hi"), msg], model="m", stream=True, variant="signature-empty")
    assert spec.body["contents"][1]["parts"] == [{"text": "Hello."}, {"text": "", "thoughtSignature": "CiIB"}]
    assert GEMINI.parse_request(spec.body)[1] == msg


# -- provider rules --------------------------------------------------------------------------------------

EMITTED = [
    Message(
        "assistant",
        (
            ReasoningBlock("I need the weather."),
            ToolCallBlock("call_1", "get_weather", '{"city":"Paris"}', "CiIB0e2Kb3a4gkvo"),
        ),
    )
]


def _request(signature: str | None, *, history_without_signature: bool = False) -> dict[str, Any]:
    msgs: list[Message] = []
    if history_without_signature:  # an earlier, finished turn: not validated
        msgs += [
            Message.user("Earlier question"),
            Message("assistant", (ToolCallBlock("call_0", "lookup", "{}"),)),
            Message.tool("call_0", "done"),
            Message("assistant", (TextBlock("Earlier answer"),)),
        ]
    call = ToolCallBlock("call_1", "get_weather", '{"city":"Paris"}', signature)
    msgs += [
        Message.user("Weather in Paris?"),
        Message("assistant", (ReasoningBlock("I need the weather."), call)),
        Message.tool("call_1", "18°C, clear"),
    ]
    return GEMINI.build_request(msgs, model="m", stream=True, variant="signature").body


def test_gemini_3_accepts_the_signature_returned_on_its_part() -> None:
    strict = GEMINI.provider_rules()["gemini-3"]
    assert strict.validate(_request("CiIB0e2Kb3a4gkvo"), EMITTED) is None
    assert strict.validate(_request("CiIB0e2Kb3a4gkvo", history_without_signature=True), EMITTED) is None


def test_gemini_3_rejects_a_missing_signature_with_the_exact_body() -> None:
    rejection = GEMINI.provider_rules()["gemini-3"].validate(_request(None), EMITTED)
    assert rejection is not None
    assert rejection.status == 400
    assert rejection.rule == "gemini-3/missing-signature"
    assert rejection.differences == (("contents[1].parts[1].thoughtSignature", None, "CiIB0e2Kb3a4gkvo"),)
    assert rejection.body.decode() == (
        "{\n"
        '  "error": {\n'
        '    "code": 400,\n'
        '    "message": "Function call is missing a thought_signature in functionCall parts. This is required'
        " for tools to work correctly, and missing thought_signature may lead to degraded model performance."
        " Additional data, function call `default_api:get_weather` , position 1. Please refer to"
        ' https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",\n'
        '    "status": "INVALID_ARGUMENT"\n'
        "  }\n"
        "}\n"
    )
    later = GEMINI.provider_rules()["gemini-3"].validate(
        _request(None, history_without_signature=True), EMITTED
    )
    assert later is not None
    assert "position 5." in json.loads(later.body)["error"]["message"]


def test_gemini_3_only_the_first_parallel_call_needs_a_signature() -> None:
    spec = GEMINI.build_request(CONVERSATION, model="m", stream=True, variant="signature")
    assert GEMINI.provider_rules()["gemini-3"].validate(spec.body, []) is None


def test_gemini_3_rejects_an_altered_signature() -> None:
    rejection = GEMINI.provider_rules()["gemini-3"].validate(_request("CiIB0e2Kb3a4gkvX"), EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "gemini-3/signature-altered")
    assert rejection.body == (
        b'{\n  "error": {\n    "code": 400,\n    "message": "Corrupted thought signature.",\n'
        b'    "status": "INVALID_ARGUMENT"\n  }\n}\n'
    )
    assert rejection.differences == (
        ("contents[1].parts[1].thoughtSignature", "CiIB0e2Kb3a4gkvX", "CiIB0e2Kb3a4gkvo"),
    )


def test_gemini_3_rejects_a_truncated_signature_as_bad_base64() -> None:
    rejection = GEMINI.provider_rules()["gemini-3"].validate(_request("CiIB0"), EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "gemini-3/signature-not-base64")
    message = json.loads(rejection.body)["error"]["message"]
    assert message == (
        "Invalid value at 'contents[1].parts[1].thought_signature' (TYPE_BYTES), Base64 decoding failed for \"CiIB0\""
    )


def test_gemini_3_accepts_the_documented_sentinel() -> None:
    strict = GEMINI.provider_rules()["gemini-3"]
    assert strict.validate(_request("skip_thought_signature_validator"), EMITTED) is None


def test_gemini_2_5_and_lenient_accept_a_missing_signature() -> None:
    assert GEMINI.provider_rules()["gemini-2.5"].validate(_request(None), EMITTED) is None
    assert GEMINI.provider_rules()["lenient"].validate(_request(None), EMITTED) is None


@pytest.mark.parametrize("rules", ["gemini-2.5", "gemini-3"])
def test_shape_streams_no_thoughts_unless_include_thoughts(rules: str) -> None:
    turn: Turn = (ReasoningDelta("hmm"), TextDelta("Hi"), ReasoningSignature("CiIB"), End())
    shaped = GEMINI.provider_rules()[rules]
    with_thoughts = GEMINI.build_request([Message.user("hi")], model="m", stream=True, variant="thought").body
    without = GEMINI.build_request(
        [Message.user("hi")], model="m", stream=True, variant="thought", include_thoughts=False
    ).body
    assert shaped.shape(with_thoughts, turn) == turn
    assert shaped.shape(without, turn) == (TextDelta("Hi"), ReasoningSignature("CiIB"), End())
    assert GEMINI.provider_rules()["lenient"].shape(without, turn) == turn


# -- google-genai reads the emitter's bytes -------------------------------------------------------------


def test_google_genai_parses_the_emitter_output() -> None:
    genai = pytest.importorskip("google.genai")
    httpx = pytest.importorskip("httpx")
    variant, _, turn, _ = CASES[1]  # signature: thought, signed call, parallel call
    em = GEMINI.emitter(variant, model=MODEL)
    body = b"".join(encode_sse_crlf(em.feed(turn) + em.close()))
    seen: list[str] = []

    def handler(request: Any) -> Any:
        seen.append(request.url.path)
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    client = genai.Client(
        api_key="test-key",
        http_options=genai.types.HttpOptions(
            base_url="http://gemini.mock", httpx_client=httpx.Client(transport=httpx.MockTransport(handler))
        ),
    )
    chunks = list(client.models.generate_content_stream(model=MODEL, contents="Weather in Paris?"))
    assert len(seen) == 1
    assert seen[0].endswith(f"/models/{MODEL}:streamGenerateContent")  # the SDK picks /v1 or /v1beta
    assert any(seen[0].endswith(s) for s in GEMINI.path_suffixes)
    parts = [p for c in chunks for p in c.candidates[0].content.parts]
    assert [(p.thought, p.text) for p in parts if p.text] == [(True, "**Planning**\n\nI need the weather.")]
    calls = [p for p in parts if p.function_call]
    assert [(p.function_call.id, p.function_call.name, p.function_call.args) for p in calls] == [
        ("call_1", "get_weather", {"city": "Paris"}),
        ("call_2", "get_time", {"tz": "CET"}),
    ]
    # google-genai decodes thoughtSignature from base64 into bytes
    assert calls[0].thought_signature == base64.b64decode("CiIB0e2Kb3a4gkvo")
    assert calls[1].thought_signature is None
    assert chunks[-1].candidates[0].finish_reason == genai.types.FinishReason.STOP


def test_google_genai_quirk_comment_lines_break_it() -> None:
    """Known quirk (wire-formats.md §1.3): comment lines reach json.loads in google-genai."""
    genai = pytest.importorskip("google.genai")
    httpx = pytest.importorskip("httpx")
    body = b": keep-alive\r\n\r\n" + b"".join(
        encode_sse_crlf(GEMINI.emitter("thought").feed([TextDelta("Hi"), End()]))
    )

    def handler(request: Any) -> Any:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    client = genai.Client(
        api_key="k",
        http_options=genai.types.HttpOptions(
            base_url="http://gemini.mock", httpx_client=httpx.Client(transport=httpx.MockTransport(handler))
        ),
    )
    with pytest.raises(genai.errors.UnknownApiResponseError, match="Raw response: : keep-alive"):
        list(client.models.generate_content_stream(model=MODEL, contents="hi"))
    # ... while our observer reads it and reports the comment
    events = _observe([body])
    assert _notices(events) == [("sse-comment", ": keep-alive")]
