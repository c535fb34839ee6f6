"""A check: a named, pure function of the case view to one Finding, registered under its name. A check that
has nothing to judge says N/A with why, never PASS."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from harness._registry import Registry
from harness.judge._view import CaseView, TurnView
from harness.verdict import Axis, Finding, Verdict

__all__ = [
    "CHECKS",
    "Check",
    "PairCheck",
    "case_checks",
    "check",
    "judged_turns",
    "na",
    "no_turn",
    "pair_check",
    "pair_checks",
    "served_turns",
]


@dataclass(frozen=True, slots=True)
class Check:
    """A check never re-reports a cause another check owns; the fates in ``_view`` say which check owns which
    cause."""
    name: str
    axis: Axis
    description: str
    fn: Callable[[CaseView], Finding]
    premise: bool = False
    """It judges the form the case is about (reasoning as the premise makes the upstream send it):
    without the premise it has nothing true to say, and its failures are shown, not counted."""

    def __call__(self, view: CaseView) -> Finding:
        return self.fn(view)


@dataclass(frozen=True, slots=True)
class PairCheck:
    """A check over a *pair* of cases, the same scenario streamed and not (``parity = true``): the
    runner calls it once both have run, and adds the finding to the non-streaming case."""

    name: str
    axis: Axis
    description: str
    fn: Callable[[CaseView, CaseView], Finding]

    def __call__(self, streamed: CaseView, whole: CaseView) -> Finding:
        return self.fn(streamed, whole)


CHECKS: Registry[Check | PairCheck] = Registry("check")


def case_checks() -> list[Check]:
    return [c for _, c in CHECKS.items() if isinstance(c, Check)]


def pair_checks() -> list[PairCheck]:
    return [c for _, c in CHECKS.items() if isinstance(c, PairCheck)]


def check(
    name: str, description: str, axis: Axis = Axis.STREAM, *, premise: bool = False
) -> Callable[[Callable[[CaseView], Finding]], Check]:
    def deco(fn: Callable[[CaseView], Finding]) -> Check:
        c = Check(name, axis, description, fn, premise)
        CHECKS.add(name, c)
        return c

    return deco


def pair_check(
    name: str, description: str, axis: Axis = Axis.STREAM
) -> Callable[[Callable[[CaseView, CaseView], Finding]], PairCheck]:
    def deco(fn: Callable[[CaseView, CaseView], Finding]) -> PairCheck:
        c = PairCheck(name, axis, description, fn)
        CHECKS.add(name, c)
        return c

    return deco


def na(name: str, why: str, axis: Axis = Axis.STREAM) -> Finding:
    return Finding(name, Verdict.NOT_APPLICABLE, axis, why)


def judged_turns(view: CaseView) -> list[TurnView]:
    """Turns whose content a correct SUT must deliver: reached, not rejected by the strict upstream
    (passback owns that), not scripted to fail (error-propagation owns that), not cancelled, and not
    failed by the SUT itself (sut-error owns that: the exception, not its consequences, is the cause)."""
    return [t for t in served_turns(view) if not t.client_saw_error]


def no_turn(view: CaseView) -> str:
    """Why a case has no turn whose content a check judges, naming the check that owns each turn (an
    N/A that said "no turn to judge" on a case that had one read as if nothing had happened)."""
    whys = [f"turn {t.turn}: {_owner(t)}" for t in view.turns]
    return "; ".join(whys) if whys else "no turn to judge"


def _owner(t: TurnView) -> str:
    if not t.reached:
        return "never reached the upstream"
    if t.foreign:
        return "carried another case's content (isolation judges it)"
    if t.rejected:
        return "rejected by the strict upstream (passback / request-contract judge it)"
    if t.faulted:
        return "its upstream failed on purpose (error-propagation judges it)"
    if t.cancelled:
        return "cancelled by the client (cancellation judges it)"
    if t.replayed:
        return "retried after output reached the client (retry judges it)"
    if t.client_saw_error:
        return "failed by the SUT (sut-error judges it)"
    return "judged"


def served_turns(view: CaseView) -> list[TurnView]:
    """Turns the upstream served as scripted and the client did not cancel, free of other cases'
    content (isolation owns a turn that carried some; a turn the SUT replayed after a failed
    attempt's output is the retry check's)."""
    return [
        t
        for t in view.turns
        if t.reached
        and not t.rejected
        and not t.faulted
        and not t.cancelled
        and not t.foreign
        and not t.replayed
    ]
