"""The reports' size budget: a passing run of about 500 cases writes report.html and results.json of at
most 5 MB each (docs/benchmarks.md has the figures of the real catalog run). Guarded here with the
catalog's heaviest cases (per-byte chunkings: thousands of upstream writes each), run for real against
the reference gateway and counted 500 times: an upper bound for any 500-case passing run."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from harness.report import write_reports
from harness.report._json import to_json
from harness.runner import RunResult, run

BUDGET = 5 * 1024 * 1024
HEAVIEST = [
    "sse-framing/perturbations[openai-responses:summary/bytes/multiline]",
    "sse-framing/perturbations[openai-responses:summary/bytes/event-only]",
    "wire-variants/reasoning-then-answer[openai-responses:vllm-parts/bytes]",
]


@pytest.fixture(scope="module")
def heavy() -> tuple[RunResult, RunResult]:
    summarised = run(HEAVIEST, sut="reference", expectations=None, keep_timelines="failures")
    kept = run(HEAVIEST, sut="reference", expectations=None, keep_timelines=True)
    return summarised, kept


def test_500_passing_cases_fit_the_budget(heavy: tuple[RunResult, RunResult], tmp_path: Path) -> None:
    summarised, _ = heavy
    assert summarised.exit_code == 0
    assert all(r.timeline_summary and not r.timeline for r in summarised.results)
    many = RunResult(summarised.sut, duration_s=summarised.duration_s)
    for n in range(500):
        r = summarised.results[n % len(summarised.results)]
        many.results.append(dataclasses.replace(r, case_id=f"{r.case_id}#{n}"))
    out = write_reports(many, tmp_path)
    sizes = {name: out[name].stat().st_size for name in ("html", "json")}
    assert sizes["html"] <= BUDGET, sizes
    assert sizes["json"] <= BUDGET, sizes


def test_kept_timelines_are_what_the_budget_is_about(heavy: tuple[RunResult, RunResult]) -> None:
    """The guard measures something: each of these cases with its whole timeline (--keep-timelines)
    would take the budget of 500 cases in about 10 of them; summarised it takes a few KiB."""
    summarised, kept = heavy
    assert all(len(r.timeline) > 3000 for r in kept.results)
    full = len(str(to_json(kept)))
    small = len(str(to_json(summarised)))
    assert full / len(kept.results) > BUDGET / 10
    assert small / len(summarised.results) < BUDGET / 500
