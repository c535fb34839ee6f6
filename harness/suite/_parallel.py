"""``thinkwire run -j N``: the same cases spread over pytest-xdist workers (``-n N``; its remote
workers via ``--tx`` in PYTEST_ADDOPTS), results merged into one RunResult. No home-made pool.

Each worker pickles a batch's RunResult under the batch's file name before pytest reports the batch
done; reading pytest's verbose lines as they come, the controller loads each finished batch and shows
its cases on the progress bar."""

from __future__ import annotations

import collections
import importlib.util
import os
import pickle
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness._errors import HarnessError
from harness.suite._case import Case
from harness.suite._runner import Progress, RunResult, load_cases
from harness.suite._verdict import CaseResult, Status

__all__ = ["batch_file", "run_parallel"]

_DONE = re.compile(r"\b(?:PASSED|FAILED|ERROR)\b.*::test_batch\[(.+)\]")


def batch_file(results_dir: str | Path, batch: str) -> Path:
    """Where a worker leaves the results of the batch named ``batch`` (a test id: made file-safe)."""
    return Path(results_dir) / (re.sub(r"[^A-Za-z0-9._-]", "_", batch) + ".pickle")


def run_parallel(args: Any, progress: Progress | None = None) -> RunResult:
    if args.sut_cmd or args.sut_url:
        raise HarnessError(
            "-j N takes --sut PROFILE or a built-in SUT (write a profile for --sut-cmd/--sut-url)"
        )
    if importlib.util.find_spec("xdist") is None:
        raise HarnessError("-j N runs the cases on pytest-xdist workers: pip install 'thinkwire[parallel]'")
    import harness._xdist_catalog as catalog

    started = time.monotonic()
    cases = load_cases(args.cases)
    order = {c.id: i for i, c in enumerate(cases)}
    with tempfile.TemporaryDirectory(prefix="thinkwire-xdist-") as tmp:
        ini = Path(tmp) / "pytest.ini"
        ini.write_text("[pytest]\naddopts =\n")
        env = {
            **os.environ,
            "THINKWIRE_RESULTS_DIR": tmp,
            "THINKWIRE_CASES": "\n".join(args.cases or []),
            "THINKWIRE_SUT": args.sut or "",
            "THINKWIRE_FAULTS": ",".join(args.fault or []),
            "THINKWIRE_STRICT": "1" if args.strict else "",
            "THINKWIRE_EXPECTATIONS": args.expectations or "",
            "THINKWIRE_TIMEOUT": str(args.timeout or ""),
            "THINKWIRE_KEEP_TIMELINES": "all" if args.report else "failures",
            # only the two plugins the catalog needs: importing every installed one (syrupy,
            # hypothesis, anyio, ...) cost each worker and the controller about a second
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        }
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(ini),
            "--rootdir",
            tmp,
            "-p",
            "no:cacheprovider",
            "-p",
            "xdist.plugin",
            "-p",
            "harness.plugin",
            "--assert=plain",  # the catalog has no asserts: skip rewriting every harness module per worker
            "-v",  # a line per finished batch: the progress bar follows them
            "-n",
            str(args.jobs),
            catalog.__file__,
        ]
        merged = RunResult(sut="")
        tail: collections.deque[str] = collections.deque(maxlen=60)
        with subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        ) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                tail.append(line)
                done = _DONE.search(line)
                if done:
                    _collect(batch_file(tmp, done.group(1)), merged, progress, len(order))
        output = "".join(tail)[-3000:]
        if not merged.sut:
            raise HarnessError("the xdist run produced no results:\n" + output)
        seen = {r.case_id for r in merged.results}
        merged.results += [_lost(c, merged.sut, output) for c in cases if c.id not in seen]
    merged.results.sort(key=lambda r: order.get(r.case_id, 1 << 30))
    merged.duration_s = time.monotonic() - started
    return merged


def _collect(path: Path, merged: RunResult, progress: Progress | None, total: int) -> None:
    """Fold one finished batch into ``merged`` (a batch that crashed left no file: its cases are
    missing from the report, and pytest's own output, in the error, says why)."""
    if not path.exists():
        return
    part: RunResult = pickle.loads(path.read_bytes())
    merged.sut, merged.strict = part.sut, part.strict
    for result in part.results:
        merged.results.append(result)
        if progress is not None:
            progress(len(merged.results), total, result)


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
