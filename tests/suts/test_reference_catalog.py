"""The bundled reference SUTs against the whole catalog, not only the detection matrix's cases: the
correct gateway and the correct SDK wrapper give no unexpected result and no FAIL anywhere, and the
reports of that passing run keep to their size budget (report.html and results.json at most 5 MB each,
with the default: passing cases' timelines summarised). (The reference CLI claims the pi dialect only
and takes minutes over the catalog: the matrix covers it.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.report import write_reports
from harness.runner import load_cases, run
from harness.verdict import Verdict

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("sut", ["reference", "reference-sdk"])
def test_reference_passes_the_whole_catalog(sut: str, tmp_path: Path) -> None:
    result = run(load_cases(), sut=sut, keep_timelines="failures")  # as `thinkwire run` keeps them
    bad = [(r.case_id, r.status.value, [f.message for f in r.failing()]) for r in result.unexpected]
    assert not bad, f"{len(bad)} unexpected: {bad[:5]}"
    assert not [r.case_id for r in result.results if r.stream == Verdict.FAIL]
    assert sum(r.stream == Verdict.PASS for r in result.results) > 400
    written = write_reports(result, tmp_path)
    sizes = {name: written[name].stat().st_size for name in ("html", "json")}
    assert max(sizes.values()) <= 5 * 1024 * 1024, sizes  # the budget (docs/benchmarks.md has the figures)
