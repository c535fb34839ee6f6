"""``run()`` from your own Python (included in docs/pytest.md). Real tests: if the docs break, this fails."""

from __future__ import annotations

from harness.runner import RunOptions, run

CASES = ["tools-passback/deepseek-*[openai-chat:reasoning_content/frames]"]


def test_run_with_options() -> None:
    # the settings of `thinkwire run`, as one frozen value: the same one the CLI builds from its flags
    options = RunOptions(sut="harness.reference.sdk:reference_sdk", strict=True, timeout=30)
    result = run(CASES, options)
    assert result.results, "the glob matched no case"
    assert result.exit_code == 0, [r.reproduce for r in result.unexpected]


def test_run_with_keywords() -> None:
    # the same settings as keywords (every RunOptions field is one; keywords override `options`)
    result = run(CASES, sut="reference-sdk", faults=["lose-passback"], keep_timelines="failures")
    assert result.unexpected  # the fault switch loses the passback: the cases fail ...
    assert all(r.timeline for r in result.unexpected)  # ... and keep their timelines as evidence
    again = result.unexpected[0].reproduce  # the shell command that runs the case again
    assert again.startswith("thinkwire run --sut reference-sdk --fault lose-passback --cases ")
