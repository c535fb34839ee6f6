"""The catalog as a pytest module, for ``thinkwire run -j N``: pytest-xdist spreads its tests over
workers; each worker pickles a batch's results into ``THINKWIRE_RESULTS_DIR`` (``batch_file``) and the
controller merges them into one report as the batches finish.

One test per *batch* of cases: a scenario's cases in batches of at most :data:`BATCH` (a scenario with a
stream/non-stream parity check stays whole, since parity compares two cases of one ``run()``), largest
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
    from harness.suite import Case

__all__: list[str] = []

BATCH = 8


def _patterns() -> list[str] | None:
    return [p for p in os.environ.get("THINKWIRE_CASES", "").split("\n") if p] or None


@functools.cache
def _cases() -> dict[str, Case]:
    """The selected cases by id, loaded once per process (parsing the catalog per batch cost a worker
    a second over the whole run)."""
    from harness.suite import load_cases

    return {c.id: c for c in load_cases(_patterns())}


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
    from harness.suite import RunInterrupted, run
    from harness.suite._parallel import batch_file

    cases = [_cases()[cid] for cid in case_ids]
    try:
        result = _run(cases, thinkwire_upstream, sut_pool, run)
    except RunInterrupted as stopped:  # keep what finished; the controller folds it in
        batch_file(os.environ["THINKWIRE_RESULTS_DIR"], name).write_bytes(pickle.dumps(stopped.result))
        raise
    batch_file(os.environ["THINKWIRE_RESULTS_DIR"], name).write_bytes(pickle.dumps(result))


@functools.cache
def _sut() -> Any:
    """The SUT as the controller named it, with its --ready-timeout (resolved once per worker)."""
    import dataclasses

    from harness.suite import resolve_sut

    sut = os.environ.get("THINKWIRE_SUT") or None
    ready = os.environ.get("THINKWIRE_READY_TIMEOUT")
    if not ready:
        return sut
    faults = [f for f in os.environ.get("THINKWIRE_FAULTS", "").split(",") if f]
    return dataclasses.replace(resolve_sut(sut, faults), ready_timeout=float(ready))


def _run(cases: list[Case], upstream: Any, pool: Any, run: Any) -> Any:
    faults = [f for f in os.environ.get("THINKWIRE_FAULTS", "").split(",") if f]
    return run(
        cases,
        sut=_sut(),
        faults=faults,
        strict=os.environ.get("THINKWIRE_STRICT") == "1",
        expectations=os.environ.get("THINKWIRE_EXPECTATIONS") or None,
        upstream=upstream,
        drivers=pool,
        timeout=float(os.environ["THINKWIRE_TIMEOUT"]) if os.environ.get("THINKWIRE_TIMEOUT") else None,
        gate_timeout=float(os.environ["THINKWIRE_GATE_TIMEOUT"])
        if os.environ.get("THINKWIRE_GATE_TIMEOUT")
        else None,
        max_bytes=int(os.environ["THINKWIRE_MAX_BYTES"]) if os.environ.get("THINKWIRE_MAX_BYTES") else None,
        preflight=os.environ.get("THINKWIRE_PREFLIGHT") != "0",
        keep_timelines="failures" if os.environ.get("THINKWIRE_KEEP_TIMELINES") == "failures" else True,
    )
