"""The front-door-grammar check and the observers' notices it reads: a thinking_delta in a block opened
as text, a Responses reasoning item without ``summary``, a delta for an item never announced, a .done
that differs from the deltas, a response.completed that lacks a streamed item. A correct stream from the
emitters raises none of them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from harness.catalog._scenario import TurnSpec
from harness.dialects import get_dialect
from harness.drivers import KIND_TABLE
from harness.events import End, Event, Notice, ReasoningDelta, ReasoningSignature, TextDelta, ToolCallDelta
from harness.judge import CHECKS, build_view
from harness.judge._grammar import GRAMMAR_BREAKS
from harness.timeline import Timeline
from harness.upstream import Emit
from harness.verdict import Verdict
from tests.judge._fake_case import FakeCase


def _sse(type_: str, **body: Any) -> bytes:
    return f"event: {type_}\ndata: {json.dumps({'type': type_, **body})}\n\n".encode()


def _notices(dialect: str, stream: bytes) -> list[str]:
    obs = get_dialect(dialect).observer()
    events = obs.feed(stream) + obs.end()
    return [e.code for e in events if isinstance(e, Notice)]


START = _sse("message_start", message={"id": "msg_1", "type": "message", "role": "assistant", "content": []})
STOP = _sse("message_stop")


def test_anthropic_a_thinking_delta_in_a_text_block_is_noticed() -> None:
    opened_as_text = _sse("content_block_start", index=0, content_block={"type": "text", "text": ""})
    delta = _sse("content_block_delta", index=0, delta={"type": "thinking_delta", "thinking": "Hmm."})
    kinds = _notices("anthropic-messages", START + opened_as_text + delta + STOP)
    assert "delta-type-mismatch" in kinds
    opened_as_thinking = _sse(
        "content_block_start", index=0, content_block={"type": "thinking", "thinking": "", "signature": ""}
    )
    right = START + opened_as_thinking + delta + STOP
    assert "delta-type-mismatch" not in _notices("anthropic-messages", right)


CREATED = _sse("response.created", response={"id": "resp_1", "status": "in_progress", "output": []})
TEXT_ITEM = {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed", "content": []}


def _completed(*output: dict[str, Any]) -> bytes:
    response = {"id": "resp_1", "status": "completed", "output": list(output)}
    return _sse("response.completed", response=response)


def test_responses_a_reasoning_item_without_summary_is_noticed() -> None:
    bare = {"id": "rs_1", "type": "reasoning"}
    stream = CREATED + _sse("response.output_item.added", output_index=0, item=bare) + _completed(bare)
    assert "missing-field" in _notices("openai-responses", stream)
    whole = {**bare, "summary": []}
    ok = CREATED + _sse("response.output_item.added", output_index=0, item=whole) + _completed(whole)
    assert "missing-field" not in _notices("openai-responses", ok)


def test_responses_a_snapshot_without_a_streamed_item_is_noticed() -> None:
    rs = {"id": "rs_1", "type": "reasoning", "summary": []}
    stream = (
        CREATED
        + _sse("response.output_item.added", output_index=0, item=rs)
        + _sse("response.output_item.added", output_index=1, item=TEXT_ITEM)
        + _completed(TEXT_ITEM)  # the reasoning item dropped from the final snapshot
    )
    assert "completed-lacks-item" in _notices("openai-responses", stream)


def test_responses_a_delta_for_an_unannounced_item_is_noticed() -> None:
    delta = _sse("response.reasoning_summary_text.delta", item_id="rs_9", summary_index=0, delta="x")
    assert "unknown-item-id" in _notices("openai-responses", CREATED + delta + _completed())


@pytest.mark.parametrize(
    ("dialect", "variant"),
    [
        ("openai-responses", "summary"),
        ("openai-responses", "reasoning_text"),
        ("anthropic-messages", "thinking"),
    ],
)
def test_the_emitters_streams_break_nothing(dialect: str, variant: str) -> None:
    d = get_dialect(dialect)
    em = d.emitter(variant)
    turn: list[Event] = [
        ReasoningDelta("Look it up.", item="r"),
        ReasoningSignature("sig", item="r"),
        TextDelta("Hi", item="t"),
        ToolCallDelta(0, "call_1", "f", "{}"),
        End("tool_calls"),
    ]
    from harness.codec import encode_frames

    stream = b"".join(encode_frames(em.feed(turn) + em.close(), "sse"))
    assert not set(_notices(dialect, stream)) & set(GRAMMAR_BREAKS)


# -- the check on hand-built timelines --------------------------------------------------------------



def _judge(client: list[Event]) -> Verdict:
    turn = TurnSpec((Emit((ReasoningDelta("Hmm."), TextDelta("Hi"), End())),), "hi")
    case = FakeCase((turn,), "anthropic-messages")
    tl = Timeline()
    tl.add("upstream", "request", turn=0)
    for ev in client:
        tl.add("client", "event", event=ev, turn=0)
    return CHECKS.get("front-door-grammar")(build_view(case, tl, KIND_TABLE["gateway"])).verdict


@pytest.mark.parametrize("kind", sorted(GRAMMAR_BREAKS))
def test_every_grammar_break_fails(kind: str) -> None:
    assert _judge([Notice(kind, "0"), ReasoningDelta("Hmm."), TextDelta("Hi"), End()]) == Verdict.FAIL


def test_a_clean_stream_passes_and_other_notices_are_not_its_business() -> None:
    assert _judge([ReasoningDelta("Hmm."), TextDelta("Hi"), End()]) == Verdict.PASS
    # framing and termination notices belong to other checks
    assert _judge([Notice("sse-comment", ""), ReasoningDelta("Hmm."), TextDelta("Hi"), End()]) == Verdict.PASS
    assert _judge([]) == Verdict.NOT_APPLICABLE
