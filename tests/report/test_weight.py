"""The reports' size budget: a passing case costs report.html and results.json at most 2 KB each
(docs/benchmarks.md has the figures of the real catalog run). Guarded here with the catalog's heaviest
passing cases as results.json keeps them (the longest ids, the most findings kept whole), run for real
against the reference gateway and counted 500 times: an upper bound for any 500-case passing run. A case
that did not pass keeps all its evidence, and that is not counted against the budget."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from harness.report import write_reports
from harness.report._json import dumps, to_json
from harness.runner import RunResult, run

BUDGET = 2 * 1024
"""Bytes per passing case, for report.html and for results.json each."""
HEAVIEST = [
    "incrementality/reasoning-delta-alias[openai-responses:alias-summary/crlf-split/multiline]",
    "wire-variants/gemini-interactions-summaries[gemini-interactions:summaries/frames/nonstream]",
    "sse-framing/perturbations[openai-responses:summary/bytes/multiline]",
]
FAILING = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"


@pytest.fixture(scope="module")
def heavy() -> tuple[RunResult, RunResult]:
    passing = run(HEAVIEST, sut="reference", expectations=None, keep_timelines="failures")
    kept = run(HEAVIEST, sut="reference", expectations=None, keep_timelines=True)
    return passing, kept


def _many(result: RunResult, n: int) -> RunResult:
    many = RunResult(result.sut, duration_s=result.duration_s)
    for i in range(n):
        r = result.results[i % len(result.results)]
        many.results.append(dataclasses.replace(r, case_id=f"{r.case_id}#{i}"))
    return many


def _sizes(result: RunResult, out: Path) -> dict[str, int]:
    written = write_reports(result, out)
    return {name: written[name].stat().st_size for name in ("html", "json")}


def test_500_passing_cases_fit_the_budget(heavy: tuple[RunResult, RunResult], tmp_path: Path) -> None:
    passing, _ = heavy
    assert passing.exit_code == 0
    assert all(r.findings and not r.timeline for r in passing.results)
    sizes = _sizes(_many(passing, 500), tmp_path)
    assert sizes["html"] <= 500 * BUDGET, sizes
    assert sizes["json"] <= 500 * BUDGET, sizes


def test_a_failing_case_keeps_its_evidence_outside_the_budget(
    heavy: tuple[RunResult, RunResult], tmp_path: Path
) -> None:
    """500 passing cases beside a failing one: the failing case keeps its whole timeline, findings and
    swimlane, and what the passing ones add to the reports stays within their budget."""
    passing, _ = heavy
    failing = run([FAILING], sut="reference", faults=["drop-reasoning"], expectations=None)
    (bad,) = failing.results
    assert bad.unexpected
    assert bad.timeline
    assert any(f.evidence for f in bad.failing())
    alone = _sizes(failing, tmp_path / "alone")
    both = _many(passing, 500)
    both.results.append(bad)
    mixed = _sizes(both, tmp_path / "mixed")
    assert mixed["html"] - alone["html"] <= 500 * BUDGET, (mixed, alone)
    assert mixed["json"] - alone["json"] <= 500 * BUDGET, (mixed, alone)
    assert (tmp_path / "mixed" / "swimlanes").is_dir()
    assert f'"case_id": "{FAILING}"' in (tmp_path / "mixed" / "results.json").read_text(encoding="utf-8")


def test_kept_timelines_are_what_the_budget_is_about(heavy: tuple[RunResult, RunResult]) -> None:
    """The guard measures something: these cases with their whole timelines (--keep-timelines) would
    take the budget of 500 cases in a dozen of them (one is per-byte chunked: thousands of entries); kept
    compact each takes about 1 KB."""
    passing, kept = heavy
    assert all(r.timeline for r in kept.results)
    assert max(len(r.timeline) for r in kept.results) > 3000
    full = len(dumps(to_json(kept)))
    small = len(dumps(to_json(passing)))
    assert full / len(kept.results) > 500 * BUDGET / 12
    assert small / len(passing.results) < BUDGET
