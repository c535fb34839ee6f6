"""passback-fidelity and request-contract end to end, against the reference gateway: a provider that only
degrades gives NON_STRICT (a failure under --strict only), one that rejects, or whose docs say the lost
piece must come back, gives FAIL with the provider's status or doc, a correct SUT passes (a judged
PASS, never N/A), a profile without a request rule is N/A for request-contract, and each cause has one
owner."""

from __future__ import annotations

import pytest

from harness.runner import RunResult, run
from harness.verdict import Finding, Verdict

pytestmark = pytest.mark.slow

XAI = "tools-passback/xai-encrypted-reasoning[openai-responses:summary/frames]"
VERTEX = "wire-variants/vertex-claude[anthropic-messages:vertex/frames]"


def finding(result: RunResult, check: str) -> Finding:
    (r,) = result.results
    return next(f for f in r.findings if f.check == check)


def test_a_faithful_continuation_is_a_judged_pass() -> None:
    result = run([XAI], sut="reference", expectations=None)
    f = finding(result, "passback-fidelity")
    assert f.verdict == Verdict.PASS
    assert "1 continuation(s) faithful" in f.message


@pytest.mark.parametrize(("strict", "exit_code"), [(False, 0), (True, 1)])
def test_lost_reasoning_the_provider_only_degrades_on_is_non_strict(strict: bool, exit_code: int) -> None:
    result = run([XAI], sut="reference", faults=["lose-passback"], expectations=None, strict=strict)
    f = finding(result, "passback-fidelity")
    assert f.verdict == Verdict.NON_STRICT
    assert "answers 200" in f.message
    assert finding(result, "passback").verdict == Verdict.PASS
    assert result.results[0].stream == Verdict.NON_STRICT
    assert result.exit_code == exit_code


def test_an_altered_blob_the_provider_rejects_is_a_fail_owned_by_passback_fidelity() -> None:
    result = run([XAI], sut="reference", faults=["alter-encrypted"], expectations=None)
    f = finding(result, "passback-fidelity")
    assert f.verdict == Verdict.FAIL
    assert "rejected the continuation with 400 (xai/encrypted-content-altered)" in f.message
    assert finding(result, "passback").verdict == Verdict.PASS
    assert result.exit_code == 1


VLLM = "tools-passback/vllm-reasoning-field[openai-chat:reasoning/frames]"
OR_OPENAI = "tools-passback/openrouter-openai-encrypted[openai-chat:openrouter-openai/frames]"


@pytest.mark.parametrize(
    ("case", "fault", "doc"),
    [
        (VLLM, "reasoning-content-passback", "docs.vllm.ai"),  # a field the provider ignores
        (OR_OPENAI, "drop-encrypted-details", "openrouter.ai/docs"),  # a detail it needs to keep reasoning
    ],
)
def test_a_silent_loss_the_provider_needs_is_a_fail_citing_its_doc(case: str, fault: str, doc: str) -> None:
    result = run([case], sut="reference", faults=[fault], expectations=None)
    f = finding(result, "passback-fidelity")
    assert f.verdict == Verdict.FAIL
    assert "answers 200, but its documentation says it must come back" in f.message
    assert doc in f.message
    assert finding(result, "passback").verdict == Verdict.PASS
    assert result.exit_code == 1
    clean = run([case], sut="reference", expectations=None)
    assert finding(clean, "passback-fidelity").verdict == Verdict.PASS


def test_no_comparison_is_not_applicable() -> None:
    result = run(
        ["tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"],
        sut="reference",
        expectations=None,
    )
    assert finding(result, "passback-fidelity").verdict == Verdict.NOT_APPLICABLE


def test_request_contract_passes_a_correct_request_and_fails_the_first_turn_rejected() -> None:
    correct = run([VERTEX], sut="reference", expectations=None)
    assert finding(correct, "request-contract").verdict == Verdict.PASS
    result = run([VERTEX], sut="reference", faults=["drop-vertex-version"], expectations=None)
    f = finding(result, "request-contract")
    assert f.verdict == Verdict.FAIL
    assert "turn 0: the strict upstream (vertex) rejected the request with 400" in f.message
    assert [x.check for x in result.results[0].failing()] == ["request-contract"]


def test_request_contract_is_not_applicable_where_the_profile_enforces_no_request_rule() -> None:
    """An accepted request proves nothing about a contract the profile does not have (never a PASS)."""
    result = run(
        ["tools-passback/kimi-reasoning-content[openai-chat:reasoning_content/frames]"],
        sut="reference",
        expectations=None,
    )
    f = finding(result, "request-contract")
    assert f.verdict == Verdict.NOT_APPLICABLE
    assert "enforce no request contract rule" in f.message
    correct = run([VERTEX], sut="reference", expectations=None)
    assert "under vertex/anthropic-version" in finding(correct, "request-contract").message
