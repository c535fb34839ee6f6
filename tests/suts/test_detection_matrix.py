"""The harness's own quality figure (hypothesis' quality/ folder): every fault switch of the reference
SUTs is caught by the check designed for it, and by no unrelated check; the correct reference passes
the same cases; and every perturbation of the catalog kills at least one parser mutant on every
dialect it is placed on (the mutation score has no zero)."""

from __future__ import annotations

import pytest

from harness.reference._faults import FAULTS
from harness.reference._parser_mutants import PARSER_FAULTS
from harness.runner import run
from harness.verdict import Status, Verdict
from tools._matrix import MATRIX, Mutant, detect, mutation_cases, mutation_score

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("mutant", MATRIX, ids=[m.id for m in MATRIX])
def test_mutant_caught_by_its_check_only(mutant: Mutant) -> None:
    result, failing = detect(mutant)
    assert mutant.check in failing, f"{mutant.id} not caught by {mutant.check}: failing={sorted(failing)}"
    unrelated = mutant.unrelated(failing)
    assert not unrelated, f"{mutant.id} also tripped unrelated checks {sorted(unrelated)}"
    assert result.exit_code == 1
    cited = [(r, f) for r in result.results for f in r.failing() if f.check == mutant.check]
    for r, f in cited:  # the designed check cites the timeline entries it judged (the swimlane marks them)
        assert f.evidence, f"{r.case_id}: {f.check} cites no timeline entry ({f.message})"
        assert all(0 <= i < len(r.timeline) for i in f.evidence), (r.case_id, f.evidence, len(r.timeline))


@pytest.mark.parametrize(("sut", "door"), sorted({(m.sut, m.door) for m in MATRIX}))
def test_reference_passes_every_matrix_case(sut: str, door: str) -> None:
    rows = [m for m in MATRIX if (m.sut, m.door) == (sut, door)]
    cases = sorted({c for m in rows for c in m.cases})
    result = run(cases, sut=rows[0].run_sut(faulted=False), expectations=None)
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


def _writes(case_id: str) -> list[bytes]:
    from harness.runner import load_cases
    from harness.upstream._plan import Write, build_plan

    (case,) = load_cases([case_id])
    (script,) = case.conversation().scripts
    salt = f"[{case.token}] ".encode()  # the case's own salt, out of the way of the literals below
    actions = build_plan(script, stream=True).actions
    return [a.data.replace(salt, b"") for a in actions if isinstance(a, Write)]


@pytest.mark.parametrize(
    ("case_id", "behind_the_bom"),
    [
        ("sse-framing/bom[openai-chat:reasoning_content/frames/bom]", b'"reasoning_content":"The user'),
        ("sse-framing/bom[gemini:thought/frames/bom-split]", b'"text": "The user greets me.","thought"'),
        ("sse-framing/bom[anthropic-messages:thinking/frames/bom]", b'{"type":"message_start"'),
    ],
)
def test_the_bom_sits_in_front_of_what_a_check_compares(case_id: str, behind_the_bom: bytes) -> None:
    stream = b"".join(_writes(case_id))
    assert stream.startswith(b"\xef\xbb\xbf")
    first = stream[3 : stream.index(b"\n\n") + 2]
    assert behind_the_bom in first, first


def test_comments_and_no_space_sit_where_the_issue_places_them() -> None:
    chat = "openai-chat:reasoning_content/frames"
    comments = b"".join(_writes(f"sse-framing/perturbations[{chat}/comments]"))
    assert comments.startswith(b": keep-alive\n\n")
    between = comments.index(b': OPENROUTER PROCESSING\n\ndata: {"id"')
    assert comments.index(b'"reasoning_content":"The user "') < between < comments.index(b'"greets me."')
    blocks = b"".join(_writes(f"sse-framing/perturbations[{chat}/no-space]")).split(b"\n\n")[:-1]
    assert [b.startswith(b"data:{") or b == b"data:[DONE]" for b in blocks] == [True] + [False] * (
        len(blocks) - 2
    ) + [True]
