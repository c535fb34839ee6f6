"""The 2026 fault switches one by one: how each rebuilds a continuation or misreads a stream, exactly
(identity when off), and the first-choice-only reader's view of Azure's chunks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from harness.events import (
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
)
from harness.reference._faults import FAULTS, FaultFilter
from harness.reference._parser_mutants import ParserFailure, parser_mutant
from harness.reference._request_faults import PASSBACK_FAULTS, mutate_body, passback_messages

RECORD = '{"type":"reasoning.server_tool_call","tool_name":"web","arguments":"{}","result":"ok"}'
MSG = Message(
    "assistant",
    (
        ReasoningBlock(" \nplan\n ", signature="ab+c/d=="),
        ReasoningBlock("", redacted=RECORD),
        TextBlock("I will call both."),
        ToolCallBlock("c1", "a", "{}", signature="Ci1"),
        ToolCallBlock("c2", "b", "{}"),
    ),
)


def test_every_switch_is_registered_and_off_is_the_identity() -> None:
    assert PASSBACK_FAULTS.keys() <= FAULTS.keys()
    assert passback_messages([MSG], "openai-chat", frozenset()) == [MSG]
    body = {"anthropic_version": "v", "input": [{"phase": "commentary"}]}
    assert mutate_body(body, frozenset()) is body


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        ("trim-passback", (ReasoningBlock("plan", signature="ab+c/d=="), *MSG.content[1:])),
        ("alter-encrypted", (ReasoningBlock(" \nplan\n ", signature="ab-c_d"), *MSG.content[1:])),
        ("drop-server-tool-records", MSG.content[:1] + MSG.content[2:]),
        (
            "signature-to-last-call",
            (*MSG.content[:3], ToolCallBlock("c1", "a", "{}"), replace(MSG.content[4], signature="Ci1")),
        ),
    ],
)
def test_message_level_switches(fault: str, expected: tuple[object, ...]) -> None:
    user, got = passback_messages([Message.user("hi"), MSG], "openai-chat", frozenset({fault}))
    assert user == Message.user("hi")
    assert got.content == expected


def test_body_level_switches() -> None:
    items = [{"type": "message", "phase": "commentary"}]
    body = {"anthropic_version": "v", "input": items}
    assert mutate_body(body, frozenset({"drop-vertex-version"})) == {"input": items}
    assert mutate_body(body, frozenset({"drop-phase"}))["input"] == [{"type": "message"}]
    answer = {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]}
    gemini = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}, answer]}
    roles = [c["role"] for c in mutate_body(gemini, frozenset({"gemini-tool-role"}))["contents"]]
    assert roles == ["user", "tool"]
    chat = {"messages": [{"role": "assistant", "tool_calls": [{"id": "c1"}]}, {"role": "tool"}]}
    noted = mutate_body(chat, frozenset({"note-between-tool-results"}))["messages"]
    assert [m["role"] for m in noted] == ["assistant", "system", "tool"]


def test_drop_call_signatures_keeps_reasoning_signatures() -> None:
    events = [
        ReasoningDelta("plan"),
        ReasoningSignature("sig_reasoning"),
        ToolCallDelta(0, "c1", "a", "{}"),
        Notice("x"),
        ReasoningSignature("sig_call"),
        ToolCallDelta(1, "c2", "b", "{}"),
        TextDelta("t"),
        ReasoningSignature("sig_named", item="c2"),
    ]
    got = FaultFilter({"drop-call-signatures"}).run(events)
    assert [e for e in got if isinstance(e, ReasoningSignature)] == [ReasoningSignature("sig_reasoning")]


@pytest.mark.parametrize(
    ("data", "fails"),
    [
        (b'data: {"choices":[],"prompt_filter_results":[]}\n\n', True),
        (b'data: {"choices":[{"index":0,"content_filter_offsets":{},"finish_reason":null}]}\n\n', True),
        (b'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n', False),
        (b'data: {"choices":[],"usage":{"prompt_tokens":1}}\n\n', False),
        (b'data: {"error":{"message":"x"}}\n\n', False),
        (b"data: [DONE]\n\n", False),
    ],
)
def test_first_choice_only_fails_where_choices_0_delta_does_not_exist(data: bytes, fails: bool) -> None:
    mutant = parser_mutant({"first-choice-only"}, "sse")
    assert mutant is not None
    if fails:
        with pytest.raises(ParserFailure):
            mutant.feed(data)
    else:
        assert mutant.feed(data)
    assert parser_mutant({"first-choice-only"}, "jsonl") is None


def test_drop_summary_detail_id_keeps_the_encrypted_detail_s_id() -> None:
    details = [
        {"type": "reasoning.summary", "summary": "plan", "id": "rs_1", "index": 0},
        {"type": "reasoning.encrypted", "data": "gAAAA", "id": "rs_1", "index": 1},
    ]
    history = [{"role": "user", "content": "hi"}, {"role": "assistant", "reasoning_details": details}]
    body = {"messages": history}
    got = mutate_body(body, frozenset({"drop-summary-detail-id"}))["messages"][1]["reasoning_details"]
    assert got == [{k: v for k, v in details[0].items() if k != "id"}, details[1]]


def test_no_display_summarized_drops_display_on_anthropic_and_bedrock_converse() -> None:
    """The same switch on both places Anthropic's thinking rides: the Messages body and Converse's
    ``additionalModelRequestFields`` (only adaptive thinking has a display to leave out)."""
    fault = frozenset({"no-display-summarized"})
    adaptive = {"type": "adaptive", "display": "summarized"}
    assert mutate_body({"thinking": adaptive}, fault) == {"thinking": {"type": "adaptive"}}
    converse = {"messages": [], "additionalModelRequestFields": {"thinking": adaptive}}
    assert mutate_body(converse, fault)["additionalModelRequestFields"] == {"thinking": {"type": "adaptive"}}
    enabled = {
        "messages": [],
        "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 9}},
    }
    assert mutate_body(enabled, fault) == enabled
    assert mutate_body(converse, frozenset()) is converse


def test_encrypted_as_reasoning_shows_the_flagged_part_and_keeps_it() -> None:
    from harness.events import ReasoningDelta, ReasoningSignature

    sig = ReasoningSignature("gAAAAB-one", item="rs_1")
    out = FaultFilter(["encrypted-as-reasoning"]).run([ReasoningDelta("Hmm", item="rs_1"), sig])
    assert out[-2:] == [sig, ReasoningDelta("gAAAAB-one", item="rs_1")]
    assert FaultFilter([]).run([sig]) == [sig]
