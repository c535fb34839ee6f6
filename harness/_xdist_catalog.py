"""The catalog as a pytest module, for ``thinkwire run -j N``: pytest-xdist spreads its tests over
workers; each worker reads the run's pickled plan (``THINKWIRE_PLAN``: options, cases, the
controller's preflight gate timeout), pickles a batch's results into the plan's results dir
(``batch_file``) and the controller merges them into one report as the batches finish.

One test per *batch* of cases: a scenario's cases in batches of at most :data:`BATCH` (a scenario with a
stream/non-stream parity check stays whole, since parity compares two cases of one round), largest
batches first. Whole scenarios (31 tests, the largest 92 cases) left one worker alone with the tail of
the run; even batches, longest first, keep both busy to the end.

A worker is its SUTs' child subreaper (detached descendants come back to it and are stopped with
the SUT) and takes SIGTERM as SIGINT; a SUT that could not start fails the worker's later batches at
once; an interrupted batch still leaves the cases it finished."""

from __future__ import annotations

import functools
import os
import pickle
import signal
import threading
from typing import TYPE_CHECKING, Any

import pytest

from harness.drivers._process import become_subreaper

if TYPE_CHECKING:
    from harness.catalog import Case
    from harness.runner._options import ResolvedSUT
    from harness.runner._parallel import WorkerPlan

__all__: list[str] = []

BATCH = 8


@functools.cache
def _plan() -> WorkerPlan | None:
    """The run's plan, read once per worker (None outside ``thinkwire run -j``)."""
    from harness.runner._parallel import PLAN_ENV, read_plan

    path = os.environ.get(PLAN_ENV)
    return read_plan(path) if path else None


@functools.cache
def _cases() -> dict[str, Case]:
    """The plan's cases by id (the whole catalog without a plan)."""
    plan = _plan()
    if plan is not None:
        return {c.id: c for c in plan.cases}
    from harness.runner import load_cases

    return {c.id: c for c in load_cases()}


@functools.cache
def _sut() -> ResolvedSUT:
    """The plan's SUT, resolved once per worker (its expectations loaded once)."""
    plan = _plan()
    if plan is None:
        from harness._errors import HarnessError

        raise HarnessError("no THINKWIRE_PLAN: this module's tests are run by thinkwire run -j N")
    return plan.options.resolve()


@functools.cache
def _batches() -> list[tuple[str, tuple[str, ...]]]:
    """(test id, case ids) per batch."""
    by_scenario: dict[str, list[str]] = {}
    parity: set[str] = set()
    for case in _cases().values():
        by_scenario.setdefault(case.scenario.id, []).append(case.id)
        if case.scenario.parity:
            parity.add(case.scenario.id)
    out: list[tuple[str, tuple[str, ...]]] = []
    for sid, ids in by_scenario.items():
        size = len(ids) if sid in parity else BATCH
        for k in range(0, len(ids), size):
            out.append((f"{sid}:{k // size + 1}", tuple(ids[k : k + size])))
    out.sort(key=lambda b: -len(b[1]))  # stable: catalog order within a size
    return out


@pytest.fixture(scope="session")
def sut_pool() -> Any:
    """One SUT per worker, kept alive across batches (stopped at the end of the worker)."""
    become_subreaper()  # an xdist worker is a process thinkwire owns: its SUTs' orphans come back here
    if threading.current_thread() is threading.main_thread():  # SIGTERM to the whole group (a CI
        signal.signal(signal.SIGTERM, signal.default_int_handler)  # timeout) stops it as SIGINT does
    pool: dict[str, Any] = {}
    yield pool
    for driver in pool.values():
        driver.stop()


@pytest.mark.parametrize(("name", "case_ids"), _batches(), ids=[name for name, _ in _batches()])
def test_batch(name: str, case_ids: tuple[str, ...], thinkwire_upstream: Any, sut_pool: Any) -> None:
    from harness.runner import RunInterrupted
    from harness.runner._parallel import batch_file
    from harness.runner._run import run_serial

    plan = _plan()
    if plan is None:
        pytest.skip("run by thinkwire run -j N (no THINKWIRE_PLAN)")
    cases = [_cases()[cid] for cid in case_ids]
    out = batch_file(plan.results_dir, name)
    try:
        result = run_serial(
            cases,
            plan.options,
            _sut(),
            upstream=thinkwire_upstream,
            drivers=sut_pool,
            preflight=False,  # the controller ran it, once
            warmed=plan.warmed,
        )
    except RunInterrupted as stopped:  # keep what finished; the controller folds it in
        out.write_bytes(pickle.dumps(stopped.result))
        raise
    out.write_bytes(pickle.dumps(result))
