"""A recorded replay answers the request it gets: OpenAI's recorded tool stream was asked for usage
(``stream_options.include_usage``) and carries a ``choices: []`` usage chunk; replayed to a request
that does not ask, that chunk is gone and every other byte stays, chunk boundaries included."""

from __future__ import annotations

import httpx

from harness.recording import conversation_from_cassette, read_cassette
from harness.upstream import MockUpstream, Raw
from harness.upstream._forms import answered_chunks
from tests.fidelity._need import corpus_or_skip

CASSETTE = corpus_or_skip().path("openai-chat-tools-stream")  # (skips the module without a corpus)
USAGE_CHUNK = b'"choices":[],"usage":{'


def test_the_usage_chunk_comes_back_only_when_asked(up: MockUpstream) -> None:
    conversation = conversation_from_cassette(read_cassette(CASSETTE))
    script = conversation[0]
    raw = b"".join(c for st in script.steps if isinstance(st, Raw) for c in st.chunks)
    assert USAGE_CHUNK in raw.replace(b" ", b"")  # the recording asked for it
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "stream": True}
    up.load(script)
    asked = httpx.post(
        up.base_url + "/v1/chat/completions", json={**body, "stream_options": {"include_usage": True}}
    ).content
    assert asked == raw
    up.load(script)
    plain = httpx.post(up.base_url + "/v1/chat/completions", json=body).content
    assert USAGE_CHUNK not in plain.replace(b" ", b"")
    assert len(plain) < len(raw)
    assert plain.endswith(b"data: [DONE]\n\n")
    assert raw.startswith(plain[: raw.index(b'"choices":[]') - 200])


def test_dropping_an_event_keeps_the_other_chunk_boundaries() -> None:
    ev = b'data: {"choices":[{"delta":{"content":"a"}}]}\n\n'
    usage = b'data: {"choices":[],"usage":{"prompt_tokens":1}}\n\n'
    done = b"data: [DONE]\n\n"
    chunks = (ev[:10], ev[10:] + usage[:7], usage[7:] + done[:4], done[4:])
    got = answered_chunks(chunks, "openai-chat", {}, stream=True)
    assert got == (ev[:10], ev[10:], done[:4], done[4:])
    assert (
        answered_chunks(chunks, "openai-chat", {"stream_options": {"include_usage": True}}, stream=True)
        == chunks
    )
    assert answered_chunks(chunks, "anthropic-messages", {}, stream=True) == chunks
