"""Markdown summary: totals, the category x verdict matrix, the capped table of unexpected failures."""

from __future__ import annotations

from harness.report import render_markdown
from harness.runner import RunResult
from harness.verdict import CaseResult, Finding, Verdict


def test_summary_content(run_result: RunResult) -> None:
    md = render_markdown(run_result)
    lines = md.splitlines()
    assert lines[0] == "## thinkwire: ❌ failed"
    assert "**6** cases against `ref-gw` in 5.2s — **3** unexpected" in lines
    assert "| category | PASS | UNSUPPORTED | FAIL | UNCLEAN | TIMEOUT | XFAIL |" in lines
    assert "| incremental | 1 | 0 | 1 | 0 | 0 | 0 |" in lines
    assert "| cleanup | 0 | 0 | 0 | 1 | 0 | 0 |" in lines
    assert "| **total** | **1** | **1** | **1** | **1** | **1** | **1** |" in lines
    assert "### Unexpected failures by cause" in lines
    assert "| 1 | duplication | reasoning text delivered twice: '…' " \
        "| `incremental/reasoning-flush@openai-chat:reasoning_content/one-chunk` |" in lines
    assert "<details><summary>Unexpected failures, case by case</summary>" in lines
    table = [ln for ln in lines if ln.startswith("| `")]
    assert table == [
        "| `incremental/reasoning-flush@openai-chat:reasoning_content/one-chunk` | incremental "
        "| reasoning was buffered until the upstream gate timed out |",
        "| `incremental/reasoning-flush@openai-chat:reasoning_content/one-chunk` | duplication "
        "| reasoning text delivered twice: 'Let me think' |",
        "| `errors/mid-stream-error@anthropic:thinking` | TIMEOUT "
        "| SUT did not finish the response within 5.0 s |",
        "| `cleanup/cancel@anthropic:thinking` | cleanup | a child process outlived the case |",
    ]
    assert "passback/signature" not in md  # expected failure: counted as XFAIL, not listed
    assert "more" not in md


def test_green_run_has_no_failure_table() -> None:
    run = RunResult("s", [CaseResult("a@x", "a", "r", "c", "s", findings=[Finding("k", Verdict.PASS)])])
    md = render_markdown(run)
    assert md.splitlines()[0] == "## thinkwire: ✅ passed"
    assert "| c | 1 |" in md
    assert "Unexpected failures" not in md


def test_failure_table_is_capped_and_cells_are_escaped() -> None:
    results = [
        CaseResult(
            f"cat/s@{n:03d}",
            "cat/s",
            "r",
            "cat",
            "s",
            stream=Verdict.FAIL,
            unexpected=True,
            findings=[Finding("k", Verdict.FAIL, message=f"a|b\nsecond line {n}")],
        )
        for n in range(73)
    ]
    md = render_markdown(RunResult("s", results, sut_error="boom\nmore"))
    rows = [ln for ln in md.splitlines() if ln.startswith("| `cat/s@")]
    assert len(rows) == 50
    assert rows[0] == "| `cat/s@000` | k | a\\|b second line 0 |"
    assert md.splitlines()[-3] == "… and 23 more"
    (cause,) = [ln for ln in md.splitlines() if ln.startswith("| 73 | k |")]  # one cause, its 73 cases
    assert cause.startswith("| 73 | k | a\\|b second line 0–72 | <details><summary>73 cases</summary>")
    assert "</summary>`cat/s@000`<br>`cat/s@001`<br>" in cause
    assert cause.endswith("<br>… and 53 more</details> |")
    assert "> **SUT error:** boom more" in md
    assert len(render_markdown(RunResult("s", results), limit=80).splitlines()) < 100
