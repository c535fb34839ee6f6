"""The same guarantees through ``run()`` called in this process (the pytest plugin's and users' way):
no child subreaper here, so a detached descendant is found by its environment marker alone; an
interrupt stops the SUT and raises RunInterrupted with the cases that finished."""

from __future__ import annotations

import sys
from pathlib import Path

import psutil
import pytest
from _adversarial import ONE_CASE, REFERENCE_GATEWAY, SOME_CASES, SUTS, Sandbox

from harness.cli import main
from harness.drivers import parse_profile
from harness.drivers._process import SUT_MARKER
from harness.runner import RunInterrupted, run
from harness.verdict import Status, Verdict

pytestmark = pytest.mark.slow


def python(command: list[str]) -> list[str]:
    return [sys.executable if a == "{python}" else a for a in command]


def reference_like(command: list[str]) -> object:
    return parse_profile(
        {
            "kind": "gateway",
            "command": command,
            "front_variant": "reasoning_details",
            "inline_think": False,
            "models": {"*": "{dialect}:{variant}/mock-model"},
        }
    )


def sut_processes(tag: str) -> list[psutil.Process]:
    """SUT processes started under this test (other tests may run SUTs at the same time)."""
    out = []
    for p in psutil.process_iter():
        try:
            env = p.environ()
            if SUT_MARKER in env and env.get("ADV_TAG") == tag and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.Error:
            pass
    return out


def test_a_double_forked_grandchild_is_found_by_its_marker_without_a_subreaper(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    from harness.drivers import _process

    assert not _process._subreaper  # (only the thinkwire program and its xdist workers become one)
    monkeypatch.setenv("ADV_LOG", str(sandbox.log))
    monkeypatch.setenv("ADV_TAG", sandbox.tag)
    command = [str(SUTS / "detached.py"), "--how", "double-fork", "--", *REFERENCE_GATEWAY]
    result = run([ONE_CASE], sut=reference_like(python(["{python}", *command])))
    (r,) = result.results
    assert r.stream == Verdict.PASS, r.error
    (grandchild,) = sandbox.noted("grandchild")
    assert (
        not psutil.pid_exists(int(grandchild[0])) or psutil.Process(int(grandchild[0])).status() == "zombie"
    )


def test_an_interrupt_stops_the_sut_and_raises_with_the_finished_cases(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADV_TAG", sandbox.tag)
    seen: list[int] = []

    def progress(n: int, total: int, result: object) -> None:
        seen.append(n)
        if n == 2:
            assert sut_processes(sandbox.tag), "the gateway runs while cases do"
            raise KeyboardInterrupt  # as SIGINT would, between two cases

    with pytest.raises(RunInterrupted) as stopped:
        run([SOME_CASES], sut=reference_like(python(REFERENCE_GATEWAY)), progress=progress)
    partial = stopped.value.result
    assert partial.interrupted == "SIGINT"
    assert [r.status for r in partial.results] == [Status.OK, Status.OK]
    assert sut_processes(sandbox.tag) == []


def test_a_gateway_that_cannot_start_leaves_no_temp_dir(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(sandbox.tmp))
    result = run(
        [SOME_CASES], sut=parse_profile({"kind": "gateway", "command": [str(sandbox.root / "nope")]})
    )
    assert {r.status for r in result.results} == {Status.ERROR}
    assert result.exit_code == 2
    assert list(Path(sandbox.tmp).iterdir()) == []


@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan"])
def test_ready_timeout_must_be_a_positive_number(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--ready-timeout", value]) == 2
    assert "--ready-timeout: expected a number of seconds > 0, got" in capsys.readouterr().err


def test_ready_timeout_must_be_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["run", "--ready-timeout", "soon"])
    assert exited.value.code == 2
    assert "--ready-timeout: invalid float value: 'soon'" in capsys.readouterr().err


def test_with_two_workers_no_matching_case_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "-j", "2", "--cases", "no/such/case*", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "thinkwire: error: --cases: no case matches no/such/case* (see thinkwire list --by-scenario)"
    ]


def test_an_interrupt_inside_popen_leaves_no_process_and_no_dir(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worst moment for an interrupt: the CLI SUT's process exists but its Popen never returned,
    so no Process knows it. Its run marker finds it; its dirs are removed only after it is gone."""
    import subprocess
    import tempfile

    from harness.drivers import _process

    monkeypatch.setattr(tempfile, "tempdir", str(sandbox.tmp))
    monkeypatch.setenv("ADV_TAG", sandbox.tag)
    real = subprocess.Popen
    started: list[subprocess.Popen[bytes]] = []  # (held here only so the test can close its pipe)

    def popen_then_interrupt(*args: object, **kwargs: object) -> object:
        child = real(*args, **kwargs)  # type: ignore[call-overload]
        started.append(child)
        if len(started) == 3:  # (the preflight canary's, the first case's, then this one)
            raise KeyboardInterrupt  # as if SIGINT arrived right after the fork
        return child

    monkeypatch.setattr(_process.subprocess, "Popen", popen_then_interrupt)
    with pytest.raises(RunInterrupted) as stopped:
        run([SOME_CASES], sut="reference-cli")
    assert len(stopped.value.result.results) == 1
    assert len(started) == 3
    orphan = started[2]
    assert orphan.poll() is not None  # killed (and reaped) without anyone holding its Popen
    assert orphan.stdout is not None
    orphan.stdout.close()
    if orphan.stdin is not None:  # (the reference CLI reads its commands on stdin)
        orphan.stdin.close()
    assert sut_processes(sandbox.tag) == []
    assert list(sandbox.tmp.iterdir()) == []
