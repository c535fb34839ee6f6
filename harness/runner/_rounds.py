"""A run's result and its rounds: :class:`RunResult`, and ``--repeat``'s rounds merged into one. Repeats are
handled here, once."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness._explain import results_repr
from harness.verdict import CaseResult, Status, rank

__all__ = ["CaseResults", "Progress", "RunInterrupted", "RunResult", "merge_repeats", "repeat"]

Progress = Callable[[int, int, CaseResult], None]
"""Called after each case: (cases done, cases in the run, the case's result)."""


class CaseResults(list[CaseResult]):
    """A list of case results (``RunResult.unexpected``, ``.flaky``) whose repr reads in a failed
    ``assert not result.unexpected``: each case, its first reason and its reproduce line, on one line
    (pytest prints an object's repr on one line); the plugin adds every reason beneath."""

    def __repr__(self) -> str:
        return results_repr(self)


@dataclass(slots=True)
class RunResult:
    sut: str
    results: list[CaseResult] = field(default_factory=list)
    strict: bool = False
    duration_s: float = 0.0
    sut_error: str = ""
    sut_stderr: str = ""  # the SUT's stderr tail when it could not start (what sut_error's line lacks)
    gate_timeout: float | None = None  # the gates' timeout this run used (None: each scenario's own)
    repeat: int = 1
    interrupted: str = ""  # the signal that stopped the run early ("SIGINT", "SIGTERM"); "" when it ran out
    concurrency: int = 1  # cases that were in flight at once through the SUT (--concurrency)
    concurrency_note: str = ""  # why fewer than asked (e.g. the routing token did not reach the upstream)
    run_info: dict[str, Any] = field(default_factory=dict)  # what the run was (``_run_info``)
    left_out: dict[str, int] = field(default_factory=dict)  # cases the SUT does not claim: reason -> count
    warnings: list[str] = field(default_factory=list)  # about the SUT's settings (a shadowing models."*")

    def __repr__(self) -> str:  # (the dataclass's would print every case and its timeline)
        return (
            f"RunResult(sut={self.sut!r}, {len(self.results)} case(s), {len(self.unexpected)} unexpected)"
        )

    @property
    def unexpected(self) -> CaseResults:
        return CaseResults(r for r in self.results if r.unexpected)

    @property
    def flaky(self) -> CaseResults:
        return CaseResults(r for r in self.results if r.flaky)

    @property
    def exit_code(self) -> int:
        """0: every result as expected; 1: unexpected results; 2: the SUT never started, no case could
        run; 3: verdicts differed between repeats (``--repeat``), which a gate must not trust."""
        if self.sut_error and all(r.status == Status.ERROR for r in self.results):
            return 2
        if self.flaky:
            return 3
        return 1 if self.unexpected or self.sut_error else 0

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.results:
            key = r.status.value if r.status != Status.OK else r.stream.value
            out[key] = out.get(key, 0) + 1
        return out


class RunInterrupted(KeyboardInterrupt):
    """The run was interrupted (SIGINT, or a signal the caller turned into KeyboardInterrupt); every
    SUT process is stopped and ``result`` holds the cases that finished, marked ``interrupted``."""

    def __init__(self, result: RunResult) -> None:
        super().__init__(result.interrupted)
        self.result = result


def repeat(
    rounds: int, n_cases: int, progress: Progress | None, one_round: Callable[[Progress | None], RunResult]
) -> RunResult:
    """``one_round`` called ``rounds`` times (each given a progress callback that counts over the
    whole run), merged by :func:`merge_repeats`; raises :class:`RunInterrupted` with every finished
    case when a round was interrupted.

    Progress is counted over all the rounds.
    """
    started = time.monotonic()
    done: list[RunResult] = []
    total = rounds * n_cases
    try:
        for k in range(rounds):
            done.append(one_round(_offset(progress, k * n_cases, total)))
    except RunInterrupted as stopped:
        done.append(stopped.result)
        merged = merge_repeats(done)
        merged.interrupted = stopped.result.interrupted or "SIGINT"
        merged.duration_s = time.monotonic() - started
        raise RunInterrupted(merged) from None
    merged = merge_repeats(done)
    merged.duration_s = time.monotonic() - started
    return merged


def _offset(progress: Progress | None, before: int, total: int) -> Progress | None:
    if progress is None:
        return None

    def shifted(n: int, _total: int, result: CaseResult) -> None:
        progress(before + n, total, result)

    return shifted


def merge_repeats(runs: Sequence[RunResult]) -> RunResult:
    """N runs of the same cases -> one result per case: the worst of its runs, marked flaky when the
    runs disagreed (status, stream or cleanup verdict), with every run's verdict kept in ``repeats``.

    An interrupted round still counts with the cases it finished.
    """
    if len(runs) == 1:
        return runs[0]
    first = runs[0]
    merged = RunResult(
        sut=first.sut,
        strict=first.strict,
        duration_s=sum(r.duration_s for r in runs),
        sut_error=next((r.sut_error for r in runs if r.sut_error), ""),
        sut_stderr=next((r.sut_stderr for r in runs if r.sut_stderr), ""),
        gate_timeout=first.gate_timeout,
        repeat=len(runs),
        interrupted=next((r.interrupted for r in runs if r.interrupted), ""),
        concurrency=max(r.concurrency for r in runs),
        concurrency_note=next((r.concurrency_note for r in runs if r.concurrency_note), ""),
        run_info=first.run_info,
    )
    by_id: dict[str, list[CaseResult]] = {}
    for r in runs:
        for c in r.results:
            by_id.setdefault(c.case_id, []).append(c)
    for results in by_id.values():
        labels = [_label(c) for c in results]
        worst_one = max(results, key=_severity)
        worst_one.repeats = labels
        worst_one.flaky = len(set(labels)) > 1
        merged.results.append(worst_one)
    return merged


def _label(c: CaseResult) -> str:
    return c.status.value if c.status != Status.OK else f"{c.stream.value}/{c.cleanup.value}"


def _severity(c: CaseResult) -> tuple[int, int, int]:
    return (int(c.unexpected), int(c.status != Status.OK), rank(c.stream) + rank(c.cleanup))
