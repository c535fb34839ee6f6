"""The pytest route as a wrapper's authors use it (issue 49): project/ is their repository, its
tests/test_wrapper.py their test file (docs/pytest.md is written around it) and tests/tw_adapter.py their
adapter on pytest's ``pythonpath``. Each test copies the project and runs pytest in it, against the
correct wrapper and against a planted bug (``TW_ADAPTER_BUG``)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent / "project"
PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"
BIN = str(Path(sys.executable).parent)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(
        PROJECT, copy, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", ".hypothesis")
    )
    return copy


def _env(bug: str = "") -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS", "CI", "BUILD_NUMBER")
    }
    env["PATH"] = BIN + os.pathsep + env.get("PATH", "")
    env["TW_ADAPTER_BUG"] = bug
    return env


def pytest_in(
    project: Path, *args: str, bug: str = "", cache: bool = False
) -> subprocess.CompletedProcess[str]:
    """pytest in the project, as its authors run it (their own rootdir and pyproject.toml)."""
    quiet = [] if cache else ["-p", "no:cacheprovider"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *quiet, *args],
        cwd=project,
        env=_env(bug),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _counts(out: str) -> dict[str, int]:
    last = out.strip().splitlines()[-1]
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|deselected|skipped|error)", last)}


@pytest.mark.slow
def test_only_claimed_cases_are_items_and_the_rest_is_one_summary_line(project: Path) -> None:
    """The adapter claims openai-chat (``harness.claims``); test_case's pattern covers DeepSeek's
    openai-chat cases and Anthropic's: no Anthropic or Bedrock item exists, let alone passes."""
    ran = pytest_in(project, "-v", "--snapshot-update")
    out = ran.stdout
    assert ran.returncode == 0, out[-3000:]
    items = re.findall(r"::test_case\[(.+)\] PASSED", out)
    assert len(items) == 6, items
    assert all(":reasoning_content/" in i and "openai-chat" in i for i in items), items
    assert not re.search(r"test_case\[[^\]]*(anthropic-messages|bedrock-converse)", out)
    assert _counts(out) == {"passed": 9, "deselected": 22}
    assert (
        "thinkwire: tests/test_wrapper.py::test_case: 22 case(s) the SUT does not claim deselected "
        "(12 x anthropic-messages: dialect not claimed (claimed: openai-chat); "
        "10 x bedrock-converse: dialect not claimed (claimed: openai-chat))"
    ) in out
    # hypothesis over the mock upstream, with no health check switched off
    assert "test_decoder_keeps_the_reasoning PASSED" in out
    assert "suppress_health_check" not in (project / "tests" / "test_wrapper.py").read_text()


def test_a_snapshot_stored_from_the_reference_sdk_fails_under_lose_passback(project: Path) -> None:
    stored = pytest_in(project, "-q", "-k", "test_passback_snapshot", "--snapshot-update")
    assert _counts(stored.stdout) == {"passed": 1, "deselected": 30}, stored.stdout[-2000:]
    (ambr,) = project.glob("tests/__snapshots__/*.ambr")
    text = ambr.read_text()
    assert "passback: PASS" in text
    assert '"reasoning_content":"[tw-' in text
    again = pytest_in(project, "-q", "-k", "test_passback_snapshot")
    assert _counts(again.stdout) == {"passed": 1, "deselected": 30}, again.stdout[-2000:]  # ids, times masked
    broken = pytest_in(project, "-q", "-k", "test_passback_snapshot", bug="lose-passback")
    assert _counts(broken.stdout) == {"failed": 1, "deselected": 30}, broken.stdout[-2000:]
    assert "stream=FAIL" in broken.stdout
    assert "[passback] FAIL" in broken.stdout


def test_a_failing_passback_case_shows_expected_and_seen_and_its_reproduce_line_runs_from_a_shell(
    project: Path, tmp_path: Path
) -> None:
    exp = tmp_path / "known.toml"
    ran = pytest_in(
        project, "-q", "-k", "test_case", f"--thinkwire-write-expectations={exp}", bug="lose-passback"
    )
    out = ran.stdout
    assert _counts(out) == {"failed": 4, "passed": 2, "deselected": 25}, out[-3000:]
    block = out.split(f"_ test_case[{PASSBACK}] _", 1)[1].split("\n_", 1)[0]
    said = [line[1:].strip() for line in block.splitlines() if line.startswith("E ")]
    assert said[0] == "AssertionError: assert [1 unexpected case(s)] == []"  # pytest's own assertion text
    assert said[1] == f"× {PASSBACK}"
    assert said[2].startswith("[passback] FAIL: turn 1: the strict upstream (deepseek-v4) rejected")
    assert said[3] == "expected: messages[1].reasoning_content = '[tw-aa92c0d1] I need the weather tool.'"
    assert said[4] == "seen: messages[1].reasoning_content = ''"
    assert "Full output truncated" not in block  # the plugin keeps pytest's budget, cutting at words:
    assert all(re.search(r"(\w…|\W)$|\w$", line) for line in said)  # no "wor..." of pytest's own cut
    reproduce = said[5].removeprefix("reproduce: ")
    assert reproduce.startswith(
        f"PYTHONPATH={project / 'tests'}:{project} thinkwire run --sut tw_adapter:stream"
    )

    # the line, pasted in a shell elsewhere, runs the case again and fails it the same way
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    again = subprocess.run(
        reproduce,
        shell=True,
        cwd=elsewhere,
        env=_env("lose-passback"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 1, again.stdout[-2000:] + again.stderr[-2000:]
    assert "[passback] FAIL" in again.stdout
    assert "reasoning_content = ''" in again.stdout
    bare = subprocess.run(
        reproduce.split(" ", 1)[1],
        shell=True,
        cwd=elsewhere,
        env=_env("lose-passback"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bare.returncode == 2
    assert "tw_adapter" in bare.stdout + bare.stderr

    # expectations written from pytest are the CLI's format: with them the known failures are expected
    assert "wrote 4 expectation(s) to" in out
    known = exp.read_text()
    assert known.count("[cases.") == 4
    assert f'[cases."{PASSBACK}"]' in known
    expected = pytest_in(
        project, "-q", "-k", "test_case", f"--thinkwire-expectations={exp}", bug="lose-passback"
    )
    assert _counts(expected.stdout) == {"passed": 6, "deselected": 25}, expected.stdout[-3000:]


def test_thinkwire_cases_narrows_the_tests_own_pattern(project: Path, tmp_path: Path) -> None:
    rep = tmp_path / "rep"
    ran = pytest_in(
        project,
        "-q",
        "-k",
        "test_deepseek_passback or test_case",
        f"--thinkwire-cases={PASSBACK}",
        f"--thinkwire-report={rep}",
    )
    assert _counts(ran.stdout) == {"passed": 2, "deselected": 2}, ran.stdout[-3000:]  # test_case: 1 item
    ids = [r["case_id"] for r in json.loads((rep / "results.json").read_text())["results"]]
    assert ids == [PASSBACK, PASSBACK]  # test_deepseek_passback's 6 cases narrowed to the option's one
    # a test none of whose cases the option selects is skipped, saying so (it never passes on nothing)
    other = pytest_in(
        project, "-q", "-rs", "-k", "test_passback_snapshot", "--thinkwire-cases=incrementality/*"
    )
    assert _counts(other.stdout) == {"skipped": 1, "deselected": 3}, other.stdout[-3000:]
    assert "--thinkwire-cases leaves none of this test's cases" in other.stdout


@pytest.mark.slow
def test_k_lf_and_sw_work_on_case_ids(project: Path) -> None:
    first = pytest_in(project, "-q", "-k", "test_case and reasoning-content", bug="lose-passback", cache=True)
    assert _counts(first.stdout) == {"failed": 2, "deselected": 29}, first.stdout[-3000:]
    last_failed = pytest_in(project, "-q", "--lf", cache=True)
    assert _counts(last_failed.stdout) == {"passed": 2}, last_failed.stdout[-3000:]  # those two cases only
    stop = pytest_in(project, "-q", "--sw", "-k", "test_case", bug="lose-passback", cache=True)
    assert _counts(stop.stdout) == {"failed": 1, "passed": 2, "deselected": 25}, stop.stdout[-3000:]
    resume = pytest_in(project, "-q", "--sw", "-k", "test_case", cache=True)
    assert _counts(resume.stdout)["passed"] == 4, resume.stdout[-3000:]


def test_a_hypothesis_failure_over_mock_upstream_reads_in_under_40_lines(project: Path) -> None:
    ran = pytest_in(project, "-k", "test_decoder_keeps_the_reasoning", bug="double")
    out = ran.stdout
    assert _counts(out) == {"failed": 1, "deselected": 30}, out[-3000:]
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if "_ test_decoder_keeps_the_reasoning _" in line)
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith(("=", "thinkwire: ")))
    failure = lines[start:end]
    assert len(failure) < 40, "\n".join(failure)
    text = "\n".join(failure)
    assert "Failing test case" in text or "Falsifying example" in text
    assert "mock_upstream_factory=<mock upstream factory http://127.0.0.1:" in text  # not its internals
    assert re.search(r"AssertionError: assert '(.+)\1' == '\1'", text)  # the duplication, shrunk
    assert "HealthCheck" not in out
