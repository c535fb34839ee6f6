"""The Responses front door's schema rows (dialects/openai_responses/_schema.py) against the installed openai
SDK's pydantic types, the ground truth they were read from and here only a test oracle: the rows say what
the SDK requires, the emitter's frames satisfy the SDK, and each schema switch of the reference gateway
makes exactly its break, which the SDK rejects too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from harness.codec import Frame, encode_frames
from harness.dialects import get_dialect
from harness.dialects.openai_responses._schema import (
    DONE_AGREES,
    ITEM_FIELDS,
    SDK,
    USAGE_FIELDS,
    missing_usage,
)
from harness.events import End, Event, Notice, ReasoningDelta, ReasoningSignature, TextDelta, Usage
from harness.judge._grammar import GRAMMAR_BREAKS
from harness.reference._door_faults import DOOR_FAULTS, SchemaFrames
from harness.reference._faults import FAULTS, GATEWAY_FAULTS

openai = pytest.importorskip("openai")

TURN: list[Event] = [
    ReasoningDelta("The user", item="r"),
    ReasoningDelta(" greets.", item="r"),
    ReasoningSignature("gAAA-sig", item="r"),
    TextDelta("Hi", item="t"),
    Usage(12, 7, None, None),  # an upstream without a reasoning count (Anthropic, a chat model)
    End("stop"),
]


def _frames(faults: tuple[str, ...]) -> list[Frame]:
    em = get_dialect("openai-responses").emitter("summary")
    return SchemaFrames(faults).rewrite(em.feed(TURN) + em.close())


def _breaks(frames: list[Frame]) -> set[str]:
    obs = get_dialect("openai-responses").observer()
    events = obs.feed(b"".join(encode_frames(frames, "sse"))) + obs.end()
    return {e.code for e in events if isinstance(e, Notice) and e.code in GRAMMAR_BREAKS}


def _sdk_event(frame: Frame) -> Any:
    """The SDK's typed event for a frame. openai 3.63 also requires ``input_tokens_details.
    cache_write_tokens``, which the recorded API's usage lacks (corpus/openai-responses-summary-stream):
    it is added here, as the mock and the rule follow the recorded wire."""
    from openai._models import validate_type
    from openai.types.responses import ResponseStreamEvent

    obj = json.loads(frame.data)
    details = ((obj.get("response") or {}).get("usage") or {}).get("input_tokens_details")
    if isinstance(details, dict):
        details.setdefault("cache_write_tokens", 0)
    union: Any = ResponseStreamEvent  # (a union, not a class: typed as Any for validate_type)
    return validate_type(type_=union, value=obj)


def _required(model: Any) -> set[str]:
    return {name for name, f in model.model_fields.items() if f.is_required()}


def test_the_rows_are_what_the_installed_sdk_requires() -> None:
    from openai.types.responses import ResponseFunctionToolCall, ResponseReasoningItem, ResponseUsage
    from openai.types.responses.response_usage import InputTokensDetails, OutputTokensDetails

    assert set(ITEM_FIELDS["reasoning"]) <= _required(ResponseReasoningItem)
    assert set(ITEM_FIELDS["function_call"]) <= _required(ResponseFunctionToolCall)
    top = {p[0] for p in USAGE_FIELDS}
    assert top | {"input_tokens_details", "output_tokens_details"} == _required(ResponseUsage)
    assert ("output_tokens_details", "reasoning_tokens") in USAGE_FIELDS
    assert _required(OutputTokensDetails) == {"reasoning_tokens"}
    assert "cached_tokens" in _required(InputTokensDetails)  # cache_write_tokens: not in recorded traffic
    assert DONE_AGREES == ("type", "id")
    assert SDK.startswith("openai ")


def test_missing_usage_names_each_absent_or_untyped_count() -> None:
    whole = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 2,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 3}  # fmt: skip
    assert missing_usage(whole) == []
    assert missing_usage({**whole, "output_tokens_details": {}}) == ["output_tokens_details.reasoning_tokens"]
    assert missing_usage({**whole, "total_tokens": True}) == ["total_tokens"]
    assert len(missing_usage({})) == len(USAGE_FIELDS)


def test_the_emitters_frames_validate_as_the_sdks_stream_events() -> None:
    frames = _frames(())
    for f in frames:
        _sdk_event(f)
    completed = json.loads(frames[-1].data)
    assert completed["type"] == "response.completed"
    assert completed["response"]["usage"]["output_tokens_details"] == {"reasoning_tokens": 0}
    assert _breaks(frames) == set()


@pytest.mark.parametrize(
    ("fault", "kind"),
    [
        ("done-type-mismatch", "done-type-mismatch"),
        ("completed-usage-no-reasoning-tokens", "usage-lacks-field"),
    ],
)
def test_each_switch_makes_its_break_alone(fault: str, kind: str) -> None:
    assert _breaks(_frames((fault,))) == {kind}
    assert fault in FAULTS
    assert fault in GATEWAY_FAULTS


def test_the_sdk_rejects_what_each_switch_writes() -> None:
    """The oracle: the usage without its details fails ``ResponseCompletedEvent``; the done of another
    type validates as an event, and the SDK's stream state (lib/streaming/responses/_responses.py, behind
    ``responses.stream()``) raises on it."""
    from openai import omit
    from openai.lib.streaming.responses._responses import ResponseStreamState

    with pytest.raises(Exception, match="output_tokens_details"):
        _sdk_event(_frames(("completed-usage-no-reasoning-tokens",))[-1])

    def read(faults: tuple[str, ...]) -> None:
        state: Any = ResponseStreamState(input_tools=omit, text_format=omit)
        for f in _frames(faults):
            state.handle_event(_sdk_event(f))

    read(())
    with pytest.raises(RuntimeError, match="identity changed"):
        read(("done-type-mismatch",))


def test_without_a_switch_the_frames_pass_unchanged() -> None:
    em = get_dialect("openai-responses").emitter("summary")
    frames = em.feed(TURN) + em.close()
    assert SchemaFrames(()).rewrite(frames) == frames
    assert SchemaFrames(("drop-reasoning",)).rewrite(frames) == frames
    assert set(DOOR_FAULTS) == {"done-type-mismatch", "completed-usage-no-reasoning-tokens"}
