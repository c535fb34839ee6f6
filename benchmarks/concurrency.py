"""``--concurrency``: the whole catalog through one SUT, one case at a time against N in flight, against
a gateway whose time per case is mostly waiting (the reference gateway plus 20 ms per request:
``_latency_gateway.py``, as a real gateway waits on its provider). Serial and concurrent runs alternate
in each round (in this process, ``run()``), so that a slow spell of the shared machine hits both alike;
the best of each, the per-round ratios, and the verdicts compared case by case are reported."""

from __future__ import annotations

import collections
import json
import os
import resource
import statistics
import time
from pathlib import Path
from typing import Any

ROUNDS = 2
LANES = 8


def _profile() -> Any:
    from harness.drivers import parse_profile
    from harness.runner._builtin import BUILTIN

    spec = dict(BUILTIN["reference"])
    spec["name"] = "latency-gateway"
    spec["command"] = [
        "{python}", str(Path(__file__).with_name("_latency_gateway.py")),
        "--port", "{port}", "--upstream", "{upstream}",
    ]  # fmt: skip
    return parse_profile(spec)


def _verdicts(result: Any) -> dict[str, tuple[str, ...]]:
    return {
        r.case_id: (r.status.value, r.stream.value, r.cleanup.value, *sorted({f.check for f in r.failing()}))
        for r in result.results
    }


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)  # reaped children: the SUT, once it stopped
    return ru.ru_utime + ru.ru_stime


def _timed(concurrency: int, cpu: dict[str, list[float]] | None = None) -> tuple[float, Any, float]:
    """One whole run's wall time, its result, and its time outside the cases (before the first case
    started: SUT start, preflight, warm-up; after the last ended); into ``cpu``: thinkwire's CPU seconds
    and the gateway's."""
    from harness.runner import run

    ends: list[tuple[float, float]] = []  # (when a case's result came, how long the case took)
    c0, g0, t0 = time.process_time(), _children_cpu(), time.perf_counter()
    result = run(sut=_profile(), concurrency=concurrency, keep_timelines="none",
                 progress=lambda _n, _total, r: ends.append((time.perf_counter(), r.duration_s)))  # fmt: skip
    wall = time.perf_counter() - t0
    if cpu is not None:
        cpu.setdefault("thinkwire", []).append(time.process_time() - c0)
        cpu.setdefault("gateway", []).append(_children_cpu() - g0)
    first = min(t - d for t, d in ends) - t0
    return wall, result, first + (t0 + wall - ends[-1][0])


def _aside_note() -> str:
    from harness.runner._concurrent import ASIDE_NOTE

    return ASIDE_NOTE


def _lanes_bound(serial: Any, lanes: Any, outside: float) -> float:
    """The least wall time the concurrent run could take with no contention at all: its own time
    outside the cases (``outside``: SUT start, preflight, warm-up); each shared case as long as it
    took in the serial run, ``LANES`` at a time, alongside the cases that ran alone on the second
    instance one after another (the longer of the two); then the cases that ran alone after them."""
    aside = sum(r.duration_s for r in lanes.results if r.alone.endswith(_aside_note()))
    after = sum(r.duration_s for r in lanes.results if r.alone and not r.alone.endswith(_aside_note()))
    solo = {r.case_id for r in lanes.results if r.alone}
    shared: float = sum(r.duration_s for r in serial.results if r.case_id not in solo)
    return outside + max(aside, shared / LANES) + after


def run() -> str:
    serial: list[float] = []
    lanes: list[float] = []
    differ: set[str] = set()
    n = 0
    alone = aside_n = 0
    why: collections.Counter[str] = collections.Counter()
    cpu: dict[str, list[float]] = {}
    bounds: list[float] = []
    for _ in range(ROUNDS):
        s, a, _ = _timed(1)
        c, b, outside = _timed(LANES, cpu)
        serial.append(s)
        lanes.append(c)
        bounds.append(_lanes_bound(a, b, outside))
        va, vb = _verdicts(a), _verdicts(b)
        n = len(va)
        why = collections.Counter(r.alone.split(":")[0] for r in b.results if r.alone)
        alone = sum(why.values())
        aside_n = sum(1 for r in b.results if r.alone.endswith(_aside_note()))
        differ |= {cid for cid in va if va[cid] != vb.get(cid)} | (set(vb) ^ set(va))
    best_s, best_c = min(serial), min(lanes)
    paired = sorted(s / c for s, c in zip(serial, lanes, strict=True))
    info = {"cases": n, "serial_s": [round(x, 2) for x in serial], "lanes_s": [round(x, 2) for x in lanes],
            "cpu_s": {k: [round(x, 2) for x in v] for k, v in cpu.items()},
            "lanes_bound_s": [round(x, 2) for x in bounds]}  # fmt: skip
    tw, gw = min(cpu["thinkwire"]), min(cpu["gateway"])
    cores = os.cpu_count() or 1
    floor = max(tw, gw, (tw + gw) / cores)  # one GIL each; the machine's cores for both

    return "\n".join(
        [
            "## Concurrency against a gateway that waits",
            "",
            f"{n} cases through the reference gateway with 20 ms added before every request "
            f"(`benchmarks/_latency_gateway.py`); {ROUNDS} rounds, serial and `--concurrency {LANES}` "
            "alternating, each a whole `run()` (SUT start and preflight included).",
            "",
            "| mode | best wall time | cases/s | all rounds |",
            "|---|---:|---:|---|",
            f"| serial (`--concurrency 1`) | {best_s:.1f} s | {n / best_s:.1f} "
            f"| {', '.join(f'{x:.1f}' for x in serial)} |",
            f"| `--concurrency {LANES}` | {best_c:.1f} s | {n / best_c:.1f} "
            f"| {', '.join(f'{x:.1f}' for x in lanes)} |",
            "",
            f"`--concurrency {LANES}` speed-up over serial: **{best_s / best_c:.2f}x** best against best "
            f"(target >= 6x); per round {', '.join(f'{x:.2f}x' for x in paired)} "
            f"(median {statistics.median(paired):.2f}x). {alone} cases ran alone, {aside_n} of them on a "
            "second instance of the gateway alongside the others ("
            + ", ".join(f"{n} {reason}" for reason, n in why.most_common())
            + "). Verdicts differing between serial and concurrent runs, case "
            f"by case over every round: **{len(differ)}**"
            + (f" ({', '.join(sorted(differ)[:5])})" if differ else "")
            + ".",
            "",
            f"Where the time goes, concurrent (least of the rounds): thinkwire **{tw:.1f} s** of CPU "
            f"({tw / n * 1000:.1f} ms a case: mock upstream, driver, checks, in one process), the gateway "
            f"**{gw:.1f} s** ({gw / n * 1000:.1f} ms a case). The Python code of each runs on one core at a "
            f"time (one GIL each) and both share this machine's {cores}: no concurrency runs this catalog "
            f"in less than {floor:.1f} s of wall time here (SUT start and preflight aside), a ceiling of "
            f"**{best_s / floor:.1f}x** over the best serial run. Nor, with no contention at all, in "
            f"less than {min(bounds):.1f} s: its time outside the cases (SUT start, preflight, warm-up), "
            f"and every shared case as long as it took in the serial run, {LANES} at a time, alongside "
            f"the cases that run alone one after another on a second instance of the gateway (the others "
            f"alone, after them); a ceiling of **{best_s / min(bounds):.1f}x**.",
            "",
            f"<!-- {json.dumps(info)} -->",
            "",
        ]
    )


if __name__ == "__main__":
    print(run())
