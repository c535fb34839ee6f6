"""The passback-fidelity check: what the provider gave back came back as it needs it. Providers that only
degrade when reasoning is lost answer 200, so no status can reveal the loss; this check reads the strict
upstream's comparison instead."""

from __future__ import annotations

from harness.judge._base import check, na
from harness.judge._errors import rejected
from harness.judge._view import CaseView
from harness.verdict import Finding, Verdict

__all__: list[str] = []


def _diffs(differences: object) -> tuple[str, str]:
    diffs = list(differences) if isinstance(differences, list | tuple) else []
    expected = "; ".join(f"{d[0]} = {d[2]!r}"[:300] for d in diffs)
    actual = "; ".join(f"{d[0]} = {d[1]!r}"[:300] for d in diffs)
    return expected, actual


# The strict upstream compares what it emitted with what came back and records ``fidelity`` timeline
# entries. The verdict is NON_STRICT where the provider only degrades and FAIL where it rejects, with a
# rejection of ``family="fidelity"``. A rejection of the request's own shape, such as a missing
# ``anthropic_version`` on Vertex, is request-contract's in ``_errors``, never a passback verdict.
@check(
    "passback-fidelity",
    "Reasoning the provider gave comes back as the provider needs it (byte-exact where it requires "
    "that): NON_STRICT where a lost or altered piece only degrades the model, FAIL where the provider "
    "rejects it or its documentation says the piece must come back.",
)
def passback_fidelity(view: CaseView) -> Finding:
    compared = [t for t in view.turns[1:] if t.reached and t.fidelity]
    if not compared:
        return na("passback-fidelity", "the provider compares no passed-back reasoning in this case")
    for t in compared:
        if t.rejections("fidelity"):
            return rejected("passback-fidelity", view, t, t.rejections("fidelity")[0])
    for t in compared:
        e = next((f for f in t.fidelity if f.info.get("differences")), None)
        if e is None:
            continue
        expected, actual = _diffs(e.info.get("differences"))
        rejects, needed = bool(e.info.get("rejects")), str(e.info.get("needed") or "")
        if rejects:
            consequence = "rejects it"
        elif needed:
            consequence = f"answers 200, but its documentation says it must come back: {needed}"
        else:
            consequence = "answers 200 and the model works without it"
        return Finding(
            "passback-fidelity",
            Verdict.FAIL if rejects or needed else Verdict.NON_STRICT,
            message=f"turn {t.turn}: the reasoning {view.case.provider_rules} gave did not come back as "
            f"it needs it ({e.info.get('rule', '?')}); the provider {consequence}",
            expected=expected,
            actual=actual,
            evidence=(view.index_of(e),),
        )
    return Finding("passback-fidelity", Verdict.PASS, message=f"{len(compared)} continuation(s) faithful")
