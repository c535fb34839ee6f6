"""``thinkwire run -j N``: the same cases spread over pytest-xdist workers (``-n N``; its remote
workers via ``--tx`` in PYTEST_ADDOPTS), results merged into one RunResult. No home-made pool.

pytest runs in this process as the xdist controller (one interpreter fewer to start). The workers are
told what to run by one pickled :class:`WorkerPlan` (the run's :class:`RunOptions`, the cases, the
preflight's gate timeout), whose path is the one environment variable they read; each worker
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
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from harness._errors import FlagError, HarnessError
from harness.catalog._case import Case
from harness.runner._options import RunOptions
from harness.runner._rounds import Progress, RunInterrupted, RunResult
from harness.verdict import CaseResult, Status

__all__ = ["PLAN_ENV", "WorkerPlan", "batch_file", "read_plan", "require_xdist", "run_parallel"]

_CATALOG = Path(__file__).resolve().parent.parent / "_xdist_catalog.py"
"""The catalog as a pytest module, given as a path: importing it here would load the catalog again."""
_BATCH_ID = re.compile(r"::test_batch\[(.+)\]$")
PLAN_ENV = "THINKWIRE_PLAN"
"""The one environment variable the workers read: the path of the pickled :class:`WorkerPlan`."""


@dataclass(frozen=True, slots=True)
class WorkerPlan:
    """What every worker is told, pickled once into a file: the run's options (the SUT in them
    already resolved), the cases, the gate timeout the controller's preflight derived, and the
    directory each batch's results go to."""

    options: RunOptions
    cases: tuple[Case, ...]
    warmed: float | None
    results_dir: str


def batch_file(results_dir: str | Path, batch: str) -> Path:
    """Where a worker leaves the results of the batch named ``batch`` (a test id: made file-safe)."""
    return Path(results_dir) / (re.sub(r"[^A-Za-z0-9._-]", "_", batch) + ".pickle")


def run_parallel(
    cases: Sequence[Case],
    options: RunOptions,
    *,
    warmed: float | None = None,
    progress: Progress | None = None,
) -> RunResult:
    """One round of ``cases`` over ``options.jobs`` pytest-xdist workers (``run()`` calls this for
    ``jobs > 1``, after its preflight: ``warmed`` is the gate timeout that derived; the workers run
    no preflight of their own). ``options.sut`` must be resolved: a profile, or a callable that
    pickles (a module-level function)."""
    require_xdist()
    import pytest

    order = {c.id: i for i, c in enumerate(cases)}
    with tempfile.TemporaryDirectory(prefix="thinkwire-xdist-", ignore_cleanup_errors=True) as tmp:
        plan = Path(tmp) / "plan.bin"  # (not *.pickle: those are the batches' results)
        plan.write_bytes(_pickled(WorkerPlan(options, tuple(cases), warmed, tmp)))
        ini = Path(tmp) / "pytest.ini"
        ini.write_text("[pytest]\naddopts =\n")
        (Path(tmp) / "tmp").mkdir()
        env = {
            "TMPDIR": str(Path(tmp) / "tmp"),  # the workers' and their SUTs' temp dirs, removed with tmp
            PLAN_ENV: str(plan),
            # only the two plugins the catalog needs: importing every installed one (syrupy,
            # hypothesis, anyio, ...) cost each worker about a second
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        }
        batches = _Batches(tmp, str(plan), progress, len(order))
        out = io.StringIO()
        with _environ(env), contextlib.redirect_stdout(out):  # workers inherit the environment
            try:
                code = pytest.main(_argv(tmp, options.jobs), plugins=[batches])
            except KeyboardInterrupt:  # before pytest's session began
                code = pytest.ExitCode.INTERRUPTED
        interrupted = code == pytest.ExitCode.INTERRUPTED or batches.interrupted
        batches.fold_left_over()  # batches a worker finished (or cut short) as the run was stopped
        merged = batches.merged
        said = (out.getvalue() + "\n".join(batches.errors))[-3000:]
    if interrupted:
        merged.sut = merged.sut or _sut_name(options)
        merged.interrupted = "SIGINT"
    elif not merged.sut:
        raise HarnessError("the xdist run produced no results:\n" + said)
    else:
        seen = {r.case_id for r in merged.results}
        merged.results += [_lost(c, merged.sut, said) for c in cases if c.id not in seen]
    merged.results.sort(key=lambda r: order.get(r.case_id, 1 << 30))
    if interrupted:
        raise RunInterrupted(merged)
    return merged


def require_xdist() -> None:
    """-j N needs pytest-xdist: a FlagError saying how to install it when it is missing."""
    if importlib.util.find_spec("xdist") is None:
        raise FlagError(
            "-j N runs the cases on pytest-xdist workers, which are not installed: pip install "
            "pytest-xdist (or, in a thinkwire checkout, pip install '.[parallel]')"
        )


def _pickled(plan: WorkerPlan) -> bytes:
    """The plan as the workers read it (:func:`read_plan`): this process's ``sys.path`` first, so
    that a worker can import what the controller could (a ``module:callable`` SUT, the module of a
    callable pickled by name) before the plan itself is unpickled."""
    try:
        return pickle.dumps((list(sys.path), pickle.dumps(plan)))
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise FlagError(
            f"-j N: the SUT {plan.options.sut!r} cannot be sent to the workers ({exc}); name it as "
            "'module:callable' (a function defined at module level) or in a profile file"
        ) from None


def read_plan(path: str | Path) -> WorkerPlan:
    """A worker's plan: the controller's ``sys.path`` entries it lacks are added (at the end), then
    the plan is unpickled."""
    paths, data = pickle.loads(Path(path).read_bytes())
    sys.path.extend(p for p in paths if p not in sys.path)
    plan: WorkerPlan = pickle.loads(data)
    return plan


def _sut_name(options: RunOptions) -> str:
    sut = options.sut
    return str(getattr(sut, "name", None) or getattr(sut, "__name__", None) or sut)


def _argv(tmp: str, jobs: int) -> list[str]:
    return [
        "-c",
        str(Path(tmp) / "pytest.ini"),
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


class _Batches:
    """A pytest plugin for the controller: as each batch's report arrives (xdist relays the workers'
    reports), fold the results the worker left into one RunResult and show them on the progress bar.
    A batch that left no file (its worker crashed) is skipped here and reported by the caller."""

    def __init__(self, results_dir: str, plan: str, progress: Progress | None, total: int) -> None:
        self.results_dir = results_dir
        self.plan = plan
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
                    if child.environ().get(PLAN_ENV) == self.plan:
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
        merged.gate_timeout = merged.gate_timeout or part.gate_timeout
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
