"""The ecosystem history's logic on hand-made runs: the version list from `pip index versions`, each
finding's first and last version, the diffs between versions, the profile's package."""

from __future__ import annotations

import pytest

from harness.runner import RunResult
from harness.verdict import CaseResult, Finding, Status, Verdict
from tools.docs._history import history, release_versions, render, requirement_for

LISTING = """langchain-deepseek (1.1.1)
Available versions: 1.2.0rc1, 1.1.1, 1.1.0, 1.0.1, 1.0.0, 0.1.4
"""


def test_release_versions_last_n_oldest_first_without_prereleases() -> None:
    assert release_versions(LISTING, 3) == ["1.0.1", "1.1.0", "1.1.1"]
    assert release_versions(LISTING, 9) == ["0.1.4", "1.0.0", "1.0.1", "1.1.0", "1.1.1"]
    assert release_versions("nothing", 3) == []


def test_requirement_of_a_profile() -> None:
    assert requirement_for("langchain-deepseek") == ("langchain-deepseek", "")
    assert requirement_for("pydantic-ai-anthropic") == ("pydantic-ai-slim", "[anthropic]")
    with pytest.raises(SystemExit, match="not an ecosystem profile"):
        requirement_for("nope")


def _case(case_id: str, *messages: str, status: Status = Status.OK) -> CaseResult:
    findings = [Finding(m.split(":")[0], Verdict.FAIL, message=m) for m in messages]
    return CaseResult(
        case_id,
        "s",
        "r",
        "c",
        "p",
        status=status,
        findings=findings,
        stream=Verdict.FAIL if messages else Verdict.PASS,
        unexpected=bool(messages),
    )


PASSBACK = "tools-passback/a[openai-chat:reasoning_content/frames]"  # the finding is scoped to this variant


def _runs() -> list[tuple[str, RunResult]]:
    v1 = RunResult("p", [_case(PASSBACK, "passback: turn 1 lost"), _case("b", "usage: 3 lost")])
    v2 = RunResult("p", [_case(PASSBACK, "passback: turn 1 lost"), _case("b", "usage: 4 lost")])
    v3 = RunResult("p", [_case(PASSBACK, "passback: turn 2 lost"), _case("b"), _case("c", "ordering: x")])
    return [("1.0", v1), ("1.1", v2), ("1.2", v3)]


def test_first_and_last_version_of_each_finding() -> None:
    runs = _runs()
    found = history("langchain-deepseek", runs)
    versions = [v for v, _ in runs]
    table = [(f.check, f.first(versions), f.last(versions), f.per_version) for f in found]
    assert table == [
        ("passback", "1.0", "1.2", {"1.0": 1, "1.1": 1, "1.2": 1}),
        ("usage", "1.0", "1.1", {"1.0": 1, "1.1": 1}),
        ("ordering", "1.2", "1.2", {"1.2": 1}),
    ]
    assert found[0].title.startswith("langchain-deepseek never sends reasoning_content back")  # a known bug


def test_render_names_versions_findings_and_diffs() -> None:
    md = render("langchain-deepseek", "langchain-deepseek", _runs(), "abc1234")
    assert md.startswith("# Ecosystem history: langchain-deepseek\n")
    assert "| `1.1` | 2 | 2 | 2 |" in md
    assert "| [usage] usage: N lost | `1.0` | `1.1` (gone in `1.2`) | 1 | 1 | 0 |" in md
    assert "- `1.0` -> `1.1`: nothing regressed: 0 new failure(s), 0 fixed" in md
    assert "- `1.1` -> `1.2`: **regressed**: 1 new failure(s), 1 fixed" in md
    assert "  - [ordering] ordering: x: `c`" in md
