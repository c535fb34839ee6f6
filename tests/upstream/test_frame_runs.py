"""The plain encoder's runs of frames (``FrameRun``): every reader but the server's hot path sees one
``Write`` per frame; the server sends and records a run as those writes, in order, also when the socket
pushes back in the middle of a run or the peer leaves there."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest

from harness.events import End, ReasoningDelta, TextDelta
from harness.timeline import Timeline
from harness.upstream import ClientSide, Emit, Gate, Script
from harness.upstream._plan import Action, FrameRun, Plan, WaitGate, Write, build_plan
from harness.upstream._server import execute
from harness.upstream._writes import BATCH
from tests.upstream._responders import FakeResponder


def _plan(n: int = 300, gated: bool = False) -> Plan:
    """A stream of ``n`` reasoning frames and a text frame; ``gated``: the text withheld by a gate."""
    reasoning = Emit(tuple(ReasoningDelta(f"step {i}. ") for i in range(n)))
    answer = Emit((TextDelta("after the gate"), End()))
    gate = Gate(reasoning="step 0.", timeout=1.0)
    steps = (reasoning, gate, answer) if gated else (reasoning, answer)
    return build_plan(Script("openai-chat", steps), stream=True)


def _same_ids(datas: list[bytes]) -> list[bytes]:
    """Each iteration of a lazy plan plans anew, with the emitter's next mock message id."""
    return [re.sub(rb"chatcmpl-mock\d+", b"chatcmpl-mock", d) for d in datas]


class _PushesBack(FakeResponder):
    """A responder whose socket takes ``every`` writes, then pushes back (drain); or, with
    ``leave_after``, whose peer leaves after that many writes (as ``Responder.put_all`` reports it)."""

    GONE_AT = 10**12  # after every write's time

    def __init__(self, every: int = 7, leave_after: int | None = None) -> None:
        super().__init__()
        self.every, self.leave_after = every, leave_after
        self.body: list[bytes] = []
        self.drains = 0

    def put_all(self, datas: list[bytes], times: list[int]) -> tuple[int, bool]:
        taken = 0
        for data in datas[: self.every]:
            if self.leave_after is not None and len(self.body) == self.leave_after:
                self.mark_peer_gone()
                return taken, False
            times.append(len(self.body))
            self.body.append(data)
            taken += 1
        return taken, taken < len(datas)

    async def drain(self) -> None:
        self.drains += 1

    async def end(self) -> None:
        self.body.append(b"<end>")


def test_a_lazy_plain_plan_plans_runs_and_reads_as_writes() -> None:
    plan = _plan()
    planned = list(plan.runs())
    assert not any(type(a) is Write for a in planned)
    runs = [a for a in planned if type(a) is FrameRun]
    assert len(runs) > 2
    assert all(r.datas for r in runs)
    writes = [a for a in plan if type(a) is Write]
    assert _same_ids([w.data for w in writes]) == _same_ids([d for r in runs for d in r.datas])
    assert [(w.frame, w.tags) for w in writes] == [
        (r.first + i, t) for r in runs for i, t in enumerate(r.tags)
    ]
    assert [w.frame for w in writes] == list(range(len(writes)))
    assert not any(type(a) is FrameRun for a in plan.actions)


def test_the_server_records_a_run_as_its_writes_through_push_back() -> None:
    plan, tl, resp = _plan(), Timeline(), _PushesBack(every=7)
    asyncio.run(execute(plan, resp, tl, ClientSide(), 3))  # type: ignore[arg-type]
    writes = [a for a in plan if type(a) is Write]
    assert resp.drains >= len(writes) // 7 - 1  # it did push back, inside runs
    assert _same_ids(resp.body) == [*_same_ids([w.data for w in writes]), b"<end>"]
    recorded = tl.select("upstream", "write")
    assert [(e.turn, e.info["frame"], e.info["tags"]) for e in recorded] == [
        (3, w.frame, sorted(w.tags)) for w in writes
    ]
    assert [e.data for e in recorded] == resp.body[:-1]
    assert [e.t for e in recorded] == list(range(len(writes)))


def test_a_peer_leaving_inside_a_run_records_what_went_out_then_the_disconnect() -> None:
    plan, tl, resp = _plan(), Timeline(), _PushesBack(every=1000, leave_after=40)
    asyncio.run(execute(plan, resp, tl, ClientSide(), 0))  # type: ignore[arg-type]
    kinds = [e.act for e in tl.entries()]
    assert kinds.count("write") == 40
    assert kinds[-1] == "disconnect"
    assert "response-end" not in kinds


@pytest.mark.parametrize("n", [3, 300])
def test_a_gate_withholds_the_first_frame_of_the_run_after_it(n: int) -> None:
    plan = _plan(n, gated=True)
    assert any(type(a) is FrameRun for a in plan.runs())
    actions = list(plan)
    gate = next(i for i, a in enumerate(actions) if type(a) is WaitGate)
    nxt = next(a for a in actions[gate:] if type(a) is Write)
    held = actions[gate].withheld  # type: ignore[union-attr]
    assert (held["frame"], held["data"]) == (nxt.frame, nxt.data.decode())
    assert "after the gate" in held["data"]


def test_the_server_plans_two_batches_ahead_at_most() -> None:
    """A long lazy stream's first write waits for one batch of frames, not for the plan's next 128
    actions (128 runs of frames: 8,192 frames encoded before the first byte, and held)."""
    plan = _plan(20_000)
    pulled: list[int] = []  # frames taken from the plan so far

    def counted() -> Iterator[Action]:
        for action in plan.runs():
            pulled.append(len(action.datas) if type(action) is FrameRun else 0)
            yield action

    at_first_write: list[int] = []

    class _First(_PushesBack):
        def put_all(self, datas: list[bytes], times: list[int]) -> tuple[int, bool]:
            at_first_write.append(sum(pulled)) if not at_first_write else None
            return super().put_all(datas, times)

    resp = _First(every=10**9)
    asyncio.run(execute(Plan(make=counted, stream=True), resp, Timeline(), ClientSide(), 0))  # type: ignore[arg-type]
    assert len(resp.body) == sum(1 for a in plan if type(a) is Write) + 1  # every frame, and the end
    assert at_first_write[0] <= 2 * BATCH
