"""``thinkwire show CASE``: a passing case run again prints each check's finding, what the upstream
sent beside what the client got, and its whole timeline as a swimlane; ``--report DIR`` takes the SUT
and settings from that run's reproduce line. A reproduce line keeps the whole timeline: pasted into a
shell, a passing case's results.json holds every entry, not a summary."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.report import load_results

REPO = Path(__file__).resolve().parents[2]
CASE = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
FAILING = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"


def shell_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


def stored(report: Path) -> dict[str, object]:
    (result,) = json.loads((report / "results.json").read_text())["results"]
    assert isinstance(result, dict)
    return result


def test_show_prints_a_passing_case_s_evidence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", CASE, "--sut", "reference"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{CASE}: PASS\n")
    assert "  [delivery] PASS\n" in out
    assert "  [channel-separation] PASS\n" in out
    # what the upstream sent beside what the client got, per turn
    assert "    text       'Hello!' | 'Hello!'  (same)" in out
    assert "reasoning  '[tw-" in out
    swimlane = out.split("timeline (", 1)[1]
    assert "| request " in swimlane  # the upstream lane
    assert "  TextDelta {\"text\": \"Hello!\"}" in swimlane  # the client lane
    assert f"reproduce: thinkwire run --sut reference --cases '{CASE}' --keep-timelines" in out


def test_show_marks_what_a_failing_case_s_findings_cite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", FAILING, "--sut", "reference", "--fault", "lose-passback"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{FAILING}: FAIL\n")
    assert "  [passback] FAIL: turn 1: the strict upstream" in out
    cited = [line for line in out.split("timeline (", 1)[1].splitlines() if line.startswith("*")]
    assert cited
    assert all("<- " in line for line in cited)
    assert any("passback" in line for line in cited)


def test_a_reproduce_line_pasted_into_a_shell_keeps_a_passing_case_s_timeline(tmp_path: Path) -> None:
    first = tmp_path / "first"
    assert main(["run", "--sut", "reference", "--cases", CASE, "-q", "--report", str(first)]) == 0
    result = stored(first)
    assert result["stream"] == "PASS"
    assert "checks" in result  # compact: no timeline, its reproduce line from the run's template
    assert "timeline" not in result
    assert "timeline_summary" not in result
    line = load_results(first / "results.json").results[0].reproduce
    assert "--keep-timelines" in shlex.split(line)
    again = tmp_path / "again"
    done = subprocess.run(
        ["bash", "-c", f"{line} -q --report {shlex.quote(str(again))}"],
        env=shell_env(), cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    kept = stored(again)
    assert kept["stream"] == "PASS"
    assert isinstance(kept["timeline"], list)
    assert len(kept["timeline"]) > 10


def test_show_runs_a_case_of_a_report_as_that_run_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report"
    argv = ["run", "--sut", "reference", "--fault", "lose-passback", "--cases", CASE, "-q"]
    assert main([*argv, "--report", str(report)]) == 0
    capsys.readouterr()
    assert main(["show", CASE, "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{CASE}: PASS\n")
    assert "--fault lose-passback" in out.rsplit("reproduce: ", 1)[1]  # the stored run's SUT again


def test_show_reads_a_version_3_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A report dir written before results.json version 4: its reproduce line still names the run."""
    report = tmp_path / "old"
    report.mkdir()
    old = Path(__file__).parent / "data" / "results-v3-shard1.json"
    (report / "results.json").write_bytes(old.read_bytes())
    case = "timing/first-token[openai-chat:reasoning_content/frames]"
    assert main(["show", case, "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{case}: PASS\n")
    assert "--fault nonstream-inline-think" in out.rsplit("reproduce: ", 1)[1]


def test_show_given_a_scenario_lists_its_cases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "errors-cancellation/client-cancel", "--sut", "reference"]) == 2
    err = capsys.readouterr().err
    assert "show: 'errors-cancellation/client-cancel' is a scenario of 6 cases; name one:" in err
    assert "\n  errors-cancellation/client-cancel[openai-chat:reasoning_content/frames]\n" in err
    assert main(["show", "errors-cancellation/client-cancl", "--sut", "reference"]) == 2
    err = capsys.readouterr().err
    assert "show: no case 'errors-cancellation/client-cancl'; did you mean " in err
    assert "did you mean errors-cancellation/client-cancel " in err


def test_show_refuses_what_it_cannot_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "wire-variants/*", "--sut", "reference"]) == 2
    assert "matches" in capsys.readouterr().err
    assert main(["show", CASE, "--report", str(tmp_path)]) == 2
    assert "cannot read results.json" in capsys.readouterr().err
