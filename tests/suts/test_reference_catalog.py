"""The bundled reference SUTs against the whole catalog, not only the detection matrix's cases: the
correct gateway and the correct SDK wrapper give no unexpected result and no FAIL anywhere. (The
reference CLI claims the pi dialect only and takes minutes over the catalog: the matrix covers it.)"""

from __future__ import annotations

import pytest

from harness.suite import Verdict, load_cases, run

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("sut", ["reference", "reference-sdk"])
def test_reference_passes_the_whole_catalog(sut: str) -> None:
    result = run(load_cases(), sut=sut, keep_timelines=False)
    bad = [(r.case_id, r.status.value, [f.message for f in r.failing()]) for r in result.unexpected]
    assert not bad, f"{len(bad)} unexpected: {bad[:5]}"
    assert not [r.case_id for r in result.results if r.stream == Verdict.FAIL]
    assert sum(r.stream == Verdict.PASS for r in result.results) > 400
