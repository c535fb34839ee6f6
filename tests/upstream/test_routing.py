"""Routing by path suffix, turn order, overflow, concurrency at a gate (the streaming decision:
``tests/dialects/test_dialect_routing.py``)."""

from __future__ import annotations

import threading

import httpx
import pytest

from harness.dialects import Frame
from harness.events import End, ReasoningDelta, TextDelta
from harness.upstream import (
    Conversation,
    Emit,
    EmitFrames,
    Gate,
    MockUpstream,
    Script,
    build_plan,
    demo_conversation,
    dialect_for_path,
)

DONE = Frame("[DONE]", tags=frozenset({"terminal"}))


@pytest.mark.parametrize(
    ("path", "dialect"),
    [
        ("/v1/chat/completions", "openai-chat"),
        ("/chat/completions", "openai-chat"),
        ("/anthropic/v1/messages", "anthropic-messages"),
        ("/openai/v1/responses", "openai-responses"),
        ("/v1beta/models/gemini-2.5-pro:streamGenerateContent", "gemini"),
        ("/v1beta/models/gemini-2.5-pro:generateContent", "gemini"),
        ("/api/chat", "ollama"),
        ("/model/anthropic.claude-3/converse-stream", "bedrock-converse"),
        ("/model/anthropic.claude-3/invoke-with-response-stream", "bedrock-converse"),
        ("/model/anthropic.claude-3/converse", "bedrock-converse"),
        ("/v1/embeddings", None),
    ],
)
def test_dialect_for_path(path: str, dialect: str | None) -> None:
    assert dialect_for_path(path) == dialect


def test_dialect_mismatch_is_a_404_with_an_explanation(up: MockUpstream) -> None:
    up.load(Script("openai-chat", (EmitFrames((DONE,)),)))
    r = httpx.post(up.base_url + "/anthropic/v1/messages", json={"stream": True})
    assert r.status_code == 404
    assert r.text == (
        "thinkwire mock upstream: request #1 POST /anthropic/v1/messages addresses anthropic-messages, "
        "but script #1 is openai-chat\n"
    )
    (err,) = up.timeline.select("upstream", "server-error")
    assert err.info["status"] == 404


def test_requests_beyond_the_scripts(up: MockUpstream) -> None:
    up.load(Conversation((Script("openai-chat", (EmitFrames((DONE,)),)),), name="one"))
    assert httpx.post(up.base_url + "/v1/chat/completions", json={"stream": True}).text == "data: [DONE]\n\n"
    r = httpx.post(up.base_url + "/v1/chat/completions", json={"stream": True})
    assert r.status_code == 500
    assert "unexpected request #2 POST /v1/chat/completions" in r.text
    assert "'one' has 1 script(s)" in r.text
    assert [q.turn for q in up.requests] == [0, 1]
    up.load(demo_conversation("openai-chat", "reasoning_content"))
    for _ in range(2):
        body = httpx.post(up.base_url + "/v1/chat/completions", json={"stream": True}).text
        assert '"reasoning_content":"The user says hello. "' in body


def test_second_request_is_answered_while_the_first_is_held_at_a_gate(up: MockUpstream) -> None:
    held = Script(
        "openai-chat",
        (Emit((ReasoningDelta("a"),)), Gate(reasoning="a", timeout=10), Emit((TextDelta("b"), End()))),
    )
    quick = Script("openai-chat", (Emit((TextDelta("q"), End())),))
    up.load(Conversation((held, quick)))
    first_read = threading.Event()
    out: dict[str, bytes] = {}

    def first() -> None:
        with httpx.stream("POST", up.base_url + "/v1/chat/completions", json={"stream": True}) as r:
            chunks = r.iter_raw()
            out["first"] = next(chunks)
            first_read.set()
            out["rest"] = b"".join(chunks)

    t = threading.Thread(target=first)
    t.start()
    assert first_read.wait(10)
    r = httpx.post(up.base_url + "/v1/chat/completions", json={"stream": True}, timeout=5)
    assert '"content":"q"' in r.text  # answered while request 1 waits at its gate
    assert not up.timeline.select("upstream", "gate-open")
    up.client.observe(ReasoningDelta("a"))
    t.join(10)
    assert b'"content":"b"' in out["rest"]
    assert len(up.timeline.select("upstream", "gate-open")) == 1


def test_plan_attributes_tags_across_chunkings() -> None:
    frames = (Frame("1", tags=frozenset({"reasoning"})), Frame("2", tags=frozenset({"text"})), DONE)
    whole = build_plan(Script("openai-chat", (EmitFrames(frames),), chunking="whole"), stream=True)
    writes = [a for a in whole.actions if type(a).__name__ == "Write"]
    assert [(w.data, sorted(w.tags), w.frame) for w in writes] == [
        (b"data: 1\n\ndata: 2\n\ndata: [DONE]\n\n", ["reasoning", "terminal", "text"], 0)
    ]
    by_frame = build_plan(Script("openai-chat", (EmitFrames(frames),)), stream=True)
    assert [(w.data, w.frame) for w in by_frame.actions if type(w).__name__ == "Write"] == [
        (b"data: 1\n\n", 0),
        (b"data: 2\n\n", 1),
        (b"data: [DONE]\n\n", 2),
    ]
    assert by_frame.body() == writes[0].data


@pytest.mark.parametrize(
    ("perturbation", "body"),
    [
        ("bom", b"\xef\xbb\xbfdata: 1\n\ndata: [DONE]\n\n"),  # once, at the start of the stream
        ("unterminated", b"data: 1\n\ndata: [DONE]\n"),  # only the stream's last frame
        ("crlf", b"data: 1\r\n\r\ndata: [DONE]\r\n\r\n"),
    ],
)
def test_perturbations_apply_to_the_whole_stream_across_gates(perturbation: str, body: bytes) -> None:
    frames = (EmitFrames((Frame("1", tags=frozenset({"reasoning"})),)), Gate(events=1), EmitFrames((DONE,)))
    plan = build_plan(Script("openai-chat", frames, perturbation=perturbation), stream=True)
    assert plan.body() == body


def test_chunker_bytes_one_write_per_byte_with_frame_tags() -> None:
    plan = build_plan(Script("openai-chat", (EmitFrames((DONE,)),), chunking="bytes"), stream=True)
    writes = [a for a in plan.actions if type(a).__name__ == "Write"]
    assert [w.data for w in writes] == [bytes([b]) for b in b"data: [DONE]\n\n"]
    assert {(tuple(sorted(w.tags)), w.frame) for w in writes} == {(("terminal",), 0)}
