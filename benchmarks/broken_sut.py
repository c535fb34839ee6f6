"""A broken SUT against a correct one: the reference SUTs with ``--fault buffer-reasoning`` (they hold
reasoning until the answer starts, the most common bug: every gated case then waits out a gate), the
whole catalog through the reference gateway and in process (``reference-sdk``, which declares it is
thread-safe: 8 cases in flight by default), and ``incrementality/*`` in process, by default and one
case at a time (``--concurrency 1``: what the shortened gate wait alone gives), each beside the same
run of the correct SUT. Once a run has seen the SUT buffer (``harness/runner/_gate_wait.py``), its
later gates wait a shortened time. The two alternate over the rounds; the best of each and the ratio
(target: at most 2x) are reported, with the verdict counts (the same in every round)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUNDS = 3
RUNS = [
    ("reference gateway, whole catalog", ["--sut", "reference"]),
    ("in process (reference-sdk), whole catalog", ["--sut", "reference-sdk"]),
    ("in process, `incrementality/*`", ["--sut", "reference-sdk", "--cases", "incrementality/*"]),
    (
        "in process, `incrementality/*`, `--concurrency 1`",
        ["--sut", "reference-sdk", "--cases", "incrementality/*", "--concurrency", "1"],
    ),
]


def _timed(args: list[str]) -> tuple[float, int, dict[str, int]]:
    """Wall time, exit code and verdict counts of one ``thinkwire run -q ... --report``."""
    with tempfile.TemporaryDirectory(prefix="thinkwire-bench-") as tmp:
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "harness.cli", "run", "-q", *args, "--report", tmp],
            capture_output=True, text=True, check=False,
        )
        took = time.perf_counter() - t0
        results = Path(tmp) / "results.json"
        counts = json.loads(results.read_text(encoding="utf-8"))["counts"] if results.exists() else {}
    return took, proc.returncode, counts


def run() -> str:
    lines = [
        "## A broken SUT fails fast",
        "",
        f"Wall time of `thinkwire run -q` with the correct SUT and with `--fault buffer-reasoning`; "
        f"{ROUNDS} round(s), the two alternating (a round takes minutes).",
        "",
        "| run | correct (best) | buffering (best) | ratio | all rounds (correct / buffering) "
        "| verdicts, buffering |",
        "|---|---:|---:|---:|---|---|",
    ]
    raw: dict[str, list[list[float]]] = {}
    for label, args in RUNS:
        good: list[float] = []
        bad: list[float] = []
        counts: dict[str, int] = {}
        for _ in range(ROUNDS):
            good.append(_timed(args)[0])
            took, _code, counts = _timed([*args, "--fault", "buffer-reasoning"])
            bad.append(took)
        ratio = min(bad) / min(good)
        rounds = ", ".join(f"{g:.1f} / {b:.1f}" for g, b in zip(good, bad, strict=True))
        shown = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        lines.append(
            f"| {label} | {min(good):.1f} s | {min(bad):.1f} s | **{ratio:.1f}x** | {rounds} | {shown} |"
        )
        raw[label] = [good, bad]
    lines += ["", f"<!-- {json.dumps(raw)} -->"]
    return "\n".join(lines)
