"""Serial against --concurrency 8 on the in-process python SUT (reference-sdk: the SUT's Python runs in
thinkwire's own process, under its GIL) and on the reference gateway (a process of its own), with the
figures of -j 2 (pytest-xdist workers) measured the same way before -j was removed for being slower
everywhere (commit 38b030c). Each mode is a whole ``thinkwire run -q`` command; the modes alternate
within a round, so a slow spell of the shared machine hits each alike, and every ratio is against
serial in the same round."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

ROUNDS = 2
SUTS = ("reference-sdk", "reference")
MODES = {
    "serial (`--concurrency 1`)": ["--concurrency", "1"],
    "`--concurrency 8`": ["--concurrency", "8"],
}
REMOVED = """\
-j 2, measured by this module with the four modes alternating in each of 2 rounds before it was removed
(commit 38b030c; load average 9-12 on 2 cores; wall time, per-round ratio against serial, best CPU):

| SUT | mode | best wall | all rounds (s) | vs serial, per round | CPU, best (s) |
|---|---|---:|---|---|---:|
| reference-sdk | serial | 15.8 s | 18.6, 15.8 | 1.00x, 1.00x | 5.0 |
| reference-sdk | `--concurrency 8` | 10.5 s | 10.5, 13.7 | 1.77x, 1.15x | 6.0 |
| reference-sdk | `-j 2` (`--concurrency 1` in each worker) | 24.7 s | 26.7, 24.7 | 0.69x, 0.64x | 8.6 |
| reference-sdk | `-j 2 --concurrency 8` | 23.5 s | 41.8, 23.5 | 0.44x, 0.67x | 9.5 |
| reference | serial | 19.8 s | 21.9, 19.8 | 1.00x, 1.00x | 4.0 |
| reference | `--concurrency 8` | 9.8 s | 12.4, 9.8 | 1.76x, 2.01x | 3.4 |
| reference | `-j 2` (`--concurrency 1` in each worker) | 25.4 s | 25.4, 25.7 | 0.86x, 0.77x | 7.7 |
| reference | `-j 2 --concurrency 8` | 17.2 s | 17.2, 21.9 | 1.28x, 0.90x | 7.0 |

`-j 2` against `--concurrency 8` in the same round: reference-sdk 0.39x, 0.56x; reference 0.49x, 0.38x
(above 1 would be -j faster). -j never won; `thinkwire run -j 2` now says it is deprecated and runs as
`--concurrency N`.
"""


def _timed(args: list[str]) -> tuple[float, float, int]:
    """Wall time, CPU time of the command and everything it started, exit code."""
    before = os.times()
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "harness.cli", "run", "-q", *args], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, proc.returncode


def measure() -> dict[str, dict[str, list[tuple[float, float, int]]]]:
    got: dict[str, dict[str, list[tuple[float, float, int]]]] = {s: {m: [] for m in MODES} for s in SUTS}
    names = list(MODES)
    for r in range(ROUNDS):
        for sut in SUTS:
            order = names[r % len(names) :] + names[: r % len(names)]  # each mode leads a round in turn
            for mode in order:
                got[sut][mode].append(_timed(["--sut", sut, *MODES[mode]]))
    return got


def _section(got: dict[str, dict[str, list[tuple[float, float, int]]]]) -> list[str]:
    serial = next(iter(MODES))
    lines = [
        "| SUT | mode | best wall | all rounds (s) | vs serial, per round | CPU, best (s) | exit codes |",
        "|---|---|---:|---|---|---:|---|",
    ]
    verdict: list[str] = []
    for sut in SUTS:
        base = [w for w, _, _ in got[sut][serial]]
        best_mode = min(MODES, key=lambda m: min(w for w, _, _ in got[sut][m]))
        for mode, runs in got[sut].items():
            walls = [w for w, _, _ in runs]
            ratios = [b / w for b, w in zip(base, walls, strict=True)]
            lines.append(
                f"| {sut} | {mode} | {min(walls):.1f} s | {', '.join(f'{w:.1f}' for w in walls)} "
                f"| {', '.join(f'{x:.2f}x' for x in ratios)} | {min(c for _, c, _ in runs):.1f} "
                f"| {sorted({rc for _, _, rc in runs})} |"
            )
        c8 = [b / c for b, (c, _, _) in zip(base, got[sut]["`--concurrency 8`"], strict=True)]
        verdict.append(
            f"{sut}: fastest {best_mode}; `--concurrency 8` against serial, same round: "
            f"{', '.join(f'{x:.2f}x' for x in c8)} (median **{statistics.median(c8):.2f}x**)."
        )
    return [*lines, "", *verdict]


def run() -> str:
    got = measure()
    info = {
        s: {m: [[round(w, 2), round(c, 2), rc] for w, c, rc in v] for m, v in d.items()}
        for s, d in got.items()
    }
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return "\n".join(
        [
            "## -j (pytest-xdist workers) against --concurrency",
            "",
            f"The whole catalog, `thinkwire run -q --sut SUT`, {ROUNDS} rounds, the modes alternating "
            "within a round (each mode leads a round in turn); wall time of the whole command and the CPU "
            f"time of it and everything it started. Load average at the end: {load} on {os.cpu_count()} "
            "cores.",
            "",
            *_section(got),
            "",
            REMOVED,
            f"<!-- {json.dumps(info)} -->",
            "",
        ]
    )


if __name__ == "__main__":
    print(run())
