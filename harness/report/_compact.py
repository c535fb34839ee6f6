"""A passing case as results.json and the HTML report keep it: its id, verdicts, duration and the names of
the checks that judged it PASS or found it N/A. Messages, evidence and timelines are kept only for findings
that are neither, and for every case whose whole timeline the run kept (``--keep-timelines``)."""

from __future__ import annotations

import dataclasses
import shlex

from harness.report._common import failing_case
from harness.runner import RunResult
from harness.verdict import Axis, CaseResult, Finding, Status, Verdict

__all__ = [
    "QUIET",
    "compact_case",
    "compact_run",
    "compactable",
    "quiet_checks",
    "reproduce_line",
    "reproduce_template",
]

QUIET = (Verdict.PASS, Verdict.NOT_APPLICABLE)
"""The verdicts a passing case keeps as check names only: what they said is the same for every case."""
CASE = "{case}"
"""Where the case id goes in a run's reproduce template."""


def compactable(r: CaseResult) -> bool:
    """Is ``r`` kept compact: it passed (no failure, expected or not, no ERROR or TIMEOUT, not flaky) and
    the run did not keep its whole timeline (a case that kept it, under ``--keep-timelines``, keeps every
    finding's message too)."""
    return r.status == Status.OK and not failing_case(r) and not r.flaky and not r.timeline


def compact_case(r: CaseResult) -> CaseResult:
    """``r`` as results.json keeps a compactable case: each PASS and N/A finding as its check name,
    verdict and axis only (stream axis first, PASS before N/A), then its other findings whole; no timeline
    and no timeline summary. ``compact_case(compact_case(r)) == compact_case(r)``."""
    kept = [f for f in r.findings if f.verdict not in QUIET]
    names = [
        Finding(name, verdict, axis)
        for axis, by_verdict in quiet_checks(r).items()
        for verdict, checks in by_verdict.items()
        for name in checks
    ]
    return dataclasses.replace(r, findings=names + kept, timeline=[], timeline_summary=None)


def compact_run(run: RunResult) -> RunResult:
    """``run`` with each compactable case compact: what reading back its results.json gives."""
    return dataclasses.replace(run, results=[compact_case(r) if compactable(r) else r for r in run.results])


def quiet_checks(r: CaseResult) -> dict[Axis, dict[Verdict, list[str]]]:
    """The names of ``r``'s PASS and N/A findings by axis and verdict, in their order (empty ones left
    out)."""
    out: dict[Axis, dict[Verdict, list[str]]] = {}
    for axis in (Axis.STREAM, Axis.CLEANUP):
        for verdict in QUIET:
            names = [f.check for f in r.findings if f.axis == axis and f.verdict == verdict]
            if names:
                out.setdefault(axis, {})[verdict] = names
    return out


def reproduce_template(results: list[CaseResult]) -> str:
    """The reproduce line the run's cases share, with ``{case}`` where the case id goes ("" when there is
    none: no case, or a line that holds ``{case}`` itself). A case whose line is the template's with its
    own id put in need not store it."""
    for r in results:
        quoted = shlex.quote(r.case_id)
        if r.reproduce.count(quoted) == 1 and CASE not in r.reproduce:
            return r.reproduce.replace(quoted, CASE)
    return ""


def reproduce_line(template: str, case_id: str) -> str:
    """``template`` with ``case_id`` in it, quoted for a shell ("" for no template)."""
    return template.replace(CASE, shlex.quote(case_id)) if template else ""
