"""What a run costs beside its cases' own waits (issue 48), each figure from whole ``thinkwire run``
commands in one run of this module: the six keepalive cases one at a time against the silence they
script; CPU per case of the whole catalog through the reference gateway (user + sys of the command,
the gateway it reaps included) against a one-case run's; a one-case run end to end against the
interpreter's bare start; and a gateway that adds 50 ms per request at ``--concurrency 8`` against one
case at a time, start-up included, with the verdicts compared case by case."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ONE_CASE = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
SLOW_CASES = "*[openai-chat:reasoning_content/*"
DELAY_MS = 50
ROUNDS = 2
STARTS = 5


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as users run it
    return {**env, **extra}


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)  # reaped: the command and what it reaped
    return ru.ru_utime + ru.ru_stime


def _thinkwire(args: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """One ``thinkwire run -q ... --report``: wall, CPU, exit code and each case's verdicts."""
    with tempfile.TemporaryDirectory(prefix="thinkwire-bench-") as tmp:
        c0, t0 = _cpu(), time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "harness.cli", "run", "-q", *args, "--report", tmp],
            capture_output=True, text=True, check=False, env=env or _env(), cwd=ROOT,
        )  # fmt: skip
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
        results = Path(tmp) / "results.json"
        data = json.loads(results.read_text(encoding="utf-8")) if results.exists() else {}
    verdicts = {
        r["case_id"]: (r["status"], r["stream"], r["cleanup"]) for r in data.get("results", [])
    }
    return {"wall": wall, "cpu": cpu, "code": proc.returncode, "verdicts": verdicts}


def _bare_start() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, env=_env())
    return time.perf_counter() - t0


def _latency_profile(folder: Path) -> Path:
    """The reference gateway's profile with ``_latency_gateway.py`` as the command."""
    from harness.runner._builtin import BUILTIN

    spec = dict(BUILTIN["reference"])
    spec["name"] = "latency-gateway"
    spec["command"] = ["{python}", str(ROOT / "benchmarks" / "_latency_gateway.py"), *spec["command"][3:]]
    lines = [f"{k} = {json.dumps(v)}" for k, v in spec.items() if not isinstance(v, dict)]
    models = ", ".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in spec["models"].items())
    lines.append(f"models = {{ {models} }}")
    path = folder / "latency-gateway.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _keepalive() -> tuple[list[str], dict[str, Any]]:
    from harness.runner import load_cases
    from harness.upstream import Pause

    cases = load_cases(["keepalive/*"])
    silence = sum(s.seconds for c in cases for t in c.scenario.turns for s in t.steps if isinstance(s, Pause))
    good = _thinkwire(["--sut", "reference", "--cases", "keepalive/*", "--concurrency", "1"])
    bad = _thinkwire(
        ["--sut", "reference", "--fault", "no-keepalive", "--cases", "keepalive/*", "--concurrency", "1"]
    )
    passed = sum(v[1] == "PASS" for v in good["verdicts"].values())
    failed = sum(v[1] == "FAIL" for v in bad["verdicts"].values())
    n = len(cases)
    lines = [
        "### The keepalive cases one at a time",
        "",
        f"`thinkwire run --sut reference --cases 'keepalive/*' --concurrency 1`: {n} cases whose upstream "
        "stays silent for 1.5 times the scenario's client read timeout "
        f"({silence:.1f} s of silence in all).",
        "",
        "| run | wall time | / scripted silence | verdicts |",
        "|---|---:|---:|---|",
        f"| reference gateway | **{good['wall']:.1f} s** (target <= 12 s) | {good['wall'] / silence:.2f}x "
        f"| {passed} of {n} PASS |",
        f"| `--fault no-keepalive` | {bad['wall']:.1f} s | {bad['wall'] / silence:.2f}x "
        f"| {failed} of {n} FAIL |",
        "",
    ]
    return lines, {"silence_s": silence, "wall_s": round(good["wall"], 2),
                   "fault_wall_s": round(bad["wall"], 2), "pass": passed, "fail": failed}  # fmt: skip


def _cpu_per_case() -> tuple[list[str], dict[str, Any]]:
    whole = _thinkwire(["--sut", "reference"])
    one = _thinkwire(["--sut", "reference", "--cases", ONE_CASE])
    n = len(whole["verdicts"])
    per = whole["cpu"] / n * 1000
    marginal = (whole["cpu"] - one["cpu"]) / max(1, n - 1) * 1000
    lines = [
        "### CPU per case",
        "",
        "User + sys time of `thinkwire run --sut reference -q --report DIR` (the command and the gateway "
        "it starts and reaps), divided by its cases; beside it a one-case run's, the cost every run pays.",
        "",
        "| run | cases | CPU | per case |",
        "|---|---:|---:|---:|",
        f"| whole catalog | {n} | {whole['cpu']:.2f} s | **{per:.1f} ms** (target <= 6 ms) |",
        f"| one case | 1 | {one['cpu']:.2f} s | |",
        "",
        f"Each case beyond the first adds {marginal:.1f} ms of CPU "
        f"({(whole['cpu'] - one['cpu']) / whole['cpu']:.0%} of the whole run's).",
        "",
    ]
    return lines, {"cases": n, "cpu_s": round(whole["cpu"], 2), "one_cpu_s": round(one["cpu"], 2)}


def _start_up() -> tuple[list[str], dict[str, Any]]:
    walls: list[float] = []
    bare: list[float] = []
    for _ in range(STARTS):
        bare.append(_bare_start())
        walls.append(_thinkwire(["--sut", "reference", "--cases", ONE_CASE])["wall"])
    best, floor = min(walls), min(bare)
    lines = [
        "### One case end to end",
        "",
        f"`thinkwire run --sut reference --cases '{ONE_CASE}'`: imports, the catalog (one scenario file "
        "read), the gateway's start, preflight, the case, the reports and the gateway's stop; beside the "
        f"interpreter's bare start (`python -c pass`); {STARTS} rounds, alternating.",
        "",
        "| run | best | all |",
        "|---|---:|---|",
        f"| one case | **{best:.2f} s** (target <= 0.5 s) | {', '.join(f'{w:.2f}' for w in walls)} |",
        f"| `python -c pass` | {floor * 1000:.0f} ms | {', '.join(f'{b * 1000:.0f}' for b in bare)} |",
        "",
        f"A one-case run costs {best / floor:.0f} bare interpreter starts.",
        "",
    ]
    return lines, {"one_case_s": [round(w, 3) for w in walls], "bare_s": [round(b, 3) for b in bare]}


def _slow_gateway() -> tuple[list[str], dict[str, Any]]:
    serial: list[float] = []
    lanes: list[float] = []
    differ: set[str] = set()
    n = 0
    with tempfile.TemporaryDirectory(prefix="thinkwire-bench-") as tmp:
        profile = str(_latency_profile(Path(tmp)))
        env = _env(THINKWIRE_BENCH_DELAY_MS=str(DELAY_MS))
        for _ in range(ROUNDS):
            a = _thinkwire(["--sut", profile, "--cases", SLOW_CASES, "--concurrency", "1"], env)
            b = _thinkwire(["--sut", profile, "--cases", SLOW_CASES, "--concurrency", "8"], env)
            serial.append(a["wall"])
            lanes.append(b["wall"])
            n = len(a["verdicts"])
            va, vb = a["verdicts"], b["verdicts"]
            differ |= {c for c in set(va) | set(vb) if va.get(c) != vb.get(c)}
    ratio = min(serial) / min(lanes)
    lines = [
        "### A gateway that waits 50 ms per request, in lanes",
        "",
        f"`thinkwire run --cases '{SLOW_CASES}'` ({n} cases) through the reference gateway with "
        f"{DELAY_MS} ms added before every request (`benchmarks/_latency_gateway.py`), wall time of the "
        f"whole command (start-up included); {ROUNDS} rounds, serial and `--concurrency 8` alternating.",
        "",
        "| mode | best | all rounds |",
        "|---|---:|---|",
        f"| `--concurrency 1` | {min(serial):.1f} s | {', '.join(f'{x:.1f}' for x in serial)} |",
        f"| `--concurrency 8` | {min(lanes):.1f} s | {', '.join(f'{x:.1f}' for x in lanes)} |",
        "",
        f"`--concurrency 8` over serial: **{ratio:.2f}x** best against best (target >= 4x); verdicts "
        f"differing case by case over every round: **{len(differ)}**"
        + (f" ({', '.join(sorted(differ)[:5])})" if differ else "")
        + ".",
        "",
    ]
    return lines, {"cases": n, "serial_s": [round(x, 2) for x in serial],
                   "lanes_s": [round(x, 2) for x in lanes]}  # fmt: skip


def run() -> str:
    sections = ["## Per-case overhead: silence, CPU, start-up, lanes", ""]
    info: dict[str, Any] = {"load_before": os.getloadavg()[0]}
    for name, part in (
        ("keepalive", _keepalive),
        ("cpu", _cpu_per_case),
        ("start_up", _start_up),
        ("slow_gateway", _slow_gateway),
    ):
        lines, info[name] = part()
        sections += lines
    info["load_after"] = os.getloadavg()[0]
    sections += [
        f"Machine load (1-minute average) {info['load_before']:.1f} before and {info['load_after']:.1f} "
        f"after, on {os.cpu_count()} cores: wall times and the lanes' ratio shrink with a busy machine, "
        "CPU per case and the one-case run in bare interpreter starts much less.",
        "",
        f"<!-- {json.dumps(info)} -->",
        "",
    ]
    return "\n".join(sections)


if __name__ == "__main__":
    print(run())
