"""The harness's own quality figure (hypothesis' quality/ folder): every fault switch of the reference
SUTs is caught by the check designed for it, and by no unrelated check; the correct reference passes
the same cases; and every perturbation of the catalog kills at least one parser mutant on every
dialect it is placed on (the mutation score has no zero)."""

from __future__ import annotations

import pytest

from harness.reference._faults import FAULTS, PARSER_FAULTS
from harness.suite import Status, Verdict, run
from harness.suite._matrix import MATRIX, Mutant, detect, mutation_cases, mutation_score

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("mutant", MATRIX, ids=[m.id for m in MATRIX])
def test_mutant_caught_by_its_check_only(mutant: Mutant) -> None:
    result, failing = detect(mutant)
    assert mutant.check in failing, f"{mutant.id} not caught by {mutant.check}: failing={sorted(failing)}"
    unrelated = failing - {mutant.check} - mutant.also
    assert not unrelated, f"{mutant.id} also tripped unrelated checks {sorted(unrelated)}"
    assert result.exit_code == 1


@pytest.mark.parametrize("sut", sorted({m.sut for m in MATRIX}))
def test_reference_passes_every_matrix_case(sut: str) -> None:
    cases = sorted({c for m in MATRIX if m.sut == sut for c in m.cases})
    result = run(cases, sut=sut, expectations=None)
    bad = [
        (r.case_id, r.status.value, [(f.check, f.message) for f in r.failing()], r.error[:300])
        for r in result.results
        if r.status != Status.OK or r.failing()
    ]
    assert not bad
    assert all(r.stream in (Verdict.PASS, Verdict.INFO) for r in result.results)


def test_every_fault_switch_has_a_matrix_row() -> None:
    assert {m.fault for m in MATRIX} == set(FAULTS)


def test_every_perturbation_kills_a_parser_mutant_on_every_dialect_it_is_placed_on() -> None:
    score = mutation_score()
    assert not score.reference_failures, f"the reference fails perturbed cases: {score.reference_failures}"
    assert score.cases.keys() == {(c.perturbation, c.dialect) for c in mutation_cases()}
    assert not score.zeros(), f"perturbations that kill no mutant (misplaced or redundant): {score.zeros()}"
    killed = {m for kills in score.kills.values() for m in kills}
    assert killed == PARSER_FAULTS, f"parser mutants no perturbation kills: {sorted(PARSER_FAULTS - killed)}"
