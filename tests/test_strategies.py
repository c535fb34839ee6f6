"""harness.strategies: each strategy draws valid values, bad arguments raise, and shrinking finds the
minimal split that breaks a (deliberately) broken client."""

from __future__ import annotations

import pytest
from hypothesis import find, given, settings

from harness import strategies
from harness.catalog import Case
from harness.codec import PERTURBATIONS
from harness.dialects import Caps, Variant

DATA = "data: {\"r\": \"思考\"}\n\n".encode()


def broken_client(pieces: list[bytes]) -> str:
    """Decodes every read on its own (the split-UTF-8 bug class)."""
    return "".join(p.decode(errors="replace") for p in pieces)


def test_shrinking_finds_the_minimal_breaking_split() -> None:
    chunking = find(strategies.sse_chunkings(), lambda c: "\ufffd" in broken_client(c.split(DATA)))
    assert len(chunking.split(DATA)) == 2  # one cut, inside the code point
    assert b"".join(chunking.split(DATA)) == DATA


@settings(max_examples=30)
@given(v=strategies.wire_variants(caps=["tools"]), p=strategies.perturbations(transport="sse"))
def test_variants_and_perturbations(v: Variant, p: str) -> None:
    assert Caps.TOOLS in v.caps
    assert PERTURBATIONS[p].lossless


@settings(max_examples=30)
@given(turn=strategies.reasoning_turns(variant="anthropic-messages:thinking"))
def test_reasoning_turns_stay_within_caps(turn: tuple[object, ...]) -> None:
    from harness.events import End, RedactedReasoning

    assert isinstance(turn[-1], End)
    assert not any(isinstance(e, RedactedReasoning) for e in turn)  # thinking carries no redacted blocks


@settings(max_examples=10)
@given(case=strategies.from_scenario("tools-passback/deepseek-reasoning-content"))
def test_from_scenario(case: Case) -> None:
    assert case.scenario.id == "tools-passback/deepseek-reasoning-content"


def test_bad_arguments_raise_with_a_hint() -> None:
    with pytest.raises(ValueError, match="did you mean"):
        strategies.from_scenario("tools-passback/deepseek-reasoning-contnt")
    with pytest.raises(ValueError, match="max_cuts"):
        strategies.sse_chunkings(max_cuts=-1)
