"""Console summary: an expected failure is still a finding, listed one line each under the table."""

from __future__ import annotations

import io

from harness.report._console import print_summary
from harness.runner import RunResult
from harness.verdict import CaseResult, Status


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


def _result(
    n: int, status: Status = Status.OK, unexpected: bool = False, gate: float | None = None
) -> CaseResult:
    return CaseResult(
        f"s/c{n}", "s/c", "r", "cat", "sut", status=status, unexpected=unexpected, gate_wait_s=gate
    )


def test_dotted_progress_marks_error_and_timeout_apart_from_failures() -> None:
    """A CI log's dots: ``E`` for ERROR and ``T`` for TIMEOUT (the SUT or the harness could not be
    judged), ``F`` for an unexpected verdict; every ERROR case read ``F`` before."""
    from harness.report._console import Progress

    out = io.StringIO()
    progress = Progress(out)
    cases = [
        _result(1),
        _result(2, Status.ERROR, unexpected=True),
        _result(3, Status.TIMEOUT, unexpected=True),
        _result(4, unexpected=True),
        _result(5, Status.ERROR),  # an expected ERROR is still an ERROR
    ]
    for n, r in enumerate(cases, 1):
        progress(n, len(cases), r)
    assert out.getvalue() == ".ETFE 5/5\n"


def test_cases_in_flight_never_exceed_the_cases_run() -> None:
    out = io.StringIO()
    print_summary(RunResult("s", [_result(1)], concurrency=8), out)
    assert "in flight" not in out.getvalue()  # one case: nothing ran beside it
    out = io.StringIO()
    print_summary(RunResult("s", [_result(1), _result(2), _result(3)], concurrency=8), out)
    assert "\n3 cases in flight at once; 0 ran alone\n" in out.getvalue()


def test_footer_gives_the_gate_waits_the_cases_used() -> None:
    """The footer said "gates waited up to 1.00s" (the warm-up's figure) while the findings said 8.0 s
    (raised for the cases in flight) or 2.0 s (a scenario's gate_timeout): it gives what was used."""
    results = [_result(1, gate=1.0), _result(2, gate=8.0), _result(3, gate=2.0), _result(4)]
    out = io.StringIO()
    print_summary(RunResult("s", results, gate_timeout=1.0), out)
    text = out.getvalue()
    footer = "\ngate timeouts: a gate waits up to 8.0 s for the client (1.0 to 8.0 s over 3 gated case(s))\n"
    assert footer in text
    assert "1.00s" not in text
    out = io.StringIO()
    print_summary(RunResult("s", [_result(4)], gate_timeout=1.0), out)
    assert "gate timeouts" not in out.getvalue()  # no gated case: no gate waited
