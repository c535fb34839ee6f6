"""Signatures of issue 40's catalog additions, table by table: OpenRouter's reasoning_details fragments
that share an index merge into one block (the signature arriving after the answer text has begun);
the strict OpenRouter upstream rejects a signed detail sent back without its text; a chat stream
carries a tool call's own signature as an encrypted detail naming the call; Gemini's text signature
(its signature-only last chunk) goes into a whole body's details; the gemini-3-signatures upstream
refuses a request that lost it with a 200 that finishes MISSING_THOUGHT_SIGNATURE."""

from __future__ import annotations

import json

from harness.dialects import get_dialect
from harness.events import (
    End,
    Message,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    assemble,
    index_item,
)

CHAT = get_dialect("openai-chat")
GEMINI = get_dialect("gemini")
CALL = ToolCallBlock("toolu_1", "get_weather", '{"city":"Paris"}')


def _chunk(delta: dict[str, object]) -> bytes:
    return b"data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]}).encode() + b"\n\n"


def test_a_signature_fragment_after_the_answer_text_merges_into_its_reasoning_block() -> None:
    obs = CHAT.observer("reasoning_details")
    wire = (
        _chunk({"reasoning_details": [{"type": "reasoning.text", "text": "Think", "index": 0}]})
        + _chunk({"reasoning_details": [{"type": "reasoning.text", "text": "ing.", "index": 0}]})
        + _chunk({"content": "Let me check."})
        + _chunk({"reasoning_details": [{"type": "reasoning.text", "signature": "ErUBsig==", "index": 0}]})
        + b"data: [DONE]\n\n"
    )
    message = assemble(obs.feed(wire) + obs.end())
    assert message.content == (ReasoningBlock("Thinking.", signature="ErUBsig=="), TextBlock("Let me check."))


def test_an_index_naming_no_block_yet_is_an_item_less_signature() -> None:
    # a signature-only detail with no text before it (display omitted): a block of its own
    message = assemble([ReasoningSignature("Ev0Bsig", item=index_item(0)), TextDelta("Hi.")])
    assert message.content == (ReasoningBlock("", signature="Ev0Bsig"), TextBlock("Hi."))


def test_openrouter_rejects_a_signed_detail_sent_back_without_its_text() -> None:
    emitted = [Message("assistant", (ReasoningBlock("Let me check.", signature="ErUBsig=="), CALL))]
    msgs = [Message.user("Weather?"), *emitted, Message.tool("toolu_1", "18°C")]
    body = CHAT.build_request(msgs, model="m", stream=True, variant="reasoning_details").body
    rules = CHAT.provider_rules()["openrouter"]
    assert rules.validate(body, emitted) is None
    merged = body["messages"][1]["reasoning_details"][0]
    unmerged = [
        {k: v for k, v in merged.items() if k != "signature"},
        {k: v for k, v in merged.items() if k != "text"},
    ]
    split = {
        **body,
        "messages": [
            body["messages"][0],
            {**body["messages"][1], "reasoning_details": unmerged},
            *body["messages"][2:],
        ],
    }
    rejection = rules.validate(split, emitted)
    assert rejection is not None
    assert (rejection.status, rejection.rule, rejection.family) == (
        400,
        "openrouter/signed-text-lost",
        "passback",
    )
    raw = json.loads(json.loads(rejection.body)["error"]["metadata"]["raw"])
    assert raw["error"]["message"] == "messages.1.content.0: Invalid `signature` in `thinking` block"


def test_a_tool_calls_own_signature_streams_as_an_encrypted_detail_naming_the_call() -> None:
    em = CHAT.emitter("reasoning_details")
    turn = [
        ReasoningDelta("plan"),
        ToolCallDelta(0, "call_1", "get", "{}"),
        ReasoningSignature("CiIBsig"),
        End("tool_calls"),
    ]
    details = [
        d
        for f in em.feed(turn)
        if f.data != "[DONE]"
        for d in json.loads(f.data)["choices"][0]["delta"].get("reasoning_details") or []
    ]
    assert details[-1] == {
        "type": "reasoning.encrypted",
        "data": "CiIBsig",
        "id": "call_1",
        "format": "google-gemini-v1",
        "index": 1,
    }
    obs = CHAT.observer("reasoning_details")
    em2 = CHAT.emitter("reasoning_details")
    wire = b"".join(b"data: " + f.data.encode() + b"\n\n" for f in em2.feed(turn))
    message = assemble(obs.feed(wire) + obs.end())
    assert message.tool_calls[0].signature == "CiIBsig"


def test_a_text_answers_signature_rides_in_a_whole_bodys_details() -> None:
    turn = (ReasoningDelta("r"), TextDelta("hi"), ReasoningSignature("Ev0Bsig"), End())
    body = json.loads(CHAT.emit_response(turn, "reasoning_details"))
    assert body["choices"][0]["message"]["reasoning_details"] == [
        {"type": "reasoning.text", "text": "r", "signature": "Ev0Bsig", "format": "unknown", "index": 0}
    ]


def test_gemini_streams_a_text_signature_alone_in_its_last_chunk() -> None:
    frames = GEMINI.emitter("signature-empty").feed(
        [ReasoningDelta("r"), TextDelta("hi"), ReasoningSignature("Ev0Bsig"), End()]
    )
    last = json.loads(frames[-1].data)["candidates"][0]
    assert last["content"]["parts"] == [{"text": "", "thoughtSignature": "Ev0Bsig"}]
    assert last["finishReason"] == "STOP"


def test_gemini_3_signatures_refuses_a_lost_text_signature_with_missing_thought_signature() -> None:
    emitted = [Message("assistant", (ReasoningBlock("r"), TextBlock("hi", signature="Ev0Bsig")))]
    msgs = [Message.user("q"), *emitted, Message.user("q2")]
    body = GEMINI.build_request(
        msgs, model="gemini-3-pro-preview", stream=True, variant="signature-empty"
    ).body
    strict, plain = GEMINI.provider_rules()["gemini-3-signatures"], GEMINI.provider_rules()["gemini-3"]
    assert strict.validate(body, emitted) is None
    lost = json.loads(json.dumps(body))
    for part in lost["contents"][1]["parts"]:
        part.pop("thoughtSignature", None)
    assert plain.validate(lost, emitted) is None  # gemini-3 enforces function-call signatures only
    rejection = strict.validate(lost, emitted)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (200, "gemini-3/missing-thought-signature")
    assert rejection.answer == (End("MISSING_THOUGHT_SIGNATURE"),)
    frames = GEMINI.emitter("signature-empty").feed(list(rejection.answer))
    assert json.loads(frames[-1].data)["candidates"][0]["finishReason"] == "MISSING_THOUGHT_SIGNATURE"
