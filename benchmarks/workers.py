"""-j (pytest-xdist workers) against --concurrency, on the in-process python SUT (reference-sdk: the
SUT's Python runs in thinkwire's own process, under its GIL) and on the reference gateway (a process of
its own). Each mode is a whole ``thinkwire run -q`` command; the modes alternate within a round, so a
slow spell of the shared machine hits each alike, and every ratio is against serial in the same round."""

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
    "`-j 2` (`--concurrency 1` in each worker)": ["-j", "2", "--concurrency", "1"],
    "`-j 2 --concurrency 8`": ["-j", "2", "--concurrency", "8"],
}


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
        j2 = "`-j 2` (`--concurrency 1` in each worker)"
        c8 = "`--concurrency 8`"
        vs = [c / j for (j, _, _), (c, _, _) in zip(got[sut][j2], got[sut][c8], strict=True)]
        verdict.append(
            f"{sut}: fastest {best_mode}; `-j 2` against `--concurrency 8`, same round: "
            f"{', '.join(f'{x:.2f}x' for x in vs)} (median **{statistics.median(vs):.2f}x**; "
            "above 1 is -j faster)."
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
            f"<!-- {json.dumps(info)} -->",
            "",
        ]
    )


if __name__ == "__main__":
    print(run())
