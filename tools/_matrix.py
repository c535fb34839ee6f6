"""The detection matrix: every fault switch of the reference SUTs run against the check designed to catch it,
and the mutation score of the framing perturbations. The rows are data in ``_matrix_rows``; here they run,
and the test suite asserts on the results."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from harness.catalog._case import Case
from harness.reference._parser_mutants import PARSER_FAULTS
from harness.runner._run import RunResult, load_cases, run
from harness.verdict import CaseResult, Status
from tools._matrix_rows import DOORS, Mutant
from tools._matrix_rows import MATRIX as _ROWS
from tools._matrix_schema_rows import SCHEMA_ROWS

__all__ = [
    "DOORS",
    "FOR_ACCUMULATORS",
    "MATRIX",
    "Mutant",
    "MutationScore",
    "detect",
    "failing_checks",
    "mutation_cases",
    "mutation_score",
]

MATRIX: tuple[Mutant, ...] = _ROWS + SCHEMA_ROWS
"""Every row: ``_matrix_rows``' and ``_matrix_schema_rows``' (issue 46's classes)."""


def failing_checks(result: RunResult) -> set[str]:
    out: set[str] = set()
    for r in result.results:
        out |= _failing(r)
    return out


def _failing(r: CaseResult) -> set[str]:
    out = {f"status:{r.status.value}"} if r.status != Status.OK else set()
    return out | {f.check for f in r.failing()}


# --------------------------------------------------------------------------------------------------
# Mutation score of the perturbations.


@dataclass(slots=True)
class MutationScore:
    """Per (perturbation, dialect): mutant -> the checks that failed on the cases that killed it."""

    kills: dict[tuple[str, str], dict[str, set[str]]] = field(default_factory=dict)
    cases: dict[tuple[str, str], int] = field(default_factory=dict)
    mutants: tuple[str, ...] = ()
    reference_failures: dict[str, set[str]] = field(default_factory=dict)
    """Perturbed cases the correct reference fails (a kill there would mean nothing): must be empty."""

    def zeros(self) -> list[tuple[str, str]]:
        return [k for k in sorted(self.cases) if not self.kills.get(k) and k not in FOR_ACCUMULATORS]


FOR_ACCUMULATORS: dict[tuple[str, str], str] = {
    (p, "anthropic-messages"): "the BOM hides message_start (the message id, the model): behind their "
    "default chat front door the reference SUTs keep nothing of it that reaches their client, so no "
    "parser mutant dies here; a front door that relays it does (the detection matrix's "
    "reference[anthropic-messages]+bom-unnamed-start row: front-door-grammar), and so do clients that "
    "accumulate from message_start (the anthropic SDK's MessageStream accumulates nothing before it)"
    for p in ("bom", "bom-split")
}
"""Placements kept for real clients' sake although they kill no mutant of the reference SUTs, each
with its reason (a placement that kills nothing is otherwise misplaced or redundant)."""


def mutation_cases(patterns: Sequence[str] | None = None) -> list[Case]:
    """The catalog's perturbed streaming cases (every perturbation but ``none``)."""
    return [c for c in load_cases(patterns) if c.perturbation != "none" and c.stream]


def _baseline(case: Case) -> Case:
    return replace(case, perturbation="none")


def mutation_score(
    cases: Sequence[Case] | None = None, mutants: Sequence[str] | None = None, sut: str = "reference"
) -> MutationScore:
    """Run the perturbed cases and their unperturbed twins against each parser mutant.

    The score is per perturbation x dialect: which parser mutants, the ``sse-*`` and ``jsonl-*`` switches,
    it kills, and no perturbation may kill nothing. A perturbed case kills a mutant when it fails against
    the mutant while the same case without the perturbation fails against the mutant no more than against
    the reference. The kill is then the perturbation's, not the mutant's general brokenness.
    """
    cases = list(cases if cases is not None else mutation_cases())
    mutants = tuple(sorted(mutants if mutants is not None else PARSER_FAULTS))
    base = {c.id: _baseline(c) for c in cases}
    twins = list({b.id: b for b in base.values()}.values())
    ref_run = run([*cases, *twins], sut=sut, expectations=None, keep_timelines=False)
    ref = {r.case_id: _failing(r) for r in ref_run.results}
    score = MutationScore(mutants=mutants)
    score.reference_failures = {c.id: ref[c.id] for c in cases if ref.get(c.id, {"status:missing"})}
    for c in cases:
        score.cases[(c.perturbation, c.dialect)] = score.cases.get((c.perturbation, c.dialect), 0) + 1
    for m in mutants:
        result = run([*cases, *twins], sut=sut, faults=[m], expectations=None, keep_timelines=False)
        got = {r.case_id: _failing(r) for r in result.results}
        for c in cases:
            failing = got.get(c.id, {"status:missing"})
            twin = base[c.id].id
            if failing and c.id not in score.reference_failures and not (got.get(twin, set()) - ref[twin]):
                score.kills.setdefault((c.perturbation, c.dialect), {}).setdefault(m, set()).update(failing)
        rows = sum(m in k for k in score.kills.values())
        sys.stderr.write(f"mutation score: {m:28} killed on {rows} perturbation x dialect rows\n")
    return score


def detect(m: Mutant) -> tuple[RunResult, set[str]]:
    """Each mutant must be caught by its check and by no unrelated one. ``nox -s matrix`` writes this table
    and the mutation score to docs/detection-matrix.md through ``tools.docs._matrix``."""
    result = run(
        list(m.cases), sut=m.run_sut(), faults=m.run_faults(), expectations=None, keep_timelines="failures",
        strict=m.strict,
    )  # fmt: skip
    return result, failing_checks(result)
