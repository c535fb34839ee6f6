"""Whole catalog against the reference gateway: wall time serial, with ``--concurrency`` at its default
(8 for a gateway) and with -j 2 (pytest-xdist), cases/s, per-case overhead, and peak RSS
of the run. The three alternate, several rounds, so that a slow spell of the shared machine hits each
alike; the best of each and the per-round ratios are reported."""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time

ROUNDS = 5


def _timed(args: list[str]) -> tuple[float, int]:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True, check=False
    )
    return time.perf_counter() - t0, proc.returncode


def run() -> str:
    from harness.runner import load_cases

    n = len(load_cases())
    serial: list[float] = []
    parallel: list[float] = []
    lanes: list[float] = []
    codes: set[tuple[int, int, int]] = set()
    for _ in range(ROUNDS):
        s, rc1 = _timed(["run", "-q", "--concurrency", "1"])
        c, rc3 = _timed(["run", "-q"])
        p, rc2 = _timed(["run", "-q", "-j", "2", "--concurrency", "1"])
        serial.append(s)
        lanes.append(c)
        parallel.append(p)
        codes.add((rc1, rc3, rc2))
    peak_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    single = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
    one = min(_timed(["run", "-q", "--cases", single])[0] for _ in range(3))
    best_s, best_p, best_c = min(serial), min(parallel), min(lanes)
    paired = sorted(s / p for s, p in zip(serial, parallel, strict=True))
    paired_c = sorted(s / c for s, c in zip(serial, lanes, strict=True))
    per_case_ms = (best_s - one) / max(n - 1, 1) * 1000
    info = {
        "cases": n,
        "serial_s": [round(x, 2) for x in serial],
        "parallel_s": [round(x, 2) for x in parallel],
        "concurrency_s": [round(x, 2) for x in lanes],
    }
    return "\n".join(
        [
            "## Whole catalog against the reference gateway",
            "",
            f"{n} cases; exit codes (serial, default concurrency, -j 2) per round: {sorted(codes)}. "
            f"{ROUNDS} rounds, the three alternating; wall time of the whole `thinkwire run -q` command "
            "(serial: `--concurrency 1`; the default: 8 cases in flight through a gateway).",
            "",
            "| mode | best wall time | cases/s | all rounds |",
            "|---|---:|---:|---|",
            f"| serial | {best_s:.1f} s | {n / best_s:.1f} | {', '.join(f'{x:.1f}' for x in serial)} |",
            f"| `--concurrency` default | {best_c:.1f} s | {n / best_c:.1f} "
            f"| {', '.join(f'{x:.1f}' for x in lanes)} |",
            f"| -j 2 (pytest-xdist) | {best_p:.1f} s | {n / best_p:.1f} "
            f"| {', '.join(f'{x:.1f}' for x in parallel)} |",
            "",
            f"Default concurrency's speed-up over serial: **{best_s / best_c:.2f}x** best against best "
            f"(target >= 1.5x); per round {', '.join(f'{x:.2f}x' for x in paired_c)} (median "
            f"{statistics.median(paired_c):.2f}x).",
            f"-j 2 speed-up over serial: **{best_s / best_p:.2f}x** best against best; per round "
            f"{', '.join(f'{x:.2f}x' for x in paired)} (median {statistics.median(paired):.2f}x).",
            "",
            f"One case end to end (process start, SUT start, one case, stop; best of 3): {one:.2f} s; "
            f"marginal per-case cost in the best serial run: {per_case_ms:.1f} ms (upstream reset + SUT "
            "kept alive).",
            f"Peak RSS of the largest child: {peak_children:.0f} MiB.",
            "",
            f"<!-- {json.dumps(info)} -->",
            "",
        ]
    )


if __name__ == "__main__":
    print(run())
