"""No finding of a provider rejection is ever INFO (issue 46): with every fault switch of the detection
matrix, over the whole catalog for the built-in gateway and SDK (the front-door and CLI rows over their own
cases, which is where those SUTs are driven), the checks that report what the strict upstream rejected
(a passback 400, a fidelity rejection, a request the provider refuses) FAIL or pass; the premise gate never
demotes them to INFO."""

from __future__ import annotations

import pytest

from harness.runner import run
from harness.verdict import Verdict
from tools._matrix import MATRIX, Mutant

pytestmark = pytest.mark.slow

REJECTIONS = frozenset({"passback", "passback-fidelity", "request-contract"})
"""The checks whose FAIL is a provider's rejection relayed (the strict upstream's 4xx on a later turn)."""
WHOLE_CATALOG = frozenset({"reference", "reference-sdk"})
"""The SUTs run over the whole catalog: each takes it in seconds (the CLI takes minutes: its rows' cases)."""


def _runs() -> list[Mutant]:
    """One row per distinct (SUT, faults, strict): rows that differ only in their cases share a run when
    the whole catalog is run, and keep their own cases otherwise."""
    seen: dict[tuple[str, tuple[str, ...], bool, tuple[str, ...]], Mutant] = {}
    for m in MATRIX:
        whole = isinstance(m.run_sut(), str) and m.run_sut() in WHOLE_CATALOG
        key = (repr(m.run_sut()), tuple(m.run_faults()), m.strict, () if whole else m.cases)
        seen.setdefault(key, m)
    return list(seen.values())


RUNS = _runs()


@pytest.mark.parametrize("mutant", RUNS, ids=[f"{m.id}:{'+'.join(m.run_faults())}" for m in RUNS])
def test_a_rejection_is_never_info(mutant: Mutant) -> None:
    sut = mutant.run_sut()
    cases = None if isinstance(sut, str) and sut in WHOLE_CATALOG else list(mutant.cases)
    result = run(
        cases, sut=sut, faults=mutant.run_faults(), expectations=None, keep_timelines=False,
        strict=mutant.strict, concurrency=4,
    )  # fmt: skip
    assert result.results, "no case ran"
    info = [
        (r.case_id, f.check, f.message[:160])
        for r in result.results
        for f in r.findings
        if f.check in REJECTIONS and f.verdict == Verdict.INFO
    ]
    assert info == [], f"a provider rejection shown as INFO: {info[:5]}"
