"""The pytest-httpserver adapter: a script mounted on the user's ``httpserver`` fixture."""

from __future__ import annotations

import httpx
import pytest

from harness.events import End, ReasoningDelta, TextDelta
from harness.upstream import Emit, HttpError, Script, respond_with_script


def test_script_streams_through_httpserver(httpserver) -> None:  # type: ignore[no-untyped-def]
    handler = respond_with_script(
        Script(
            "openai-chat",
            (Emit((ReasoningDelta("Let me think."), TextDelta("Hi!"), End())),),
            variant="reasoning_content",
        )
    )
    httpserver.expect_request("/v1/chat/completions").respond_with_handler(handler)
    with httpx.stream("POST", httpserver.url_for("/v1/chat/completions"), json={"stream": True}) as r:
        body = r.read()
        assert r.headers["content-type"].startswith("text/event-stream")
    assert b'"reasoning_content":"Let me think."' in body
    assert body.endswith(b"data: [DONE]\n\n")
    writes = [w.data for w in handler.timeline.select("upstream", "write")]  # type: ignore[attr-defined]
    assert writes == [p + b"\n\n" for p in body.split(b"\n\n")[:-1]]  # one recorded write per frame
    assert handler.requests[0].json == {"stream": True}  # type: ignore[attr-defined]


def test_http_error_through_httpserver(httpserver) -> None:  # type: ignore[no-untyped-def]
    body = b'{"error":{"message":"nope"}}'
    httpserver.expect_request("/v1/chat/completions").respond_with_handler(
        respond_with_script(Script("openai-chat", (HttpError(400, body),)))
    )
    r = httpx.post(httpserver.url_for("/v1/chat/completions"), json={})
    assert (r.status_code, r.content) == (400, body)


@pytest.mark.parametrize("path", ["/anthropic/v1/messages"])
def test_dialect_mismatch_through_httpserver(httpserver, path: str) -> None:  # type: ignore[no-untyped-def]
    handler = respond_with_script(Script("openai-chat", (HttpError(400, b"{}"),)))
    httpserver.expect_request(path).respond_with_handler(handler)
    r = httpx.post(httpserver.url_for(path), json={})
    assert r.status_code == 404
    assert "addresses anthropic-messages" in r.text
