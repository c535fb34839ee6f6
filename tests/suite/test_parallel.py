"""``thinkwire run -j N``: the batches the xdist catalog hands out, and the same verdicts as a serial run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import harness._xdist_catalog as catalog
from harness.cli import main
from harness.runner import RunOptions, load_cases, run


def test_batches_cover_every_case_once_and_keep_parity_scenarios_whole() -> None:
    batches = catalog._batches()
    ids = [cid for _, b in batches for cid in b]
    cases = load_cases()
    assert sorted(ids) == sorted(c.id for c in cases)
    assert len(set(ids)) == len(ids)
    scenario = {c.id: c.scenario for c in cases}
    for name, b in batches:
        owners = {scenario[cid].id for cid in b}
        assert len(owners) == 1, name  # a batch never mixes scenarios
        (sid,) = owners
        whole = [c.id for c in cases if c.scenario.id == sid]
        if scenario[b[0]].parity:
            assert list(b) == whole, name  # parity compares two cases of one run(): never split
        else:
            assert len(b) <= catalog.BATCH, name
    sizes = [len(b) for _, b in batches]
    assert sizes == sorted(sizes, reverse=True)  # longest first: no lone worker at the tail
    assert any(scenario[b[0]].parity for _, b in batches)  # the catalog has one: the rule was exercised


@pytest.mark.slow
def test_two_workers_give_the_serial_verdicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A fault that fails some cases and passes others, over scenarios split into several batches."""
    globs = ["errors-cancellation/upstream-http-error*", "ordering-duplication/stream-nonstream-parity*",
             "sse-framing/split-crlf*"]
    args = ["run", "-q", "--fault", "drop-reasoning", *[x for g in globs for x in ("--cases", g)]]
    assert main([*args, "--report", str(tmp_path / "serial")]) == 1
    assert main([*args, "-j", "2", "--report", str(tmp_path / "parallel")]) == 1
    capsys.readouterr()

    def verdicts(d: str) -> dict[str, tuple[str, str, str, bool]]:
        results = json.loads((tmp_path / d / "results.json").read_text())["results"]
        return {r["case_id"]: (r["status"], r["stream"], r["cleanup"], bool(r["timeline"])) for r in results}

    serial, parallel = verdicts("serial"), verdicts("parallel")
    assert list(parallel) == list(serial)  # merged back into catalog order
    assert parallel == serial
    assert {v[1] for v in serial.values()} >= {"PASS", "FAIL"}
    assert len(serial) > catalog.BATCH


def test_keep_timelines_failures_keeps_only_the_failing_ones() -> None:
    cases = ["errors-cancellation/mid-stream-error*", "sse-framing/split-crlf*"]
    broken = run(cases, faults=["drop-reasoning"], keep_timelines="failures")
    assert {r.stream.value for r in broken.results} >= {"PASS", "FAIL"}
    for r in broken.results:
        assert bool(r.timeline) == (r.stream.value == "FAIL"), r.case_id
        assert (r.timeline_summary is None) == (r.stream.value == "FAIL"), r.case_id  # passing: summarised
    passing = next(r for r in broken.results if r.stream.value == "PASS")
    assert passing.timeline_summary is not None
    assert passing.timeline_summary["entries"] > 0
    assert sum(row["n"] for row in passing.timeline_summary["rows"]) == passing.timeline_summary["entries"]
    assert all(r.timeline for r in run(cases, keep_timelines=True).results)
    assert not any(r.timeline for r in run(cases, faults=["drop-reasoning"], keep_timelines=False).results)


def test_without_xdist_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    find = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n == "xdist" else find(n, *a))
    assert main(["run", "-q", "-j", "2", "--cases", "timing/*"]) == 2
    err = capsys.readouterr().err
    assert "pip install pytest-xdist" in err
    assert "pip install '.[parallel]'" in err  # (thinkwire is not on the index: from a checkout)


def test_a_batch_that_left_no_result_is_an_error_not_a_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker dies mid-run: the batches it finished count, every other case is an ERROR result."""
    import os
    import pickle
    from types import SimpleNamespace

    from harness.runner import _parallel

    globs = ["sse-framing/split-utf8*"]  # 12 cases: two batches
    (first, ids), (second, _) = [b for b in catalog._batches() if b[0].startswith("sse-framing/split-utf8")]
    done = run(list(ids))

    def dying_pytest(argv: list[str], plugins: list[object]) -> int:  # one batch finishes, one crashes
        (batches,) = plugins
        plan = _parallel.read_plan(os.environ[_parallel.PLAN_ENV])
        _parallel.batch_file(plan.results_dir, first).write_bytes(pickle.dumps(done))
        for name, failed in ((first, False), (second, True)):
            report = SimpleNamespace(nodeid=f"x.py::test_batch[{name}]", when="call", failed=failed,
                                     longreprtext="worker 'gw1' crashed")
            batches.pytest_runtest_logreport(report)  # type: ignore[attr-defined]
        return 1

    monkeypatch.setattr(pytest, "main", dying_pytest)
    result = _parallel.run_parallel(load_cases(globs), RunOptions(jobs=2))
    assert [r.case_id for r in result.results] == [c.id for c in load_cases(globs)]
    lost = [r for r in result.results if r.case_id not in ids]
    assert lost
    assert all(r.status.value == "ERROR" and r.unexpected for r in lost)
    assert all("worker 'gw1' crashed" in r.error for r in lost)
    assert all(r.status.value == "OK" for r in result.results if r.case_id in ids)
    assert result.exit_code == 1
    assert _parallel.PLAN_ENV not in os.environ  # the run's environment was put back


@pytest.fixture
def routed_gateway() -> Any:
    from _reproduce_suts import RoutedGateway

    with RoutedGateway() as gateway:
        yield gateway.base_url


GATEWAY_CMD = (
    "{python} -m harness.reference.gateway --port {port} --upstream {upstream}"
    " --fault drop-reasoning"
)
CLAIMED = ["--dialects", "openai-chat,anthropic-messages,openai-responses,gemini"]  # (a quick run claims
# its front door's dialect only: these give more than one batch)
FORMS: dict[str, Any] = {
    "sut-cmd": lambda url: ["--sut-cmd", GATEWAY_CMD, *CLAIMED],
    "sut-url": lambda url: ["--sut-url", url + "/up/{upstream}", *CLAIMED],
    "module-callable": lambda url: ["--sut", "_reproduce_suts:dropping"],
}


@pytest.mark.slow
@pytest.mark.parametrize("form", list(FORMS))
def test_two_workers_take_every_sut_flag(
    form: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], routed_gateway: str
) -> None:
    """-j N with --sut-cmd, --sut-url and module:callable: the serial verdicts (the SUT travels to the
    workers resolved, in the pickled plan)."""
    globs = ["--cases", "sse-framing/split-crlf*", "--cases", "sse-framing/split-utf8*"]
    args = ["run", "-q", *FORMS[form](routed_gateway), *globs]
    assert main([*args, "--report", str(tmp_path / "serial")]) == 1
    assert main([*args, "-j", "2", "--report", str(tmp_path / "parallel")]) == 1
    capsys.readouterr()

    def verdicts(d: str) -> dict[str, tuple[str, str, str, str]]:
        results = json.loads((tmp_path / d / "results.json").read_text())["results"]
        return {r["case_id"]: (r["status"], r["stream"], r["cleanup"], r["reproduce"]) for r in results}

    serial, parallel = verdicts("serial"), verdicts("parallel")
    assert parallel == serial
    assert len(serial) > catalog.BATCH  # more than one batch
    assert "FAIL" in {v[1] for v in serial.values()}


@pytest.mark.slow
def test_the_controllers_preflight_gate_timeout_reaches_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Computed once, before the workers start, and used by them (it was thrown away)."""
    from harness.runner import _run as _runner

    calls: list[object] = []

    def preflight(sut: object) -> float:
        calls.append(sut)
        return 7.25

    monkeypatch.setattr(_runner, "preflight", preflight)
    result = run(["sse-framing/split-crlf*"], jobs=2, keep_timelines="none")
    assert len(calls) == 1
    assert result.gate_timeout == 7.25
    assert {r.stream.value for r in result.results} == {"PASS"}


def test_a_python_object_that_cannot_reach_the_workers_is_one_flag_error() -> None:
    from harness import FlagError

    def local(request: object) -> list[object]:  # not importable by name: cannot be pickled
        return []

    with pytest.raises(FlagError, match="cannot be sent to the workers"):
        run(["sse-framing/split-crlf*"], sut=local, jobs=2, preflight=False)
