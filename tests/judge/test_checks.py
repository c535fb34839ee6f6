"""Each check as a pure function: a hand-built timeline it passes and one it fails.

(The end-to-end version, with deliberately broken SUTs, is tests/suts/test_detection_matrix.py.)
"""

from __future__ import annotations

from typing import Any

import pytest

from harness.catalog._scenario import TurnSpec
from harness.drivers import KIND_TABLE
from harness.events import End, Event, Notice, ReasoningDelta, StreamError, TextDelta, ToolCallDelta, Usage
from harness.judge import CHECKS, build_view
from harness.judge._parity import parity
from harness.timeline import Timeline
from harness.upstream import Emit, Gate, MidStreamError, Stall
from harness.verdict import Verdict
from tests.judge._fake_case import FakeCase, FakeScenario

R, T = "Let me think.", "Hello!"
SCRIPT = (ReasoningDelta(R), TextDelta(T), End("stop"))


def timeline(
    client: list[Event], *, turn: int = 0, upstream: list[tuple[str, dict[str, Any]]] = ()
) -> Timeline:
    tl = Timeline()
    tl.add("upstream", "request", turn=turn)
    tl.add("client", "request", turn=turn)
    for kind, info in upstream:
        tl.add("upstream", kind, turn=turn, **info)
    for ev in client:
        tl.add("client", "event", event=ev, turn=turn)
    return tl


def judge(
    name: str,
    client: list[Event],
    *,
    script: tuple[Event, ...] = SCRIPT,
    kind: str = "gateway",
    case: FakeCase | None = None,
    **kw: Any,
) -> Verdict:
    case = case or FakeCase((TurnSpec((Emit(script),), "hi"),))
    return CHECKS.get(name)(build_view(case, timeline(client, **kw), KIND_TABLE[kind])).verdict


GOOD = [ReasoningDelta("Let me"), ReasoningDelta(" think."), TextDelta("Hello!"), End("stop")]

CASES = [
    ("delivery", [TextDelta(T), End()], Verdict.FAIL),  # reasoning dropped
    ("delivery", [ReasoningDelta("Let me"), TextDelta(T), End()], Verdict.FAIL),  # altered
    ("no-duplication", [ReasoningDelta(R), ReasoningDelta(R), TextDelta(T), End()], Verdict.FAIL),
    ("no-duplication", [ReasoningDelta(R), TextDelta(T), TextDelta(T), End()], Verdict.FAIL),
    ("channel-separation", [TextDelta(R + T), End()], Verdict.FAIL),
    ("utf8-integrity", [ReasoningDelta("Let me th\ufffdk."), TextDelta(T), End()], Verdict.FAIL),
    ("ordering", [TextDelta(T), ReasoningDelta(R), End()], Verdict.FAIL),
    ("termination", [ReasoningDelta(R), TextDelta(T)], Verdict.FAIL),
    ("termination", [ReasoningDelta(R), TextDelta(T), End(), Notice("data-after-end")], Verdict.FAIL),
]


@pytest.mark.parametrize(
    ("name", "client", "verdict"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_check_fails_on_broken_output(name: str, client: list[Event], verdict: Verdict) -> None:
    assert judge(name, client) == verdict


@pytest.mark.parametrize(
    "name", ["delivery", "no-duplication", "channel-separation", "utf8-integrity", "ordering", "termination"]
)
def test_check_passes_correct_output(name: str) -> None:
    assert judge(name, GOOD) == Verdict.PASS


def test_one_cause_one_check() -> None:
    moved = [TextDelta(R + T), End()]
    assert judge("channel-separation", moved) == Verdict.FAIL
    assert judge("delivery", moved) == Verdict.PASS
    dup = [ReasoningDelta(R), ReasoningDelta(R), TextDelta(T), End()]
    assert judge("delivery", dup) == Verdict.PASS


def test_incremental_fails_on_gate_timeout_and_passes_on_open() -> None:
    gate = Gate(reasoning="Let me")
    case = FakeCase((TurnSpec((Emit(SCRIPT[:1]), gate, Emit(SCRIPT[1:])), "hi"),))
    wait = ("gate-wait", {"condition": "reasoning 'Let me'"})
    held = {"condition": "reasoning 'Let me'", "timeout": 1.0, "withheld": "frame"}
    timeout = [wait, ("gate-timeout", held)]
    assert judge("incremental", GOOD, case=case, upstream=timeout) == Verdict.FAIL
    assert judge("incremental", GOOD, case=case, upstream=[wait, ("gate-open", {})]) == Verdict.PASS
    assert judge("incremental", GOOD) == Verdict.NOT_APPLICABLE
    # a scripted gate the upstream never reached (the stream stopped before it) is never N/A
    assert judge("incremental", GOOD, case=case, upstream=[("mode", {"stream": True})]) == Verdict.FAIL
    # ... unless the upstream answered whole: then the evidence rules report the fake streaming
    whole = [("mode", {"stream": False})]
    assert judge("incremental", GOOD, case=case, upstream=whole) == Verdict.NOT_APPLICABLE


def test_usage_check() -> None:
    script = (*SCRIPT[:2], Usage(10, 20, 7, 30), End())
    assert judge("usage", [*GOOD[:3], Usage(10, 20, 7, 30), End()], script=script) == Verdict.PASS
    assert judge("usage", [*GOOD[:3], Usage(10, 20, None, 30), End()], script=script) == Verdict.FAIL
    assert judge("usage", GOOD) == Verdict.NOT_APPLICABLE
    # the upstream sent no usage because the SUT's request did not ask (stream_options.include_usage):
    # nothing to carry, nothing to judge; when it did send usage, losing it still fails
    unasked = [("mode", {"stream": True, "usage": False})]
    lost = [*GOOD[:3], End()]
    assert judge("usage", lost, script=script, upstream=unasked) == Verdict.NOT_APPLICABLE
    sent = [("mode", {"stream": True, "usage": True})]
    assert judge("usage", lost, script=script, upstream=sent) == Verdict.FAIL


def test_usage_check_judges_the_final_output_and_total_counts() -> None:
    script = (*SCRIPT[:2], Usage(25, 40, 28, 65), End())
    # cumulative reports: the client ends with the provider's final counts, whatever came before
    running = [*GOOD[:3], Usage(25, 1, None, 26), Usage(25, 40, 28, 65), End()]
    assert judge("usage", running, script=script) == Verdict.PASS
    # message_start's output count added to message_delta's cumulative one: 41 where the provider said 40
    added = [*GOOD[:3], Usage(25, 41, 28, 66), End()]
    assert judge("usage", added, script=script) == Verdict.FAIL
    total_only = [*GOOD[:3], Usage(25, 40, 28, 40), End()]
    assert judge("usage", total_only, script=script) == Verdict.FAIL


def test_error_propagation() -> None:
    case = FakeCase(
        (TurnSpec((Emit((ReasoningDelta("x"),)), MidStreamError(StreamError("boom"))), "hi"),),
        scenario=FakeScenario("error"),
    )
    assert judge("error-propagation", [ReasoningDelta("x"), StreamError("boom")], case=case) == Verdict.PASS
    assert judge("error-propagation", [ReasoningDelta("x"), End()], case=case) == Verdict.FAIL


def test_passback_reports_rejection_and_whether_it_was_hidden() -> None:
    turns = (
        TurnSpec((Emit((ReasoningDelta("r"), ToolCallDelta(0, "c", "f", "{}"), End("tool_calls"))),), "hi"),
        TurnSpec((Emit((TextDelta("ok"), End())),)),
    )
    case = FakeCase(turns, provider_rules="deepseek-v4")
    tl = timeline([ReasoningDelta("r"), ToolCallDelta(0, "c", "f", "{}"), End("tool_calls")])
    tl.add("upstream", "request", turn=1)
    view = build_view(case, tl, KIND_TABLE["gateway"])
    assert CHECKS.get("passback")(view).verdict == Verdict.PASS
    tl.add(
        "upstream",
        "rejected",
        turn=1,
        status=400,
        rule="DS-2",
        differences=[("messages[1].reasoning_content", None, "r")],
    )
    tl.add("client", "event", turn=1, event=TextDelta(""))
    finding = CHECKS.get("passback")(build_view(case, tl, KIND_TABLE["gateway"]))
    assert finding.verdict == Verdict.FAIL
    assert "HID" in finding.message
    assert "messages[1].reasoning_content" in finding.expected


def test_cancellation_unclean_without_upstream_close() -> None:
    case = FakeCase((TurnSpec((Emit((ReasoningDelta("x"),)), Stall(3.0)), "hi", cancel=Gate(reasoning="x")),))
    tl = timeline([ReasoningDelta("x")])
    tl.add("client", "cancel", turn=0)
    assert CHECKS.get("cancellation")(build_view(case, tl, KIND_TABLE["gateway"])).verdict == Verdict.UNCLEAN
    tl.add("upstream", "disconnect", turn=0)
    assert CHECKS.get("cancellation")(build_view(case, tl, KIND_TABLE["gateway"])).verdict == Verdict.PASS


def test_cleanup_check() -> None:
    case = FakeCase((TurnSpec((Emit(SCRIPT),), "hi"),))

    def verdict(*entries: tuple[str, dict[str, Any]]) -> Verdict:
        tl = timeline(GOOD)
        tl.add("sut", "start", pid=1)
        for kind, info in entries:
            tl.add("sut", kind, **info)
        return CHECKS.get("cleanup")(build_view(case, tl, KIND_TABLE["cli"])).verdict

    assert verdict(("child-exit", {"pid": 2}), ("dir-removed", {"children_alive": []})) == Verdict.PASS
    assert verdict(("process-left", {"pid": 2, "cmdline": "sleep"})) == Verdict.UNCLEAN
    assert verdict(("dir-left", {"path": "/tmp/x"})) == Verdict.UNCLEAN
    assert verdict(("dir-removed", {"children_alive": [2]})) == Verdict.FAIL


def test_parity() -> None:
    case = FakeCase((TurnSpec((Emit(SCRIPT),), "hi"),))
    a = build_view(case, timeline(GOOD), KIND_TABLE["gateway"])
    inline = timeline([TextDelta("<think>Let me think.</think>Hello!"), End()])
    b = build_view(case, inline, KIND_TABLE["gateway"])
    assert parity(a, a).verdict == Verdict.PASS
    assert parity(a, b).verdict == Verdict.FAIL


def test_termination_of_a_cli_counts_ends_per_run() -> None:
    """A CLI's stream ends once per run (a prompt and its tool continuations): after turn 1 (the
    continuation) and after turn 2 (the next prompt); two ends within one run is data after the end."""
    call = (ToolCallDelta(0, "c1", "f", "{}"), End("tool_calls"))
    case = FakeCase(
        (
            TurnSpec((Emit(call),), "hi"),
            TurnSpec((Emit(SCRIPT),), None),
            TurnSpec((Emit(SCRIPT),), "again"),
        )
    )

    def verdict(per_turn: list[list[Event]]) -> Verdict:
        tl = Timeline()
        for turn, events in enumerate(per_turn):
            tl.add("upstream", "request", turn=turn)
            for ev in events:
                tl.add("client", "event", event=ev, turn=turn)
        return CHECKS.get("termination")(build_view(case, tl, KIND_TABLE["cli"])).verdict

    tool = [ToolCallDelta(0, "c1", "f", "{}")]
    assert verdict([tool, [ReasoningDelta(R), TextDelta(T), End()], [TextDelta(T), End()]]) == Verdict.PASS
    assert verdict([[*tool, End()], [TextDelta(T), End()], [TextDelta(T), End()]]) == Verdict.FAIL
    assert verdict([tool, [TextDelta(T), End()], [TextDelta(T)]]) == Verdict.FAIL


@pytest.mark.parametrize(
    ("client", "says"),
    [
        ([ReasoningDelta(R), ReasoningDelta(R), TextDelta(T), End()], "turn 0: reasoning delivered 2x"),
        # one copy plus a trailing newline is not "1x": the message names what was added
        (
            [ReasoningDelta(R + "\n"), TextDelta(T), End()],
            "turn 0: reasoning delivered once plus 1 character(s) the upstream never sent: '\\n'",
        ),
    ],
)
def test_no_duplication_says_what_its_evidence_shows(client: list[Event], says: str) -> None:
    case = FakeCase((TurnSpec((Emit(SCRIPT),), "hi"),))
    found = CHECKS.get("no-duplication")(build_view(case, timeline(client), KIND_TABLE["gateway"]))
    assert found.verdict == Verdict.FAIL
    assert found.message == says
