"""A SUT that closes its upstream connection at any moment is SUT behaviour: the mock records a
disconnect and never a mock-internal error (which would make the case ERROR)."""

from __future__ import annotations

import asyncio

import pytest

from harness.timeline import Timeline
from harness.upstream import ClientSide
from harness.upstream._plan import Finish, Head, Plan, Write
from harness.upstream._server import execute
from tests.upstream._responders import FakeResponder


class _GoneAt(FakeResponder):
    """A responder whose peer leaves at one step: ``start``, ``put`` (``put_all``) or ``end`` raises
    as a real socket does once the SUT closed it."""

    def __init__(self, step: str) -> None:
        super().__init__()
        self.step = step

    async def start(self, *args: object) -> None:
        if self.step == "start":
            raise ConnectionResetError("peer closed")

    def put(self, data: bytes) -> bool:
        if self.step == "put":
            raise ConnectionResetError("peer closed")
        return False

    def put_all(self, datas: list[bytes], times: list[int]) -> tuple[int, bool]:
        for data in datas:
            times.append(0)
            self.put(data)
        return len(datas), False

    async def end(self) -> None:
        if self.step == "end":
            raise BrokenPipeError("peer closed while the response ended")


@pytest.mark.parametrize("step", ["start", "put", "end"])
def test_peer_leaving_at_any_step_is_a_disconnect_not_a_server_error(step: str) -> None:
    plan = Plan((Head(200, (), "chunked", None), Write(b"data: x\n\n"), Finish()), True, ())
    tl = Timeline()
    resp = _GoneAt(step)
    asyncio.run(execute(plan, resp, tl, ClientSide(), 0))  # type: ignore[arg-type]
    kinds = [e.act for e in tl.entries()]
    assert "server-error" not in kinds
    assert "disconnect" in kinds
