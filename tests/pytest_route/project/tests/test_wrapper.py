"""A wrapper's thinkwire tests, as its authors write them (docs/pytest.md is written around this file).

thinkwire's own suite runs it in a subprocess (tests/pytest_route), against the correct wrapper and
against planted bugs: if the docs' examples break, that suite fails.
"""

from __future__ import annotations

import pytest
import tw_adapter
from hypothesis import Phase, given, settings

from harness import strategies
from harness.events import ReasoningDelta
from harness.upstream import Emit, Script

# Every thinkwire test of this module runs the wrapper's adapter (tests/ is on pytest's pythonpath).
pytestmark = pytest.mark.thinkwire(sut="tw_adapter:stream")

PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"


# --- one item per case the wrapper claims ------------------------------------------------------------
@pytest.mark.thinkwire(cases=["tools-passback/deepseek-*", "tools-passback/anthropic-*"])
def test_case(thinkwire_run, thinkwire_case) -> None:  # type: ignore[no-untyped-def]
    result = thinkwire_run()  # runs this item's case
    assert result.unexpected == []


# --- a glob in one test: --thinkwire-cases narrows it ---------------------------------------------------
def test_deepseek_passback(thinkwire_run) -> None:  # type: ignore[no-untyped-def]
    result = thinkwire_run("tools-passback/deepseek-*")
    assert result.unexpected == []


# --- a snapshot of what the wrapper's users see ----------------------------------------------------------
def test_passback_snapshot(thinkwire_run, thinkwire_snapshot) -> None:  # type: ignore[no-untyped-def]
    assert thinkwire_snapshot == thinkwire_run(PASSBACK)


# --- hypothesis over the mock upstream: the wrapper's own decoder ----------------------------------------
# (no explain phase: its notes list the HTTP library's lines a failing example ran, not the wrapper's)
@settings(max_examples=20, deadline=None, phases=[p for p in Phase if p is not Phase.explain])
@given(turn=strategies.reasoning_turns(variant="openai-chat:reasoning_content"))
def test_decoder_keeps_the_reasoning(mock_upstream_factory, turn) -> None:  # type: ignore[no-untyped-def]
    with mock_upstream_factory.fresh() as upstream:  # reset for each example
        upstream.load(Script("openai-chat", (Emit(turn),), variant="reasoning_content"))
        sent = "".join(e.text for e in turn if isinstance(e, ReasoningDelta))
        assert tw_adapter.reasoning_of(upstream.base_url) == sent
