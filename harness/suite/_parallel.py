"""``thinkwire run -j N``: the same cases spread over pytest-xdist workers (``-n N``; its remote
workers via ``--tx`` in PYTEST_ADDOPTS), results merged into one RunResult. No home-made pool."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness._errors import HarnessError
from harness.suite._runner import RunResult

__all__ = ["run_parallel"]


def run_parallel(args: Any) -> RunResult:
    if args.sut_cmd or args.sut_url:
        raise HarnessError(
            "-j N takes --sut PROFILE or a built-in SUT (write a profile for --sut-cmd/--sut-url)"
        )
    import importlib.util

    if importlib.util.find_spec("xdist") is None:
        raise HarnessError("-j N runs the cases on pytest-xdist workers: pip install 'thinkwire[parallel]'")
    import harness._xdist_catalog as catalog

    started = time.monotonic()
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
            "-q",
            "-n",
            str(args.jobs),
            catalog.__file__,
        ]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        merged: RunResult | None = None
        for f in sorted(Path(tmp).glob("*.pickle")):
            part: RunResult = pickle.loads(f.read_bytes())
            if merged is None:
                merged = RunResult(sut=part.sut, strict=part.strict)
            merged.results.extend(part.results)
        if merged is None:
            raise HarnessError("the xdist run produced no results:\n" + (proc.stdout + proc.stderr)[-3000:])
    order = {}
    from harness.suite import load_cases

    for i, c in enumerate(load_cases(args.cases)):
        order[c.id] = i
    merged.results.sort(key=lambda r: order.get(r.case_id, 1 << 30))
    merged.duration_s = time.monotonic() - started
    return merged
