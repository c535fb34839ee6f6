"""Python SUTs whose SDK raises: ``genai_stream`` is the real google-genai client streaming from the
mock (its ``ClientError`` carries ``code`` 429 and ``status`` "RESOURCE_EXHAUSTED"); the others call
the upstream, then raise a real SDK exception of one shape after its answer (a SUT's own failure)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness.drivers import SUTRequest
from harness.events import End, Event, ReasoningDelta, TextDelta


def genai_stream(request: SUTRequest) -> Iterator[Event]:
    from google import genai

    client = genai.Client(
        api_key="test-key",
        http_options=genai.types.HttpOptions(base_url=request.base_url, httpx_client=request.http),
    )
    stream = client.models.generate_content_stream(model=request.model, contents=request.messages[-1].text)
    for chunk in stream:
        for part in chunk.candidates[0].content.parts if chunk.candidates else ():
            if part.text:
                yield ReasoningDelta(part.text) if part.thought else TextDelta(part.text)
    yield End("stop")


def _served(request: SUTRequest) -> None:
    body = {"model": request.model, "messages": [{"role": "user", "content": "Hi"}], "stream": False}
    request.http.post(request.base_url + "/v1/chat/completions", json=body).raise_for_status()


def _genai() -> Exception:
    from google.genai import errors

    return errors.ServerError(
        503, {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    )


def _word_status() -> Exception:
    """google-genai's shape without its code: only the word status."""
    from google.genai import errors

    exc = errors.APIError(0, {"error": {"message": "Quota exceeded.", "status": "RESOURCE_EXHAUSTED"}})
    return exc


def _openai() -> Exception:
    import httpx2
    import openai

    req = httpx2.Request("POST", "http://upstream/v1/chat/completions")
    body: dict[str, Any] = {"message": "Rate limit reached.", "code": "rate_limit_exceeded"}
    return openai.RateLimitError("Rate limit reached.", response=httpx2.Response(429, request=req), body=body)


def _raise_after(request: SUTRequest, exc: Exception) -> Iterator[Event]:
    _served(request)
    yield ReasoningDelta("thinking")
    raise exc


def raises_genai(request: SUTRequest) -> Iterator[Event]:
    yield from _raise_after(request, _genai())


def raises_word(request: SUTRequest) -> Iterator[Event]:
    yield from _raise_after(request, _word_status())


def raises_openai(request: SUTRequest) -> Iterator[Event]:
    yield from _raise_after(request, _openai())
