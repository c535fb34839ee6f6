"""MockUpstream: the scriptable provider on 127.0.0.1, every dialect on one base URL.

Rule: start once per session, ``load(conversation, timeline=, client=)`` per case (the reset). Request
N of the conversation gets ``scripts[N]``, whatever the model name; each is validated by the script's
provider profile, planned by ``_plan`` and executed here write by write, with everything recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import traceback
from types import TracebackType
from typing import Any

from harness.net import Request, Responder, Server
from harness.timeline import Timeline
from harness.upstream._dispatch import ConversationState, RecordedRequest, dispatch
from harness.upstream._gates import ClientSide, describe_gate, seen_summary
from harness.upstream._plan import Abort, Fault, Finish, Head, Plan, Sleep, StallFor, WaitGate, Write
from harness.upstream._script import Conversation, Script

__all__ = ["MockUpstream", "RecordedRequest", "execute"]


class MockUpstream:
    """``MockUpstream(host="127.0.0.1", port=0)``; ``start()``/``stop()`` or ``with``; ``load(...)``
    per case; ``base_url``; ``requests``; ``timeline``; ``client``."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._server = Server(self._handle, host, port)
        self._lock = threading.Lock()
        self._state = ConversationState(Conversation(()))

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> str:
        return self._server.start()

    def stop(self) -> None:
        self._server.stop()

    def __enter__(self) -> MockUpstream:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return self._server.base_url

    @property
    def port(self) -> int:
        return self._server.port

    def load(
        self,
        conversation: Conversation | Script,
        timeline: Timeline | None = None,
        client: ClientSide | None = None,
    ) -> MockUpstream:
        """Reset: serve ``conversation`` from its first script on, recording into ``timeline``."""
        if isinstance(conversation, Script):
            conversation = Conversation((conversation,))
        with self._lock:
            self._state = ConversationState(
                conversation, timeline if timeline is not None else Timeline(), client or ClientSide()
            )
        return self

    @property
    def timeline(self) -> Timeline:
        return self._state.timeline

    @property
    def client(self) -> ClientSide:
        return self._state.client

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._state.requests)

    # -- one request -----------------------------------------------------------------------------
    async def _handle(self, req: Request, resp: Responder) -> None:
        with self._lock:
            state = self._state
        turn, plan = dispatch(
            state,
            method=req.method,
            target=req.target,
            headers=req.headers,
            body=req.body,
            t=req.arrived,
            conn=req.conn,
        )
        await execute(plan, resp, state.timeline, state.client, turn)


async def execute(plan: Plan, resp: Responder, tl: Timeline, client: ClientSide, turn: int) -> None:
    """Run a plan on a live connection, recording every write, gate, fault, disconnect and the end."""
    loop = asyncio.get_running_loop()
    t0 = loop.time()

    def gone() -> bool:
        if resp.peer_closed:
            tl.add("upstream", "disconnect", turn=turn, t=resp.peer_closed_at)
            return True
        return False

    async def until_closed(aw: Any) -> Any:
        """Await ``aw`` unless the peer leaves first (then None)."""
        task = asyncio.ensure_future(aw)
        closed = asyncio.ensure_future(resp.closed.wait())
        try:
            await asyncio.wait({task, closed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closed.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return None
        return task.result()

    try:
        for action in plan.actions:
            if gone():
                return
            if isinstance(action, Head):
                await resp.start(action.status, action.headers, action.framing, action.length)  # type: ignore[arg-type]
            elif isinstance(action, Write):
                tl.add(
                    "upstream",
                    "write",
                    data=action.data,
                    turn=turn,
                    tags=sorted(action.tags),
                    frame=action.frame,
                )
                try:
                    await resp.write(action.data)
                except ConnectionError:
                    resp._peer_gone()
                    gone()
                    return
            elif isinstance(action, WaitGate):
                gate = action.gate
                cond = describe_gate(gate)
                tl.add(
                    "upstream", "gate-wait", turn=turn, condition=cond, withheld=dict(action.withheld)
                )
                ok = await until_closed(client.wait(gate, loop))
                if ok is None:
                    gone()
                    return
                seen = seen_summary(client.seen())
                if ok:
                    tl.add("upstream", "gate-open", turn=turn, condition=cond, seen=seen)
                else:
                    tl.add(
                        "upstream",
                        "gate-timeout",
                        turn=turn,
                        condition=cond,
                        timeout=gate.timeout,
                        withheld=dict(action.withheld),
                        seen=seen,
                    )
            elif isinstance(action, Sleep):
                delay = t0 + action.at - loop.time()
                if delay > 0 and await until_closed(asyncio.sleep(delay, True)) is None:
                    gone()
                    return
            elif isinstance(action, Fault):
                tl.add("upstream", "fault", turn=turn, fault=action.fault)
            elif isinstance(action, Abort):
                tl.add("upstream", "fault", turn=turn, fault=action.fault + " (abort)")
                resp.abort()
                return
            elif isinstance(action, StallFor):
                if await until_closed(asyncio.sleep(action.timeout, True)) is None:
                    gone()
                else:
                    tl.add("upstream", "fault", turn=turn, fault="stall-timeout (abort)")
                    resp.abort()
                return
            elif isinstance(action, Finish):
                # recorded first: a client that saw the end can rely on the record being there
                tl.add("upstream", "response-end", turn=turn, status=resp.status)
                await resp.end()
    except asyncio.CancelledError:
        resp.abort()
        raise
    except Exception as exc:
        if resp.peer_closed:
            gone()
        else:
            tl.add("upstream", "server-error", turn=turn, error=_tb(exc))
        resp.abort()


def _tb(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))
