"""The language-neutral adapter protocol (kind = "adapter"): a long-running process per run, one JSON
request line per turn, canonical events back as JSON lines, cancel as a message, conversation state in
the adapter. A correct adapter passes multi-turn passback and cancellation; a lossy one is caught; a
line that breaks the protocol is ERROR naming it; an adapter that ignores cancel is stopped with its
whole tree and nothing is left."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import psutil
import pytest

from harness.drivers import parse_profile
from harness.drivers._adapter_wire import ProtocolViolation, parse_line
from harness.runner import run
from harness.verdict import Status, Verdict

ADAPTER = str(Path(__file__).with_name("_json_adapter.py"))
PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"
PASSBACK_NONSTREAM = (
    "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames/nonstream]"
)
THREE = "tools-passback/deepseek-three-turns[openai-chat:reasoning_content/frames]"
CANCEL = "errors-cancellation/client-cancel[openai-chat:reasoning_content/frames]"
PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"


def adapter(mode: str, **extra: Any) -> Any:
    data: dict[str, Any] = {
        "kind": "adapter",
        "name": f"py-adapter-{mode}",
        "command": [sys.executable, ADAPTER, mode],
        "dialects": ["openai-chat"],
        "timeout": 10,
    }
    data.update(extra)
    return parse_profile(data)


def children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


def test_correct_adapter_passes_multi_turn_passback_and_cancel() -> None:
    before = children()
    cases = [PASSBACK, PASSBACK_NONSTREAM, THREE, CANCEL, PLAIN]
    result = run(cases, sut=adapter("ok"))
    for r in result.results:
        assert r.status is Status.OK, (r.case_id, r.error)
        assert r.stream is Verdict.PASS, (r.case_id, [(f.check, f.message) for f in r.failing()])
        assert r.cleanup in (Verdict.PASS, Verdict.NOT_APPLICABLE), r.case_id
    assert children() <= before


def test_lossy_adapter_is_caught() -> None:
    result = run([PASSBACK, THREE], sut=adapter("lossy"))
    for r in result.results:
        assert r.stream is Verdict.FAIL, r.case_id
        assert any(f.check == "passback" and "rejected" in f.message for f in r.findings), r.case_id


def test_a_protocol_violation_is_error_naming_the_line() -> None:
    result = run([PLAIN], sut=adapter("bad-line"), preflight=False)
    (r,) = result.results
    assert r.status is Status.ERROR
    assert "adapter line 2" in r.error
    assert "this is not json" in r.error


def test_an_adapter_ignoring_cancel_is_stopped_and_leaves_nothing() -> None:
    before = children()
    result = run([CANCEL, PLAIN], sut=adapter("deaf"))
    got = {r.case_id: r for r in result.results}
    assert got[PLAIN].stream is Verdict.PASS  # a fresh adapter for the next case
    assert got[CANCEL].status is Status.OK
    assert got[CANCEL].cleanup is Verdict.UNCLEAN  # it kept reading its upstream after the cancel
    assert children() <= before


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"id": "c1/0", "event": {"type": "thinking", "text": "x"}}', "unknown event type 'thinking'"),
        ('{"id": "c1/0", "event": {"type": "reasoning", "text": 3}}', "ReasoningDelta.text is int"),
        ('{"id": "c1/0", "event": {"type": "reasoning", "txt": "x"}}', "bad fields for 'reasoning'"),
        ('{"event": {"type": "reasoning", "text": "x"}}', 'no "id"'),
        ('{"id": "c1/0"}', 'expected "event", "error", "tool_call" or "done": true'),
        ("[1]", "not a JSON object"),
        ('{"type": "hello"}', "integer protocol version"),
    ],
)
def test_parse_line_names_what_is_wrong(line: str, problem: str) -> None:
    with pytest.raises(ProtocolViolation) as info:
        parse_line(7, line)
    assert str(info.value).startswith("adapter line 7: ")
    assert problem in str(info.value)
