"""Hand-built results for the report tests: PASS, FAIL with evidence, TIMEOUT, UNSUPPORTED, an expected
failure and an UNCLEAN cancel case, with timelines shaped like serialize_timeline's output."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from harness.runner import RunResult
from harness.verdict import Axis, CaseResult, Finding, Status, Verdict


def _w(t: float, data: str, *tags: str, turn: int = 0) -> dict[str, Any]:
    return {
        "t_ms": t,
        "side": "upstream",
        "act": "write",
        "turn": turn,
        "text": data,
        "info": {"tags": list(tags)},
    }


def _ev(t: float, type_: str, **event: Any) -> dict[str, Any]:
    return {"t_ms": t, "side": "client", "act": "event", "turn": 0, "event": {"type": type_, **event}}


def _chunk(t: float, data: str) -> dict[str, Any]:
    return {"t_ms": t, "side": "client", "act": "chunk", "turn": 0, "text": data}


def _e(t: float, side: str, act: str, **info: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"t_ms": t, "side": side, "act": act, "turn": 0}
    if info:
        item["info"] = info
    return item


R1 = 'data: {"choices":[{"delta":{"reasoning_content":"Let me think"}}]}\n\n'
R2 = 'data: {"choices":[{"delta":{"reasoning_content":" <about> & it"}}]}\n\n'
T1 = 'data: {"choices":[{"delta":{"content":"42"}}]}\n\n'
DONE = "data: [DONE]\n\n"


def incremental_timeline() -> list[dict[str, Any]]:
    return [
        _e(0.0, "upstream", "request", method="POST", path="/v1/chat/completions"),
        _w(1.0, R1, "reasoning"),
        _e(1.1, "upstream", "gate-wait", condition="client saw reasoning"),
        _chunk(3.0, R1),
        _ev(3.2, "ReasoningDelta", text="Let me think"),
        _e(3.3, "upstream", "gate-open", condition="client saw reasoning"),
        _w(3.5, R2, "reasoning"),
        _w(4.0, T1, "text"),
        _w(4.2, DONE, "terminal"),
        _chunk(5.0, R2 + T1 + DONE),
        _ev(5.1, "ReasoningDelta", text=" <about> & it"),
        _ev(5.2, "TextDelta", text="42"),
        _ev(5.3, "End", reason="stop"),
        _e(5.4, "upstream", "response-end"),
    ]


def buffered_timeline() -> list[dict[str, Any]]:
    return [
        _e(0.0, "upstream", "request", method="POST", path="/v1/chat/completions"),
        _w(1.0, R1, "reasoning"),
        _e(1.1, "upstream", "gate-wait", condition="client saw reasoning"),
        _e(51.1, "upstream", "gate-timeout", condition="client saw reasoning", withheld=3),
        _w(51.5, R2, "reasoning"),
        _w(52.0, T1, "text"),
        _w(52.2, DONE, "terminal"),
        _chunk(60.0, R1 + R2 + T1 + DONE),
        _ev(60.1, "ReasoningDelta", text="Let me think"),
        _ev(60.2, "ReasoningDelta", text="Let me think"),
        _ev(60.3, "TextDelta", text="42"),
        _ev(60.4, "End", reason="stop"),
        _e(60.5, "upstream", "response-end"),
    ]


def cancel_timeline() -> list[dict[str, Any]]:
    raw = b"data: \xff\xfe bad utf-8\n\n"
    return [
        _e(0.0, "sut", "start", pid=4242),
        _e(0.5, "upstream", "request", method="POST", path="/v1/messages"),
        _w(1.0, 'event: content_block_delta\ndata: {"type":"thinking_delta"}\n\n', "reasoning"),
        {"t_ms": 2.0, "side": "client", "act": "chunk", "turn": 0, "base64": base64.b64encode(raw).decode()},
        _e(2.5, "client", "cancel"),
        _e(9.0, "upstream", "disconnect"),
        _e(12.0, "sut", "process-left", pid=4243, cmdline="node worker.js"),
    ]


def make_run() -> RunResult:
    ok = CaseResult(
        case_id="incremental/reasoning-flush@openai-chat:reasoning_content/sse-per-event",
        scenario_id="incremental/reasoning-flush",
        requirement="Reasoning MUST reach the client before the upstream sends the answer.",
        category="incremental",
        sut="ref-gw",
        findings=[
            Finding("incremental", Verdict.PASS),
            Finding("duplication", Verdict.PASS),
            Finding("timing", Verdict.INFO, message="time to first reasoning token 3.2 ms"),
            Finding("cleanup", Verdict.PASS, axis=Axis.CLEANUP),
        ],
        duration_s=0.0054,
        reproduce="thinkwire run --sut reference --cases 'incremental/reasoning-flush@*'",
        timeline=incremental_timeline(),
        axes={"dialect": "openai-chat", "variant": "reasoning_content", "chunking": "sse-per-event"},
    )
    fail = CaseResult(
        case_id="incremental/reasoning-flush@openai-chat:reasoning_content/one-chunk",
        scenario_id="incremental/reasoning-flush",
        requirement="Reasoning MUST reach the client before the upstream sends the answer.",
        category="incremental",
        sut="ref-gw",
        stream=Verdict.FAIL,
        unexpected=True,
        findings=[
            Finding(
                "incremental",
                Verdict.FAIL,
                message="reasoning was buffered until the upstream gate timed out",
                expected="a ReasoningDelta before gate 'client saw reasoning' times out (50 ms)",
                actual="first ReasoningDelta at 60.1 ms, after the gate timed out at 51.1 ms",
                evidence=(2, 3, 8),
            ),
            Finding(
                "duplication",
                Verdict.FAIL,
                message="reasoning text delivered twice: 'Let me think'",
                expected="'Let me think'",
                actual="'Let me thinkLet me think'",
                evidence=(8, 9),
            ),
            Finding("timing", Verdict.INFO, message="time to first reasoning token 60.1 ms"),
            Finding("cleanup", Verdict.PASS, axis=Axis.CLEANUP),
        ],
        duration_s=0.061,
        reproduce="thinkwire run --sut reference --fault buffer --cases 'incremental/reasoning-flush@*'",
        timeline=buffered_timeline(),
        axes={"dialect": "openai-chat", "variant": "reasoning_content", "chunking": "one-chunk"},
    )
    timeout = CaseResult(
        case_id="errors/mid-stream-error@anthropic:thinking",
        scenario_id="errors/mid-stream-error",
        requirement="A mid-stream upstream error MUST reach the client as an error event.",
        category="errors",
        sut="ref-gw",
        status=Status.TIMEOUT,
        unexpected=True,
        duration_s=5.0,
        error="SUT did not finish the response within 5.0 s\n--- SUT stderr (tail) ---\nTraceback: boom",
        reproduce="thinkwire run --sut reference --cases 'errors/mid-stream-error@anthropic:thinking'",
        timeline=[_e(0.0, "upstream", "request"), _w(1.0, "event: error\ndata: {}\n\n", "error")],
    )
    unsupported = CaseResult(
        case_id="wire/variants@gemini:thought",
        scenario_id="wire/variants",
        requirement="Every claimed variant MUST round-trip.",
        category="wire",
        sut="ref-gw",
        stream=Verdict.UNSUPPORTED,
        cleanup=Verdict.NOT_APPLICABLE,
        findings=[Finding("support", Verdict.UNSUPPORTED, message="the SUT does not claim gemini:thought")],
        reproduce="thinkwire run --sut reference --cases 'wire/variants@gemini:thought'",
        timeline_summary={  # a passing-like case whose timeline was summarised (the default)
            "entries": 3,
            "duration_ms": 2.5,
            "rows": [
                {"side": "upstream", "act": "write", "what": "reasoning", "turn": 0, "n": 2, "bytes": 90,
                 "first_ms": 0.0, "last_ms": 1.0},
                {"side": "client", "act": "event", "what": "ReasoningDelta", "turn": 0, "n": 1, "bytes": 0,
                 "first_ms": 2.5, "last_ms": 2.5},
            ],
        },
    )
    xfail = CaseResult(
        case_id="passback/signature@anthropic:thinking",
        scenario_id="passback/signature",
        requirement="The thinking signature MUST travel back unmodified.",
        category="passback",
        sut="ref-gw",
        stream=Verdict.FAIL,
        expected={"stream": "FAIL"},
        expected_reason="known bug #12: signature dropped",
        findings=[
            Finding(
                "passback",
                Verdict.FAIL,
                message="signature missing in turn 2",
                expected="sig-abc",
                actual="(absent)",
            )
        ],
        reproduce="thinkwire run --sut reference --cases 'passback/signature@anthropic:thinking'",
    )
    unclean = CaseResult(
        case_id="cleanup/cancel@anthropic:thinking",
        scenario_id="cleanup/cancel",
        requirement="After a client cancel the SUT MUST close the upstream connection and leave no child.",
        category="cleanup",
        sut="ref-gw",
        cleanup=Verdict.UNCLEAN,
        unexpected=True,
        findings=[
            Finding("cancellation", Verdict.PASS),
            Finding(
                "cleanup",
                Verdict.UNCLEAN,
                axis=Axis.CLEANUP,
                message="a child process outlived the case",
                expected="no process left",
                actual="pid 4243 node worker.js",
                evidence=(6,),
            ),
        ],
        duration_s=0.012,
        reproduce="thinkwire run --sut reference --cases 'cleanup/cancel@anthropic:thinking'",
        timeline=cancel_timeline(),
    )
    return RunResult(
        sut="ref-gw",
        results=[ok, fail, timeout, unsupported, xfail, unclean],
        duration_s=5.2,
    )


@pytest.fixture
def run_result() -> RunResult:
    return make_run()
