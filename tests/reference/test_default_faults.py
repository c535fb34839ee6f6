"""The switches of a SUT that treats a provider's defaults as opt-in (``_default_faults``): each acts only on
a client request that names no thinking setting, and the correct path changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from harness.events import Message, ReasoningBlock, TextBlock, ToolCallBlock
from harness.reference._core import Route, upstream_request
from harness.reference._default_faults import DEFAULT_FAULTS, asked_thinking, unasked_faults
from harness.reference._faults import FAULTS, GATEWAY_FAULTS

UNASKED: dict[str, Any] = {"model": "anthropic-messages:unasked/m", "messages": []}
ASKED: dict[str, Any] = {**UNASKED, "thinking": {"type": "adaptive"}}
SIGNED = ReasoningBlock("", signature="EsEBsig")
HISTORY = [
    Message.user("Weather in Lyon?"),
    Message("assistant", (SIGNED, ToolCallBlock("toolu_1", "get_weather", '{"city":"Lyon"}'))),
    Message.tool("toolu_1", "18°C"),
]


def test_the_switches_are_in_the_gateways_table() -> None:
    assert DEFAULT_FAULTS.keys() <= FAULTS.keys()
    assert {"hide-unasked-reasoning", "drop-unasked-thinking"} <= GATEWAY_FAULTS


@pytest.mark.parametrize(
    ("body", "asked"),
    [(UNASKED, False), (ASKED, True), ({"reasoning_effort": "low"}, True), ({"think": False}, True)],
)
def test_asked_thinking_reads_any_providers_field(body: dict[str, Any], asked: bool) -> None:
    assert asked_thinking(body) is asked


def test_the_switches_wait_for_a_request_that_names_no_thinking() -> None:
    both = frozenset({"hide-unasked-reasoning", "drop-unasked-thinking"})
    assert unasked_faults(both, ASKED) == both
    assert unasked_faults(both, UNASKED) == both | {"drop-reasoning", "lose-passback"}
    assert unasked_faults(frozenset(), UNASKED) == frozenset()


def _passed_back(faults: frozenset[str]) -> list[dict[str, Any]]:
    route = Route("anthropic-messages", "unasked", "claude-mythos-preview")
    spec = upstream_request(route, HISTORY, stream=True, faults=faults)
    assert "thinking" not in spec.body  # the unasked variant's request names none
    return list(spec.body["messages"][1]["content"])


def test_drop_unasked_thinking_drops_the_thinking_block_from_the_history() -> None:
    assert [b["type"] for b in _passed_back(frozenset())] == ["thinking", "tool_use"]
    faults = unasked_faults(frozenset({"drop-unasked-thinking"}), UNASKED)
    assert [b["type"] for b in _passed_back(faults)] == ["tool_use"]


def test_a_text_block_is_not_thinking() -> None:
    history = [Message.user("Hi"), Message("assistant", (TextBlock("Hello"),))]
    route = Route("anthropic-messages", "unasked", "m")
    faults = unasked_faults(frozenset({"drop-unasked-thinking"}), UNASKED)
    spec = upstream_request(route, history, stream=False, faults=faults)
    assert spec.body["messages"][1]["content"] == [{"type": "text", "text": "Hello"}]
