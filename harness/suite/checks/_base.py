"""A check: a named, pure function of the case view -> one Finding. Registered under its name.

Rule: a check that has nothing to judge says N/A (with why), never PASS; a check never re-reports a
cause another check owns (see the fates in ``_view``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from harness._registry import Registry
from harness.suite._verdict import Axis, Finding, Verdict
from harness.suite.checks._view import CaseView, TurnView

__all__ = ["CHECKS", "Check", "check", "judged_turns", "na", "served_turns"]


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    axis: Axis
    description: str
    fn: Callable[[CaseView], Finding]

    def __call__(self, view: CaseView) -> Finding:
        return self.fn(view)


CHECKS: Registry[Check] = Registry("check")


def check(
    name: str, description: str, axis: Axis = Axis.STREAM
) -> Callable[[Callable[[CaseView], Finding]], Check]:
    def deco(fn: Callable[[CaseView], Finding]) -> Check:
        return CHECKS.add(name, Check(name, axis, description, fn))

    return deco


def na(name: str, why: str, axis: Axis = Axis.STREAM) -> Finding:
    return Finding(name, Verdict.NOT_APPLICABLE, axis, why)


def judged_turns(view: CaseView) -> list[TurnView]:
    """Turns whose content a correct SUT must deliver: reached, not rejected by the strict upstream
    (passback owns that), not scripted to fail (error-propagation owns that), not cancelled, and not
    failed by the SUT itself (sut-error owns that: the exception, not its consequences, is the cause)."""
    return [t for t in served_turns(view) if not t.client_saw_error]


def served_turns(view: CaseView) -> list[TurnView]:
    """Turns the upstream served as scripted and the client did not cancel."""
    return [t for t in view.turns if t.reached and not t.rejected and not t.faulted and not t.cancelled]
