"""SIGINT and SIGTERM to a real ``thinkwire run``, serial, ``-j 2`` and ``--concurrency`` (also while a
second gateway instance runs the cases that need one to themselves), sent once the progress shows a
finished case: exit 128 + signal, one line, a partial report marked ``interrupted`` in which the
cases not run are absent (not ERROR), and nothing left (the ``sandbox`` fixture)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import psutil
import pytest
from _adversarial import BOUND_S, Sandbox, wait_for_output

from harness.report import SCHEMA_PATH
from harness.runner import load_cases

pytestmark = pytest.mark.slow

CASES = "wire-variants/*"  # ~200 cases against the reference gateway: the run is still going on
TOTAL = len(load_cases([CASES]))  # the catalog's count (it grows with every new wire variant)


@pytest.mark.parametrize(
    ("jobs", "sut", "group"),
    [
        ("1", "reference", False),
        ("2", "reference", False),
        ("2", "reference", True),
        ("1", "reference-cli", False),
        ("c8", "reference", False),
        ("c8", "reference", True),
    ],
    ids=["serial", "j2", "j2-group", "serial-cli", "concurrency8", "concurrency8-group"],
)
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_run_stops_everything_and_writes_a_partial_report(
    sandbox: Sandbox, sig: signal.Signals, jobs: str, sut: str, group: bool
) -> None:
    """``group``: the signal goes to thinkwire and its xdist workers at once (Ctrl-C in a terminal, a
    CI runner that signals the process group); otherwise to the thinkwire process alone. ``c8``: eight
    cases in flight at once through the one SUT (``--concurrency 8``) when the signal comes."""
    how = ["--concurrency", "8"] if jobs == "c8" else ["-j", jobs]
    proc = sandbox.start("--sut", sut, "--cases", CASES, *how, session=True)
    try:
        seen = wait_for_output(proc, b".F")  # a case finished
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=BOUND_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 128 + sig, (seen + err).decode()[-3000:]
    assert out == b""  # no summary: the one line below is all
    said = (seen + err).decode().rsplit("\n", 2)[-2:]
    assert said[-1] == "", said
    assert re.fullmatch(
        rf"thinkwire: interrupted by {sig.name} after (\d+) case\(s\); partial report in \S+", said[0]
    ), said
    done = int(re.findall(r"after (\d+) case", said[0])[0])
    data = json.loads((sandbox.root / "report" / "results.json").read_text())
    assert data["interrupted"] == sig.name
    assert 1 <= len(data["results"]) == done < TOTAL
    assert [r["case_id"] for r in data["results"] if r["status"] != "OK"] == []  # not run is not ERROR
    jsonschema.validate(data, json.loads(SCHEMA_PATH.read_text()))
    summary = (sandbox.root / "report" / "summary.md").read_text()
    assert f"**Interrupted** by {sig.name}" in summary


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_during_a_hanging_case_stops_a_sut_that_ignores_sigterm(sandbox: Sandbox, jobs: str) -> None:
    """The case in progress streams forever from a SUT that ignores SIGTERM: the run still ends, that
    case is absent (not run), and the SUT is gone."""
    from _adversarial import ONE_CASE, sut

    profile = sandbox.profile(
        "stubborn-endless",
        kind="gateway",
        command=sut("ignores_sigterm.py", "--", "{python}", *sut("endless.py", "--port", "{port}")[1:]),
    )
    proc = subprocess.Popen(
        sandbox.argv("--sut", str(profile), "--cases", ONE_CASE, "-j", jobs, "-q"),
        env=sandbox.env,
        cwd=sandbox.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        sandbox.wait_noted("request", proc)  # the case is in progress
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=BOUND_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err.decode()[-3000:]
    assert err.decode().splitlines()[-1].startswith("thinkwire: interrupted by SIGTERM after 0 case(s)")
    data = json.loads((sandbox.root / "report" / "results.json").read_text())
    assert data["interrupted"] == "SIGTERM"
    assert data["results"] == []


def test_a_second_signal_does_not_cut_the_cleanup_short(sandbox: Sandbox) -> None:
    proc = subprocess.Popen(
        sandbox.argv("--cases", CASES, "-q"),
        env=sandbox.env,
        cwd=sandbox.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + BOUND_S
        while not list(sandbox.tmp.glob("thinkwire-sut-*")):  # -q: no progress; the gateway's dir
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline
            time.sleep(0.01)  # polling for an event, not timing a verdict
        proc.send_signal(signal.SIGTERM)
        proc.send_signal(signal.SIGINT)  # impatient: more signals at once
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=BOUND_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # the signals arrive together: whichever Python handles first is the one the run reports
    name = {130: "SIGINT", 143: "SIGTERM"}.get(proc.returncode)
    assert name, (proc.returncode, err.decode()[-3000:])
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"thinkwire: interrupted by {name} after ")
    assert json.loads((sandbox.root / "report" / "results.json").read_text())["interrupted"] == name


def test_a_killed_workers_sut_is_stopped_at_the_end_of_the_run(sandbox: Sandbox) -> None:
    """SIGKILL to an xdist worker: it stops nothing, its SUT is orphaned (re-parented to thinkwire, the
    subreaper) and is stopped at the end of the run by its marker."""
    import psutil

    proc = subprocess.Popen(
        sandbox.argv("--cases", CASES, "-j", "2"),
        env=sandbox.env,
        cwd=sandbox.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_output(proc, b".F")  # the workers and their SUTs are up
        workers = [
            p for p in psutil.Process(proc.pid).children() if "THINKWIRE_PLAN" in p.environ()
        ]
        assert workers
        suts = [c for c in workers[0].children(recursive=True) if "THINKWIRE_SUT_ID" in c.environ()]
        assert suts, "the worker runs a gateway"
        workers[0].kill()
        out, err = proc.communicate(timeout=BOUND_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    data = json.loads((sandbox.root / "report" / "results.json").read_text())
    assert len(data["results"]) == TOTAL
    # killed inside a batch: that batch is ERROR (exit 1); between two batches: xdist hands the
    # worker's pending batches to the other worker and every case passes (exit 0)
    lost = [r for r in data["results"] if "left no result" in r["error"]]
    assert proc.returncode == (1 if lost else 0), (out + err).decode()[-3000:]
    assert not any(s.is_running() and s.status() != psutil.STATUS_ZOMBIE for s in suts)


def test_sigterm_while_a_second_gateway_instance_runs_alone_cases_leaves_nothing(sandbox: Sandbox) -> None:
    """``--concurrency`` through a gateway that makes cases wait starts a second instance for the
    cases that run alone; SIGTERM once both instances run: exit 143, and neither is left."""
    gateway = str(Path(__file__).resolve().parents[1] / "integrity" / "_gateway.py")
    profile = sandbox.profile(
        "slow-relay",
        kind="gateway",
        command=[sys.executable, gateway, "slow", "{port}", "{upstream}"],
        dialects=["openai-chat"],
        timeout=15,
    )
    cases = ["--cases", "errors-cancellation/*[openai-chat:*", "--cases", "incrementality/*[openai-chat:*"]
    proc = sandbox.start("--sut", str(profile), *cases, "--concurrency", "4", session=True)
    try:
        deadline = time.monotonic() + BOUND_S  # until the second instance is up (a state, bounded)
        while time.monotonic() < deadline and proc.poll() is None:
            kids = [p for p in psutil.Process(proc.pid).children(recursive=True) if gateway in p.cmdline()]
            if len(kids) >= 2:
                break
            time.sleep(0.01)  # polling the process table, not waiting for a verdict
        else:
            raise AssertionError("no second gateway instance started")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=BOUND_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err.decode()[-3000:]
    assert "interrupted by SIGTERM" in err.decode()


def test_sigterm_during_init_stops_its_gateway_and_leaves_nothing(sandbox: Sandbox) -> None:
    """``thinkwire init``'s discovery run takes SIGTERM as ``run`` does: the gateway it started is
    stopped, its temp dir removed, one line, exit 143 (before, the gateway and its dir were left)."""
    gateway = "{python} -m harness.reference.gateway --port {port} --upstream {upstream}"
    argv = [sys.executable, "-m", "harness.cli", "init", "--sut-cmd", gateway, "--front-door", "openai-chat"]
    proc = subprocess.Popen(argv, env=sandbox.env, cwd=sandbox.root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + BOUND_S
        def gateways() -> list[psutil.Process]:  # (thinkwire's own command line names the module too)
            tagged = [p for p in sandbox.tagged() if p.pid != proc.pid]
            return [p for p in tagged if "harness.reference.gateway" in p.cmdline()]

        while not gateways():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "init never started its gateway"
            time.sleep(0.02)  # polling the process table for a state, not timing a verdict
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=BOUND_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err.decode()[-2000:]
    assert err.decode().endswith("thinkwire init: interrupted by SIGTERM; no draft written\n")
