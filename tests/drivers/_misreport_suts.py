"""SUTs whose faults used to be reported as something else: ``repeats_reasoning`` delivers the
previous call's reasoning again at the start of each later turn (a framework replaying its history);
``raises_before_upstream`` raises on turn ``request.body["x_raise_on"]`` before calling the upstream
(a framework's validation error), answering the other turns correctly."""

from __future__ import annotations

from collections.abc import AsyncIterator

from _ctx_suts import _stream

from harness.drivers import SUTRequest
from harness.events import Event, ReasoningDelta


async def repeats_reasoning(request: SUTRequest) -> AsyncIterator[Event]:
    previous = request.state.get("last_reasoning", "")
    if previous:
        yield ReasoningDelta(previous)
    got: list[str] = []
    async for ev in _stream(request):
        if isinstance(ev, ReasoningDelta):
            got.append(ev.text)
        yield ev
    request.state["last_reasoning"] = "".join(got)


async def raises_before_upstream(request: SUTRequest) -> AsyncIterator[Event]:
    if request.turn == int(request.body.get("x_raise_on", 0)):
        raise ValueError(f"tool arguments failed validation on turn {request.turn}")
    async for ev in _stream(request):
        yield ev
