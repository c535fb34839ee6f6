"""A case whose premise the request decided: the reference SUTs with ``no-form-triggers`` ask the
upstream without reasoning_split / include_thoughts / reasoning.summary. Through the gateway (thinkwire's
client asked for reasoning) that is a request-contract FAIL naming the field; through the python
wrapper (it makes its own requests) the case is UNSUPPORTED with the same reason, never a FAIL on a
form the real API would not have sent; without the fault both pass."""

from __future__ import annotations

import pytest

from harness.runner import run
from harness.verdict import Verdict

CASES = [
    "wire-variants/reasoning-then-answer[openai-chat:minimax-details/frames]",
    "wire-variants/reasoning-then-answer[openai-chat:gemini-openai/frames]",
    "wire-variants/reasoning-then-answer[gemini:thought/frames]",
    "wire-variants/reasoning-then-answer[openai-responses:summary/frames]",
]
FIELDS = ["(reasoning_split)", "include_thoughts)", "(generationConfig.thinkingConfig.includeThoughts)",
          "(reasoning.summary)"]  # fmt: skip


@pytest.mark.parametrize(("sut", "verdict", "check"), [
    ("reference", Verdict.FAIL, "request-contract"),
    ("reference-sdk", Verdict.UNSUPPORTED, "premise"),
])  # fmt: skip
def test_a_request_without_the_forms_trigger_is_judged_by_who_asked(
    sut: str, verdict: Verdict, check: str
) -> None:
    faulted = run(CASES, sut=sut, faults=("no-form-triggers",), preflight=False)
    by_id = {r.case_id: r for r in faulted.results}
    assert sorted(by_id) == sorted(CASES)
    for case_id, field in zip(CASES, FIELDS, strict=True):
        r = by_id[case_id]
        assert r.stream == verdict, (r.case_id, r.findings)
        said = [f for f in r.findings if f.check == check and f.verdict == verdict]
        assert said, r.findings
        assert "the SUT did not ask the upstream for" in said[0].message
        assert field in said[0].message
        if verdict == Verdict.UNSUPPORTED:  # the checks' findings stay, as INFO: nothing fails
            assert not [f for f in r.findings if f.failed], r.findings
    clean = run(CASES, sut=sut, preflight=False)
    assert sorted(r.case_id for r in clean.results) == sorted(CASES)
    assert [r.stream for r in clean.results] == [Verdict.PASS] * len(CASES)
