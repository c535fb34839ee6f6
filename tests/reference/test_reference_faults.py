"""The translation core per fault: the same input turn through the identity filter and through each
fault's filter, with the exact events out (a table, h11 style)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness._errors import UnknownName
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    Usage,
    coalesce,
)
from harness.reference._faults import (
    CLI_FAULTS,
    FAULTS,
    GATEWAY_FAULTS,
    SDK_FAULTS,
    FaultFilter,
    check_faults,
    inline_think,
)
from harness.reference._parser_mutants import Utf8Breaker
from harness.reference._request_faults import strip_passback

R1, R2 = ReasoningDelta("Let me"), ReasoningDelta(" think.")
SIG = ReasoningSignature("sig_1")
T1, T2 = TextDelta("Hel"), TextDelta("lo!")
TOOL = ToolCallDelta(0, "call_1", "get_weather", '{"city":"Paris"}')
USAGE = Usage(10, 20, 12, 30)
END = End("stop")

TURN: tuple[Event, ...] = (R1, R2, SIG, T1, T2, USAGE, END)
TOOL_TURN: tuple[Event, ...] = (R1, R2, TOOL, End("tool_calls"))


def run(faults: tuple[str, ...], batches: list[list[Event]]) -> list[Event]:
    f = FaultFilter(faults)
    out: list[Event] = []
    for b in batches:
        out += f.feed(b)
    return out + f.close()


def per_event(turn: tuple[Event, ...]) -> list[list[Event]]:
    return [[e] for e in turn]


# (fault, input turn, exact output when fed one event at a time)
CASES: list[tuple[str, tuple[Event, ...], list[Event]]] = [
    ("drop-reasoning", TURN, [T1, T2, USAGE, END]),
    ("reasoning-into-content", TURN, [TextDelta("Let me"), TextDelta(" think."), SIG, T1, T2, USAGE, END]),
    ("buffer-reasoning", TURN, list(TURN)),  # same order: only *when* differs (see below)
    ("replay-done", TURN, [*TURN[:-1], ReasoningDelta("Let me think."), TextDelta("Hello!"), END]),
    ("drop-reasoning-tokens", TURN, [R1, R2, SIG, T1, T2, Usage(10, 20, None, 30), END]),
    ("double-done", TURN, [*TURN, END]),
    ("tools-before-reasoning", TOOL_TURN, [TOOL, R1, R2, End("tool_calls")]),
    ("tools-before-reasoning", TURN, list(TURN)),  # no tool call: nothing overtakes
    ("pi-thinking-at-end", TURN, [ReasoningDelta("Let me think."), SIG, T1, T2, USAGE, END]),
    ("swallow-stream-error", (R1, StreamError("Overloaded", "overloaded_error")), [R1, END]),
    ("swallow-stream-error", (R1, StreamError("Overloaded"), End("error")), [R1, END]),
]


@pytest.mark.parametrize(
    ("fault", "turn", "expected"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_fault_exact_events(fault: str, turn: tuple[Event, ...], expected: list[Event]) -> None:
    assert run((fault,), per_event(turn)) == expected


@pytest.mark.parametrize("turn", [TURN, TOOL_TURN, (R1, StreamError("x"))])
def test_no_fault_is_identity(turn: tuple[Event, ...]) -> None:
    assert run((), per_event(turn)) == list(turn)
    f = FaultFilter()
    assert [f.feed([e]) for e in turn] == [[e] for e in turn]  # nothing is ever held


def test_buffer_reasoning_holds_until_the_answer_starts() -> None:
    f = FaultFilter(["buffer-reasoning"])
    assert f.feed([R1]) == []
    assert f.feed([R2]) == []
    assert f.feed([T1]) == [R1, R2, T1]
    assert f.feed([R1]) == []  # a later reasoning block is held again
    assert f.close() == [R1]


def test_buffer_reasoning_releases_before_tool_call_and_at_end() -> None:
    f = FaultFilter(["buffer-reasoning"])
    assert f.feed([R1, TOOL]) == [R1, TOOL]
    g = FaultFilter(["buffer-reasoning"])
    assert g.feed([R1]) == []
    assert g.feed([Notice("unknown-event", "x")]) == [Notice("unknown-event", "x")]  # not content
    assert g.feed([END]) == [R1, END]


def test_pi_thinking_at_end_is_one_record() -> None:
    f = FaultFilter(["pi-thinking-at-end"])
    assert f.feed([R1]) == []
    assert f.feed([R2]) == []
    assert f.feed([T1]) == [ReasoningDelta("Let me think."), T1]


ALIAS = Notice("alias", "response.reasoning.delta")


def test_ignore_alias_holds_alias_reasoning_until_the_item_ends() -> None:
    f = FaultFilter(["ignore-alias"])
    assert f.feed([R1, ALIAS]) == [ALIAS]  # the notice leads its batch
    assert f.feed([ALIAS, R2]) == [ALIAS]
    assert f.feed([T1]) == [R1, R2, T1]


def test_ignore_alias_leaves_standard_reasoning_alone() -> None:
    f = FaultFilter(["ignore-alias"])
    assert f.feed([R1]) == [R1]
    assert f.feed([R2, T1]) == [R2, T1]


def test_tools_before_reasoning_holds_reasoning_until_content() -> None:
    f = FaultFilter(["tools-before-reasoning"])
    assert f.feed([R1]) == []
    assert f.feed([TOOL]) == [TOOL]
    assert f.feed([ToolCallDelta(0, arguments="x")]) == [ToolCallDelta(0, arguments="x")]
    assert f.feed([End("tool_calls")]) == [R1, End("tool_calls")]


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        (
            ["Use the <think> tag like this: <think>x</think> and close it."],
            [TextDelta("Use the "), ReasoningDelta(" tag like this: <think>x"), TextDelta(" and close it.")],
        ),
        (["a<th", "ink>b</th", "ink>c"], [TextDelta("a"), ReasoningDelta("b"), TextDelta("c")]),
        (["no tags <t"], [TextDelta("no tags "), TextDelta("<t")]),  # a held prefix is flushed at the end
    ],
)
def test_non_leading_think_naive_splitter(chunks: list[str], expected: list[Event]) -> None:
    out = run(("non-leading-think",), [[TextDelta(c)] for c in chunks])
    assert out == expected
    assert run((), [[TextDelta(c)] for c in chunks]) == [TextDelta(c) for c in chunks]


def test_non_leading_think_flushes_before_other_events() -> None:
    f = FaultFilter(["non-leading-think"])
    assert f.feed([TextDelta("x<thi")]) == [TextDelta("x")]
    assert f.feed([END]) == [TextDelta("<thi"), END]


@given(st.text(alphabet="ab<>/think", max_size=40), st.lists(st.integers(0, 40), max_size=5))
def test_non_leading_think_is_chunking_invariant(text: str, cuts: list[int]) -> None:
    points = sorted({min(c, len(text)) for c in cuts} | {0, len(text)})
    chunks = [text[a:b] for a, b in itertools.pairwise(points)]
    split = run(("non-leading-think",), [[TextDelta(c)] for c in chunks if c])
    whole = run(("non-leading-think",), [[TextDelta(text)]] if text else [])
    assert coalesce(split) == coalesce(whole)


@given(st.lists(st.sampled_from([R1, R2, SIG, T1, T2, TOOL, USAGE]), max_size=12))
def test_delaying_faults_keep_every_event(events: list[Event]) -> None:
    turn = [*events, END]
    for fault in ("buffer-reasoning", "tools-before-reasoning", "ignore-alias"):
        out = run((fault,), per_event(tuple(turn)))
        assert sorted(map(repr, out)) == sorted(map(repr, turn)), fault
    once = run(("pi-thinking-at-end",), per_event(tuple(turn)))
    assert "".join(e.text for e in once if isinstance(e, ReasoningDelta)) == "".join(
        e.text for e in turn if isinstance(e, ReasoningDelta)
    )
    assert [e for e in once if not isinstance(e, ReasoningDelta)] == [
        e for e in run(("buffer-reasoning",), per_event(tuple(turn))) if not isinstance(e, ReasoningDelta)
    ]


def test_utf8_breaker_corrupts_a_split_code_point() -> None:
    data = "18°C".encode()
    a, b = data[:3], data[3:]  # splits the two bytes of U+00B0
    assert Utf8Breaker().feed(a) + Utf8Breaker().feed(b) == "18\ufffd\ufffdC".encode()
    assert Utf8Breaker().feed(data) == data


ASSISTANT = Message(
    "assistant",
    (
        ReasoningBlock("I need the tool.", signature="sig_1"),
        ReasoningBlock("", redacted="opaque"),
        TextBlock("Checking.", signature="sig_t"),
        ToolCallBlock("call_1", "get_weather", "{}", signature="sig_c"),
    ),
)


def test_strip_passback() -> None:
    msgs = [Message.user("hi"), ASSISTANT, Message.tool("call_1", "18°C")]
    assert strip_passback(msgs) == [
        Message.user("hi"),
        Message("assistant", (TextBlock("Checking."), ToolCallBlock("call_1", "get_weather", "{}"))),
        Message.tool("call_1", "18°C"),
    ]
    assert strip_passback([Message.user("hi")]) == [Message.user("hi")]


def test_inline_think() -> None:
    assert inline_think([R1, R2, T1, T2, END]) == [TextDelta("<think>Let me think.</think>"), T1, T2, END]
    assert inline_think([T1, END]) == [T1, END]


def test_fault_names() -> None:
    assert set(FAULTS) == GATEWAY_FAULTS | SDK_FAULTS | CLI_FAULTS
    assert check_faults(["drop-reasoning"]) == frozenset({"drop-reasoning"})
    with pytest.raises(
        UnknownName, match=r"unknown fault switch 'drop-reasonig': did you mean 'drop-reasoning'"
    ):
        check_faults(["drop-reasonig"])
    with pytest.raises(UnknownName, match="unknown fault switch 'leak-child'"):
        check_faults(["leak-child"], GATEWAY_FAULTS)
    with pytest.raises(UnknownName, match="unknown fault switch"):
        FaultFilter(["nope"])


def test_redacted_and_signatures_dropped_with_reasoning() -> None:
    red = RedactedReasoning("opaque")
    assert run(("drop-reasoning",), [[red, SIG, T1]]) == [T1]


def test_structured_output_fields_reach_the_upstream_in_its_own_form() -> None:
    from harness.events import Message
    from harness.reference._core import Route, pipe_faults, upstream_request

    fmt = {"type": "json_schema", "json_schema": {"name": "w", "schema": {"type": "object"}, "strict": True}}
    choice = {"type": "function", "function": {"name": "get_weather"}}
    msgs = [Message.user("hi")]
    chat = upstream_request(
        Route("openai-chat", "reasoning_content", "m"),
        msgs,
        stream=True,
        faults=frozenset(),
        structured={"response_format": fmt, "tool_choice": choice},
    )
    assert chat.body["response_format"] == fmt
    assert chat.body["tool_choice"] == choice
    resp = upstream_request(
        Route("openai-responses", "summary", "m"),
        msgs,
        stream=True,
        faults=frozenset(),
        structured={"response_format": fmt, "tool_choice": choice},
    )
    assert resp.body["text"] == {
        "format": {"type": "json_schema", "name": "w", "schema": {"type": "object"}, "strict": True}
    }
    assert resp.body["tool_choice"] == {"type": "function", "name": "get_weather"}
    assert pipe_faults(frozenset({"buffer-structured"}), {}) == frozenset({"buffer-structured"})
    assert "buffer-reasoning" in pipe_faults(frozenset({"buffer-structured"}), {"tool_choice": choice})
