"""``thinkwire diff``: two real runs of the in-process reference SUT, without and with a fault switch.
The switch's failures are regressions (exit 1), taking it away again is a fix (exit 0), identical runs
exit 0; Markdown and JUnit say the same; unreadable input is one line (exit 2)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.cli import main
from harness.report._diff import diff_runs, load_run
from harness.report._diff_render import diff_text
from harness.runner import RunResult
from harness.verdict import CaseResult, Finding, Verdict

CASES = "wire-variants/reasoning-then-answer[openai-chat:reasoning*/frames]"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("diff")
    out = {}
    for name, extra in (("clean", []), ("again", []), ("dropped", ["--fault", "drop-reasoning"])):
        code = main(
            ["run", "-q", "--sut", "reference-sdk", "--cases", CASES, *extra, "--report", str(base / name)]
        )
        assert code == (1 if extra else 0)
        out[name] = base / name
    return out


def test_a_fault_switch_shows_as_new_failures_and_exits_1(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    md, junit = tmp_path / "diff.md", tmp_path / "diff.xml"
    code = main(
        [
            "diff",
            str(runs["clean"]),
            str(runs["dropped"] / "results.json"),
            "--markdown",
            str(md),
            "--junit",
            str(junit),
        ]
    )
    assert code == 1
    text = capsys.readouterr().out
    failing = [
        r["case_id"]
        for r in json.loads((runs["dropped"] / "results.json").read_text())["results"]
        if r["stream"] == "FAIL"
    ]
    assert len(failing) == 3
    assert f"new failures ({len(failing)}), by cause:" in text
    assert "     3 × [delivery] turn 0: reasoning never reached the client" in text
    assert all(f"         {case_id}" in text for case_id in failing)
    assert text.rstrip().endswith(
        "REGRESSED: 3 new failure(s), 0 failing case(s) with new findings (0 fixed; 3 verdict change(s): "
        "3 worse, 0 better)"
    )
    assert md.read_text().startswith("## thinkwire diff: ❌ regressed")
    assert "| 3 | delivery | turn 0: reasoning never reached the client |" in md.read_text()
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures")) == ("3", "3")
    assert {c.get("name") for c in suite.findall("testcase")} == set(failing)


def test_taking_the_fault_away_is_a_fix_and_identical_runs_exit_0(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["diff", str(runs["dropped"]), str(runs["clean"])]) == 0
    text = capsys.readouterr().out
    assert "fixed (3):" in text
    assert (
        "  ✓ wire-variants/reasoning-then-answer[openai-chat:reasoning/frames] (was FAIL: [delivery] " in text
    )
    assert text.rstrip().endswith(
        "OK: nothing regressed (3 fixed, 0 still failing as before; 3 verdict change(s): 0 worse, 3 better)"
    )
    assert main(["diff", str(runs["clean"]), str(runs["again"])]) == 0
    assert (
        capsys.readouterr()
        .out.rstrip()
        .endswith(
            "OK: nothing regressed (0 fixed, 0 still failing as before; 0 verdict change(s): 0 worse, "
            "0 better)"
        )
    )
    assert main(["diff", str(runs["dropped"]), str(runs["dropped"]), "--markdown", "-"]) == 0
    assert capsys.readouterr().out.startswith("## thinkwire diff: ✅ nothing regressed")


def _case(case_id: str, *messages: str) -> CaseResult:
    findings = [Finding(m.split(":")[0], Verdict.FAIL, message=m) for m in messages]
    return CaseResult(
        case_id,
        "s",
        "r",
        "c",
        "sut",
        findings=findings,
        stream=Verdict.FAIL if messages else Verdict.PASS,
        unexpected=bool(messages),
    )


def test_changed_findings_added_and_removed_cases() -> None:
    old = RunResult(
        "v1", [_case("a", "delivery: turn 0 lost 12 bytes"), _case("b", "usage: lost 3"), _case("gone")]
    )
    new = RunResult(
        "v2",
        [
            _case("a", "delivery: turn 1 lost 40 bytes"),
            _case("b", "ordering: turn 2 out of order"),
            _case("fresh", "termination: no end"),
        ],
    )
    d = diff_runs(old, new)
    assert [c.case_id for c in d.changed] == ["b"]  # 'a': the same cause, other numbers: no change
    assert d.changed[0].gained == [("ordering", "ordering: turn N out of order")]
    assert d.changed[0].lost == [("usage", "usage: lost N")]
    text = diff_text(d)  # printed with the figures each case said (issue 45: not N)
    assert "      + [ordering] ordering: turn 2 out of order\n      - [usage] usage: lost 3\n" in text
    assert [c.case_id for c in d.added] == ["fresh"]
    assert [c.case_id for c in d.new_failures] == ["fresh"]  # a new case that fails is a new failure
    assert [c.case_id for c in d.removed] == ["gone"]
    assert d.still_failing == 1
    assert d.exit_code == 1


def test_unreadable_input_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(tmp_path), str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err == f"thinkwire diff: {tmp_path}: a directory without results.json (write one with "
        "`thinkwire run --report DIR`)"
    )
    with pytest.raises(Exception, match="no such file"):
        load_run(tmp_path / "missing.json")


def _verdicts(case_id: str, stream: Verdict, cleanup: Verdict = Verdict.PASS) -> CaseResult:
    return CaseResult(case_id, "s", "r", "c", "sut", stream=stream, cleanup=cleanup)


def test_every_verdict_change_both_ways_on_both_axes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PASS -> NON_STRICT fails nothing without --strict, and diff said "0 failing case(s) with new
    findings" and nothing else. Every verdict change is listed now, either way, stream and cleanup."""
    from harness.report._diff_render import diff_junit, diff_markdown
    from harness.report._json import write_json

    old = RunResult(
        "v1",
        [
            _verdicts("a", Verdict.PASS),
            _verdicts("b", Verdict.NON_STRICT),
            _verdicts("c", Verdict.PASS, Verdict.UNCLEAN),
            _verdicts("d", Verdict.PASS),
            _verdicts("same", Verdict.NON_STRICT),
        ],
    )
    new = RunResult(
        "v2",
        [
            _verdicts("a", Verdict.NON_STRICT),
            _verdicts("b", Verdict.PASS),
            _verdicts("c", Verdict.PASS, Verdict.PASS),
            _verdicts("d", Verdict.PASS, Verdict.NOT_APPLICABLE),
            _verdicts("same", Verdict.NON_STRICT),
        ],
    )
    d = diff_runs(old, new)
    assert [(v.case_id, v.axis, v.was, v.now, v.worse) for v in d.verdicts] == [
        ("a", "stream", "PASS", "NON_STRICT", True),
        ("b", "stream", "NON_STRICT", "PASS", False),
        ("c", "cleanup", "UNCLEAN", "PASS", False),
        ("d", "cleanup", "PASS", "N/A", False),
    ]
    assert d.exit_code == 0  # nothing fails that passed: listed, not a regression
    write_json(old, tmp_path / "old.json")
    write_json(new, tmp_path / "new.json")
    assert main(["diff", str(tmp_path / "old.json"), str(tmp_path / "new.json")]) == 0
    text = capsys.readouterr().out
    assert "verdict changes (4; + worse, - better):\n  + a: stream PASS -> NON_STRICT\n" in text
    assert "  - b: stream NON_STRICT -> PASS\n  - c: cleanup UNCLEAN -> PASS\n" in text
    assert "4 verdict change(s): 1 worse, 3 better" in text
    assert "| `a` | stream | PASS | NON_STRICT | worse |" in diff_markdown(d)
    junit = ET.fromstring(diff_junit(d))
    assert sorted(str(c.get("name")) for c in junit.iter("testcase")) == ["a", "b", "c", "d"]
    assert "stream PASS -> NON_STRICT" in "".join(junit.itertext())


def test_a_version_3_run_diffs_against_a_version_4_one(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``diff`` reads results.json before version 4 (a real version-3 shard) and after: the same run
    written again as version 4 is no change (exit 0); against a version-4 run of other cases, each case
    is added or removed, and the version-3 FAIL is gone, not a fix or a regression."""
    old = Path(__file__).parent / "data" / "results-v3-shard1.json"
    new = tmp_path / "v4.json"
    from harness.report import load_results, write_json

    write_json(load_results(old), new)
    assert json.loads(new.read_text(encoding="utf-8"))["version"] == 5
    capsys.readouterr()
    assert main(["diff", str(old), str(new)]) == 0
    d = diff_runs(load_run(old), load_run(new))
    assert (d.new_failures, d.fixed, d.changed, d.added, d.removed, d.verdicts) == ([], [], [], [], [], [])
    assert d.still_failing == 1
    assert main(["diff", str(old), str(runs["clean"])]) == 0
    out = capsys.readouterr().out
    d = diff_runs(load_run(old), load_run(runs["clean"]))
    assert len(d.removed) == 6
    assert len(d.added) == len(load_run(runs["clean"]).results)
    assert "removed" in out
