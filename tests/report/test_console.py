"""Console summary: an expected failure is still a finding, listed one line each under the table."""

from __future__ import annotations

import io

from harness.report._console import print_summary
from harness.suite import RunResult


def test_expected_failures_are_listed_under_the_summary(run_result: RunResult) -> None:
    out = io.StringIO()
    print_summary(run_result, out)
    text = out.getvalue()
    assert "expected failures (1, recorded in the expectations file):" in text
    line = next(ln for ln in text.splitlines() if "passback/signature@anthropic:thinking" in ln)
    assert line.startswith("  × passback/signature@anthropic:thinking — passback: ")
    assert text.rstrip().endswith("unexpected result(s)")


def test_a_run_without_expected_failures_lists_none() -> None:
    out = io.StringIO()
    print_summary(RunResult("s", []), out)
    assert "expected failures" not in out.getvalue()
