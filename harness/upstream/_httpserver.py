"""pytest-httpserver integration: mount a thinkwire script on a user's ``httpserver`` fixture. It serves the
same plan, validation and timeline records as the mock upstream, within what werkzeug allows."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from harness.timeline import Timeline, now
from harness.upstream._dispatch import ConversationState, RecordedRequest, dispatch
from harness.upstream._gates import ClientSide, describe_gate, seen_summary, timeout_note
from harness.upstream._plan import Abort, Fault, Finish, Head, Sleep, StallFor, WaitGate, Write
from harness.upstream._script import Conversation, Script

__all__ = ["ScriptHandler", "respond_with_script"]


class ScriptHandler:
    """A werkzeug request handler serving a conversation (``requests``, ``timeline``, ``client``)."""

    def __init__(self, conversation: Conversation, timeline: Timeline, client: ClientSide) -> None:
        self.state = ConversationState(conversation, timeline, client)

    @property
    def timeline(self) -> Timeline:
        return self.state.timeline

    @property
    def client(self) -> ClientSide:
        return self.state.client

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.state.requests.snapshot()

    def __call__(self, request: Any) -> Any:
        from werkzeug.wrappers import Response

        headers = tuple((str(k), str(v)) for k, v in request.headers.items())
        target = request.full_path.rstrip("?") if request.query_string else request.path
        turn, plan = dispatch(
            self.state,
            method=request.method,
            target=target,
            headers=headers,
            body=request.get_data(),
            t=now(),
        )
        head = next((a for a in plan.actions if isinstance(a, Head)), None)
        status = head.status if head is not None else 500
        hdrs = list(head.headers) if head is not None else []
        return Response(
            self._body(plan.actions, turn), status=status, headers=hdrs, direct_passthrough=True
        )

    def _body(self, actions: tuple[Any, ...], turn: int) -> Iterator[bytes]:
        tl, client = self.state.timeline, self.state.client
        t0 = time.monotonic()
        timed_out = False  # a gate of this answer timed out: later ones are not waited for (DECIDED)
        for action in actions:
            if isinstance(action, Write):
                tl.add_write("upstream", action.data, turn=turn, tags=action.tags, frame=action.frame)
                yield action.data
            elif isinstance(action, WaitGate):
                cond = describe_gate(action.gate)
                tl.add(
                    "upstream", "gate-wait", turn=turn, condition=cond, withheld=dict(action.withheld)
                )
                ok = client.satisfied(action.gate) if timed_out else client.wait_blocking(action.gate)
                seen = seen_summary(client.seen())
                if ok:
                    tl.add("upstream", "gate-open", turn=turn, condition=cond, seen=seen)
                else:
                    waited = 0.0 if timed_out else action.gate.timeout
                    timed_out = True
                    tl.add(
                        "upstream",
                        "gate-timeout",
                        turn=turn,
                        condition=cond,
                        timeout=waited,
                        withheld=dict(action.withheld),
                        seen=seen,
                        **timeout_note(waited),
                    )
            elif isinstance(action, Sleep):
                delay = t0 + action.at - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            elif isinstance(action, Fault):
                tl.add("upstream", "fault", turn=turn, fault=action.fault)
            elif isinstance(action, Abort | StallFor):
                if isinstance(action, StallFor):
                    time.sleep(action.timeout)
                fault = action.fault if isinstance(action, Abort) else "stall-timeout"
                tl.add("upstream", "fault", turn=turn, fault=fault + " (abort)")
                raise ConnectionAbortedError(f"thinkwire: {fault}")
            elif isinstance(action, Finish):
                tl.add("upstream", "response-end", turn=turn)


def respond_with_script(
    script: Script | Conversation,
    *,
    timeline: Timeline | None = None,
    client: ClientSide | None = None,
) -> Callable[[Any], Any]:
    """A handler for ``httpserver.expect_request(...).respond_with_handler(handler)``.

    ``httpserver.expect_request("/v1/chat/completions").respond_with_handler(respond_with_script(script))``
    streams the script's bytes. What it cannot do, because werkzeug owns the socket (measured in
    design.md section 10):

    * exact write boundaries: werkzeug writes each chunk in several socket writes and leaves Nagle on, so
      chunkings (split UTF-8, split CRLF) are not guaranteed to reach the client split;
    * abrupt closes: a disconnect fault ends the generator with an exception; werkzeug then drops the
      connection, but without control over which bytes went out (the partial frame may not be flushed);
    * gates block werkzeug's request thread (``ClientSide.wait_blocking``), and pytest-httpserver serves
      one request at a time by default: a second request waits behind a held stream;
    * it cannot see the client leave (no ``disconnect`` record) nor stall until the client leaves (a stall
      ends the body after its timeout);
    * starting any threaded werkzeug server switches every werkzeug server in the process from HTTP/1.0
      to HTTP/1.1 chunked, so the wire framing depends on test order.

    Use :class:`~harness.upstream.MockUpstream` whenever any of those matters.
    """
    conv = Conversation((script,)) if isinstance(script, Script) else script
    return ScriptHandler(conv, timeline if timeline is not None else Timeline(), client or ClientSide())
