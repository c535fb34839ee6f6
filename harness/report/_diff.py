"""``thinkwire diff OLD NEW``: what changed between two runs, read from two results.json files or two report
dirs. It decides what changed and what regressed; rendering is ``_diff_render``'s."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from harness.report._causes import case_causes
from harness.report._common import failing_case
from harness.report._json import ResultsError, load_results
from harness.runner import RunResult
from harness.verdict import CaseResult, Status, Verdict, rank

__all__ = ["CaseChange", "RunDiff", "VerdictChange", "diff_runs", "load_run", "verdict_changes"]


@dataclass(slots=True)
class CaseChange:
    """One case that changed: its result in each run (None where absent) and its causes that came and
    went (``(check, normalised message)``)."""

    case_id: str
    old: CaseResult | None
    new: CaseResult | None
    gained: list[tuple[str, str]] = field(default_factory=list)
    lost: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class VerdictChange:
    """One axis of one case whose verdict differs between the runs (``was`` -> ``now``)."""

    case_id: str
    axis: str  # "stream" (ERROR / TIMEOUT in its place) or "cleanup"
    was: str
    now: str

    @property
    def worse(self) -> bool:
        return _severity(self.now) > _severity(self.was)


_VERDICTS = {v.value: v for v in Verdict}


def _severity(word: str) -> int:
    """A verdict's rank; ERROR and TIMEOUT (no verdict: nothing could be judged) above FAIL."""
    verdict = _VERDICTS.get(word)
    return rank(verdict) if verdict is not None else rank(Verdict.FAIL) + 1


def verdict_changes(was: CaseResult, now: CaseResult) -> list[VerdictChange]:
    """The axes whose verdict differs; cleanup only when the case ran in both (an ERROR case's cleanup
    verdict is no judgement).

    Every verdict that changed is listed, in both directions and on both axes, also where it does not fail
    a run: PASS to NON_STRICT is a change a reviewer wants to see even when only ``--strict`` fails on it.
    On the stream axis ERROR and TIMEOUT stand in for a verdict.
    """
    def stream(r: CaseResult) -> str:
        return r.status.value if r.status != Status.OK else r.stream.value

    out = []
    if stream(was) != stream(now):
        out.append(VerdictChange(now.case_id, "stream", stream(was), stream(now)))
    both_ran = was.status == now.status == Status.OK
    if both_ran and was.cleanup != now.cleanup:
        out.append(VerdictChange(now.case_id, "cleanup", was.cleanup.value, now.cleanup.value))
    return out


@dataclass(slots=True)
class RunDiff:
    old_label: str
    new_label: str
    old: RunResult
    new: RunResult
    new_failures: list[CaseChange] = field(default_factory=list)
    """Failing now, passing before (or absent before: a new case that fails)."""
    fixed: list[CaseChange] = field(default_factory=list)
    """Passing now, failing before."""
    changed: list[CaseChange] = field(default_factory=list)
    """Failing in both, with other causes."""
    added: list[CaseChange] = field(default_factory=list)
    removed: list[CaseChange] = field(default_factory=list)
    still_failing: int = 0
    verdicts: list[VerdictChange] = field(default_factory=list)
    """Every verdict that changed, per case and axis, either way (the cases in both runs)."""

    @property
    def regressed(self) -> bool:
        return bool(self.new_failures) or any(c.gained for c in self.changed)

    @property
    def exit_code(self) -> int:
        """1 when anything regressed, else 0."""
        return 1 if self.regressed else 0


def load_run(path: str | Path) -> RunResult:
    """A results.json, or a report dir holding one; ``ResultsError`` names the path otherwise."""
    p = Path(path)
    if p.is_dir():
        if not (p / "results.json").exists():
            raise ResultsError(
                f"{p}: a directory without results.json (write one with `thinkwire run --report DIR`)"
            )
        p = p / "results.json"
    return load_results(p)


def _causes(r: CaseResult | None) -> list[tuple[str, str]]:
    if r is None or not failing_case(r):
        return []
    return [(check, message) for check, message, _ in case_causes(r)]


def diff_runs(old: RunResult, new: RunResult, old_label: str = "OLD", new_label: str = "NEW") -> RunDiff:
    """Compare two runs case by case (in NEW's order, removed cases last).

    Cases are matched by id. A case fails as the reports say, by ``failing_case``, whatever the
    expectations file said, so a version bump of a wrapper is compared by what it did. Findings are
    compared by cause, check plus normalised message, so a changed byte count is no change.

    A run regressed when a case fails that did not or was not there, or when a failing case shows a cause
    it did not show before.
    """
    before = {r.case_id: r for r in old.results}
    after = {r.case_id: r for r in new.results}
    out = RunDiff(old_label, new_label, old, new)
    for case_id, r in after.items():
        was = before.get(case_id)
        a, b = _causes(was), _causes(r)
        change = CaseChange(case_id, was, r, [c for c in b if c not in a], [c for c in a if c not in b])
        if was is None:
            out.added.append(change)
        else:
            out.verdicts += verdict_changes(was, r)
        failing_now, failing_then = failing_case(r), was is not None and failing_case(was)
        if failing_now and not failing_then:
            out.new_failures.append(change)
        elif failing_then and not failing_now:
            out.fixed.append(change)
        elif failing_now and (change.gained or change.lost):
            out.changed.append(change)
        elif failing_now:
            out.still_failing += 1
    for case_id, was in before.items():
        if case_id not in after:
            out.removed.append(CaseChange(case_id, was, None, [], _causes(was)))
    return out
