"""The premise rules on a case view: a withheld form is the SUT's FAIL when thinkwire's own request
reached it (a front door), UNSUPPORTED with the reason when it makes its own requests; a perturbation
the requested framing could not carry (an SSE one on Gemini's JSON array) is UNSUPPORTED; with the
premise present the findings are untouched."""

from __future__ import annotations

from harness.catalog._case import Case
from harness.drivers import KIND_TABLE
from harness.judge import build_view
from harness.judge._premise import premise_findings
from harness.runner._run import load_cases
from harness.timeline import Timeline
from harness.verdict import Finding, Verdict

LOST = Finding("delivery", Verdict.FAIL, message="reasoning never reached the client")


def _case(pattern: str) -> Case:
    (case,) = load_cases([pattern])
    return case


def _timeline(*, url: str | None, withheld: bool, perturbed: bool = True) -> Timeline:
    tl = Timeline()
    tl.add("client", "request", turn=0, **({"url": url} if url else {}))
    tl.add("upstream", "request", turn=0)
    if withheld:
        tl.add(
            "upstream", "withheld", turn=0, rows=["minimax/reasoning-split"], fields=["reasoning_split"],
            forms=["delta.reasoning_details[] text entries"], defaults=["<think> inline"],
            played="think-tags",
        )  # fmt: skip
    tl.add("upstream", "mode", turn=0, stream=True, transport="json-array", perturbed=perturbed)
    tl.add("client", "status", turn=0, status=200)
    return tl


def test_a_gateway_that_did_not_forward_the_request_fails_request_contract() -> None:
    case = _case("wire-variants/reasoning-then-answer[openai-chat:minimax-details/frames]")
    tl = _timeline(url="http://127.0.0.1:1/v1/chat/completions", withheld=True)
    view = build_view(case, tl, KIND_TABLE["gateway"])
    got = premise_findings(view, [LOST])
    assert got[0] is LOST
    assert got[1].check == "request-contract"
    assert got[1].verdict == Verdict.FAIL
    assert "the SUT did not ask the upstream for delta.reasoning_details[] text entries" in got[1].message
    assert "(reasoning_split)" in got[1].message


UNGATED = Finding("incremental", Verdict.FAIL, message="turn 0: a scripted gate was never reached")
REJECTED = Finding("passback", Verdict.FAIL, message="turn 1: the strict upstream (openai) rejected it")
HIDDEN = Finding("error-propagation", Verdict.FAIL, message="turn 0: the client saw a clean end")


def test_a_wrapper_that_never_asked_is_unsupported_for_the_checks_that_need_the_form() -> None:
    case = _case("wire-variants/reasoning-then-answer[openai-chat:minimax-details/frames]")
    view = build_view(case, _timeline(url=None, withheld=True), KIND_TABLE["python"])
    got = premise_findings(view, [UNGATED])
    assert [f.verdict for f in got] == [Verdict.UNSUPPORTED, Verdict.INFO]
    assert got[0].message.startswith("not applicable: turn 0: the SUT did not ask the upstream for")
    assert got[1].message == "(premise absent) turn 0: a scripted gate was never reached"


def test_an_absent_premise_never_hides_a_rejection_or_an_error() -> None:
    # a provider's 400 on passback and a swallowed error need no summary: they stand as FAILs (issue 46)
    case = _case("wire-variants/reasoning-then-answer[openai-chat:minimax-details/frames]")
    view = build_view(case, _timeline(url=None, withheld=True), KIND_TABLE["python"])
    got = premise_findings(view, [UNGATED, REJECTED, HIDDEN])
    assert got[0].verdict == Verdict.UNSUPPORTED
    assert "judged without it: error-propagation, passback" in got[0].message
    assert got[2:] == [REJECTED, HIDDEN]


def test_a_perturbation_the_framing_cannot_carry_is_unsupported() -> None:
    case = _case("sse-framing/bom[gemini:thought/frames/bom]")
    view = build_view(case, _timeline(url="http://x", withheld=False, perturbed=False), KIND_TABLE["gateway"])
    got = premise_findings(view, [UNGATED, LOST])
    assert got[0].verdict == Verdict.UNSUPPORTED
    assert "json-array stream, which the perturbation bom does not act on" in got[0].message
    assert got[1].verdict == Verdict.INFO
    assert got[2] is LOST  # reasoning lost on an unperturbed stream is lost all the same


def test_with_its_premise_a_case_keeps_its_findings() -> None:
    case = _case("wire-variants/reasoning-then-answer[openai-chat:minimax-details/frames]")
    view = build_view(case, _timeline(url=None, withheld=False), KIND_TABLE["python"])
    assert premise_findings(view, [LOST]) == [LOST]
