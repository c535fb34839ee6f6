"""Findings say what was seen: a SUT that raised before calling the upstream is reported as raising
(with its exception), not as a canned answer; reasoning of an earlier turn delivered again is reported
as that, not as answer text delivered as reasoning."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.drivers import parse_profile
from harness.runner import run
from harness.verdict import Status, Verdict

HERE = str(Path(__file__).parent)
PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"
KIMI = "tools-passback/kimi-reasoning-content[openai-chat:reasoning_content/frames]"


def sut(name: str, **request: Any) -> Any:
    data: dict[str, Any] = {"kind": "python", "callable": f"_misreport_suts:{name}", "sys_path": [HERE]}
    if request:
        data["request"] = {"body": request}
    return parse_profile(data)


def messages(r: Any) -> list[tuple[str, str]]:
    return [(f.check, f.message) for f in r.failing()]


def test_a_sut_that_raised_on_its_first_turn_is_reported_as_raising() -> None:
    (r,) = run([PLAIN], sut=sut("raises_before_upstream", x_raise_on=0), preflight=False).results
    assert r.status is Status.OK, r.error
    assert messages(r) == [(
        "evidence",
        "turn 0: the SUT raised ValueError: tool arguments failed validation on turn 0 before calling "
        "the upstream",
    )]


def test_a_sut_that_raised_on_a_later_turn_is_reported_as_raising() -> None:
    (r,) = run([PASSBACK], sut=sut("raises_before_upstream", x_raise_on=1), preflight=False).results
    assert r.stream is Verdict.FAIL
    found = dict(messages(r))
    assert found["evidence"] == (
        "turn 1: the SUT raised ValueError: tool arguments failed validation on turn 1 before calling "
        "the upstream"
    )
    assert "canned" not in " ".join(found.values())


def test_reasoning_repeated_from_the_previous_call_is_named() -> None:
    (r,) = run([KIMI], sut=sut("repeats_reasoning"), preflight=False).results
    assert r.stream is Verdict.FAIL
    found = dict(messages(r))
    assert found["channel-separation"] == (
        "turn 1: the reasoning of turn 0 delivered again as this turn's reasoning (a previous call's "
        "reasoning repeated)"
    )


def test_the_same_sut_passes_where_nothing_is_repeated() -> None:
    (r,) = run([PLAIN], sut=sut("repeats_reasoning"), preflight=False).results
    assert r.stream is Verdict.PASS, messages(r)
