"""Each dialect owns its routing data (paths, transport, content type, how a request asks for a stream);
the mock upstream's routing table and streaming decision are read from it, never kept a second time."""

from __future__ import annotations

from typing import Any

import pytest

from harness.dialects import Transport, dialect_names, get_dialect
from harness.upstream import Script, wants_stream
from harness.upstream._plan import routes

CONTENT_TYPES = {
    Transport.SSE: "text/event-stream",
    Transport.JSONL: "application/x-ndjson",
    Transport.EVENTSTREAM: "application/vnd.amazon.eventstream",
}


@pytest.mark.parametrize("name", dialect_names())
def test_every_dialect_declares_its_routing(name: str) -> None:
    d = get_dialect(name)
    assert d.name == name
    assert isinstance(d.transport, Transport)
    assert d.content_type.split(";")[0] == CONTENT_TYPES[d.transport]  # the charset as the provider sends it
    assert all(isinstance(s, str) and s for s in d.path_suffixes)
    assert callable(d.wants_stream)


def test_routes_are_the_dialects_path_suffixes_longest_first() -> None:
    table = routes()
    routed = [n for n in dialect_names() if get_dialect(n).routed]
    assert routed == [n for n in dialect_names() if n != "openai-responses-ws"]  # its paths: Responses'
    assert sorted(table) == sorted((s, n) for n in routed for s in get_dialect(n).path_suffixes)
    assert [len(s) for s, _ in table] == sorted((len(s) for s, _ in table), reverse=True)
    assert len({s for s, _ in table}) == len(table)  # no suffix claimed by two dialects
    # no suffix hides a longer one: the longer one is tried first
    for i, (suffix, _) in enumerate(table):
        assert not any(longer.endswith(suffix) for longer, _ in table[i + 1 :])
    assert "pi-json" not in {n for _, n in table}  # not served over HTTP


@pytest.mark.parametrize(
    ("dialect", "path", "body", "expected"),
    [
        ("openai-chat", "/v1/chat/completions", {"stream": True}, True),
        ("openai-chat", "/v1/chat/completions", {"stream": "yes"}, False),
        ("openai-chat", "/v1/chat/completions", {}, False),
        ("openai-responses", "/v1/responses", {"stream": True}, True),
        ("openai-responses", "/v1/responses", {"stream": False}, False),
        ("anthropic-messages", "/v1/messages", {"stream": True}, True),
        ("anthropic-messages", "/v1/messages", {}, False),
        ("ollama", "/api/chat", {}, True),
        ("ollama", "/api/chat", {"stream": None}, True),
        ("ollama", "/api/chat", {"stream": False}, False),
        ("gemini", "/v1beta/models/m:streamGenerateContent", {}, True),
        ("gemini", "/v1beta/models/m:generateContent", {"stream": True}, False),
        ("bedrock-converse", "/model/m/converse-stream", {}, True),
        ("bedrock-converse", "/model/m/invoke-with-response-stream", {}, True),
        ("bedrock-converse", "/model/m/converse", {"stream": True}, False),
        ("bedrock-converse", "/model/m/invoke", {}, False),
        ("pi-json", "", {"stream": False}, True),
    ],
)
def test_how_a_request_asks_for_a_stream(
    dialect: str, path: str, body: dict[str, Any], expected: bool
) -> None:
    assert get_dialect(dialect).wants_stream(path, body) is expected
    assert wants_stream(Script(dialect, ()), path, body) is expected  # the upstream asks the dialect
    assert wants_stream(Script(dialect, (), stream=not expected), path, body) is (not expected)  # overrides


def test_the_upstream_asks_the_dialect(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dialect that changes how it reads a request changes the upstream's decision: nothing is
    hard-coded on the upstream's side."""
    chat = get_dialect("openai-chat")
    monkeypatch.setattr(chat, "wants_stream", lambda path, body: path.endswith("/stream"))
    assert wants_stream(Script("openai-chat", ()), "/v1/chat/completions/stream", {}) is True
    assert wants_stream(Script("openai-chat", ()), "/v1/chat/completions", {"stream": True}) is False
