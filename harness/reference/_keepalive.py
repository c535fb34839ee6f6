"""The reference gateway's keepalive: while nothing has been written to a client's stream for ``interval``
seconds, because its upstream is silent as a model reasoning without summaries is, it writes the front
door's keepalive, an SSE comment or Anthropic's ``ping``. The client's read timeout and the idle timeouts
of proxies between them then do not cut a live answer."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TypeVar

from harness.net import Responder

__all__ = ["DEFAULT_INTERVAL", "Heartbeat"]

T = TypeVar("T")

DEFAULT_INTERVAL = 0.5
"""Seconds of silence before a keepalive: the reference's, below the scaled read timeouts of the
catalog's timing cases (a production gateway picks one below its clients' and proxies' timeouts,
commonly 15 s)."""


class Heartbeat:
    """``Heartbeat(resp, data, interval)``; ``start()``; frames go out through ``write``; ``stop()``.
    ``data`` None (a framing with no keepalive, or the fault switch) or ``interval`` <= 0: it never
    beats.

    One heartbeat per streamed answer, started after the response head and stopped before its end. A
    keepalive is written only between whole frames: the frames' writes and the heartbeat's share ``lock``.
    """

    def __init__(self, resp: Responder, data: bytes | None, interval: float) -> None:
        self.resp, self.data, self.interval = resp, data, interval
        self.lock = asyncio.Lock()
        self.last = 0.0
        self.beats = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.last = asyncio.get_running_loop().time()
        if self.data is not None and self.interval > 0:
            self._task = asyncio.ensure_future(self._run())

    async def write(self, frames: Callable[[], Awaitable[T]]) -> T:
        """Run ``frames`` (the writes of whole frames) with no keepalive between them."""
        async with self.lock:
            try:
                return await frames()
            finally:
                self.last = asyncio.get_running_loop().time()

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        assert self.data is not None
        while True:
            wait = self.last + self.interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            async with self.lock:
                if self.resp.closed.is_set():
                    return
                try:
                    await self.resp.write(self.data)
                except ConnectionError:  # the client left: the relay notices it too
                    return
                self.beats += 1
                self.last = loop.time()
