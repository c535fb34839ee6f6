"""What an answer carried (the upstream ``mode`` entry a finding's hint reads) is true also for recorded
bytes: a replayed cassette has no events, so its bytes are read back by the dialect's observer (a
recorded case whose cassette carries reasoning_content once said "the upstream sent none")."""

from __future__ import annotations

import json
from pathlib import Path

from harness.events import ReasoningDelta, TextDelta, Usage
from harness.recording import conversation_from_cassette, read_cassette
from harness.upstream import Conversation, Emit, Raw, Script
from harness.upstream._dispatch import ConversationState, dispatch

ROOT = Path(__file__).resolve().parents[2] / "recordings"


def _mode(
    conv: Conversation, body: dict[str, object], target: str = "/v1/chat/completions"
) -> dict[str, object]:
    state = ConversationState(conv)
    _, plan = dispatch(state, method="POST", target=target, headers=(), body=json.dumps(body).encode(), t=0)
    list(plan)
    entry = next(e for e in state.timeline.entries() if e.act == "mode")
    return dict(entry.info)


def test_a_replayed_cassette_with_reasoning_content_says_so() -> None:
    conv = conversation_from_cassette(read_cassette(ROOT / "dashscope-no-space.jsonl"))
    mode = _mode(conv, {"stream": True})
    assert mode["reasoning"] is True
    # DeepSeek's shape (wire-formats §2): reasoning_content deltas, usage on the finish chunk
    chunk = '{"choices":[{"index":0,"delta":%s,"finish_reason":%s}]%s}'
    raw = (
        b"data: " + (chunk % ('{"reasoning_content":"weigh it"}', "null", "")).encode() + b"\n\n"
        b"data: " + (chunk % ('{"content":"done"}', '"stop"', ',"usage":{"prompt_tokens":4,"completion_tokens'
                              '":3,"total_tokens":7}')).encode() + b"\n\n"
        b"data: [DONE]\n\n"
    )
    mode = _mode(Conversation.single(Script("openai-chat", (Raw((raw,)),), stream=True)), {"stream": True})
    assert mode["reasoning"] is True
    assert mode["usage"] is True


def test_recorded_bytes_without_reasoning_say_none() -> None:
    raw = b'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}\n\ndata: [DONE]\n\n'
    conv = Conversation.single(Script("openai-chat", (Raw((raw,)),), stream=True))
    assert _mode(conv, {"stream": True})["reasoning"] is False


def test_unreadable_recorded_bytes_are_unknown_not_none() -> None:
    conv = Conversation.single(Script("bedrock-converse", (Raw((b"\x00\x00\x00\x05garbage",)),), stream=True))
    mode = _mode(conv, {}, target="/model/m/converse-stream")
    assert mode["reasoning"] is None


def test_scripted_answers_report_their_events() -> None:
    events = (ReasoningDelta("r"), TextDelta("t"), Usage(1, 2, 1, 3))
    conv = Conversation.single(Script("openai-chat", (Emit(events),), variant="reasoning"))
    assert _mode(conv, {"stream": True, "stream_options": {"include_usage": True}}) == {
        "stream": True,
        "transport": "sse",
        "perturbation": "none",
        "perturbed": True,
        "asked_stream": True,
        "attempt": 0,
        "reasoning": True,
        "usage": True,
    }
    # the same script without include_usage: the stream carries no usage (the request did not ask)
    assert _mode(conv, {"stream": True})["usage"] is False
