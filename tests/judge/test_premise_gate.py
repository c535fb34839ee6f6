"""The premise gates only the checks that need it (issue 46): a wrapper that never asks for Responses
summaries (the reference SDK's ``no-form-triggers``) and also loses the passback or swallows a mid-stream
error is caught by ``passback`` and ``error-propagation`` on those cases, which the absent summaries left
UNSUPPORTED with the provider's 400 shown as INFO before; across the catalog no provider rejection is INFO."""

from __future__ import annotations

import pytest

from harness.runner import run
from harness.verdict import Verdict

pytestmark = pytest.mark.slow

REJECTIONS = ("passback", "passback-fidelity", "request-contract")


@pytest.mark.parametrize(
    ("fault", "cases", "check"),
    [
        ("lose-passback", "tools-passback/responses-reasoning-item[openai-responses:summary*", "passback"),
        ("swallow-stream-error", "errors-cancellation/mid-stream-error[openai-responses:summary*",
         "error-propagation"),
    ],
)  # fmt: skip
def test_a_wrapper_without_the_premise_is_judged_on_the_rest(fault: str, cases: str, check: str) -> None:
    result = run([cases], sut="reference-sdk", faults=["no-form-triggers", fault])
    assert result.results
    for r in result.results:
        verdicts = {f.check: f.verdict for f in r.findings}
        assert verdicts["premise"] == Verdict.UNSUPPORTED, r.findings  # the summaries were never asked
        assert verdicts[check] == Verdict.FAIL, r.findings
        assert r.stream == Verdict.FAIL


def test_without_the_other_fault_the_case_stays_unsupported() -> None:
    result = run(["tools-passback/responses-reasoning-item[openai-responses:summary*"], sut="reference-sdk",
                 faults=["no-form-triggers"])  # fmt: skip
    assert result.results
    assert {r.stream for r in result.results} == {Verdict.UNSUPPORTED}


def test_no_provider_rejection_is_ever_info() -> None:
    result = run(["tools-passback/*"], sut="reference-sdk", faults=["no-form-triggers", "lose-passback"])
    rejected = [f for r in result.results for f in r.findings if f.check in REJECTIONS]
    assert any(f.verdict == Verdict.FAIL for f in rejected)
    assert [f for f in rejected if f.verdict == Verdict.INFO] == []
