"""The README's Quick example against a small correct gateway written from it (``passthrough_gateway.py``):
thinkwire's client echoes reasoning in the carrier the SUT streamed it in, so a gateway that passes
messages through unchanged passes every passback case; the same gateway stripping reasoning from the
assistant messages it forwards FAILs the DeepSeek cases, the finding naming reasoning_content as lost
by the SUT; a profile that pins another carrier says so in the finding."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from harness.runner import RunResult, run
from harness.runner._sut import command_profile
from harness.verdict import Verdict

pytestmark = pytest.mark.slow

GATEWAY = Path(__file__).with_name("passthrough_gateway.py")
DEEPSEEK = "tools-passback/deepseek-*"  # reasoning-content, three-turns, empty-reasoning (x stream/nonstream)
WITH_TEXT = ["tools-passback/deepseek-reasoning-content*", "tools-passback/deepseek-three-turns*"]


def gateway(*switches: str, front_variant: str | None = None) -> object:
    command = shlex.join([sys.executable, str(GATEWAY), *switches]) + " --port {port} --upstream {upstream}"
    profile = command_profile(command, "openai-chat")
    if front_variant is not None:
        from dataclasses import replace

        profile = replace(profile, front_variant=front_variant, front_variant_pinned=True)
    return profile


def failures(result: RunResult) -> list[str]:
    return [r.case_id for r in result.results if r.stream == Verdict.FAIL or r.unexpected]


def passback_messages(result: RunResult) -> list[str]:
    return [f.message for r in result.results for f in r.findings if f.check == "passback"]


# The one loss this gateway has: it splits MiniMax's <think> out of the content for its clients and forwards
# the reasoning back in reasoning_content, where MiniMax's interleaved thinking needs the block in the
# content as it came (its documentation; issue 46 item 5 made that silent loss a FAIL). Its fix needs
# provider knowledge the gateway does not have; LiteLLM has the same loss (docs/ecosystem-results.md).
MINIMAX = "tools-passback/minimax-interleaved-thinking[openai-chat:think-tags/frames"


def test_the_quick_example_passes_a_correct_gateway() -> None:
    result = run(["tools-passback/*"], sut=gateway(), expectations=None)
    assert result.results, "no case ran"
    lost = [c for c in failures(result) if c.startswith(MINIMAX)]
    assert len(lost) == 2  # streamed and not, each a passback-fidelity FAIL citing MiniMax's docs
    for r in result.results:
        if r.case_id in lost:
            (f,) = [f for f in r.findings if f.verdict == Verdict.FAIL]
            assert f.check == "passback-fidelity"
            assert "its documentation says it must come back" in f.message
    assert [c for c in failures(result) if c not in lost] == []
    judged = [r for r in result.results if any(f.check == "passback" and f.verdict == Verdict.PASS
                                                for f in r.findings)]
    assert len(judged) >= 8  # judged passes, not N/A


def test_a_gateway_that_strips_reasoning_fails_the_deepseek_cases() -> None:
    result = run([DEEPSEEK], sut=gateway("--strip-reasoning"), expectations=None)
    assert len(result.results) == 6
    assert all(r.stream == Verdict.FAIL for r in result.results)
    for message in passback_messages(result):
        assert "rejected the continuation with 400 (deepseek-reasoning-content-missing)" in message
        assert "sent the reasoning back in reasoning_content" in message
        assert "the SUT lost it on the way upstream" in message


def test_a_pinned_carrier_is_said_to_be_thinkwires_choice() -> None:
    """A profile pinning front_variant = "reasoning" against a reasoning_content gateway: the strict
    upstream still rejects (the SUT never carries ``reasoning`` over), and the finding says which
    carrier thinkwire sent, why, and what the SUT streamed."""
    result = run(WITH_TEXT, sut=gateway(front_variant="reasoning"), expectations=None)
    messages = passback_messages(result)
    assert messages
    failed = [m for m in messages if "rejected" in m]
    assert failed
    for message in failed:
        assert "sent the reasoning back in reasoning, pinned by front_variant = 'reasoning'" in message
        assert "the SUT had streamed it in reasoning_content" in message
