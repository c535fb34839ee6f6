"""In-process mode: the same scripts served to httpx-based SDKs through respx, with no socket at all. It
executes the same plans as the loopback server and records the same entries."""

from __future__ import annotations

import asyncio
import functools
import importlib
import time
from collections.abc import AsyncIterator, Iterator
from types import ModuleType
from typing import Any

import httpx
import respx

from harness.timeline import Timeline, now
from harness.upstream._dispatch import ConversationState, RecordedRequest, dispatch
from harness.upstream._gates import ClientSide, describe_gate, seen_summary
from harness.upstream._plan import Abort, Fault, Finish, Head, Plan, Sleep, StallFor, WaitGate, Write
from harness.upstream._script import Conversation, Script

__all__ = ["RespxUpstream", "mount_respx"]


class _PlanBody:
    """The body of one response: runs the plan's actions after the head, recording as it yields.
    Mixed into each httpx-like module's byte-stream classes (httpx, and httpx2 used by openai>=3)."""

    errors: Any = httpx

    def __init__(self, plan: Plan, start: int, state: ConversationState, turn: int) -> None:
        self.actions = plan.actions[start:]
        self.state = state
        self.turn = turn
        self.finished = False
        self.t0 = time.monotonic()

    def _steps(self) -> Iterator[bytes | float]:
        """Bytes to yield, or a float: seconds to sleep first."""
        tl, client, turn = self.state.timeline, self.state.client, self.turn
        for action in self.actions:
            if isinstance(action, Write):
                tl.add_write("upstream", action.data, turn=turn, tags=action.tags, frame=action.frame)
                yield action.data
            elif isinstance(action, WaitGate):
                cond = describe_gate(action.gate)
                tl.add(
                    "upstream", "gate-wait", turn=turn, condition=cond, withheld=dict(action.withheld)
                )
                seen = seen_summary(client.seen())
                if client.satisfied(action.gate):
                    tl.add("upstream", "gate-open", turn=turn, condition=cond, seen=seen)
                else:
                    tl.add(
                        "upstream",
                        "gate-timeout",
                        turn=turn,
                        condition=cond,
                        timeout=0.0,
                        withheld=dict(action.withheld),
                        seen=seen,
                        mode="respx",
                    )
            elif isinstance(action, Sleep):
                delay = self.t0 + action.at - time.monotonic()
                if delay > 0:
                    yield delay
            elif isinstance(action, Fault):
                tl.add("upstream", "fault", turn=turn, fault=action.fault)
            elif isinstance(action, Abort):
                tl.add("upstream", "fault", turn=turn, fault=action.fault + " (abort)")
                self.finished = True
                raise self.errors.RemoteProtocolError(
                    f"thinkwire: upstream closed the connection ({action.fault})"
                )
            elif isinstance(action, StallFor):
                tl.add("upstream", "fault", turn=turn, fault="stall (respx: read timeout at once)")
                self.finished = True
                raise self.errors.ReadTimeout("thinkwire: upstream stalled (respx mode)")
            elif isinstance(action, Finish):
                self.finished = True
                tl.add("upstream", "response-end", turn=turn, status=200)

    def __iter__(self) -> Iterator[bytes]:  # sync clients
        for item in self._steps():
            if isinstance(item, float):
                time.sleep(item)
            else:
                yield item

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for item in self._steps():
            if isinstance(item, float):
                await asyncio.sleep(item)
            else:
                yield item

    def _closed(self) -> None:
        if not self.finished:
            self.finished = True
            self.state.timeline.add("upstream", "disconnect", turn=self.turn)

    def close(self) -> None:
        self._closed()

    async def aclose(self) -> None:
        self._closed()


@functools.cache
def _stream_class(mod: ModuleType) -> type[_PlanBody]:
    return type(
        f"PlanStream_{mod.__name__}",
        (_PlanBody, mod.SyncByteStream, mod.AsyncByteStream),
        {"errors": mod},
    )


class RespxUpstream:
    """A conversation mounted on a respx router: ``load()`` resets, ``requests``/``timeline``/``client``
    as on :class:`~harness.upstream.MockUpstream`.

    Each request gets a fresh ``httpx.Response`` from ``side_effect``; a shared generator-backed response
    works once, then raises ``httpx.StreamConsumed``. The body streams the plan's writes to sync and async
    clients alike. Gates cannot block, since the SDK pulls the stream on the caller's thread: an
    unsatisfied gate is recorded as ``gate-timeout`` at once and the stream goes on. An abort raises
    ``httpx.RemoteProtocolError`` after the partial bytes, and a stall raises ``httpx.ReadTimeout``.

    SDKs built on the ``httpx2`` fork, openai>=3 and anthropic>=2, are out of respx's reach: give them
    :meth:`transport` instead, with the same plans and records.
    """

    def __init__(self, router: respx.MockRouter, base_url: str = "https://thinkwire.mock") -> None:
        self.router = router
        self.base_url = base_url.rstrip("/")
        self.state = ConversationState(Conversation(()))
        self.route = router.route(url__startswith=self.base_url).mock(side_effect=self._respond)

    def transport(self, module: str = "httpx2") -> Any:
        """A ``MockTransport`` of an httpx-like module serving the same conversation, for clients respx
        cannot patch: the openai (>=3) and anthropic SDKs here run on the ``httpx2`` fork. Pass it as
        ``http_client=httpx2.Client(transport=up.transport())`` (sync and async clients both)."""
        mod = importlib.import_module(module)
        return mod.MockTransport(lambda request: self._respond(request, mod))

    def load(
        self,
        conversation: Conversation | Script,
        timeline: Timeline | None = None,
        client: ClientSide | None = None,
    ) -> RespxUpstream:
        if isinstance(conversation, Script):
            conversation = Conversation((conversation,))
        self.state = ConversationState(
            conversation, timeline if timeline is not None else Timeline(), client or ClientSide()
        )
        return self

    @property
    def timeline(self) -> Timeline:
        return self.state.timeline

    @property
    def client(self) -> ClientSide:
        return self.state.client

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.state.requests.snapshot()

    def _respond(self, request: Any, mod: ModuleType = httpx) -> Any:
        state = self.state
        target = request.url.raw_path.decode("ascii", "replace")
        headers = tuple((k.decode("latin-1"), v.decode("latin-1")) for k, v in request.headers.raw)
        turn, plan = dispatch(
            state, method=request.method, target=target, headers=headers, body=request.read(), t=now()
        )
        i, head = 0, None
        while i < len(plan.actions):
            action = plan.actions[i]
            i += 1
            if isinstance(action, Head):
                head = action
                break
            if isinstance(action, Fault):
                state.timeline.add("upstream", "fault", turn=turn, fault=action.fault)
            elif isinstance(action, Abort):
                raise mod.RemoteProtocolError(
                    f"thinkwire: upstream closed the connection ({action.fault})"
                )
        if head is None:  # pragma: no cover - every plan has a head or aborts
            raise mod.RemoteProtocolError("thinkwire: no response")
        hdrs: list[tuple[str, str]] = list(head.headers)
        if head.framing == "length" and head.length is not None:
            hdrs.append(("content-length", str(head.length)))
        stream = _stream_class(mod)(plan, i, state, turn)
        return mod.Response(head.status, headers=hdrs, stream=stream, request=request)


def mount_respx(
    router: respx.MockRouter,
    conversation: Conversation | Script | None = None,
    *,
    base_url: str = "https://thinkwire.mock",
    timeline: Timeline | None = None,
    client: ClientSide | None = None,
) -> RespxUpstream:
    """Mount a conversation on ``router`` for every URL under ``base_url`` (point the SDK there)."""
    up = RespxUpstream(router, base_url)
    up.load(conversation if conversation is not None else Conversation(()), timeline, client)
    return up
