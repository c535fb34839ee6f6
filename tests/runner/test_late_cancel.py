"""A client that cancels after the upstream's answer already ended (a buffering SUT held the reasoning the
cancel waits for until the upstream's stall timed out and the mock aborted the answer) meets no open
connection: the cancellation check does not call that "kept open" (it was UNCLEAN before), and the case
still fails, on its evidence, saying why. A SUT that keeps reading after a timely cancel stays UNCLEAN."""

from __future__ import annotations

from harness.runner import run
from harness.verdict import CaseResult, Finding, Verdict

CASE = "errors-cancellation/client-cancel[openai-chat:reasoning_content/frames]"


def _finding(fault: str, check: str) -> tuple[CaseResult, Finding]:
    (r,) = run([CASE], sut="reference", faults=(fault,), keep_timelines=False).results
    return r, next(f for f in r.findings if f.check == check)


def test_a_cancel_after_the_answer_ended_is_no_unclean_cleanup() -> None:
    r, found = _finding("buffer-reasoning", "cancellation")
    assert found.verdict is Verdict.NOT_APPLICABLE
    assert "had already ended (fault stall-timeout (abort) at" in found.message
    assert r.cleanup is not Verdict.UNCLEAN
    assert r.stream is Verdict.FAIL  # the premise failed through the SUT: its evidence says so
    (evidence,) = [f for f in r.failing() if f.check == "evidence"]
    assert "nothing was left to close" in evidence.message


def test_a_sut_that_keeps_reading_after_a_timely_cancel_is_still_unclean() -> None:
    r, found = _finding("keep-upstream-open", "cancellation")
    assert found.verdict is Verdict.UNCLEAN
    assert r.cleanup is Verdict.UNCLEAN
