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


def test_quiet_progress_says_one_line_a_minute(run_result: RunResult) -> None:
    """``-q`` on a run of minutes: nothing per case, one line each minute of the (fake) clock."""
    from harness.report._console import Progress

    now = [100.0]
    out = io.StringIO()
    progress = Progress(out, quiet=True, clock=lambda: now[0])
    case = run_result.results[0]
    lines: list[list[str]] = []
    for n in range(1, 301):  # 300 cases, 1.5 s each: 7.5 minutes
        now[0] += 1.5
        progress(n, 300, case)
        lines.append(out.getvalue().splitlines())
    said = out.getvalue().splitlines()
    assert len(said) == 7  # minutes 1..7; the last case is followed by the summary, not a line
    assert said[0] == f"thinkwire: 40/300 cases, {40 * case.unexpected} unexpected, 1m00s"
    assert said[-1].startswith("thinkwire: 280/300 cases")
    assert said[-1].endswith("7m00s")
    assert lines[38] == []  # nothing before the first minute


def test_quiet_progress_on_a_short_run_says_nothing(run_result: RunResult) -> None:
    from harness.report._console import Progress

    out = io.StringIO()
    progress = Progress(out, quiet=True, clock=lambda: 0.0)
    for n, case in enumerate(run_result.results, 1):
        progress(n, len(run_result.results), case)
    assert out.getvalue() == ""
