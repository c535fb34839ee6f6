"""The reports of a passing whole-catalog run against the reference gateway: the size of report.html and
results.json per passing case by default (a passing case kept compact: its verdicts and its checks' names)
and with ``--keep-timelines``, against the budget of 2 KB per passing case each, and the time
headless Chromium takes to open each report (the page's own script stamps ``data-ready-ms``:
navigation start -> the page parsed and its script run), against a blank page measured in the same
rounds (the floor: Chromium's own start-up)."""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUNDS = 5
KEEP_ROUNDS = 1  # the --keep-timelines page takes a minute or more to open: once is enough to show it
BUDGET_PER_CASE = 2 * 1024
"""Bytes per passing case, report.html and results.json each (tests/report/test_weight.py guards it)."""
OPEN_TARGET_S = 2.0
_READY = re.compile(r'data-ready-ms="(\d+)"')
_BLANK = (
    "<!DOCTYPE html><html><head><meta charset='utf-8'><title>blank</title></head><body><p>blank</p>"
    "<script>document.documentElement.setAttribute('data-ready-ms',Math.round(performance.now()))"
    "</script></body></html>"
)


def _run(out: Path, *extra: str) -> int:
    cmd = [sys.executable, "-m", "harness.cli", "run", "-q", "--report", str(out), *extra]
    return subprocess.run(cmd, capture_output=True, text=True, check=False).returncode


def _open(binary: str, page: Path, tmp: Path) -> tuple[float, float]:
    """(in-page ready ms, wall seconds of the whole headless Chromium run) for one page."""
    from tools.docs._browser import run_chromium

    t0 = time.perf_counter()
    done = run_chromium(binary, page.as_uri(), tmp, "--dump-dom", timeout=300)
    wall = time.perf_counter() - t0
    found = _READY.search(done.stdout)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"chromium could not open {page}: {done.stderr[-500:]}")
    return float(found.group(1)), wall


def run() -> str:
    from tools.docs._browser import chromium_binary

    binary = chromium_binary()
    with tempfile.TemporaryDirectory(prefix="thinkwire-bench-report-") as tmp_name:
        tmp = Path(tmp_name)
        codes = {"default": _run(tmp / "default"), "keep": _run(tmp / "keep", "--keep-timelines")}
        sizes = {
            mode: {name: (tmp / mode / name).stat().st_size for name in ("report.html", "results.json")}
            for mode in codes
        }
        cases, passing = _counts(tmp / "default" / "results.json")
        blank = tmp / "blank.html"
        blank.write_text(_BLANK, encoding="utf-8")
        pages = {"blank page (the floor)": blank, **{m: tmp / m / "report.html" for m in codes}}
        opened: dict[str, list[tuple[float, float]]] = {name: [] for name in pages}
        if binary is not None:
            for n in range(ROUNDS):  # interleaved: a slow spell of the shared machine hits all alike
                for name, page in pages.items():
                    if name != "keep" or n < KEEP_ROUNDS:
                        opened[name].append(_open(binary, page, tmp))
    return _section((cases, passing), codes, sizes, opened, binary)


def _counts(results: Path) -> tuple[int, int]:
    """(cases, passing cases) of a results.json: a passing case did not fail, expected or not."""
    from harness.report import load_results
    from harness.report._common import failing_case

    run = load_results(results)
    return len(run.results), sum(not failing_case(r) for r in run.results)


_LABELS = {"default": "report.html (default)", "keep": "report.html (`--keep-timelines`)"}


def _load() -> str:
    import os

    return ", ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"


def _mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


def _kb(n: float) -> str:
    return f"{n / 1024:.2f} KB"


def _section(
    counted: tuple[int, int],
    codes: dict[str, int],
    sizes: dict[str, dict[str, int]],
    opened: dict[str, list[tuple[float, float]]],
    binary: str | None,
) -> str:
    cases, passing = counted
    d, k = sizes["default"], sizes["keep"]
    each = {name: d[name] / max(passing, 1) for name in d}
    verdict = {name: "within" if each[name] <= BUDGET_PER_CASE else "**OVER**" for name in each}
    lines = [
        "## Report weight and open time",
        "",
        f"`thinkwire run --report DIR` on the reference gateway, {cases} cases of which {passing} passed, "
        f"exit codes {codes} (a passing run). By default a passing case is kept compact (its id, verdicts, "
        "duration, axes and the names of its PASS and N/A checks; findings of other verdicts whole; no "
        "timeline) and the HTML report builds its row from that data when asked; a case that did not pass "
        "keeps all its evidence. `--keep-timelines` keeps every finding and every timeline entry of every "
        "case.",
        "",
        "| reports | report.html | results.json | per passing case: report.html | results.json |",
        "|---|---:|---:|---:|---:|",
        f"| default | {_mb(d['report.html'])} | {_mb(d['results.json'])} "
        f"| **{_kb(each['report.html'])}** | **{_kb(each['results.json'])}** |",
        f"| `--keep-timelines` | {_mb(k['report.html'])} | {_mb(k['results.json'])} "
        f"| {_kb(k['report.html'] / max(passing, 1))} | {_kb(k['results.json'] / max(passing, 1))} |",
        "",
        f"Budget {_kb(BUDGET_PER_CASE)} per passing case each (every byte of the file counted against the "
        "passing cases; tests/report/test_weight.py guards it with the catalog's heaviest passing cases "
        f"counted 500 times): report.html {verdict['report.html']} "
        f"({each['report.html'] / BUDGET_PER_CASE:.2f} of it), results.json {verdict['results.json']} "
        f"({each['results.json'] / BUDGET_PER_CASE:.2f} of it); "
        f"{k['report.html'] / d['report.html']:.0f}x and {k['results.json'] / d['results.json']:.0f}x "
        "smaller than keeping everything.",
        "",
    ]
    if binary is None:
        return "\n".join([*lines, "Open time: not measured (no chromium on PATH).", ""])
    lines += [
        f"Opened in headless Chromium (`--dump-dom`), {ROUNDS} interleaved rounds ({KEEP_ROUNDS} of the "
        "`--keep-timelines` page): *ready* is the page's "
        "own stamp (navigation start -> page parsed and its script run, `performance.now()`), *wall* the "
        "whole Chromium process (start-up, load, dump, exit).",
        "",
        "| page | ready, median | ready, all rounds (ms) | wall, median | wall - blank page |",
        "|---|---:|---|---:|---:|",
    ]
    floor = statistics.median(w for _, w in opened["blank page (the floor)"])
    for name, got in opened.items():
        ready = [r for r, _ in got]
        wall = statistics.median(w for _, w in got)
        label = _LABELS.get(name, name)
        lines.append(
            f"| {label} | {statistics.median(ready):.0f} ms | {', '.join(f'{r:.0f}' for r in ready)} "
            f"| {wall:.2f} s | {wall - floor:+.2f} s |"
        )
    default_ready = statistics.median(r for r, _ in opened["default"]) / 1000
    best = min(r for r, _ in opened["default"]) / 1000
    lines += [
        "",
        f"The default report opens in **{default_ready:.2f} s** at the median, {best:.2f} s at best (target: "
        f"under {OPEN_TARGET_S:.0f} s); load average during the run: {_load()}.",
        "",
        f"<!-- {json.dumps({'cases': cases, 'passing': passing, 'sizes': sizes, 'opened': opened})} -->",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
