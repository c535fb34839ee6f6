"""A reproduce line is an interface: for every way of naming a SUT (a built-in with a fault switch, a
profile file, ``--sut-cmd``, ``--sut-url``, ``module:callable``, a callable object given to ``run()``),
a failing case's line is pasted into a shell, run, and gives that case's verdict again."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.drivers import SUTProfile, parse_profile
from harness.runner import RunOptions, run
from harness.runner._sut import reproduce_line

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CASE = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
GATEWAY = "{python} -m harness.reference.gateway --port {port} --upstream {upstream} --fault drop-reasoning"


@pytest.fixture
def shell_env() -> dict[str, str]:
    """What a user's shell has: ``thinkwire`` on PATH, the repo and tests/runner importable."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), str(HERE), env.get("PYTHONPATH")]))
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


@pytest.fixture
def url_sut() -> Iterator[str]:
    from _reproduce_suts import RoutedGateway

    with RoutedGateway() as gateway:
        yield gateway.base_url


def verdict(report: Path) -> tuple[str, str, str, str]:
    (result,) = json.loads((report / "results.json").read_text())["results"]
    return result["case_id"], result["status"], result["stream"], result["cleanup"]


def reproduce(report: Path) -> str:
    (result,) = json.loads((report / "results.json").read_text())["results"]
    line: str = result["reproduce"]
    return line


def pasted(line: str, report: Path, env: dict[str, str], cwd: Path) -> int:
    """``line`` as a user pastes it into a shell (with a report directory added)."""
    done = subprocess.run(
        ["bash", "-c", f"{line} -q --report {shlex.quote(str(report))}"],
        env=env, cwd=cwd, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    return done.returncode


def profile_file(tmp_path: Path) -> list[str]:
    path = tmp_path / "gateway.toml"
    path.write_text(f'name = "my-gateway"\nkind = "gateway"\ncommand = {json.dumps(GATEWAY)}\n')
    return ["--sut", str(path)]


FORMS = {
    "builtin": lambda tmp, url: ["--sut", "reference", "--fault", "drop-reasoning", "--timeout", "9"],
    "profile-file": lambda tmp, url: profile_file(tmp),
    "sut-cmd": lambda tmp, url: ["--sut-cmd", GATEWAY, "--front-door", "openai-chat", "--strict"],
    "sut-url": lambda tmp, url: ["--sut-url", url + "/up/{upstream}"],
    "module-callable": lambda tmp, url: ["--sut", "_reproduce_suts:dropping", "--gate-timeout", "4"],
}


@pytest.mark.parametrize("form", list(FORMS))
def test_a_failing_cases_reproduce_line_run_in_a_shell_gives_its_verdict(
    form: str, tmp_path: Path, shell_env: dict[str, str], url_sut: str
) -> None:
    argv = FORMS[form](tmp_path, url_sut)
    first = tmp_path / "first"
    done = subprocess.run(
        [sys.executable, "-m", "harness.cli", "run", *argv, "--cases", CASE, "-q", "--report", str(first)],
        env=shell_env, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr  # the case failed: a reproduce line is printed for it
    line = reproduce(first)
    assert line in done.stdout
    assert line.startswith("thinkwire run ")
    for flag in ("--timeout", "--strict", "--gate-timeout"):  # the settings that bear on the verdict
        assert (flag in argv) == (flag in line), line
    again = tmp_path / "again"
    assert pasted(line, again, shell_env, tmp_path) == done.returncode
    assert verdict(again) == verdict(first)
    assert verdict(first)[1:3] == ("OK", "FAIL")


def test_a_callable_object_given_to_run_is_reproduced_by_its_import_name(
    tmp_path: Path, shell_env: dict[str, str]
) -> None:
    from _reproduce_suts import dropping

    result = run([CASE], RunOptions(sut=dropping, keep_timelines="none"))
    (case,) = result.results
    assert case.reproduce == f"thinkwire run --sut _reproduce_suts:dropping --cases '{CASE}' --keep-timelines"
    again = tmp_path / "again"
    assert pasted(case.reproduce, again, shell_env, tmp_path) == result.exit_code == 1
    assert verdict(again) == (case.case_id, case.status.value, case.stream.value, case.cleanup.value)


def test_a_sut_no_command_line_can_name_says_so() -> None:
    def local(request: object) -> list[object]:
        return []

    built = parse_profile({"kind": "url", "url": "http://127.0.0.1:9"})
    from harness.runner._sut import resolve_sut

    for profile in (built, resolve_sut(local)):
        assert isinstance(profile, SUTProfile)
        line = reproduce_line(CASE, profile, ["--strict"])
        assert line.startswith(f"(the SUT {profile.name!r} was given as a Python object"), line
        assert line.endswith(f"--cases '{CASE}' --keep-timelines")
