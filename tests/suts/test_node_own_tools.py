"""The adapter protocol's mid-turn tools: a Node agent that runs its tools itself sends ``tool_call``
and gets the scripted result back (``tool_result``); thinkwire reads the turns from what reached the
upstream. Keeping reasoning_content PASSes, dropping it FAILs on passback alone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from harness.drivers import parse_profile
from harness.drivers._adapter_wire import ProtocolViolation, ToolRun, parse_line, tool_result_line
from harness.runner import run
from harness.verdict import Status, Verdict

HERE = Path(__file__).parent
PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"
THREE = "tools-passback/deepseek-three-turns[openai-chat:reasoning_content/frames]"
node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def adapter(mode: str) -> Any:
    return parse_profile({
        "kind": "adapter", "name": f"node-own-tools-{mode}", "dialects": ["openai-chat"], "timeout": 10,
        "command": [str(shutil.which("node")), str(HERE / "_node_own_tools.cjs"), mode],
    })


def findings(r: Any) -> list[tuple[str, str]]:
    return [(f.check, f.message) for f in r.failing()]


@node
def test_a_node_agent_running_its_tools_itself_passes() -> None:
    for r in run([PASSBACK, THREE], sut=adapter("ok"), preflight=False).results:
        assert r.status is Status.OK, r.error
        assert r.stream is Verdict.PASS, (r.case_id, findings(r))
        ran = [e for e in r.timeline if e["side"] == "client" and e["act"] == "tool"]
        assert [e["info"]["name"] for e in ran][:1] == ["get_weather"], r.case_id
        assert not [e for e in r.timeline if e["act"] == "server-error"]


@node
def test_a_node_agent_dropping_reasoning_on_its_own_continuation_fails() -> None:
    (r,) = run([PASSBACK], sut=adapter("lossy"), preflight=False).results
    assert r.stream is Verdict.FAIL
    assert [check for check, _ in findings(r)] == ["passback"], findings(r)


def test_tool_call_lines_parse_and_are_answered() -> None:
    line = {"id": "c1/0", "tool_call": {"id": "call_1", "name": "get_weather", "arguments": "{}"}}
    assert parse_line(1, json.dumps(line)) == ToolRun("c1/0", "call_1", "get_weather", "{}")
    with pytest.raises(ProtocolViolation, match='"tool_call" needs'):
        parse_line(2, json.dumps({"id": "c1/0", "tool_call": {"id": "call_1", "name": 7}}))
    assert json.loads(tool_result_line("c1/0", "call_1", "18°C")) == {
        "type": "tool_result", "id": "c1/0", "call_id": "call_1", "content": "18°C",
    }
