"""Whole catalog against the reference gateway: wall time serial and with -n 2 (pytest-xdist), cases/s,
per-case overhead, and peak RSS of the run. Measured in one run, reported as ratios."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time


def _timed(args: list[str]) -> tuple[float, int, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True, check=False
    )
    return time.perf_counter() - t0, proc.returncode, proc.stdout[-400:]


def run() -> str:
    from harness.suite import load_cases

    n = len(load_cases())
    serial, rc1, _ = _timed(["run", "-q"])
    peak_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    parallel, rc2, _ = _timed(["run", "-q", "-j", "2"])
    one, _, _ = _timed(
        ["run", "-q", "--cases", "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"]
    )
    per_case_ms = (serial - one) / max(n - 1, 1) * 1000
    info = {"cases": n, "serial_s": round(serial, 2), "parallel_s": round(parallel, 2)}
    return "\n".join(
        [
            "## Whole catalog against the reference gateway",
            "",
            f"{n} cases; exit codes serial={rc1}, -j 2={rc2}.",
            "",
            "| mode | wall time | cases/s | speed-up over serial |",
            "|---|---:|---:|---:|",
            f"| serial | {serial:.1f} s | {n / serial:.1f} | 1.00 |",
            f"| -j 2 (pytest-xdist) | {parallel:.1f} s | {n / parallel:.1f} "
            f"| {serial / parallel:.2f} |",
            "",
            f"One case end to end (process start, SUT start, one case, stop): {one:.2f} s; "
            "marginal per-case cost "
            f"in the serial run: {per_case_ms:.1f} ms (upstream reset + SUT kept alive).",
            f"Peak RSS of the largest child (the serial run): {peak_children:.0f} MiB.",
            "",
            f"<!-- {json.dumps(info)} -->",
            "",
        ]
    )


if __name__ == "__main__":
    print(run())
