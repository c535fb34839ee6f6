"""The strict Responses upstreams read every input item as the official openai SDK types it: an unknown
item type, a reasoning item twice and an output for no call are 400s with OpenAI's body (xAI's body on
xAI); an ``item_reference`` to a stored reasoning item is accepted wherever the real API resolves it.
And the Anthropic audit: a replayed thinking block without its ``thinking`` key is Anthropic's 400."""

from __future__ import annotations

import json
from typing import Any, get_args, get_type_hints

import pytest
import typing_extensions
from openai.types.responses import response_input_item_param

from harness.dialects import get_dialect
from harness.dialects.openai_responses._items import INPUT_ITEM_TYPES
from harness.events import Message, ReasoningBlock, ToolCallBlock

RESP = get_dialect("openai-responses")
OPENAI = RESP.provider_rules()["openai"]
XAI = RESP.provider_rules()["xai"]
EMITTED = [
    Message(
        "assistant",
        (
            ReasoningBlock("", signature="gAAAAB-enc", id="rs_mock2_0"),
            ToolCallBlock("call_mock2", "get_weather", '{"city":"Paris"}'),
        ),
    )
]
RS = {"type": "reasoning", "id": "rs_mock2_0", "summary": [], "encrypted_content": "gAAAAB-enc"}
FC = {
    "type": "function_call",
    "id": "fc_mock2_1",
    "call_id": "call_mock2",
    "name": "get_weather",
    "arguments": "{}",
}
OUT = {"type": "function_call_output", "call_id": "call_mock2", "output": "18°C"}


def _input(*items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    user = {"role": "user", "content": "Weather?"}
    return {"model": "o3", "input": [user, *items], "store": False, **extra}


def _literals(tp: Any) -> set[str]:
    out: set[str] = set()
    for a in get_args(tp):
        out |= {a} if isinstance(a, str) else _literals(a)
    return out


def test_the_item_types_are_the_sdks() -> None:
    union = get_args(response_input_item_param.ResponseInputItemParam)
    sdk = set().union(*(_literals(get_type_hints(t).get("type")) for t in union))
    assert sdk == INPUT_ITEM_TYPES


def _error(rejection: Any) -> dict[str, Any]:
    assert rejection is not None
    assert rejection.status == 400
    return dict(json.loads(rejection.body)["error"])


def test_an_unknown_item_type_is_400_invalid_value() -> None:
    event = {"type": "response.reasoning_summary_part.added", "item_id": "rs_mock2_0", "part": {}}
    rejection = OPENAI.validate(_input(event, RS, FC, OUT), EMITTED)
    err = _error(rejection)
    assert (rejection.rule, rejection.family) == ("openai/unknown-input-item", "request")
    assert err["message"].startswith("Invalid value: 'response.reasoning_summary_part.added'. Supported")
    assert (err["type"], err["param"], err["code"]) == ("invalid_request_error", "input[1]", "invalid_value")


def test_a_reasoning_item_given_twice_is_400() -> None:
    rejection = OPENAI.validate(_input(RS, RS, FC, OUT), EMITTED)
    err = _error(rejection)
    assert (rejection.rule, rejection.family) == ("openai/duplicate-item", "passback")
    assert err["message"] == (
        "Duplicate item found with id rs_mock2_0. Remove duplicate items from your input and try again."
    )


def test_an_output_for_no_call_is_400() -> None:
    other = {**OUT, "call_id": "fc_mock2_1"}  # the item id where the call id belongs
    rejection = OPENAI.validate(_input(RS, FC, other), EMITTED)
    err = _error(rejection)
    assert (rejection.rule, rejection.family) == ("openai/no-tool-call", "request")
    assert err["message"] == "No tool call found for function call output with call_id fc_mock2_1."
    # the call lives server-side when the request continues a stored response
    assert OPENAI.validate(_input(other, previous_response_id="resp_1", store=True), EMITTED) is None


def test_a_reference_to_the_stored_reasoning_item_is_accepted() -> None:
    ref = {"type": "item_reference", "id": "rs_mock2_0"}
    assert OPENAI.validate(_input(ref, FC, OUT, store=True), EMITTED) is None
    untyped = {"id": "rs_mock2_0"}  # ItemReference's type is optional
    assert OPENAI.validate(_input(untyped, FC, OUT, store=True), EMITTED) is None
    # references to the reasoning item and to the call itself, both stored
    call = {"type": "item_reference", "id": "fc_mock2_1"}
    assert OPENAI.validate(_input(ref, call, OUT, store=True), EMITTED) is None
    # under store:false nothing is stored: the reference is not found (unchanged)
    rejection = OPENAI.validate(_input(ref, FC, OUT), EMITTED)
    assert rejection is not None
    assert rejection.status == 404


def test_a_stored_reference_stands_for_the_reasoning_item_without_its_encrypted_content() -> None:
    """store left at its default (true): the openai SDK passes stored reasoning back as an item_reference
    and the API resolves it (issue 46 item 0); a reference to an item it never produced is not found."""

    def stored(*items: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in _input(*items).items() if k != "store"}  # store omitted: true

    ref = {"type": "item_reference", "id": "rs_mock2_0"}
    assert OPENAI.validate(stored(ref, FC, OUT), EMITTED) is None
    plain = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}
    assert OPENAI.validate(stored(ref, plain), EMITTED) is None
    for unknown in ({"type": "item_reference", "id": "rs_never_made"}, {"id": "rs_never_made"}):
        rejection = OPENAI.validate(stored(unknown, FC, OUT), EMITTED)
        assert rejection is not None
        assert (rejection.status, rejection.rule) == (404, "openai/not-persisted")
        assert json.loads(rejection.body)["error"]["message"] == "Item with id 'rs_never_made' not found."


def test_the_correct_continuation_is_accepted() -> None:
    assert OPENAI.validate(_input(RS, FC, OUT), EMITTED) is None


def test_xai_rejects_the_same_items_in_its_own_body() -> None:
    event = {"type": "response.reasoning_summary_part.added"}
    for items in ((event, RS, FC, OUT), (RS, RS, FC, OUT), (RS, FC, {**OUT, "call_id": "nope"})):
        rejection = XAI.validate(_input(*items), EMITTED)
        assert rejection is not None
        assert rejection.status == 400
        body = json.loads(rejection.body)
        assert set(body) == {"code", "error"}
    assert XAI.validate(_input(RS, FC, OUT), EMITTED) is None


# -- Anthropic: ThinkingBlockParam's thinking is Required[str] -------------------------------------------

ANTH = get_dialect("anthropic-messages").provider_rules()["anthropic"]
SIGNED = [Message("assistant", (ReasoningBlock("Look it up.", "sig_1"), ToolCallBlock("toolu_1", "f", "{}")))]


def _messages(thinking: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "claude",
        "max_tokens": 64,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [thinking, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "18"}]},
        ],
    }


def test_anthropic_a_thinking_block_without_its_text_is_field_required() -> None:
    rejection = ANTH.validate(_messages({"type": "thinking", "signature": "sig_1"}), SIGNED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "anthropic/thinking-required")
    body = json.loads(rejection.body)
    assert body["error"] == {
        "type": "invalid_request_error",
        "message": "messages.1.content.0.thinking.thinking: Field required",
    }
    whole = {"type": "thinking", "thinking": "Look it up.", "signature": "sig_1"}
    assert ANTH.validate(_messages(whole), SIGNED) is None


def test_anthropic_sdk_types_require_the_thinking_text() -> None:
    from anthropic.types import ThinkingBlockParam

    hints = typing_extensions.get_type_hints(ThinkingBlockParam, include_extras=True)
    assert typing_extensions.get_origin(hints["thinking"]) is typing_extensions.Required


@pytest.mark.parametrize("name", ["openai", "openai-codex", "xai"])
def test_every_strict_responses_rules_names_its_request_rules(name: str) -> None:
    rules = RESP.provider_rules()[name].request_rules
    assert set(rules) == {"openai/unknown-input-item", "openai/no-tool-call"}
