"""Misbehaving SUTs (tests/adversarial/suts/) against a real ``thinkwire run`` subprocess: each test
asserts the verdict, that the run ends within a bound, and (the ``sandbox`` fixture) that no process,
listening port or temp dir is left."""

from __future__ import annotations

import pytest
from _adversarial import (
    ONE_CASE,
    REFERENCE_AGENT,
    REFERENCE_GATEWAY,
    SOME_CASES,
    Sandbox,
    command_line,
    sut,
)

pytestmark = pytest.mark.slow


def only_case(ran: object) -> dict:
    results = ran.results["results"]  # type: ignore[attr-defined]
    assert len(results) == 1, results
    return results[0]


@pytest.mark.parametrize("script", ["trickle.py", "endless.py"])
def test_a_stream_that_never_ends_is_timeout_at_the_deadline(sandbox: Sandbox, script: str) -> None:
    ran = sandbox.run("--sut-cmd", command_line(sut(script, "--port", "{port}")), "--cases", ONE_CASE,
                      "--timeout", "3", "--no-preflight", "-q")  # fmt: skip
    r = only_case(ran)
    assert r["status"] == "TIMEOUT", r["error"]
    assert ran.code == 1
    assert ran.elapsed < 15, f"a 3 s deadline took {ran.elapsed:.1f}s"


def test_a_stream_that_never_ends_stops_the_run_at_preflight(sandbox: Sandbox) -> None:
    ran = sandbox.run("--sut-cmd", command_line(sut("endless.py", "--port", "{port}")),
                      "--timeout", "3", "-q")  # fmt: skip
    assert ran.code == 2
    assert "did not answer the canary case" in ran.stderr
    assert "within 3s" in ran.stderr
    # named by its command, found at the URL it was started on (not "at <the command>")
    assert "endless.py --port '{port}'\" at http://127.0.0.1:" in ran.stderr
    assert ran.elapsed < 15, f"a 3 s deadline took {ran.elapsed:.1f}s"


def test_a_huge_stream_fails_at_the_size_cap(sandbox: Sandbox) -> None:
    ran = sandbox.run("--sut-cmd", command_line(sut("huge.py", "--port", "{port}")), "--cases", ONE_CASE,
                      "--max-bytes", "1048576", "--no-preflight", "-q")  # fmt: skip
    r = only_case(ran)
    assert r["status"] == "OK", r["error"]
    assert r["stream"] == "FAIL", r["findings"]
    said = " ".join(f["message"] + " " + f["actual"] for f in r["findings"] if f["verdict"] == "FAIL")
    assert "sent more than" in said, r["findings"]
    assert ran.elapsed < 60  # the rest of the 16 MiB is never read


@pytest.mark.parametrize(
    ("script", "says", "why"),
    [
        ("crash_at_start.py", "fatal: master key is not set", "exited with code 1 before becoming ready"),
        ("never_ready.py", "booting: waiting for a license server", "not ready at"),
    ],
)
def test_a_sut_that_cannot_start_is_tried_twice_then_every_case_is_error(
    sandbox: Sandbox, script: str, says: str, why: str
) -> None:
    ran = sandbox.run(
        "--sut-cmd", command_line(sut(script)), "--ready-timeout", "1", "--cases", SOME_CASES, "-q"
    )
    assert ran.code == 2, ran.stderr
    assert len(sandbox.noted("start")) == 2  # once, and one retry: not once per case
    results = ran.results["results"]
    assert len(results) == 4
    for r in results:
        assert r["status"] == "ERROR"
        assert why in r["error"]
        assert says in r["error"]
    assert ran.results["sut_error"].startswith("the SUT could not be started (tried twice)")
    assert ran.results["exit_code"] == 2
    assert "thinkwire: the SUT could not be started (tried twice)" in ran.stderr
    assert ran.elapsed < 60


def test_a_cli_sut_that_cannot_be_executed_leaves_no_temp_dir(sandbox: Sandbox) -> None:
    profile = sandbox.profile("nosuch", kind="cli", command=[str(sandbox.root / "no-such-program")])
    ran = sandbox.run("--sut", str(profile), "--cases", SOME_CASES, "-q")
    assert ran.code == 2  # the preflight canary could not start it: one line, nothing judged
    assert "cannot start CLI" in ran.stderr
    assert len(ran.stderr.strip().splitlines()) == 1
    # the sandbox fixture asserts that TMPDIR holds no thinkwire-cli-* dir


def test_a_gateway_that_cannot_be_executed_leaves_no_temp_dir(sandbox: Sandbox) -> None:
    ran = sandbox.run("--sut-cmd", str(sandbox.root / "no-such-gateway"), "--cases", SOME_CASES, "-q")
    assert ran.code == 2
    assert all("cannot start SUT" in r["error"] for r in ran.results["results"])
    # the sandbox fixture asserts that TMPDIR holds no thinkwire-sut-* dir


def reference_gateway_profile(sandbox: Sandbox, name: str, command: list[str]) -> str:
    return str(
        sandbox.profile(
            name,
            kind="gateway",
            command=command,
            front_door="openai-chat",
            front_variant="reasoning_details",
            inline_think=False,
            models={"*": "{dialect}:{variant}/mock-model"},
        )
    )


@pytest.mark.parametrize("how", ["setsid", "double-fork"])
def test_a_gateways_detached_grandchild_is_stopped_with_it(sandbox: Sandbox, how: str) -> None:
    command = sut("detached.py", "--how", how, "--", *REFERENCE_GATEWAY)
    ran = sandbox.run(
        "--sut", reference_gateway_profile(sandbox, "detached", command), "--cases", SOME_CASES, "-q"
    )
    assert [r["stream"] for r in ran.results["results"]] == ["PASS"] * 4, ran.stdout
    assert ran.code == 0
    assert len(sandbox.noted("grandchild")) == 1  # it did linger, listening (the fixture: no more)


@pytest.mark.parametrize("how", ["setsid", "double-fork"])
def test_a_cli_suts_detached_grandchild_is_unclean_and_stopped(sandbox: Sandbox, how: str) -> None:
    profile = sandbox.profile(
        "detached-cli",
        kind="cli",
        command=sut("detached.py", "--how", how, "--", *REFERENCE_AGENT),
        front_door="pi-json",
        front_variant="v2",
        models={"*": "mock-model"},
    )
    ran = sandbox.run("--sut", str(profile), "--cases", ONE_CASE, "-q")
    r = only_case(ran)
    assert r["stream"] == "PASS", r
    # UNCLEAN (the child outlived the SUT) or, when the watcher saw the child before the SUT removed its
    # session dir, FAIL (dir removed while a child still ran): both name the lingering grandchild
    assert r["cleanup"] in ("UNCLEAN", "FAIL"), r["findings"]
    grandchild = sandbox.noted("grandchild")[-1]  # the case's (the preflight canary's came first)
    cleanup = next(f for f in r["findings"] if f["check"] == "cleanup")
    assert grandchild[0] in cleanup["message"] + cleanup["actual"], cleanup


def test_a_gateway_that_ignores_sigterm_is_killed(sandbox: Sandbox) -> None:
    command = sut("ignores_sigterm.py", "--", *REFERENCE_GATEWAY)
    ran = sandbox.run(
        "--sut", reference_gateway_profile(sandbox, "stubborn", command), "--cases", ONE_CASE, "-q"
    )
    assert only_case(ran)["stream"] == "PASS"
    assert ran.code == 0
    assert ran.elapsed < 60  # SIGTERM, a grace of 3 s, SIGKILL


def test_a_gateway_that_allows_one_instance_runs_its_alone_cases_after_the_others(sandbox: Sandbox) -> None:
    """``--concurrency`` through a slow gateway would start a second instance for the cases that need
    one to themselves; this gateway refuses a second (it holds a lock file): those cases run after the
    shared ones, on the first instance, and say so; every case has its serial verdict."""
    from pathlib import Path

    gateway = str(Path(__file__).resolve().parents[1] / "integrity" / "_gateway.py")
    lock = str(sandbox.root / "instance.lock")
    profile = sandbox.profile(
        "one-instance",
        kind="gateway",
        command=sut("one_instance.py", lock, "--", "{python}", gateway, "slow", "{port}", "{upstream}"),
        dialects=["openai-chat"],
        timeout=15,
    )
    cases = ["--cases", "errors-cancellation/*[openai-chat:reasoning_content/frames]",
             "--cases", "incrementality/*[openai-chat:reasoning_content/frames]"]  # fmt: skip
    serial = sandbox.run("--sut", str(profile), *cases, "--concurrency", "1", "-q").results["results"]
    ran = sandbox.run("--sut", str(profile), *cases, "--concurrency", "4", "-q")
    concurrent = ran.results["results"]
    def verdicts(results: list[dict]) -> list[tuple[str, str, dict]]:
        return [(r["case_id"], r["status"], r["axes"]) for r in results]

    assert verdicts(concurrent) == verdicts(serial)
    alone = [r["alone"] for r in concurrent if r.get("alone")]  # (a passing case leaves out an empty one)
    assert len(alone) == 1  # the upstream cutting its connection (a cancel shares the gateway: issue 39)
    assert all("second instance" not in why for why in alone)  # it could not start: after the others
    assert not Path(lock).exists()  # the one instance was stopped
