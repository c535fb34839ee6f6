"""A stand-in for ``harness.net.Responder`` for tests of the mock's executor: no socket; the peer's
state, and every call a no-op, for a test's subclass to override."""

from __future__ import annotations

import asyncio

__all__ = ["FakeResponder"]


class FakeResponder:
    GONE_AT = 1
    """The monotonic time :meth:`mark_peer_gone` records."""

    def __init__(self) -> None:
        self.peer_closed_at: int | None = None
        self.closed = asyncio.Event()
        self.status = 200
        self.aborted = False

    @property
    def peer_closed(self) -> bool:
        return self.peer_closed_at is not None

    def mark_peer_gone(self) -> None:
        if self.peer_closed_at is None:
            self.peer_closed_at = self.GONE_AT
        self.closed.set()

    async def start(self, *args: object) -> None:
        pass

    def put_all(self, datas: list[bytes], times: list[int]) -> tuple[int, bool]:
        times += [0] * len(datas)
        return len(datas), False

    async def drain(self) -> None:
        pass

    async def end(self) -> None:
        pass

    def abort(self) -> None:
        self.aborted = True
