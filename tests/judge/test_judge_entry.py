"""The judge's one entry (issue 47 item 5): ``judge.support`` and ``judge.judge`` decide a case from its view,
scenario and profile; each of its branches can fail the case, and a harness-side problem is ERROR."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from harness.catalog._case import Case
from harness.drivers import CaseTooBig
from harness.judge import Ruling, build_view, expect_findings, judge, support
from harness.runner._builtin import builtin_profile
from harness.runner._case_run import new_result
from harness.runner._run import load_cases
from harness.timeline import Timeline
from harness.verdict import Finding, Status, Verdict

CASE = "incrementality/gated-reasoning[openai-chat:reasoning_content/frames]"


def _case() -> Case:
    (case,) = load_cases([CASE])
    return case


@dataclass
class _Scenario:
    path: str = "scenarios/x.toml"
    expect: dict[str, str] = field(default_factory=dict)


def test_over_the_byte_cap_is_one_size_fail() -> None:
    case, profile = _case(), builtin_profile("reference")
    view = build_view(case, Timeline(), profile.abilities)
    ruling = judge(view, case.scenario, profile, too_big=CaseTooBig(1024, b"x" * 300))
    assert [(f.check, f.verdict) for f in ruling.findings] == [("size", Verdict.FAIL)]
    assert (ruling.stream, ruling.cleanup, ruling.error) == (Verdict.FAIL, Verdict.PASS, "")
    assert "more than 1024 bytes" in ruling.findings[0].message


def test_nothing_observed_is_never_pass() -> None:
    case, profile = _case(), builtin_profile("reference")
    ruling = judge(build_view(case, Timeline(), profile.abilities), case.scenario, profile)
    assert ruling.error or ruling.stream != Verdict.PASS


def test_a_mock_internal_failure_is_error_not_a_sut_verdict() -> None:
    case, profile = _case(), builtin_profile("reference")
    tl = Timeline()
    tl.add("upstream", "server-error", turn=0, cause="harness", error="boom")
    ruling = judge(build_view(case, tl, profile.abilities), case.scenario, profile)
    assert "mock upstream internal error" in ruling.error
    result = new_result(case, profile)
    ruling.into(result)
    assert (result.status, result.findings) == (Status.ERROR, [])


def test_support_names_what_the_sut_does_not_claim() -> None:
    case, profile = _case(), builtin_profile("reference")
    assert support(case, profile) is None
    narrow = dataclasses.replace(profile, unsupported_variants=(f"{case.dialect}:{case.variant}",))
    ruling = support(case, narrow)
    assert isinstance(ruling, Ruling)
    assert (ruling.stream, ruling.cleanup) == (Verdict.UNSUPPORTED, Verdict.NOT_APPLICABLE)
    assert f"does not claim {case.dialect}:{case.variant}" in ruling.findings[0].message


def test_the_scenario_expectation_can_fail_the_case() -> None:
    info = [Finding("usage", Verdict.INFO, message="no usage reported")]
    (miss,) = expect_findings(_Scenario(expect={"usage": "PASS"}), info)
    assert (miss.check, miss.verdict) == ("scenario-expect", Verdict.FAIL)
    assert "usage = PASS expected, got INFO" in miss.message
    assert expect_findings(_Scenario(expect={"usage": "INFO"}), info) == []
