"""MockUpstream: the scriptable provider on 127.0.0.1, every dialect on one base URL. It executes plans write
by write and records everything; deciding the answer is ``_dispatch``'s and ``_plan``'s."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import traceback
from collections.abc import Awaitable, Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, cast

from harness.net import Request, Responder, Server
from harness.timeline import Timeline
from harness.upstream._dispatch import ConversationState, RecordedRequest, dispatch, stray
from harness.upstream._gates import ClientSide, describe_gate, seen_summary, timeout_note
from harness.upstream._plan import (
    Abort,
    Action,
    Fault,
    Finish,
    FrameRun,
    Head,
    Plan,
    Sleep,
    StallFor,
    WaitGate,
    Write,
)
from harness.upstream._routing import Routes
from harness.upstream._script import Conversation, Script
from harness.upstream._shared import CONTROL, SharedCatalog, json_body

__all__ = ["MockUpstream", "RecordedRequest", "execute"]


class MockUpstream:
    """``MockUpstream(host="127.0.0.1", port=0)``; ``start()``/``stop()`` or ``with``; ``load(...)``
    per case; ``base_url``; ``requests``; ``timeline``; ``client``.

    Start it once per session and ``load`` it per case, which is the reset. Request N of the conversation
    gets ``scripts[N]``, whatever the model name; each is validated by the script's provider rules, planned
    by ``_plan`` and executed here.

    For many conversations at once, call ``route(token, conversation, ...)`` per case in flight and
    ``unroute`` after. Each request goes to the conversation its routing token names, with that
    conversation's timeline, gates and records; a request naming none is a stray, the SUT's, answered 500.
    ``share`` serves a whole catalog instead, any case per request, with its control plane in ``_shared``.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._server = Server(self._handle, host, port)
        self._lock = threading.Lock()
        self._state = _state(Conversation(()), None, None, None)
        self.routes = Routes()
        self._strays = _state(Conversation((), name="(strays)"), None, None, None)
        self.shared: SharedCatalog | None = None
        self.told: str | None = None
        """The URL SUTs are told to reach it at (``--upstream-url``); None: where it listens."""

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
        """The URL a SUT reaches it at: ``told`` when set, else where it listens."""
        return self.told or self._server.base_url

    @property
    def port(self) -> int:
        return self._server.port

    def load(
        self,
        conversation: Conversation | Script,
        timeline: Timeline | None = None,
        client: ClientSide | None = None,
        *,
        keep: int | None = None,
    ) -> MockUpstream:
        """Reset: serve ``conversation`` from its first script on, recording into ``timeline``.

        Given a ``timeline`` (a case's), everything is recorded and every request remembered. Without
        one the upstream records into its own ring of the last ``keep`` x 100 entries and remembers the
        last ``keep`` requests (default ``KEEP``), so a reused or long-serving upstream stays flat."""
        if isinstance(conversation, Script):
            conversation = Conversation((conversation,))
        with self._lock:
            self._state = _state(conversation, timeline, client, keep)
        return self

    def route(
        self,
        token: str,
        conversation: Conversation | Script,
        timeline: Timeline | None = None,
        client: ClientSide | None = None,
    ) -> ConversationState:
        """Serve ``conversation`` to the requests that carry ``token`` (alongside any others in
        flight), recording into ``timeline``; :meth:`unroute` when the case is over. While routes
        exist, :meth:`load`'s conversation gets no request."""
        if isinstance(conversation, Script):
            conversation = Conversation((conversation,))
        state = _state(conversation, timeline, client, None)
        self.routes.add(token, state)
        return state

    def unroute(self, token: str) -> None:
        self.routes.remove(token)

    def share(self, catalog: SharedCatalog) -> MockUpstream:
        """Answer any case of ``catalog``, per request (its token or ``x-thinkwire-case`` header),
        and its control plane under ``/_thinkwire/``; a request naming no case is a stray."""
        self.shared = catalog
        self.routes.resolve = catalog.resolve
        self.routes.strict = True
        return self

    @property
    def strict_routing(self) -> bool:
        """True while several cases may be in flight: a request without a token is a stray."""
        return self.routes.strict

    @strict_routing.setter
    def strict_routing(self, value: bool) -> None:
        self.routes.strict = value

    @property
    def strays(self) -> list[RecordedRequest]:
        """Requests that named no conversation in flight (the last ``KEEP``)."""
        return self._strays.requests.snapshot()

    @property
    def timeline(self) -> Timeline:
        return self._state.timeline

    @property
    def client(self) -> ClientSide:
        return self._state.client

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            state = self._state
        return state.requests.snapshot()

    # -- one request -----------------------------------------------------------------------------
    def _current(self) -> ConversationState:
        with self._lock:
            return self._state

    @property
    def _routing(self) -> bool:
        return bool(len(self.routes)) or self.routes.resolve is not None

    def _ws_state(self, req: Request, message: str) -> tuple[ConversationState, tuple[tuple[str, str], ...]]:
        """The conversation of one WebSocket message (routed like a request: the upgrade's headers,
        the message's text; else the response its ``previous_response_id`` names); one that names no
        conversation in flight goes to the strays' (the SUT's: answered as an unexpected request)."""
        if not self._routing:
            return self._current(), ()
        routed = self.routes.pick(req.headers, message.encode())
        if routed.state is None:  # a chained turn: its new input items need not carry the token
            from harness.upstream._websocket import previous_response_id

            previous = previous_response_id(message)
            state = None if previous is None else self.routes.by_response(previous)
            return (self._strays, ()) if state is None else (state, ())
        return routed.state, routed.foreign

    async def _handle(self, req: Request, resp: Responder) -> None:
        foreign: tuple[tuple[str, str], ...] = ()
        if self.shared is not None and req.path.startswith(CONTROL):
            status, value = self.shared.control(req)
            body = json_body(value)
            await resp.start(status, [("content-type", "application/json")], "length", len(body))
            await resp.write(body)
            await resp.end()
            return
        if resp.upgrade is not None:  # a WebSocket (the Responses API's socket mode): each message
            from harness.upstream._websocket import serve_websocket  # (wsproto: loaded when one comes)

            await serve_websocket(lambda message: self._ws_state(req, message), req, resp, execute)
            return  # is routed on its own
        if self._routing:
            routed = self.routes.pick(req.headers, req.body)
            if routed.state is None:
                plan = stray(self._strays, **_seen(req), token=routed.token)
                await execute(plan, resp, self._strays.timeline, self._strays.client, 0)
                return
            state, foreign = routed.state, routed.foreign
        else:
            state = self._current()
        turn, plan = dispatch(state, **_seen(req), foreign=foreign)
        await execute(plan, resp, state.timeline, state.client, turn)


def _seen(req: Request) -> dict[str, Any]:
    """What ``dispatch`` and ``stray`` record of a request."""
    return {
        "method": req.method,
        "target": req.target,
        "headers": req.headers,
        "body": req.body,
        "t": req.arrived,
        "conn": req.conn,
    }


KEEP = 1000
"""Requests a MockUpstream without a case timeline remembers (and x 100 timeline entries)."""


def _state(
    conversation: Conversation, timeline: Timeline | None, client: ClientSide | None, keep: int | None
) -> ConversationState:
    if timeline is not None:
        return ConversationState(conversation, timeline, client or ClientSide(), keep=keep)
    keep = KEEP if keep is None else keep
    return ConversationState(conversation, Timeline(limit=keep * 100), client or ClientSide(), keep=keep)


async def execute(plan: Plan, resp: Responder, tl: Timeline, client: ClientSide, turn: int) -> None:
    """Run a plan on a live connection, recording every write, gate, fault, disconnect and the end."""
    run = _Run(resp, tl, client, turn)
    try:
        await run.all(plan.runs())
    except asyncio.CancelledError:
        resp.abort()
        raise
    except ConnectionError:  # the peer left mid-action (e.g. while the response was ending): SUT
        run.lost()  # behaviour, recorded as a disconnect; never a mock-internal error
        resp.abort()
    except Exception as exc:
        if not run.gone():
            tl.add("upstream", "server-error", turn=turn, error=_tb(exc), cause="harness")
        resp.abort()


_AHEAD = 128
"""Actions taken from the plan at a time: at most this many, and no more than two runs of frames
(:class:`FrameRun`, a lazy batch each). About two batches of frames either way: one to send and one
planned while the kernel sends it; a lazy plan holds no more of a stream than that."""


def _take(actions: Iterator[Action]) -> list[Action]:
    """The plan's next actions, as :data:`_AHEAD` says."""
    out: list[Action] = []
    runs = 0
    for action in actions:
        out.append(action)
        if type(action) is FrameRun:
            runs += 1
            if runs == 2:
                break
        if len(out) == _AHEAD:
            break
    return out


class _Run:
    """One plan on one connection. A write (most actions) is recorded and sent inline by :meth:`all`,
    awaiting only when the socket pushes back; every other action type has a step (``_STEPS``, looked
    up by type: no isinstance chain) that performs it, records it, and says whether the response goes
    on."""

    def __init__(self, resp: Responder, tl: Timeline, client: ClientSide, turn: int) -> None:
        self.resp = resp
        self.tl = tl
        self.client = client
        self.turn = turn
        self.loop = asyncio.get_running_loop()
        self.t0 = self.loop.time()
        self.timed_out = False
        """A gate of this answer timed out (see :data:`harness.upstream._gates.DECIDED`)."""

    async def all(self, actions: Iterator[Action]) -> None:
        """Take the plan's actions a few at a time (:func:`_take`). Writes are sent and recorded inline,
        a run at a time (a :class:`FrameRun`, or consecutive :class:`Write` actions): one socket write
        each, timed (``Responder.put_all``), awaiting only when the socket pushes back. Then the next
        run is planned (a lazy plan encodes it) before awaiting the drain, while the kernel sends."""
        steps, resp, tl, turn = _STEPS, self.resp, self.tl, self.turn
        run = _take(actions)
        while run:
            ahead: list[Action] | None = None
            i, end = 0, len(run)
            while i < end:
                action = run[i]
                step_type = type(action)
                datas: Sequence[bytes]
                tags: Sequence[frozenset[str]]
                frames: Sequence[int | None]
                if step_type is FrameRun:
                    datas, tags, first = cast(FrameRun, action)
                    frames = range(first, first + len(datas))
                    i += 1
                elif step_type is Write:
                    j = i + 1
                    while j < end and type(run[j]) is Write:
                        j += 1
                    writes = cast(list[Write], run[i:j])
                    datas, tags, frames = (
                        [w.data for w in writes],
                        [w.tags for w in writes],
                        [w.frame for w in writes],
                    )
                    i = j
                else:
                    if resp.peer_closed_at is not None:
                        self.gone()
                        return
                    if not await steps[step_type](self, action):
                        return
                    i += 1
                    continue
                while datas:
                    times: list[int] = []
                    tl.writing += 1  # sent but not yet recorded: a reader waits (Timeline.quiesce)
                    try:
                        sent, push = resp.put_all(datas, times)
                    except ConnectionError:
                        tl.add_writes("upstream", turn, times, datas, tags, frames)
                        tl.writing -= 1
                        self.lost()
                        return
                    tl.add_writes("upstream", turn, times, datas, tags, frames)
                    tl.writing -= 1
                    if not push:
                        if sent < len(datas):  # the peer left before the next write
                            self.gone()
                            return
                        break
                    if ahead is None:
                        ahead = _take(actions)
                    try:
                        await resp.drain()
                    except ConnectionError:
                        self.lost()
                        return
                    datas, tags, frames = datas[sent:], tags[sent:], frames[sent:]
            run = ahead if ahead is not None else _take(actions)

    def gone(self) -> bool:
        """Has the peer left? Then record the disconnect (at the time it was noticed)."""
        if self.resp.peer_closed:
            self.tl.add("upstream", "disconnect", turn=self.turn, t=self.resp.peer_closed_at)
            return True
        return False

    async def until_closed(self, aw: Awaitable[Any]) -> Any:
        """Await ``aw`` unless the connection closes first (then None)."""
        task = asyncio.ensure_future(aw)
        closed = asyncio.ensure_future(self.resp.closed.wait())
        try:
            await asyncio.wait({task, closed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closed.cancel()
            if not task.done():  # also when cancelled from outside (a server stop): none left pending
                task.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return None
        return task.result()

    # -- steps: True to go on ---------------------------------------------------------------------
    async def head(self, action: Head) -> bool:
        await self.resp.start(action.status, action.headers, action.framing, action.length)
        return True

    def lost(self) -> None:
        """A write failed: the peer is gone, whether or not its EOF was read yet."""
        self.resp.mark_peer_gone()
        self.gone()

    async def wait_gate(self, action: WaitGate) -> bool:
        gate, turn = action.gate, self.turn
        cond = describe_gate(gate)
        self.tl.add("upstream", "gate-wait", turn=turn, condition=cond, withheld=dict(action.withheld))
        if self.timed_out:
            ok: bool | None = self.client.satisfied(gate)
        else:
            ok = await self.until_closed(self.client.wait(gate, self.loop))
        if ok is None:
            self.gone()
            return False
        seen = seen_summary(self.client.seen())
        if ok:
            self.tl.add("upstream", "gate-open", turn=turn, condition=cond, seen=seen)
        else:
            waited = 0.0 if self.timed_out else gate.timeout
            self.timed_out = True
            self.tl.add(
                "upstream",
                "gate-timeout",
                turn=turn,
                condition=cond,
                timeout=waited,
                withheld=dict(action.withheld),
                seen=seen,
                **timeout_note(waited),
            )
        return True

    async def sleep(self, action: Sleep) -> bool:
        delay = self.t0 + action.at - self.loop.time()
        if delay > 0 and await self.until_closed(asyncio.sleep(delay, True)) is None:
            self.gone()
            return False
        return True

    async def fault(self, action: Fault) -> bool:
        self.tl.add("upstream", "fault", turn=self.turn, fault=action.fault)
        return True

    async def abort(self, action: Abort) -> bool:
        self.tl.add("upstream", "fault", turn=self.turn, fault=action.fault + " (abort)")
        self.resp.abort()
        return False

    async def stall(self, action: StallFor) -> bool:
        if await self.until_closed(asyncio.sleep(action.timeout, True)) is None:
            self.gone()
        else:
            self.tl.add("upstream", "fault", turn=self.turn, fault="stall-timeout (abort)")
            self.resp.abort()
        return False

    async def finish(self, action: Finish) -> bool:
        # recorded first: a client that saw the end can rely on the record being there
        self.tl.add("upstream", "response-end", turn=self.turn, status=self.resp.status)
        await self.resp.end()
        return True


_STEPS: dict[type[Action], Callable[[_Run, Any], Awaitable[bool]]] = {
    Head: _Run.head,
    WaitGate: _Run.wait_gate,
    Sleep: _Run.sleep,
    Fault: _Run.fault,
    Abort: _Run.abort,
    StallFor: _Run.stall,
    Finish: _Run.finish,
}


def _tb(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))
