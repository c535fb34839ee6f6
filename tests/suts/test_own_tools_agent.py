"""Tools the SUT runs itself: ``SUTRequest.tool_functions()`` gives the scenario's tools as (async)
functions named, described and typed as its tool definitions; a framework that registers them and
runs its own loop is judged by what reached the upstream. Passing reasoning_content back PASSes,
dropping it FAILs on passback; each tool call is in the timeline with the scripted result."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest

from harness.drivers import parse_profile
from harness.runner import load_cases, run
from harness.verdict import Status, Verdict

HERE = str(Path(__file__).parent)
PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"
THREE = "tools-passback/deepseek-three-turns[openai-chat:reasoning_content/frames]"


def agent(name: str) -> Any:
    return parse_profile({"kind": "python", "callable": f"_own_tools_agent:{name}", "sys_path": [HERE]})


def findings(r: Any) -> list[tuple[str, str]]:
    return [(f.check, f.message) for f in r.failing()]


@pytest.mark.parametrize("name", ["own_tools", "own_tools_sync"])
def test_a_framework_running_its_tools_itself_passes(name: str) -> None:
    for r in run([PASSBACK, THREE], sut=agent(name), preflight=False).results:
        assert r.status is Status.OK, r.error
        assert r.stream is Verdict.PASS, (r.case_id, findings(r))
        assert {f.check: f.verdict for f in r.findings}["passback"] is Verdict.PASS
        ran = [e for e in r.timeline if e["side"] == "client" and e["act"] == "tool"]
        assert ran, r.case_id
        (case,) = load_cases([r.case_id])
        assert ran[0]["info"]["result"] == case.turns[0].tool_result
        assert not [e for e in r.timeline if e["act"] == "server-error"]


def test_a_framework_that_drops_reasoning_on_its_own_continuation_fails() -> None:
    (r,) = run([PASSBACK], sut=agent("own_tools_lossy"), preflight=False).results
    assert r.stream is Verdict.FAIL
    assert [check for check, _ in findings(r)] == ["passback"], findings(r)


def test_tool_functions_are_named_described_and_typed_as_the_scenario_says() -> None:
    from harness.drivers._shaping import tool_specs
    from harness.drivers._tools import ToolRunner

    (case,) = load_cases([PASSBACK])
    calls: list[tuple[str, str, str]] = []
    runner = ToolRunner(case.turns, tool_specs(case.turns), lambda *call: calls.append(call))
    (fn,) = runner.callables()
    (spec,) = tool_specs(case.turns)
    assert fn.__name__ == spec.name
    assert fn.__doc__ == spec.description
    params = inspect.signature(fn).parameters
    assert list(params) == list(spec.parameters["properties"])
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params.values())
    assert fn(**dict.fromkeys(params, "x")) == case.turns[0].tool_result
    assert calls == [(spec.name, '{"' + next(iter(params)) + '": "x"}', case.turns[0].tool_result)]
    (afn,) = runner.callables(asynchronous=True)
    assert inspect.iscoroutinefunction(afn)


def test_an_agent_s_continuation_after_a_scenario_ending_in_tool_calls_is_answered_not_judged() -> None:
    """A scenario whose last turn ends in tool calls: the agent runs the tool and asks again, as it
    should; the upstream answers that continuation (a turn beyond the scenario), which no check judges
    (it was an unexpected request and an evidence FAIL before)."""
    case = "incrementality/thinking-before-tool-call[openai-chat:reasoning_content/frames]"
    (r,) = run([case], sut=agent("own_tools"), preflight=False).results
    assert r.stream is Verdict.PASS, findings(r)
    requests = [e["turn"] for e in r.timeline if e["side"] == "upstream" and e["act"] == "request"]
    assert requests == [0, 1]  # the scenario has one turn: 1 is the agent's continuation
    assert not [e for e in r.timeline if e["act"] == "server-error"]
