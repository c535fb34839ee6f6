"""A team's own scenarios: ``--scenarios DIR`` (repeatable), the profile key ``scenarios``, the pytest
plugin's ``--thinkwire-scenarios``; local cases appear in ``thinkwire list``; an id that collides with
the catalog is an error naming both files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness._errors import ScenarioError
from harness.catalog import catalog_dir
from harness.cli import main
from harness.runner import load_cases, run
from harness.verdict import Verdict

pytest_plugins = ["pytester"]

SRC = catalog_dir() / "wire-variants" / "reasoning-then-answer.toml"
MINE = "team/my-case[openai-chat:reasoning_content/frames]"


@pytest.fixture
def own(tmp_path: Path) -> Path:
    (tmp_path / "mine" / "team").mkdir(parents=True)
    shutil.copy(SRC, tmp_path / "mine" / "team" / "my-case.toml")
    return tmp_path / "mine"


def test_run_with_own_scenarios(own: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--sut", "reference-sdk", "--scenarios", str(own), "--cases", "team/*", "-q"]) == 0
    assert "cases against reference-sdk" in capsys.readouterr().out


def test_profile_key_and_run_argument(own: Path, tmp_path: Path) -> None:
    result = run([MINE], sut="reference-sdk", scenarios=[own])
    assert [r.stream for r in result.results] == [Verdict.PASS]
    profile = tmp_path / "p.toml"
    profile.write_text(
        'kind = "python"\ncallable = "harness.reference.sdk:reference_sdk"\nscenarios = ["mine"]\n',
        encoding="utf-8",
    )
    result = run(["team/*"], sut=str(profile))  # the profile's directories, relative to the profile
    assert {r.scenario_id for r in result.results} == {"team/my-case"}


def test_list_shows_local_cases(own: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--scenarios-dir", str(own), "--cases", "team/*"]) == 0
    assert MINE in capsys.readouterr().out


def test_an_id_taken_by_the_catalog_names_both_files(tmp_path: Path) -> None:
    (tmp_path / "wire-variants").mkdir()
    shutil.copy(SRC, tmp_path / "wire-variants" / "reasoning-then-answer.toml")
    with pytest.raises(ScenarioError) as info:
        load_cases(scenarios=[tmp_path])
    text = str(info.value)
    assert str(tmp_path / "wire-variants" / "reasoning-then-answer.toml") in text
    assert str(SRC) in text


def test_plugin_option(own: Path, pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_mine(thinkwire_run, thinkwire_case):
            assert thinkwire_case.scenario.id == "team/my-case"
            result = thinkwire_run(sut="reference-sdk")  # an item that runs no case never passes
            assert [r.case_id for r in result.results] == [thinkwire_case.id]
            assert not result.unexpected
        """
    )
    res = pytester.runpytest(
        "-p", "no:xdist", "--thinkwire-scenarios", str(own), "--thinkwire-cases", "team/*"
    )
    res.assert_outcomes(passed=len(load_cases(["team/*"], scenarios=[own])))


@pytest.mark.slow
def test_own_scenarios_run_concurrently_and_reproduce_lines_name_the_directory(
    own: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--concurrency N takes --scenarios; a failing local case's reproduce line repeats
    --scenarios DIR, so that it finds the case again."""
    import json
    import shlex

    args = ["run", "--sut", "reference-sdk", "--fault", "drop-reasoning", "--scenarios", str(own), "-q"]
    assert main([*args, "--cases", "team/*", "--concurrency", "2", "--report", str(tmp_path / "r")]) == 1
    results = json.loads((tmp_path / "r" / "results.json").read_text())["results"]
    assert {r["scenario_id"] for r in results} == {"team/my-case"}
    failing = next(r for r in results if r["case_id"] == MINE)
    assert failing["stream"] == "FAIL"
    line = shlex.split(failing["reproduce"])
    assert line[:2] == ["thinkwire", "run"]
    assert main(["run", *line[2:], "-q", "--report", str(tmp_path / "again")]) == 1
    (again,) = json.loads((tmp_path / "again" / "results.json").read_text())["results"]
    assert (again["case_id"], again["stream"]) == (MINE, "FAIL")
    capsys.readouterr()
