"""The judge's one entry: a driven case's view, its scenario and the SUT's profile in, a :class:`Ruling` out
(findings, the verdict of each axis, or the harness-side error that makes the case ERROR). It owns what the
SUT is judged on at all, the byte cap's finding, the checks, the evidence rules, the premise, the
scenario's expected verdicts and the roll-up; the runner only drives and hands over."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from harness.drivers import cli_unsupported
from harness.judge._base import case_checks
from harness.judge._evidence import weigh
from harness.judge._premise import premise_findings
from harness.verdict import Axis, CaseResult, Finding, Status, Verdict, is_failure, worst

if TYPE_CHECKING:
    from harness.drivers import CaseTooBig, SUTProfile
    from harness.judge._view import CaseView

__all__ = [
    "Expecting",
    "Ruling",
    "expect_findings",
    "judge",
    "roll_up",
    "support",
    "unsupported_reason",
    "usage_off",
]


class Expecting(Protocol):
    """What the judge reads of a scenario: where it was declared, and the verdicts it expects."""

    @property
    def path(self) -> str: ...

    @property
    def expect(self) -> Mapping[str, str]: ...


@dataclass(frozen=True, slots=True)
class Ruling:
    """A case judged: its findings and the verdict of each axis, or ``error``: a harness-side problem
    (the case is ERROR, never a SUT verdict, and keeps no finding)."""

    findings: list[Finding] = field(default_factory=list)
    stream: Verdict = Verdict.PASS
    cleanup: Verdict = Verdict.PASS
    error: str = ""

    def into(self, result: CaseResult) -> None:
        """``result`` as this ruling decides it."""
        if self.error:
            result.status, result.error = Status.ERROR, self.error
            return
        result.findings, result.stream, result.cleanup = self.findings, self.stream, self.cleanup


def roll_up(findings: Sequence[Finding]) -> tuple[Verdict, Verdict]:
    """The stream and cleanup verdicts of ``findings``: the worst of each axis (cleanup PASS when
    no finding is about it)."""
    stream = worst([f.verdict for f in findings if f.axis == Axis.STREAM])
    cleanup = worst([f.verdict for f in findings if f.axis == Axis.CLEANUP], default=Verdict.PASS)
    return stream, cleanup


def _ruled(findings: list[Finding]) -> Ruling:
    return Ruling(findings, *roll_up(findings))


def support(case: Any, profile: SUTProfile) -> Ruling | None:
    """The UNSUPPORTED ruling of a case the SUT is not judged on (None: it is). ``case``: a
    ``harness.catalog.Case`` (typed loosely: the judge sits below the catalog)."""
    why = unsupported_reason(case, profile)
    if not why:
        return None
    return Ruling(
        [Finding("support", Verdict.UNSUPPORTED, message=why)], Verdict.UNSUPPORTED, Verdict.NOT_APPLICABLE
    )


def unsupported_reason(case: Any, profile: SUTProfile) -> str:
    """Why the SUT is not judged on ``case`` ("" when it is): a dialect or variant it does not claim, a
    scenario not for its kind, a conversation its prompt input cannot carry, a client read timeout it
    declares it does not keep alive (``stream_keepalive``), or a strict provider whose semantics it
    does not claim (``providers``)."""
    if not profile.claims(case.dialect, case.variant):
        return f"the SUT does not claim {case.dialect}:{case.variant}"
    if not case.scenario.for_kind(profile.kind):
        return f"scenario does not apply to {profile.kind} SUTs"
    continues = bool(profile.continue_words)
    if profile.abilities.prompted and (why := cli_unsupported(case.turns, profile.input, continues)):
        return str(why)
    if case.scenario.client_read_timeout is not None and not profile.stream_keepalive:
        return (
            "the SUT declares that it does not keep its client's stream alive while the upstream is "
            "silent (profile stream_keepalive = false)"
        )
    provider = case.provider.name
    if case.provider_rules != "lenient" and not profile.claims_provider(provider):
        claimed = ", ".join(profile.providers or ())
        return (
            f"the SUT does not claim {provider}'s semantics (profile providers = [{claimed}]): "
            f"the {case.provider_rules} passback rules do not apply"
        )
    return ""


def judge(
    view: CaseView, scenario: Expecting, profile: SUTProfile, *, too_big: CaseTooBig | None = None
) -> Ruling:
    """The case whose ``view`` this is, judged: over its byte cap (``too_big``), one ``size`` FAIL;
    else the checks that apply to the SUT, the evidence rules (a harness-side problem: the ruling's
    ``error``), the premise, and the ``scenario``'s expected verdicts."""
    if too_big is not None:
        return _ruled(
            [
                Finding(
                    "size",
                    Verdict.FAIL,
                    message=f"the SUT sent more than {too_big.limit} bytes in one case (reading stopped)",
                    expected=f"at most {too_big.limit} bytes (--max-bytes)",
                    actual=f"first bytes: {too_big.head[:200]!r}",
                )
            ]
        )
    findings = [c(view) for c in case_checks() if not usage_off(c.name, profile)]
    judged = weigh(view, findings)
    if judged.error:
        return Ruling(error=judged.error)
    findings = premise_findings(view, findings + judged.findings)
    return _ruled(findings + expect_findings(scenario, findings))


def usage_off(check: str, profile: SUTProfile) -> bool:
    """``usage`` applies only where the SUT reports usage (profile ``usage``; CLIs default to off)."""
    return check == "usage" and not profile.reports_usage


def expect_findings(scenario: Expecting, findings: Sequence[Finding]) -> list[Finding]:
    """The scenario's ``expect`` verdicts held against a case's findings (Autobahn's expected outcomes):
    one FAIL finding ``scenario-expect`` naming each verdict that differs, unless the verdict found is
    itself a failure (its own check reports that). A check not among ``findings`` (parity, judged
    after the pair) is not compared here."""
    if not scenario.expect:
        return []
    found: dict[str, Verdict] = {f.check: f.verdict for f in findings}
    for axis in Axis:
        found[axis.value] = worst([f.verdict for f in findings if f.axis == axis])
    misses = [
        f"{key} = {want} expected, got {found[key].value}"
        for key, want in scenario.expect.items()
        if key in found and found[key].value != want and not is_failure(found[key], strict=True)
    ]
    if not misses:
        return []
    return [
        Finding(
            "scenario-expect",
            Verdict.FAIL,
            message=f"{scenario.path}: the scenario's expect does not hold: " + "; ".join(misses),
            expected="; ".join(f"{k} = {v}" for k, v in scenario.expect.items()),
            actual="; ".join(misses),
        )
    ]
