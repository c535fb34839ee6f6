"""A relay's verdicts are a relay's (issue 45): markup a SUT does not claim to parse is owed to its client
verbatim, intact and in order (a mangled or half-parsed relay still FAILs, and one that claims to parse it
FAILs for not parsing); a stream the client saw break off as the upstream's did is an error the client saw;
a content check with no turn to judge says which check owns each turn."""

from __future__ import annotations

from typing import Any

import pytest

from harness.catalog._scenario import TurnSpec
from harness.drivers import KIND_TABLE
from harness.events import End, Event, Notice, ReasoningDelta, TextDelta
from harness.judge import CHECKS, build_view
from harness.judge._view import relayed_events
from harness.upstream import Disconnect, Emit
from harness.verdict import Finding, Verdict
from tests.judge._fake_case import FakeCase, FakeScenario
from tests.judge.test_checks import timeline

R, T = "Let me think.", "Hello!"
TURN = TurnSpec((Emit((ReasoningDelta(R), TextDelta(T), End("stop"))),), "hi")
MARKED = {
    "think-tags": f"<think>{R}</think>{T}",
    "think-split": f"<think>{R}</think>{T}",
    "mm-think": f"<mm:think>{R}</mm:think>{T}",
    "harmony": f"<|channel|>analysis<|message|>{R}<|end|><|start|>assistant<|channel|>final<|message|>{T}",
    "gemini-openai": f"<thought>{R}</thought>{T}",
}


def finding(name: str, client: list[Event], *, variant: str, relayed: bool, **kw: Any) -> Finding:
    case = FakeCase((TURN,), variant=variant, **kw)
    view = build_view(case, timeline(client), KIND_TABLE["gateway"], relayed=relayed)
    return CHECKS.get(name)(view)


@pytest.mark.parametrize("variant", sorted(MARKED))
def test_the_upstreams_markup_relayed_verbatim_is_a_pass_when_unclaimed(variant: str) -> None:
    assert "".join(e.text for e in relayed_events("openai-chat", variant, TURN.events())
                   if isinstance(e, TextDelta)) == MARKED[variant]  # fmt: skip
    verbatim: list[Event] = [TextDelta(MARKED[variant][:9]), TextDelta(MARKED[variant][9:]), End("stop")]
    for name in ("delivery", "channel-separation", "no-duplication", "ordering"):
        f = finding(name, verbatim, variant=variant, relayed=True)
        assert f.verdict == Verdict.PASS, (name, f)
    relayed = finding("channel-separation", verbatim, variant=variant, relayed=True)
    assert "relayed verbatim" in relayed.message
    # claimed (parses names it): the same bytes are reasoning left in the answer
    claimed = finding("channel-separation", verbatim, variant=variant, relayed=False)
    assert claimed.verdict == Verdict.FAIL
    assert "reasoning delivered as answer text" in claimed.message


@pytest.mark.parametrize(
    ("client", "check"),
    [
        ([TextDelta(R + T), End()], "delivery"),  # the tags stripped, the reasoning left in the answer
        ([TextDelta(f"{T}<think>{R}</think>"), End()], "delivery"),  # out of order
        ([TextDelta(f"<think>{R}{T}"), End()], "delivery"),  # the closing tag lost
        ([TextDelta(f"<think>{R}</think>{T}{T}"), End()], "no-duplication"),
        ([ReasoningDelta(R), TextDelta(T), End()], "channel-separation"),  # split, though not claimed
        ([ReasoningDelta(R), TextDelta(f"</think>{T}"), End()], "channel-separation"),  # half parsed
    ],
)
def test_a_relay_that_mangles_the_markup_fails(client: list[Event], check: str) -> None:
    f = finding(check, client, variant="think-tags", relayed=True)
    assert f.verdict == Verdict.FAIL, f


def test_without_a_claim_what_the_client_got_decides() -> None:
    """A quick run (``relayed=None``): split correctly is judged as parsed, verbatim as relayed, and
    anything else FAILs either way."""
    split = [ReasoningDelta(R), TextDelta(T), End("stop")]
    verbatim = [TextDelta(MARKED["think-tags"]), End("stop")]
    for client in (split, verbatim):
        for name in ("delivery", "channel-separation"):
            assert finding(name, client, variant="think-tags", relayed=None).verdict == Verdict.PASS
    assert finding("delivery", [TextDelta(R + T), End()], variant="think-tags", relayed=None).verdict == (
        Verdict.FAIL
    )
    half = [ReasoningDelta(R), TextDelta(f"</think>{T}"), End()]  # judged as parsed: the tag left over
    names = ("delivery", "channel-separation", "no-duplication")
    assert Verdict.FAIL in {finding(n, half, variant="think-tags", relayed=None).verdict for n in names}


def test_a_parse_the_profile_does_not_claim_is_named_as_such() -> None:
    f = finding("channel-separation", [ReasoningDelta(R), TextDelta(T), End()], variant="think-tags",
                relayed=True)  # fmt: skip
    assert "does not claim to parse it (parses)" in f.message


BROKEN = TurnSpec((Emit((ReasoningDelta("x"),)), Disconnect("inside-frame")), "hi")


def broken(client: list[Event]) -> Finding:
    case = FakeCase((BROKEN,), scenario=FakeScenario("error"))
    return CHECKS.get("error-propagation")(build_view(case, timeline(client), KIND_TABLE["gateway"]))


def test_a_stream_the_client_saw_break_off_is_an_error_the_client_saw() -> None:
    notices = [Notice("sse-unterminated", "data: {..."), Notice("no-terminator", "EOF without data: [DONE]")]
    seen = broken([ReasoningDelta("x"), *notices])
    assert seen.verdict == Verdict.PASS
    assert "no-terminator: EOF without data: [DONE]" in seen.message
    assert broken([ReasoningDelta("x"), Notice("no-terminator", "EOF without data: [DONE]")]).verdict == (
        Verdict.PASS
    )
    # the broken end turned into a clean one (terminate-broken-stream), or nothing said at all
    assert broken([ReasoningDelta("x"), End("stop")]).verdict == Verdict.FAIL
    assert broken([ReasoningDelta("x")]).verdict == Verdict.FAIL
    assert broken([ReasoningDelta("x"), Notice("unknown-frame", "x")]).verdict == Verdict.FAIL


def test_no_turn_to_judge_says_which_check_owns_the_turn() -> None:
    """`show` and the HTML report printed "[delivery] N/A: no turn to judge" on a case whose one turn the
    upstream failed on purpose: the turn was there, error-propagation's."""
    case = FakeCase((BROKEN,), scenario=FakeScenario("error"))
    view = build_view(case, timeline([ReasoningDelta("x"), End("stop")]), KIND_TABLE["gateway"])
    for name in ("delivery", "channel-separation", "no-duplication", "utf8-integrity", "termination"):
        f = CHECKS.get(name)(view)
        assert f.verdict == Verdict.NOT_APPLICABLE
        assert f.message == "turn 0: its upstream failed on purpose (error-propagation judges it)", f


def test_a_gate_for_relayed_reasoning_opens_on_the_content_too() -> None:
    from harness.upstream import ClientSide, Gate

    client = ClientSide()
    client.observe(TextDelta("<think>Let me th"))
    plain, relayed = Gate(reasoning="Let me think"), Gate(reasoning="Let me think", as_content=True)
    assert not client.satisfied(relayed)
    client.observe(TextDelta("ink.</think>Hi"))
    assert client.satisfied(relayed)
    assert not client.satisfied(plain)  # a SUT claimed to parse it is held to reasoning
    other = ClientSide()
    other.observe(ReasoningDelta("Let me think."))
    assert other.satisfied(relayed)
    assert other.satisfied(plain)
