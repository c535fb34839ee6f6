"""``thinkwire run -j N``: the same cases spread over pytest-xdist workers (``-n N``; its remote
workers via ``--tx`` in PYTEST_ADDOPTS), results merged into one RunResult. No home-made pool.

pytest runs in this process as the xdist controller (one interpreter fewer to start); each worker
pickles a batch's RunResult under the batch's file name before the batch's report comes back, and the
:class:`_Batches` plugin folds each finished batch into the run and onto the progress bar.

Everything the workers and their SUTs write goes under one ``thinkwire-xdist-*`` dir (pytest's
basetemp and the workers' TMPDIR), removed at the end. An interrupt (KeyboardInterrupt here) is passed
to the workers as SIGINT, so each stops its SUT and leaves the cases it finished; the run then raises
RunInterrupted with those: cases not run are absent, not ERROR."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import pickle
import re
import signal
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import psutil

from harness._errors import HarnessError
from harness.suite._case import Case
from harness.suite._runner import Progress, RunInterrupted, RunResult, load_cases, resolve_sut
from harness.suite._verdict import CaseResult, Status

__all__ = ["batch_file", "run_parallel"]

_CATALOG = Path(__file__).resolve().parent.parent / "_xdist_catalog.py"
"""The catalog as a pytest module, given as a path: importing it here would load the catalog again."""
_BATCH_ID = re.compile(r"::test_batch\[(.+)\]$")


def batch_file(results_dir: str | Path, batch: str) -> Path:
    """Where a worker leaves the results of the batch named ``batch`` (a test id: made file-safe)."""
    return Path(results_dir) / (re.sub(r"[^A-Za-z0-9._-]", "_", batch) + ".pickle")


def run_parallel(
    *,
    jobs: int,
    cases: Sequence[str] | None = None,
    sut: str | None = None,
    faults: Sequence[str] = (),
    strict: bool = False,
    expectations: str | None = None,
    timeout: float | None = None,
    ready_timeout: float | None = None,
    gate_timeout: float | None = None,
    max_bytes: int | None = None,
    preflight: bool = True,
    keep_timelines: Literal["all", "failures"] = "failures",
    progress: Progress | None = None,
) -> RunResult:
    """``run()``'s arguments that cross to the workers as text (the SUT as a profile path or built-in
    name), ``cases`` as id globs, over ``jobs`` pytest-xdist workers."""
    resolve_sut(sut, faults)  # a wrong SUT or fault switch is one error here, not one per worker
    if importlib.util.find_spec("xdist") is None:
        raise HarnessError("-j N runs the cases on pytest-xdist workers: pip install 'thinkwire[parallel]'")
    import pytest

    started = time.monotonic()
    selected = load_cases(cases)
    if not selected:  # (pytest would only say that it collected nothing)
        raise HarnessError(f"--cases: no case matches {' '.join(cases or ['*'])}; see thinkwire list")
    order = {c.id: i for i, c in enumerate(selected)}
    with tempfile.TemporaryDirectory(prefix="thinkwire-xdist-", ignore_cleanup_errors=True) as tmp:
        ini = Path(tmp) / "pytest.ini"
        ini.write_text("[pytest]\naddopts =\n")
        (Path(tmp) / "tmp").mkdir()
        env = {
            "TMPDIR": str(Path(tmp) / "tmp"),  # the workers' and their SUTs' temp dirs, removed with tmp
            "THINKWIRE_READY_TIMEOUT": str(ready_timeout or ""),
            "THINKWIRE_RESULTS_DIR": tmp,
            "THINKWIRE_CASES": "\n".join(cases or []),
            "THINKWIRE_SUT": sut or "",
            "THINKWIRE_FAULTS": ",".join(faults),
            "THINKWIRE_STRICT": "1" if strict else "",
            "THINKWIRE_EXPECTATIONS": expectations or "",
            "THINKWIRE_TIMEOUT": str(timeout or ""),
            "THINKWIRE_GATE_TIMEOUT": str(gate_timeout or ""),
            "THINKWIRE_MAX_BYTES": str(max_bytes or ""),
            "THINKWIRE_PREFLIGHT": "1" if preflight else "0",
            "THINKWIRE_KEEP_TIMELINES": keep_timelines,
            # only the two plugins the catalog needs: importing every installed one (syrupy,
            # hypothesis, anyio, ...) cost each worker about a second
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        }
        argv = [
            "-c",
            str(ini),
            "--rootdir",
            tmp,
            "-p",
            "no:cacheprovider",
            "--basetemp",
            str(Path(tmp) / "basetemp"),  # not pytest-of-<user> in the system temp dir
            "-p",
            "xdist.plugin",
            "-p",
            "harness.plugin",
            "--assert=plain",  # the catalog has no asserts: skip rewriting every harness module per worker
            "-q",
            "-n",
            str(jobs),
            str(_CATALOG),
        ]
        batches = _Batches(tmp, progress, len(order))
        out = io.StringIO()
        with _environ(env), contextlib.redirect_stdout(out):  # workers inherit the environment
            try:
                code = pytest.main(argv, plugins=[batches])
            except KeyboardInterrupt:  # before pytest's session began
                code = pytest.ExitCode.INTERRUPTED
        interrupted = code == pytest.ExitCode.INTERRUPTED or batches.interrupted
        batches.fold_left_over()  # batches a worker finished (or cut short) as the run was stopped
        merged = batches.merged
        said = (out.getvalue() + "\n".join(batches.errors))[-3000:]
        if interrupted:
            merged.sut = merged.sut or resolve_sut(sut, faults).name
            merged.interrupted = "SIGINT"
        elif not merged.sut:
            raise HarnessError("the xdist run produced no results:\n" + said)
        else:
            seen = {r.case_id for r in merged.results}
            merged.results += [_lost(c, merged.sut, said) for c in selected if c.id not in seen]
    merged.results.sort(key=lambda r: order.get(r.case_id, 1 << 30))
    merged.duration_s = time.monotonic() - started
    if interrupted:
        raise RunInterrupted(merged)
    return merged


class _Batches:
    """A pytest plugin for the controller: as each batch's report arrives (xdist relays the workers'
    reports), fold the results the worker left into one RunResult and show them on the progress bar.
    A batch that left no file (its worker crashed) is skipped here and reported by the caller."""

    def __init__(self, results_dir: str, progress: Progress | None, total: int) -> None:
        self.results_dir = results_dir
        self.progress = progress
        self.total = total
        self.merged = RunResult(sut="")
        self.errors: list[str] = []
        self.interrupted = False
        self._folded: set[Path] = set()

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed:
            self.errors.append(f"{report.nodeid} ({report.when}): {report.longreprtext[-1500:]}")
        named = _BATCH_ID.search(report.nodeid)
        if report.when != "call" or named is None:
            return
        self._fold(batch_file(self.results_dir, named.group(1)))

    def pytest_keyboard_interrupt(self, excinfo: Any) -> None:
        """The run is interrupted: pass SIGINT on to the workers at once (xdist would wait for their
        batch and only then interrupt them), so each stops its SUT and saves what it finished."""
        self.interrupted = True
        for worker in self._workers():
            with contextlib.suppress(psutil.Error):
                worker.send_signal(signal.SIGINT)

    def _workers(self) -> list[psutil.Process]:
        out = []
        with contextlib.suppress(psutil.Error):
            for child in psutil.Process().children():
                with contextlib.suppress(psutil.Error):
                    if child.environ().get("THINKWIRE_RESULTS_DIR") == self.results_dir:
                        out.append(child)
        return out

    def fold_left_over(self) -> None:
        for path in sorted(Path(self.results_dir).glob("*.pickle")):
            self._fold(path)

    def _fold(self, path: Path) -> None:
        if path in self._folded or not path.exists():
            return
        self._folded.add(path)
        part: RunResult = pickle.loads(path.read_bytes())
        merged = self.merged
        merged.sut, merged.strict = part.sut, part.strict
        merged.sut_error = merged.sut_error or part.sut_error
        for result in part.results:
            merged.results.append(result)
            if self.progress is not None:
                self.progress(len(merged.results), self.total, result)


@contextlib.contextmanager
def _environ(updates: Mapping[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in updates}
    os.environ.update(updates)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _lost(case: Case, sut: str, output: str) -> CaseResult:
    """A case whose batch left no result (its worker crashed): an ERROR, never a silent gap."""
    return CaseResult(
        case_id=case.id,
        scenario_id=case.scenario.id,
        requirement=case.scenario.requirement,
        category=case.scenario.category,
        sut=sut,
        axes=case.axes(),
        status=Status.ERROR,
        error="the pytest-xdist worker running this case's batch left no result; pytest said:\n" + output,
        unexpected=True,
    )
