"""Passback rules of the providers that relay an upstream's error or only degrade, rule by rule: the exact
error each rejecting provider answers (Gemini's OpenAI-compatible endpoint, OpenRouter relaying Anthropic,
OpenAI's invalid_encrypted_content, xAI, Claude on Vertex) and the comparison of those that only degrade
(MiniMax, Z.ai, vLLM, OpenAI codex phase, xAI, OpenRouter server-tool records)."""

# ruff: noqa: E501  (exact bodies stay on one line)
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from harness.dialects import Fidelity, NeededLoss, Rejection, get_dialect
from harness.dialects.openai_chat._rules import MINIMAX_HISTORY, VLLM_INPUT_FIELD
from harness.events import Message, ReasoningBlock, TextBlock, ToolCallBlock

CHAT = get_dialect("openai-chat")
RESP = get_dialect("openai-responses")
ANT = get_dialect("anthropic-messages")

CALL = ToolCallBlock("call_1", "get_weather", '{"city":"Paris"}')


def chat_body(emitted: Sequence[Message], variant: str, **options: Any) -> dict[str, Any]:
    msgs = [Message.user("Weather?")]
    for m in emitted:
        msgs += [m, *(Message.tool(c.id, "18°C") for c in m.tool_calls)]
    return CHAT.build_request(msgs, model="m", stream=True, variant=variant, **options).body


def check(dialect: Any, name: str, body: Mapping[str, Any], emitted: Sequence[Message]) -> tuple[Rejection | None, Fidelity | None]:
    p = dialect.provider_rules()[name]
    return p.validate(body, emitted), p.fidelity(body, emitted)


# -- Gemini's OpenAI-compatible endpoint ---------------------------------------------------------


def test_gemini_openai_accepts_the_signature_on_the_first_call_only() -> None:
    emitted = [Message("assistant", (ReasoningBlock("plan"), ToolCallBlock("call_1", "a", "{}", signature="Cisig"), ToolCallBlock("call_2", "b", "{}")))]
    body = chat_body(emitted, "gemini-openai")
    assert body["messages"][1]["tool_calls"][0]["extra_content"] == {"google": {"thought_signature": "Cisig"}}
    assert "extra_content" not in body["messages"][1]["tool_calls"][1]
    assert check(CHAT, "gemini-3-openai", body, emitted) == (None, None)


def test_gemini_openai_missing_signature_is_google_s_400_in_a_json_array() -> None:
    emitted = [Message("assistant", (ToolCallBlock("call_1", "get_weather", "{}", signature="Cisig"),))]
    body = chat_body([Message("assistant", (ToolCallBlock("call_1", "get_weather", "{}"),))], "gemini-openai")
    rejection, _ = check(CHAT, "gemini-3-openai", body, emitted)
    assert rejection is not None
    assert rejection.status == 400
    assert rejection.rule == "gemini-openai/missing-signature"
    assert rejection.body.startswith(b'[{\n  "error": {\n    "code": 400,\n')
    err = json.loads(rejection.body)[0]["error"]
    assert err["status"] == "INVALID_ARGUMENT"
    assert err["message"].startswith("Function call is missing a thought_signature in functionCall parts.")
    assert "function call `default_api:get_weather` , position 1. please refer to https://ai.google.dev/gemini-api/docs/thought-signatures" in err["message"]


def test_gemini_openai_altered_signature_is_corrupted() -> None:
    emitted = [Message("assistant", (ToolCallBlock("call_1", "get_weather", "{}", signature="Cisig"),))]
    body = chat_body([Message("assistant", (ToolCallBlock("call_1", "get_weather", "{}", signature="Cixxx"),))], "gemini-openai")
    rejection, _ = check(CHAT, "gemini-3-openai", body, emitted)
    assert rejection is not None
    assert json.loads(rejection.body)[0]["error"]["message"] == "Corrupted thought signature."


# -- OpenRouter ----------------------------------------------------------------------------------


def test_openrouter_relays_anthropic_s_invalid_signature_in_its_envelope() -> None:
    emitted = [Message("assistant", (ReasoningBlock("Let me check the tool.", signature="sig_or"), CALL))]
    good = chat_body(emitted, "reasoning_details")
    assert check(CHAT, "openrouter", good, emitted) == (None, Fidelity("openrouter/server-tool-call"))
    lost = chat_body([Message("assistant", (ReasoningBlock("Let me check the tool."), CALL))], "reasoning_details")
    rejection, _ = check(CHAT, "openrouter", lost, emitted)
    assert rejection is not None
    assert rejection.family == "passback"
    body = json.loads(rejection.body)
    assert body["error"]["message"] == "Provider returned error"
    assert body["error"]["code"] == 400
    assert body["error"]["metadata"]["provider_name"] == "Anthropic"
    raw = json.loads(body["error"]["metadata"]["raw"])
    assert raw["error"] == {"type": "invalid_request_error", "message": "messages.1.content.0: Invalid `signature` in `thinking` block"}


def test_openrouter_server_tool_records_must_come_back_else_it_degrades() -> None:
    record = '{"type":"reasoning.server_tool_call","tool_name":"openrouter:web_search","arguments":"{}","result":"18°C","id":"stc_1"}'
    emitted = [Message("assistant", (ReasoningBlock("", redacted=record), CALL))]
    body = chat_body(emitted, "reasoning_details")
    assert {"type": "reasoning.server_tool_call", "tool_name": "openrouter:web_search", "arguments": "{}", "result": "18°C", "id": "stc_1", "index": 0} in body["messages"][1]["reasoning_details"]
    assert check(CHAT, "openrouter", body, emitted)[1] == Fidelity("openrouter/server-tool-call")
    lost = chat_body([Message("assistant", (CALL,))], "reasoning_details")
    fidelity = check(CHAT, "openrouter", lost, emitted)[1]
    assert fidelity is not None
    assert fidelity.differences
    assert not fidelity.rejects


# -- providers that only degrade -----------------------------------------------------------------


TURN = Message("assistant", (ReasoningBlock("\nThe user wants the weather.\n"), TextBlock("\n\n"), CALL))


@pytest.mark.parametrize("variant", ["think-tags", "reasoning_details"])
def test_minimax_keeps_the_think_block_byte_for_byte(variant: str) -> None:
    body = chat_body([TURN], variant)
    assert check(CHAT, "minimax", body, [TURN]) == (None, NeededLoss("minimax/interleaved-thinking", source=MINIMAX_HISTORY))
    trimmed = chat_body([Message("assistant", (ReasoningBlock("The user wants the weather."), TextBlock("\n\n"), CALL))], variant)
    rejection, fidelity = check(CHAT, "minimax", trimmed, [TURN])
    assert rejection is None
    assert fidelity is not None
    assert fidelity.differences
    assert not fidelity.rejects


def test_minimax_content_form_is_the_tagged_reasoning_then_the_text() -> None:
    body = chat_body([TURN], "think-tags")
    assert body["messages"][1]["content"] == "<think>\nThe user wants the weather.\n</think>\n\n"
    moved = chat_body([TURN], "think-tags", echo_fields=("reasoning_content",))
    _, fidelity = check(CHAT, "minimax", moved, [TURN])
    assert fidelity is not None
    assert fidelity.differences == (("messages[1].content", "\n\n", "<think>\nThe user wants the weather.\n</think>\n\n"),)


def test_zai_preserved_thinking_compares_reasoning_content_unless_cleared() -> None:
    body = chat_body([TURN], "reasoning_content")
    assert check(CHAT, "zai-coding", body, [TURN])[1] == Fidelity("zai/preserved-thinking")
    lost = chat_body([Message("assistant", (TextBlock("\n\n"), CALL))], "reasoning_content")
    fidelity = check(CHAT, "zai-coding", lost, [TURN])[1]
    assert fidelity is not None
    assert fidelity.differences == (("messages[1].reasoning_content", "", "\nThe user wants the weather.\n"),)
    assert check(CHAT, "zai-coding", {**lost, "thinking": {"type": "enabled", "clear_thinking": True}}, [TURN])[1] is None


def test_vllm_reads_reasoning_not_reasoning_content() -> None:
    body = chat_body([TURN], "reasoning")
    assert body["messages"][1]["reasoning"] == "\nThe user wants the weather.\n"
    assert check(CHAT, "vllm", body, [TURN])[1] == NeededLoss("vllm/reasoning-input-field", source=VLLM_INPUT_FIELD)
    legacy = chat_body([TURN], "reasoning", echo_fields=("reasoning_content",))
    fidelity = check(CHAT, "vllm", legacy, [TURN])[1]
    assert fidelity is not None
    assert fidelity.differences == (("messages[1].reasoning", None, "\nThe user wants the weather.\n"),)


# -- Responses -----------------------------------------------------------------------------------


def resp_body(emitted: Sequence[Message], variant: str = "summary") -> dict[str, Any]:
    msgs = [Message.user("Weather?")]
    for m in emitted:
        msgs += [m, *(Message.tool(c.id, "18°C") for c in m.tool_calls)]
    return RESP.build_request(msgs, model="m", stream=True, variant=variant).body


SIGNED = Message("assistant", (ReasoningBlock("plan", signature="gAAAAB+blob/x=="), CALL))
ALTERED = Message("assistant", (ReasoningBlock("plan", signature="gAAAAB-blob_x"), CALL))


def test_openai_rejects_altered_encrypted_content_with_invalid_encrypted_content() -> None:
    assert check(RESP, "openai", resp_body([SIGNED]), [SIGNED]) == (None, Fidelity("openai/encrypted-content"))
    rejection, fidelity = check(RESP, "openai", resp_body([ALTERED]), [SIGNED])
    assert rejection is not None
    assert rejection.family == "fidelity"
    assert json.loads(rejection.body) == {
        "error": {
            "message": "The encrypted content gAAA...ob_x could not be verified.",
            "type": "invalid_request_error",
            "param": None,
            "code": "invalid_encrypted_content",
        }
    }
    assert fidelity is not None
    assert fidelity.rejects


def test_xai_degrades_on_lost_reasoning_and_rejects_altered_blobs() -> None:
    assert check(RESP, "xai", resp_body([SIGNED]), [SIGNED]) == (None, Fidelity("xai/encrypted-reasoning"))
    rejection, fidelity = check(RESP, "xai", resp_body([Message("assistant", (CALL,))]), [SIGNED])
    assert rejection is None
    assert fidelity is not None
    assert fidelity.differences
    assert not fidelity.rejects
    rejection, fidelity = check(RESP, "xai", resp_body([ALTERED]), [SIGNED])
    assert rejection is not None
    assert json.loads(rejection.body) == {
        "code": "Client specified an invalid argument",
        "error": "Could not decrypt the provided encrypted_content. Ensure the value is the unmodified encrypted_content from a previous response.",
    }
    assert fidelity is not None
    assert fidelity.rejects


def test_codex_phase_is_resent_on_every_assistant_message() -> None:
    msg = Message("assistant", (ReasoningBlock("plan", signature="gAAA"), TextBlock("Let me check."), CALL))
    body = resp_body([msg], "phase")
    assert [i.get("phase") for i in body["input"] if i.get("role") == "assistant"] == ["commentary"]
    assert check(RESP, "openai-codex", body, [msg])[1] == Fidelity("openai/phase")
    for item in body["input"]:
        item.pop("phase", None)
    fidelity = check(RESP, "openai-codex", body, [msg])[1]
    assert fidelity is not None
    assert fidelity.differences == (("input[2].phase", None, "commentary"),)


def test_the_phase_variant_labels_added_and_done_items_alike() -> None:
    from harness.events import End, ReasoningDelta, TextDelta, ToolCallDelta

    em = RESP.emitter("phase")
    frames = em.feed((ReasoningDelta("plan"), TextDelta("Let me check."), ToolCallDelta(0, "c1", "f", "{}"), TextDelta("x"), End("tool_calls")))
    phases = [json.loads(f.data)["item"].get("phase") for f in frames if f.event in ("response.output_item.added", "response.output_item.done") and json.loads(f.data)["item"]["type"] == "message"]
    assert phases == ["commentary", "commentary", "final_answer", "final_answer"]


# -- Claude on Vertex ----------------------------------------------------------------------------


def test_vertex_s_contract_holds_on_vertex_s_paths_only() -> None:
    """anthropic_version belongs to :rawPredict / :streamRawPredict (issue 46 item 0): a request to
    POST /v1/messages, which Vertex does not serve, is Anthropic's API and is judged by its rules."""
    from harness.upstream._rules import validate_request
    from harness.upstream._script import Script

    script = Script("anthropic-messages", (), provider_rules="vertex")
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]}
    assert validate_request(script, body, (), path="/v1/messages") is None
    vertex = "/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5"
    for verb in (":rawPredict", ":streamRawPredict"):
        rejection = validate_request(script, body, (), path=vertex + verb)
        assert rejection is not None
        assert rejection.rule == "vertex/anthropic-version"
    assert validate_request(script, {**body, "anthropic_version": "vertex-2023-10-16"}, (), path=vertex + ":rawPredict") is None


def test_vertex_routes_by_path_and_requires_anthropic_version() -> None:
    from harness.upstream._plan import dialect_for_path

    spec = ANT.build_request([Message.user("hi")], model="claude-sonnet-4-5", stream=False, variant="vertex")
    assert spec.path.endswith("/publishers/anthropic/models/claude-sonnet-4-5:rawPredict")
    assert "model" not in spec.body
    assert spec.body["anthropic_version"] == "vertex-2023-10-16"
    assert dialect_for_path(spec.path) == "anthropic-messages"
    assert ANT.wants_stream(spec.path, {"stream": True}) is False
    assert ANT.wants_stream(spec.path.replace(":rawPredict", ":streamRawPredict"), {}) is True
    vertex = ANT.provider_rules()["vertex"]
    assert vertex.validate(spec.body, []) is None
    assert vertex.validate({**spec.body, "anthropic_version": "2026-10-21"}, []) is None  # the SDK's value
    rejection = vertex.validate({k: v for k, v in spec.body.items() if k != "anthropic_version"}, [])
    assert rejection is not None
    assert rejection.family == "request"
    assert json.loads(rejection.body) == {
        "type": "error",
        "error": {"type": "invalid_request_error", "message": "anthropic_version: Field required"},
        "request_id": "req_vrtx_mock",
    }
