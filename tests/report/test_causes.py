"""Findings grouped by cause: what normalising masks, how cases fold under a cause, the console's lines."""

from __future__ import annotations

import io

import pytest

from harness.report._causes import group_causes, normalise_message
from harness.report._console import print_failures
from harness.runner import RunResult
from harness.verdict import CaseResult, Finding, Status, Verdict


@pytest.mark.parametrize(
    ("message", "normalised"),
    [
        ("turn 1: reasoning delivered 2x", "turn N: reasoning delivered Nx"),
        ("expected 'Let me think' got \"abc\" and `x`", "expected '…' got '…' and '…'"),
        ("the SUT raised KeyError: call_9f8e7d6c", "the SUT raised KeyError: <id>"),
        ("item rs_68af3b id 0f3c2a1b9d8e7f60 at 0x7f3a2b", "item <id> id <id> at <id>"),
        ("gate timed out after 1.5s", "gate timed out after Ns"),
        ("utf8-integrity and sse-v2 stay", "utf8-integrity and sse-v2 stay"),  # names keep their digits
        ("upstream (deepseek-v3.2) said 400, gpt-4 -1", "upstream (deepseek-v3.2) said N, gpt-4 N"),
        ("two\nlines", "two lines"),
        ("the SUT's 'don't' and 'it's'", "the SUT's '…' and '…'"),  # an apostrophe in a word is no quote
        ('got "it\'s" and (\'a\', \'b\')', "got '…' and ('…', '…')"),
    ],
)
def test_normalise_masks_numbers_ids_and_quoted_texts(message: str, normalised: str) -> None:
    assert normalise_message(message) == normalised


def _case(n: int, *findings: Finding, status: Status = Status.OK, error: str = "") -> CaseResult:
    return CaseResult(
        f"s/think[openai-chat:v{n}/frames]",
        "s/think",
        "r",
        "c",
        "sut",
        status=status,
        error=error,
        findings=list(findings),
        stream=Verdict.FAIL,
        unexpected=True,
    )


def _think(turn: int, text: str) -> Finding:
    message = f"turn {turn}: <think> tags in answer {text!r}"
    return Finding("channel-separation", Verdict.FAIL, message=message)


def test_one_cause_for_many_cases_most_frequent_first() -> None:
    cases = [_case(n, _think(n % 2, f"text {n}")) for n in range(26)]
    cases.append(_case(99, status=Status.TIMEOUT, error="SUT did not finish within 5.0 s\nstderr..."))
    cases.append(_case(98, _think(0, "x"), Finding("usage", Verdict.FAIL, message="turn 0: count lost")))
    causes = group_causes(cases)
    assert [(c.count, c.line()) for c in causes] == [
        (27, "[channel-separation] turn 0/1: <think> tags in answer '…'"),
        (1, "[TIMEOUT] SUT did not finish within 5.0 s"),
        (1, "[usage] turn 0: count lost"),
    ]
    assert [c.message for c in causes] == [  # the key: numbers masked
        "turn N: <think> tags in answer '…'", "SUT did not finish within N s", "turn N: count lost"
    ]
    assert causes[0].example == "turn 0: <think> tags in answer 'text 0'"
    assert causes[0].cases[-1].case_id == "s/think[openai-chat:v98/frames]"  # under both of its causes


def test_an_apostrophe_never_splits_a_cause() -> None:
    """One cause whose message has an apostrophe before its quoted value is one group, whatever the
    value (it was five groups reading "the gate'…'Let me') never held")."""
    cases = [
        _case(n, Finding("incremental", Verdict.FAIL, message=f"turn 1: the gate's condition (client saw "
                         f"reasoning {text!r}) never held while the upstream held the next frame for 8.0s"))
        for n, text in enumerate(["Let me", "Okay", "Hmm, so", "First", "I'll think"])
    ]
    causes = group_causes(cases)
    assert [(c.count, c.line()) for c in causes] == [
        (5, "[incremental] turn 1: the gate's condition (client saw reasoning '…') never held while the "
         "upstream held the next frame for 8.0s"),
    ]


def test_console_prints_one_line_per_cause_with_its_cases_folded() -> None:
    cases = [_case(n, _think(1, f"t{n}")) for n in range(5)]
    out = io.StringIO()
    print_failures(RunResult("sut", cases), out)
    lines = out.getvalue().splitlines()
    assert lines[1:7] == [
        "unexpected failures by cause: 5 case(s), 1 cause(s)",
        "     5 × [channel-separation] turn 1: <think> tags in answer '…'",
        "         s/think[openai-chat:v0/frames]",
        "         s/think[openai-chat:v1/frames]",
        "         s/think[openai-chat:v2/frames]",
        "         ... and 2 more",
    ]
    assert sum(ln.startswith("× ") for ln in lines) == 1  # one full block per cause, not one per case
    assert "  (4 more case(s) with this cause: listed above; report.html has each)" in lines


def test_a_headline_shows_the_figures_its_cases_said() -> None:
    """Issue 45: a cause's headline printed N for every number ("SUT exited with code N"). The key still
    masks them (one cause for every exit code); the headline shows the code its cases said, up to three
    values, else their range."""
    def exited(n: int, code: int) -> CaseResult:
        return _case(n, status=Status.ERROR, error=f"SUT exited with code {code}\n--- stderr ---")

    (one,) = group_causes([exited(n, 3) for n in range(4)])
    assert one.line() == "[ERROR] SUT exited with code 3"
    (two,) = group_causes([exited(0, 3), exited(1, 137), exited(2, 3)])
    assert two.line() == "[ERROR] SUT exited with code 3/137"
    said = "the SUT rejected the continuation with {}"
    rejected = [_case(n, Finding("passback", Verdict.FAIL, message=said.format(400 + n))) for n in range(6)]
    (many,) = group_causes(rejected)
    assert many.line() == "[passback] the SUT rejected the continuation with 400–405"
    assert many.message == "the SUT rejected the continuation with N"
    bare = group_causes([_case(0, Finding("delivery", Verdict.FAIL))])
    assert [c.line() for c in bare] == ["[delivery] FAIL"]
