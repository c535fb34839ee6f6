"""OpenRouter in front of OpenAI and in front of Gemini: the variants' reasoning_details on the wire (a
Responses item as a summary and an encrypted detail sharing its rs_ id; a tool call's thought signature
as a google-gemini-v1 encrypted detail named by the call id), read back into the same canonical
message, and the strict rules: what passes, what degrades, and the exact error relayed for each fault."""

# ruff: noqa: E501  (exact bodies stay on one line)
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from harness._json import loads
from harness.dialects import get_dialect
from harness.events import (
    End,
    Message,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    ToolCallBlock,
    ToolCallDelta,
    assemble,
)

CHAT = get_dialect("openai-chat")
RS = "rs_0a1b2c3d"
BLOB = "gAAAAABp-mock-encrypted=="
ITEM = Message("assistant", (ReasoningBlock("**Planning** weather.", signature=BLOB, id=RS), ToolCallBlock("call_1", "get_weather", '{"city":"Paris"}')))
SIG = "CiQB0e2Kb2mock+/w=="
GEMINI = Message("assistant", (ReasoningBlock("I need the tool."), ToolCallBlock("tool_get_weather_1", "get_weather", '{"city":"Paris"}', signature=SIG)))


def _body(emitted: Sequence[Message], variant: str) -> dict[str, Any]:
    msgs = [Message.user("Weather?")]
    for m in emitted:
        msgs += [m, *(Message.tool(c.id, "18°C") for c in m.tool_calls)]
    return CHAT.build_request(msgs, model="m", stream=True, variant=variant).body


def _rules(name: str) -> Any:
    return CHAT.provider_rules()[name]


def _stream(turn: tuple[Any, ...], variant: str) -> list[dict[str, Any]]:
    e = CHAT.emitter(variant)
    frames = [f.data for f in [*e.feed(turn), *e.close()]]
    return [loads(f) for f in frames if isinstance(f, str) and f.startswith("{")]


def _details(chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [d for c in chunks for ch in c["choices"] for d in ch["delta"].get("reasoning_details") or []]


def test_the_openai_variant_streams_summary_and_encrypted_details_under_one_item_id() -> None:
    turn = (ReasoningDelta("Plan ", item=RS), ReasoningDelta("it.", item=RS), ReasoningSignature(BLOB, item=RS), ToolCallDelta(0, id="call_1", name="f", arguments="{}"), End("tool_calls"))
    details = _details(_stream(turn, "openrouter-openai"))
    assert details == [
        {"type": "reasoning.summary", "summary": "Plan ", "id": RS, "format": "openai-responses-v1", "index": 0},
        {"type": "reasoning.summary", "summary": "it.", "id": RS, "format": "openai-responses-v1", "index": 0},
        {"type": "reasoning.encrypted", "data": BLOB, "id": RS, "format": "openai-responses-v1", "index": 1},
    ]
    body = loads(CHAT.emit_response(turn, "openrouter-openai"))
    assert body["choices"][0]["message"]["reasoning_details"] == [
        {"type": "reasoning.summary", "summary": "Plan it.", "id": RS, "format": "openai-responses-v1", "index": 0},
        {"type": "reasoning.encrypted", "data": BLOB, "id": RS, "format": "openai-responses-v1", "index": 1},
    ]
    read = assemble(CHAT.observe_response(CHAT.emit_response(turn, "openrouter-openai")))
    assert read.content[0] == ReasoningBlock("Plan it.", signature=BLOB, id=RS)


def test_the_gemini_variant_streams_text_details_and_the_call_signature_named_by_the_call() -> None:
    turn = (ReasoningDelta("I need"), ToolCallDelta(0, id="tool_1", name="f", arguments="{}"), ReasoningSignature(SIG), End("tool_calls"))
    details = _details(_stream(turn, "openrouter-gemini"))
    assert details == [
        {"type": "reasoning.text", "text": "I need", "format": "google-gemini-v1", "index": 0},
        {"type": "reasoning.encrypted", "data": SIG, "id": "tool_1", "format": "google-gemini-v1", "index": 1},
    ]


def test_a_faithful_passback_passes_both_rules() -> None:
    body = _body([ITEM], "openrouter-openai")
    assert body["messages"][1]["reasoning_details"][1] == {"type": "reasoning.encrypted", "data": BLOB, "id": RS, "format": "openai-responses-v1", "index": 1}
    rules = _rules("openrouter-openai")
    assert rules.validate(body, [ITEM]) is None
    assert not rules.fidelity(body, [ITEM]).differences
    body = _body([GEMINI], "openrouter-gemini")
    assert _rules("openrouter-gemini").validate(body, [GEMINI]) is None


def _with_details(body: dict[str, Any], change: Any) -> dict[str, Any]:
    msgs = [dict(m) for m in body["messages"]]
    msgs[1]["reasoning_details"] = change(msgs[1]["reasoning_details"])
    return {**body, "messages": msgs}


def _openai_error(rejection: Any) -> dict[str, Any]:
    outer = json.loads(rejection.body)["error"]
    assert outer["message"] == "Provider returned error"
    assert outer["code"] == 400
    assert outer["metadata"]["provider_name"] == "OpenAI"
    return dict(json.loads(outer["metadata"]["raw"])["error"])


def test_an_encrypted_detail_under_another_id_is_openai_s_item_id_mismatch() -> None:
    body = _with_details(_body([ITEM], "openrouter-openai"), lambda ds: [{**d, "id": "rs_gw_0"} for d in ds])
    rejection = _rules("openrouter-openai").validate(body, [ITEM])
    assert rejection is not None
    assert rejection.status == 400
    assert rejection.rule == "openrouter-openai/item-id-mismatch"
    err = _openai_error(rejection)
    assert err == {"message": "The encrypted content for item rs_gw_0 could not be verified. Reason: Encrypted content item_id did not match the target item id.", "type": "invalid_request_error", "param": None, "code": "invalid_encrypted_content"}


def test_altered_encrypted_data_is_openai_s_undecryptable_400() -> None:
    body = _with_details(_body([ITEM], "openrouter-openai"), lambda ds: [{**d, "data": "x" + d["data"]} if "data" in d else d for d in ds])
    rejection = _rules("openrouter-openai").validate(body, [ITEM])
    assert rejection is not None
    assert rejection.rule == "openrouter-openai/encrypted-altered"
    assert _openai_error(rejection)["message"].endswith("Reason: Encrypted content could not be decrypted or parsed.")


def test_a_dropped_encrypted_detail_degrades_without_a_400() -> None:
    body = _with_details(_body([ITEM], "openrouter-openai"), lambda ds: [d for d in ds if d["type"] != "reasoning.encrypted"])
    rules = _rules("openrouter-openai")
    assert rules.validate(body, [ITEM]) is None
    fidelity = rules.fidelity(body, [ITEM])
    assert fidelity.rule == "openrouter-openai/encrypted-dropped"
    assert fidelity.differences == (("messages[1].reasoning_details[reasoning.encrypted]", None, BLOB),)


def _google_error(rejection: Any) -> dict[str, Any]:
    outer = json.loads(rejection.body)["error"]
    assert outer["metadata"]["provider_name"] == "Google AI Studio"
    raw = outer["metadata"]["raw"]
    assert raw.startswith('{\n  "error": {\n    "code": 400,')
    assert raw.endswith("}\n")
    return dict(json.loads(raw)["error"])


def test_a_gemini_signature_renamed_or_dropped_is_google_s_missing_signature_400() -> None:
    for change in (lambda ds: [{**d, "id": "rs_gw_0"} if "id" in d else d for d in ds], lambda ds: [d for d in ds if d["type"] != "reasoning.encrypted"]):
        body = _with_details(_body([GEMINI], "openrouter-gemini"), change)
        rejection = _rules("openrouter-gemini").validate(body, [GEMINI])
        assert rejection is not None
        assert rejection.rule == "openrouter-gemini/missing-signature"
        err = _google_error(rejection)
        assert err["status"] == "INVALID_ARGUMENT"
        assert err["message"].startswith("Function call is missing a thought_signature in functionCall parts.")


def test_an_altered_gemini_signature_is_corrupted_thought_signature() -> None:
    body = _with_details(_body([GEMINI], "openrouter-gemini"), lambda ds: [{**d, "data": d["data"].rstrip("=")} if "data" in d else d for d in ds])
    rejection = _rules("openrouter-gemini").validate(body, [GEMINI])
    assert rejection is not None
    assert rejection.rule == "openrouter-gemini/signature-altered"
    assert _google_error(rejection) == {"code": 400, "message": "Corrupted thought signature.", "status": "INVALID_ARGUMENT"}


def test_a_summary_detail_without_its_item_id_is_openai_s_item_id_mismatch() -> None:
    """The summary detail's id is an identity field too (issue 46 item 2): lost while the encrypted
    detail keeps its id, the rebuilt item no longer matches the blob."""
    def drop(ds: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in d.items() if not (k == "id" and d["type"] == "reasoning.summary")} for d in ds]

    body = _with_details(_body([ITEM], "openrouter-openai"), drop)
    assert any(d["type"] == "reasoning.encrypted" and d["id"] == RS for d in body["messages"][1]["reasoning_details"])
    rejection = _rules("openrouter-openai").validate(body, [ITEM])
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "openrouter-openai/summary-id-mismatch")
    assert rejection.differences[0][1:] == (None, RS)
    assert _openai_error(rejection)["code"] == "invalid_encrypted_content"
    other = _with_details(_body([ITEM], "openrouter-openai"), lambda ds: [{**d, "id": "rs_x"} if d["type"] == "reasoning.summary" else d for d in ds])
    assert _rules("openrouter-openai").validate(other, [ITEM]) is not None
    assert _rules("openrouter-openai").validate(_body([ITEM], "openrouter-openai"), [ITEM]) is None
