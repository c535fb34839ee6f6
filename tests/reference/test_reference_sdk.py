"""The reference SDK wrapper over httpx.MockTransport: streaming and non-streaming, passback, errors,
and the iterator's close reaching the upstream response."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from harness._errors import UnknownName
from harness._json import loads
from harness.codec import encode_frames
from harness.dialects import get_dialect
from harness.events import (
    End,
    Event,
    Message,
    ReasoningBlock,
    ReasoningDelta,
    StreamError,
    TextDelta,
    ToolCallBlock,
    Usage,
    coalesce,
)
from harness.reference.sdk import ReferenceSDKError, reference_sdk

CHAT = get_dialect("openai-chat")
TURN: list[Event] = [
    ReasoningDelta("Let me"),
    ReasoningDelta(" think."),
    TextDelta("Hi!"),
    Usage(1, 2, 3, 3),
    End(),
]


@dataclass
class Req:
    base_url: str
    dialect: str
    variant: str | None
    model: str
    messages: list[Message]
    stream: bool
    http: httpx.Client
    faults: frozenset[str] = field(default_factory=frozenset)


class Provider:
    """A MockTransport handler answering like an openai-chat provider, recording every request."""

    def __init__(self, events: list[Event], status: int = 200, split: int | None = None) -> None:
        self.events, self.status, self.split = events, status, split
        self.bodies: list[Any] = []
        self.closed = False

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = loads(request.content)
        self.bodies.append(body)
        if self.status >= 400:
            return httpx.Response(self.status, content=CHAT.error_body(self.status, "Rate limit reached"))
        if not body["stream"]:
            return httpx.Response(200, content=CHAT.emit_response(tuple(self.events), "reasoning_content"))
        em = CHAT.emitter("reasoning_content")
        data = b"".join(encode_frames(em.feed(self.events) + em.close(), "sse"))
        step = self.split or len(data)
        provider = self

        class Stream(httpx.SyncByteStream):
            def __iter__(self) -> Iterator[bytes]:
                for i in range(0, len(data), step):
                    yield data[i : i + step]

            def close(self) -> None:
                provider.closed = True

        return httpx.Response(200, stream=Stream(), headers={"content-type": "text/event-stream"})


def req(
    provider: Provider,
    *,
    stream: bool = True,
    faults: tuple[str, ...] = (),
    messages: list[Message] | None = None,
) -> Req:
    http = httpx.Client(transport=httpx.MockTransport(provider))
    return Req(
        "http://provider",
        "openai-chat",
        "reasoning_content",
        "mock-model",
        messages or [Message.user("hi")],
        stream,
        http,
        frozenset(faults),
    )


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("split", [None, 1])
def test_streams_canonical_events(stream: bool, split: int | None) -> None:
    events = list(reference_sdk(req(Provider(TURN, split=split), stream=stream)))
    assert coalesce(events) == (
        ReasoningDelta("Let me think."),
        TextDelta("Hi!"),
        Usage(1, 2, 3, 3),
        End("stop"),
    )


def test_streaming_is_incremental() -> None:
    it = reference_sdk(req(Provider(TURN)))
    first = next(it)
    assert first == ReasoningDelta("Let me")  # before the rest of the stream has been consumed


def test_closing_the_iterator_closes_the_upstream_response() -> None:
    provider = Provider(TURN, split=8)
    it = reference_sdk(req(provider))
    assert isinstance(next(it), ReasoningDelta)
    assert provider.closed is False
    it.close()  # type: ignore[attr-defined]
    assert provider.closed is True


def test_passback_and_lose_passback() -> None:
    assistant = Message(
        "assistant", (ReasoningBlock("I need the tool."), ToolCallBlock("call_1", "get_weather", "{}"))
    )
    history = [Message.user("q"), assistant, Message.tool("call_1", "18°C")]
    p = Provider(TURN)
    list(reference_sdk(req(p, messages=history)))
    assert p.bodies[0]["messages"][1]["reasoning_content"] == "I need the tool."
    q = Provider(TURN)
    list(reference_sdk(req(q, messages=history, faults=("lose-passback",))))
    assert q.bodies[0]["messages"][1]["reasoning_content"] == ""


def test_http_error_raises_and_hide_upstream_error() -> None:
    with pytest.raises(ReferenceSDKError, match="HTTP 429: Rate limit reached") as info:
        list(reference_sdk(req(Provider(TURN, status=429))))
    assert info.value.status_code == 429
    assert list(reference_sdk(req(Provider(TURN, status=429), faults=("hide-upstream-error",)))) == [
        End("stop")
    ]


def test_faults_apply() -> None:
    out = coalesce(reference_sdk(req(Provider(TURN), faults=("drop-reasoning",))))
    assert out == (TextDelta("Hi!"), Usage(1, 2, 3, 3), End("stop"))
    out = coalesce(reference_sdk(req(Provider(TURN), stream=False, faults=("nonstream-inline-think",))))
    assert out == (TextDelta("<think>Let me think.</think>Hi!"), Usage(1, 2, 3, 3), End("stop"))
    with pytest.raises(UnknownName, match="unknown fault switch 'leak-child'"):
        list(reference_sdk(req(Provider(TURN), faults=("leak-child",))))


def test_mid_stream_error_is_yielded() -> None:
    events = list(reference_sdk(req(Provider([ReasoningDelta("x"), StreamError("Overloaded")]))))
    assert [type(e) for e in coalesce(events)] == [ReasoningDelta, StreamError]
