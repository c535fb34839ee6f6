"""A case's premise, as the request decided it. When the upstream request did not ask for the form the case is
about, the real API sends its default form, and the verdict says so instead of judging a form the real API
would not have sent."""

from __future__ import annotations

from dataclasses import replace

from harness.judge import CHECKS, CaseView, Check
from harness.timeline import Entry
from harness.verdict import Axis, Finding, Verdict

__all__ = ["premise_findings", "premise_lost"]


def _withheld(view: CaseView) -> list[Entry]:
    return view.of("upstream", "withheld")


def _client_asked(view: CaseView, turn: int) -> bool:
    """thinkwire's client sent this turn's provider request to the SUT itself (an HTTP or WebSocket
    front door) and asked for reasoning in it: forwarding that is the SUT's job. A profile that
    dropped thinkwire's asks (``defaults = false``, recorded as ``unasked``) asked for none."""
    sent = [e for e in view.of("client", "request") if e.turn == turn]
    return any(e.info.get("url") and not e.info.get("unasked") for e in sent)


def _say(e: Entry) -> str:
    fields = e.info.get("fields") or []
    forms = e.info.get("forms") or []
    defaults = e.info.get("defaults") or []
    return "; ".join(
        f"the SUT did not ask the upstream for {form} ({field}); the real API sends {default} then"
        for field, form, default in zip(fields, forms, defaults, strict=False)
    )


def premise_lost(view: CaseView) -> Entry | None:
    """The first upstream request that did not ask for the form its case is about."""
    got = _withheld(view)
    return got[0] if got else None


def _unplayed(view: CaseView) -> Entry | None:
    """The first streamed answer whose framing (picked by the request: Gemini without ``?alt=sse``
    is a JSON array) could not carry the case's perturbation."""
    for e in view.of("upstream", "mode"):
        if e.info.get("stream") and e.info.get("perturbed") is False:
            return e
    return None


def premise_findings(view: CaseView, findings: list[Finding]) -> list[Finding]:
    """``findings`` as the premise leaves them (a wrapper's case without its premise, or a perturbation
    the requested framing cannot carry: UNSUPPORTED).

    The mock records a ``withheld`` entry from the request-forms table. A SUT that received thinkwire's own
    provider request through its front door, where the client asked for reasoning, and did not ask the
    upstream for the form gets a FAIL of the request-contract kind. A SUT that makes its own upstream
    requests, a wrapper, a CLI or an adapter, and never asked is judged UNSUPPORTED with that reason for
    the checks that judge the form (``Check.premise``): their failures stay as INFO. Every other check
    still judges (an error, a cancellation, a passback the provider rejected for another reason).
    """
    framing = _unplayed(view)
    if framing is not None:
        why = (
            f"turn {framing.turn}: the SUT asked for a {framing.info.get('transport')} stream, which the "
            f"perturbation {view.case.perturbation} does not act on (the real API frames it so)"
        )
        return _not_applicable(
            view, findings, framing, why, "a framing the perturbation acts on", "another framing, unperturbed"
        )
    e = premise_lost(view)
    if e is None:
        return findings
    why = f"turn {e.turn}: {_say(e)}"
    rows = ", ".join(str(r) for r in e.info.get("rows") or [])
    if _client_asked(view, e.turn):
        return [
            *findings,
            Finding(
                "request-contract",
                Verdict.FAIL,
                message=why,
                expected=f"an upstream request that asks for the form (request-forms rows: {rows})",
                actual="the field absent from the upstream request",
                evidence=(view.index_of(e),),
            ),
        ]
    expected = f"an upstream request that asks for the form (request-forms rows: {rows})"
    return _not_applicable(view, findings, e, why, expected, "the SUT never asked for it")


def needs_premise(name: str) -> bool:
    """The finding ``name`` judges the form the case is about: a check that says so, or the evidence
    weighed of what such checks could see. A provider's rejection (passback, request-contract), an
    error, a cancellation, the cleanup never do."""
    if name == "evidence":
        return True
    found = CHECKS.get(name) if name in CHECKS else None
    return isinstance(found, Check) and found.premise


def _not_applicable(
    view: CaseView, findings: list[Finding], e: Entry, why: str, expected: str, actual: str
) -> list[Finding]:
    """UNSUPPORTED for the checks that need the premise, saying why: their failing findings stay, as
    INFO; the other checks' findings stand as they are (a failure among them fails the case)."""
    kept = [
        replace(f, verdict=Verdict.INFO, message=f"(premise absent) {f.message}")
        if f.failed and f.axis == Axis.STREAM and needs_premise(f.check)
        else f
        for f in findings
    ]
    judged = sorted({f.check for f in findings if f.axis == Axis.STREAM and not needs_premise(f.check)})
    still = f"; judged without it: {', '.join(judged)}" if judged else ""
    return [
        Finding(
            "premise",
            Verdict.UNSUPPORTED,
            message=f"not applicable: {why}{still}",
            expected=expected,
            actual=actual,
            evidence=(view.index_of(e),),
        ),
        *kept,
    ]
