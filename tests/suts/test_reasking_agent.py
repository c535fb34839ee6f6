"""A SUT that asks the model again on its own (an unparseable tool call answered with an error result
inside the same turn) is judged by what it sent: its re-ask is the conversation's next request, so
passing the thinking back PASSes, dropping it FAILs (the strict upstream's 400), and neither gives an
ordering FAIL or an unexpected-request 500. The same agent, pausing for thinkwire's tool result when
the call parses, still passes the pause-and-resume cases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.drivers import parse_profile
from harness.runner import run
from harness.verdict import Status, Verdict

HERE = str(Path(__file__).parent)
INVALID = "tools-passback/invalid-tool-input[anthropic-messages:thinking/frames]"
SIGNED = "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]"


def agent(name: str) -> Any:
    return parse_profile({
        "kind": "python", "callable": f"_reasking_agent:{name}", "sys_path": [HERE],
        "dialects": ["anthropic-messages"],
    })


def findings(r: Any) -> list[tuple[str, str]]:
    return [(f.check, f.message) for f in r.failing()]


def test_an_agent_that_reasks_and_passes_thinking_back_passes() -> None:
    (r,) = run([INVALID], sut=agent("reasking"), preflight=False).results
    assert r.status is Status.OK, r.error
    assert r.stream is Verdict.PASS, findings(r)
    verdicts = {f.check: f.verdict for f in r.findings}
    assert verdicts["passback"] is Verdict.PASS
    assert verdicts["ordering"] is Verdict.PASS
    requests = [e for e in r.timeline if e["side"] == "upstream" and e["act"] == "request"]
    assert [e["turn"] for e in requests] == [0, 1]  # the re-ask was the agent's own, and the last
    assert not [e for e in r.timeline if e["act"] == "server-error"]


def test_an_agent_that_reasks_and_drops_thinking_fails_on_passback_only() -> None:
    (r,) = run([INVALID], sut=agent("reasking_lossy"), preflight=False).results
    assert r.status is Status.OK, r.error
    assert r.stream is Verdict.FAIL
    checks = {check for check, _ in findings(r)}
    assert "passback" in checks, findings(r)
    assert "ordering" not in checks
    assert not [e for e in r.timeline if e["act"] == "server-error"]


def test_the_same_agent_pauses_for_thinkwire_s_tool_result_when_the_call_parses() -> None:
    (r,) = run([SIGNED], sut=agent("reasking"), preflight=False).results
    assert r.stream is Verdict.PASS, findings(r)
