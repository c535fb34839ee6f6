"""Verdicts, findings and case results: the one results model every report renders. What counts as failing is
decided here, once, and every other module asks :func:`is_failure` or :meth:`CaseResult.fails`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "Axis",
    "CaseResult",
    "Finding",
    "Status",
    "Verdict",
    "is_failure",
    "rank",
    "worst",
]


class Verdict(StrEnum):
    PASS = "PASS"
    INFO = "INFO"
    NOT_APPLICABLE = "N/A"
    UNSUPPORTED = "UNSUPPORTED"
    NON_STRICT = "NON_STRICT"
    UNCLEAN = "UNCLEAN"
    FAIL = "FAIL"


class Axis(StrEnum):
    """Each case has two verdict axes, Autobahn's idea: ``stream`` with PASS, NON_STRICT, INFO, UNSUPPORTED or
    FAIL, and ``cleanup`` with PASS, UNCLEAN or FAIL. The harness status (OK, ERROR, TIMEOUT, NOT_RUN) is
    separate."""
    STREAM = "stream"
    CLEANUP = "cleanup"


class Status(StrEnum):
    """OK: the case ran and is judged. ERROR, TIMEOUT: it ran into a harness or SUT problem, not a
    verdict. NOT_RUN: the run ended before it could run (a SUT thinkwire did not start stopped
    answering): no verdict."""

    OK = "OK"
    ERROR = "ERROR"
    TIMEOUT = "TIMEOUT"
    NOT_RUN = "NOT_RUN"


_RANK = {
    Verdict.NOT_APPLICABLE: 0,
    Verdict.PASS: 1,
    Verdict.INFO: 2,
    Verdict.UNSUPPORTED: 3,
    Verdict.NON_STRICT: 4,
    Verdict.UNCLEAN: 5,
    Verdict.FAIL: 6,
}


def rank(verdict: Verdict) -> int:
    """How severe a verdict is (N/A lowest, FAIL highest)."""
    return _RANK[verdict]


def worst(verdicts: list[Verdict], default: Verdict = Verdict.PASS) -> Verdict:
    """The most severe verdict (N/A and INFO never outrank PASS for the case verdict)."""
    real = [v for v in verdicts if v not in (Verdict.NOT_APPLICABLE, Verdict.INFO)]
    return max(real, key=_RANK.__getitem__) if real else default


def is_failure(verdict: Verdict, strict: bool) -> bool:
    """Does ``verdict`` fail a case? FAIL and UNCLEAN always; NON_STRICT when ``strict`` (``--strict``;
    what a finding or a kept timeline shows as failing is asked with ``strict=True``)."""
    return verdict in (Verdict.FAIL, Verdict.UNCLEAN) or (strict and verdict == Verdict.NON_STRICT)


@dataclass(frozen=True, slots=True)
class Finding:
    """One check's judgement of one case, with the evidence for it."""

    check: str
    verdict: Verdict
    axis: Axis = Axis.STREAM
    message: str = ""
    expected: str = ""
    actual: str = ""
    evidence: tuple[int, ...] = ()  # indexes into the case's timeline entries
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """Shown as failing (NON_STRICT included, whatever ``--strict`` says: it is what went wrong)."""
        return is_failure(self.verdict, strict=True)


@dataclass(slots=True)
class CaseResult:
    """Everything known about one expanded case after it ran.

    A case fails when a finding fails by :func:`is_failure`, or when its status is anything but OK.
    """

    case_id: str
    scenario_id: str
    requirement: str
    category: str
    sut: str
    status: Status = Status.OK
    findings: list[Finding] = field(default_factory=list)
    stream: Verdict = Verdict.PASS
    cleanup: Verdict = Verdict.PASS
    expected: dict[str, str] = field(default_factory=dict)  # axis -> verdict from the expectations file
    expected_reason: str = ""
    unexpected: bool = False
    duration_s: float = 0.0
    error: str = ""  # harness/SUT error text (with the SUT's stderr tail)
    reproduce: str = ""
    timeline: list[dict[str, Any]] = field(default_factory=list)
    timeline_summary: dict[str, Any] | None = None  # instead of ``timeline`` for a passing case
    axes: dict[str, str] = field(default_factory=dict)
    first_byte_s: float | None = None  # first client request -> first bytes back (a measurement)
    repeats: list[str] = field(default_factory=list)  # with --repeat: each run's verdict, in order
    flaky: bool = False  # with --repeat: the runs disagreed
    alone: str = ""  # with --concurrency: why this case ran with nothing else in flight ("": shared)
    gate_wait_s: float | None = None  # the longest a gate of this case waited for the client (None: no gate)

    def failing(self) -> list[Finding]:
        return [f for f in self.findings if f.failed]

    def fails(self, strict: bool) -> bool:
        """Does the case fail: a status other than OK (ERROR, TIMEOUT, NOT_RUN), or a failing verdict on
        either axis (:func:`is_failure`)?"""
        return self.status != Status.OK or is_failure(self.stream, strict) or is_failure(self.cleanup, strict)
