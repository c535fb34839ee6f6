"""Console output of a run: a live progress line, unexpected failures grouped by cause, and the summary
matrix. It only formats: every figure comes from the RunResult and causes come from ``_causes``."""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import TextIO

from harness.report._causes import Cause, group_causes
from harness.report._common import finding_lines, unclaimed
from harness.runner import RunResult
from harness.verdict import CaseResult, Status, Verdict

__all__ = ["Progress", "print_causes", "print_failures", "print_summary"]

_SYMBOL = {
    Verdict.PASS: "✓",
    Verdict.FAIL: "×",
    Verdict.NON_STRICT: "~",
    Verdict.INFO: "i",
    Verdict.UNSUPPORTED: "-",
    Verdict.UNCLEAN: "!",
    Verdict.NOT_APPLICABLE: " ",
}


class Progress:
    """A one-line progress bar on a TTY; a dot per case otherwise (CI logs); ``quiet`` (``-q``): one
    line a minute (``every`` seconds of ``clock``), so a run of many minutes still shows it is alive."""

    def __init__(
        self,
        out: TextIO | None = None,
        enabled: bool = True,
        *,
        quiet: bool = False,
        clock: Callable[[], float] = time.monotonic,
        every: float = 60.0,
    ) -> None:
        self.out = out or sys.stderr
        self.enabled = enabled
        self.tty = self.out.isatty()
        self.bad = 0
        self.quiet, self.clock, self.every = quiet, clock, every
        self.started = self.said = clock()

    def __call__(self, n: int, total: int, result: CaseResult) -> None:
        if not self.enabled:
            return
        if result.unexpected:
            self.bad += 1
        if self.quiet:
            self._minutely(n, total)
            return
        if self.tty:
            width = 30
            done = int(width * n / max(total, 1))
            bar = "#" * done + "." * (width - done)
            line = f"\r[{bar}] {n}/{total}  unexpected: {self.bad}  {result.case_id[:60]}"
            self.out.write(line.ljust(130)[:130])
            if n == total:
                self.out.write("\n")
        else:
            self.out.write(_mark(result))
            if n % 80 == 0 or n == total:
                self.out.write(f" {n}/{total}\n")
        self.out.flush()

    def _minutely(self, n: int, total: int) -> None:
        now = self.clock()
        if now - self.said < self.every or n == total:  # (the summary follows the last case)
            return
        self.said = now
        took = int(now - self.started)
        done = f"{n}/{total} cases, {self.bad} unexpected"
        self.out.write(f"thinkwire: {done}, {took // 60}m{took % 60:02d}s\n")
        self.out.flush()


def _mark(result: CaseResult) -> str:
    """A case's mark on the dotted progress line: ``E`` ERROR and ``T`` TIMEOUT (a harness or SUT
    problem, not a verdict), ``-`` NOT_RUN (the run ended before it), ``F`` another unexpected result,
    ``.`` as expected."""
    if result.status == Status.ERROR:
        return "E"
    if result.status == Status.TIMEOUT:
        return "T"
    if result.status == Status.NOT_RUN:
        return "-"
    return "F" if result.unexpected else "."


def print_causes(causes: list[Cause], out: TextIO, title: str, fold: int = 3) -> None:
    """One line per cause (``26 × [check] message``), its first ``fold`` case ids under it.

    One line per cause with its count and the cases folded under it, then one h2spec-style block per cause
    for its first case.
    """
    total = len({r.case_id for c in causes for r in c.cases})
    out.write(f"\n{title}: {total} case(s), {len(causes)} cause(s)\n")
    for c in causes:
        out.write(f"  {c.count:4} × {c.line()}\n")
        for r in c.cases[:fold]:
            out.write(f"         {r.case_id}\n")
        if c.count > fold:
            out.write(f"         ... and {c.count - fold} more\n")


def print_failures(run: RunResult, out: TextIO | None = None, limit: int = 30, slice_len: int = 12) -> None:
    """The unexpected failures by cause, then the first case of each cause in full (``limit`` blocks)."""
    out = out or sys.stdout
    causes = group_causes(run.unexpected)
    if not causes:
        return
    print_causes(causes, out, "unexpected failures by cause")
    shown: list[tuple[CaseResult, Cause]] = []
    seen: set[str] = set()
    for c in causes:
        first = next((r for r in c.cases if r.case_id not in seen), None)
        if first is not None:
            seen.add(first.case_id)
            shown.append((first, c))
    for r, c in shown[:limit]:
        _print_case(r, out, slice_len)
        if c.count > 1:
            out.write(f"  ({c.count - 1} more case(s) with this cause: listed above; report.html has each)\n")
    if len(shown) > limit:
        out.write(f"\n... and {len(shown) - limit} more causes (listed above)\n")


def _print_case(r: CaseResult, out: TextIO, slice_len: int) -> None:
    out.write(f"\n× {r.case_id}\n")
    out.write(f"  -> {r.requirement}\n")
    if r.status != Status.OK:
        out.write(f"  {r.status.value}: {r.error.strip()[:1500]}\n")
    for f in r.failing():
        out.write("".join(line + "\n" for line in finding_lines(f)))
    if r.timeline:
        evidence = [i for f in r.failing() for i in f.evidence if i >= 0]
        centre = evidence[0] if evidence else len(r.timeline) // 2
        lo = max(0, centre - slice_len // 2)
        out.write("    timeline:\n")
        for n, e in enumerate(r.timeline[lo : lo + slice_len], lo):
            what = e.get("event") or e.get("info") or e.get("text", "")
            line = str(what).encode("unicode_escape").decode("ascii")[:90]
            mark = "*" if n in evidence else " "
            out.write(f"     {mark}{e['t_ms']:9.2f} ms  {e['side']:8} {e['act']:12} {line}\n")
    out.write(f"  reproduce: {r.reproduce}\n")


def print_summary(run: RunResult, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    matrix: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    cols = ["PASS", "NON_STRICT", "INFO", "UNSUPPORTED", "FAIL", "UNCLEAN", "CLEANUP_FAIL"]
    cols += ["ERROR", "TIMEOUT"]
    cols += ["NOT_RUN"] if any(r.status == Status.NOT_RUN for r in run.results) else []
    cols += ["FLAKY"] if run.repeat > 1 else []
    cols += ["expected"]
    for r in run.results:
        row = matrix[r.category]
        key = r.status.value if r.status != Status.OK else r.stream.value
        row[key] += 1
        if r.status == Status.OK and r.cleanup == Verdict.UNCLEAN:
            row["UNCLEAN"] += 1
        if r.status == Status.OK and r.cleanup == Verdict.FAIL:
            row["CLEANUP_FAIL"] += 1
        if r.flaky:
            row["FLAKY"] += 1
        if r.expected and not r.unexpected:
            row["expected"] += 1
    stopped = f" (interrupted by {run.interrupted}: the others were not run)" if run.interrupted else ""
    took = f"in {run.duration_s:.1f}s{stopped}"
    out.write(f"\nthinkwire: {len(run.results)} cases against {run.sut} {took}\n\n")
    head = f"{'category':24}" + "".join(f"{c:>13}" for c in cols)
    out.write(head + "\n" + "-" * len(head) + "\n")
    totals: dict[str, int] = defaultdict(int)
    for cat in sorted(matrix):
        row = matrix[cat]
        out.write(f"{cat:24}" + "".join(f"{row.get(c, 0):>13}" for c in cols) + "\n")
        for c in cols:
            totals[c] += row.get(c, 0)
    out.write("-" * len(head) + "\n" + f"{'total':24}" + "".join(f"{totals[c]:>13}" for c in cols) + "\n")
    known = [r for r in run.results if r.expected and not r.unexpected and r.fails(strict=True)]
    if known:  # expected failures are still findings: one line each, so a run shows what it knows
        out.write(f"\nexpected failures ({len(known)}, recorded in the expectations file):\n")
        for r in known[:20]:
            f = next(iter(r.failing()), None)
            why = f"{f.check}: {f.message}" if f is not None else r.status.value
            out.write(f"  × {r.case_id} — {why}\n")
        if len(known) > 20:
            out.write(f"  ... and {len(known) - 20} more\n")
    _left_out(run, out)
    for provider, ids in unclaimed(run.results).items():
        out.write(
            f"\nnot claimed (profile providers): {provider}'s passback rules, "
            f"{len(ids)} case(s) UNSUPPORTED\n"
        )
        out.writelines(f"  - {cid}\n" for cid in ids[:10])
        if len(ids) > 10:
            out.write(f"  ... and {len(ids) - 10} more\n")
    n_bad = len(run.unexpected)
    if run.sut_error:
        out.write(f"\nSUT error: {run.sut_error}\n")
    _gate_waits(run, out)
    _concurrency(run, out)
    if run.repeat > 1:
        flaky = run.flaky
        out.write(f"\n{len(flaky)} FLAKY case(s) over {run.repeat} runs of each\n")
        for r in flaky[:20]:
            out.write(f"  FLAKY {r.case_id}: {' '.join(r.repeats)}\n")
    out.write(
        f"\n{'OK' if n_bad == 0 else 'FAILED'}: {n_bad} unexpected result(s)"
        + (" (strict)" if run.strict else "")
        + "\n"
    )


def _left_out(run: RunResult, out: TextIO) -> None:
    """The cases left out (not run, no verdict), by reason: the SUT does not claim them, or the corpus
    they replay is absent; and warnings about the SUT's settings (both also in summary.md and
    results.json)."""
    if run.left_out:
        n = sum(run.left_out.values())
        out.write(f"\nleft out ({n} case(s), not run, no verdict):\n")
        out.writelines(f"  - {count:4} {why}\n" for why, count in sorted(run.left_out.items()))
    for w in run.warnings:
        out.write(f"\nwarning: {w}\n")


def _gate_waits(run: RunResult, out: TextIO) -> None:
    """How long the gates of this run waited for the client: the figures each gated case used (a
    scenario's own ``gate_timeout``, the warm-up's, raised under the load of cases in flight), not
    one setting that some gates went past."""
    waits = sorted(r.gate_wait_s for r in run.results if r.gate_wait_s is not None)
    if not waits:
        return
    span = f"{waits[0]:.1f} to {waits[-1]:.1f} s" if waits[0] != waits[-1] else f"{waits[0]:.1f} s"
    many = f"{span} over {len(waits)} gated case(s)"
    out.write(f"\ngate timeouts: a gate waits up to {waits[-1]:.1f} s for the client ({many})\n")


def _concurrency(run: RunResult, out: TextIO) -> None:
    """How many cases were in flight at once (never more than the run had), and which ran alone and
    why (``--concurrency``)."""
    if run.concurrency_note:
        out.write(f"one case at a time: {run.concurrency_note}\n")
    lanes = min(run.concurrency, len({r.case_id for r in run.results}))
    if lanes <= 1:
        return
    alone: dict[str, list[str]] = {}
    for r in run.results:
        if r.alone:
            alone.setdefault(r.alone, []).append(r.case_id)
    out.write(f"{lanes} cases in flight at once; {sum(map(len, alone.values()))} ran alone\n")
    for why, ids in sorted(alone.items(), key=lambda kv: -len(kv[1])):
        out.write(f"  {len(ids)} alone: {why}" + (f" ({ids[0]})" if len(ids) == 1 else "") + "\n")
