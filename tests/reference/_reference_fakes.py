"""A tiny fake provider for the reference SUT tests: a harness.net server answering each request with
the next scripted answer (frames of a dialect, an HTTP error, or a hold until the client leaves)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from harness._json import loads
from harness.codec import encode_frames
from harness.dialects import get_dialect
from harness.events import Event
from harness.net import Request, Responder, Server

SAFETY = 10.0  # a bound on waits so a broken SUT fails the test instead of hanging it (not a verdict)


@dataclass
class Answer:
    """``events`` streamed in ``dialect``/``variant`` (or as one body when the request does not
    stream); ``status`` >= 400 answers ``error`` in the dialect's error shape; ``hold_after`` frames are
    written before the fake waits for the client to go away."""

    events: Sequence[Event] = ()
    dialect: str = "openai-chat"
    variant: str = "reasoning_content"
    status: int = 200
    error: str = ""
    hold_after: int | None = None
    split: int | None = None  # write every frame in pieces of this many bytes


@dataclass
class FakeProvider:
    answers: list[Answer]
    bodies: list[Any] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    peer_closed: threading.Event = field(default_factory=threading.Event)
    server: Server | None = None

    def __enter__(self) -> FakeProvider:
        self.server = Server(self.handle)
        self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.stop()

    @property
    def base_url(self) -> str:
        assert self.server is not None
        return self.server.base_url

    async def handle(self, req: Request, resp: Responder) -> None:
        self.paths.append(req.path)
        body = loads(req.body)
        self.bodies.append(body)
        answer = self.answers[min(len(self.bodies), len(self.answers)) - 1]
        d = get_dialect(answer.dialect)
        if answer.status >= 400:
            data = d.error_body(answer.status, answer.error)
            await resp.start(answer.status, [("content-type", "application/json")], "length", len(data))
            await resp.write(data)
            await resp.end()
            return
        stream = body.get("stream") is True or "stream" in req.path.lower()
        if not stream:
            data = d.emit_response(tuple(answer.events), answer.variant)
            await resp.start(200, [("content-type", "application/json")], "length", len(data))
            await resp.write(data)
            await resp.end()
            return
        emitter = d.emitter(answer.variant)
        frames = emitter.feed(list(answer.events)) + emitter.close()
        await resp.start(200, [("content-type", d.content_type)])
        for n, data in enumerate(encode_frames(frames, d.transport)):
            if answer.hold_after is not None and n == answer.hold_after:
                try:
                    await asyncio.wait_for(resp.closed.wait(), SAFETY)
                    self.peer_closed.set()
                except TimeoutError:
                    pass
                return
            step = answer.split or len(data)
            for i in range(0, len(data), step):
                await resp.write(data[i : i + step])
        await resp.end()
