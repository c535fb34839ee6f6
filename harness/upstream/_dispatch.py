"""One incoming request -> (turn, Plan): record it, pick the script, route, validate, plan.

Rule: shared by both executors (the loopback server and respx), so that they agree on turn order,
routing, validation and records; immediate answers (404, 500, a strict profile's 400) are plans too.
"""

from __future__ import annotations

import threading
import traceback
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from typing import Any

from harness._json import loads
from harness.events import Event, Message, ReasoningDelta, assemble
from harness.timeline import Timeline
from harness.upstream._gates import ClientSide
from harness.upstream._plan import (
    Abort,
    Finish,
    Head,
    Plan,
    Write,
    build_plan,
    dialect_for_path,
    validate_request,
    wants_stream,
)
from harness.upstream._script import Conversation

__all__ = ["ConversationState", "RecordedRequest", "dispatch", "parse_json", "stray"]


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request the upstream received (``json`` is None when the body is not JSON)."""

    method: str
    path: str
    target: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    json: Any
    t: int
    turn: int
    conn: int = 0

    def header(self, name: str, default: str | None = None) -> str | None:
        low = name.lower()
        return next((v for k, v in self.headers if k.lower() == low), default)


@dataclass
class ConversationState:
    """What one loaded conversation has seen so far (reset by ``load``).

    ``keep``: remember only the last ``keep`` requests (and what was emitted for them): a server
    answering requests for hours stays flat. None (a case's conversation, a handful of requests):
    remember all."""

    conversation: Conversation
    timeline: Timeline = field(default_factory=Timeline)
    client: ClientSide = field(default_factory=ClientSide)
    count: int = 0
    emitted: dict[int, tuple[Event, ...] | Message] = field(default_factory=dict)
    """The events each turn's response carried, folded into a message (once) when a later request
    needs it: folding a long stream before its first byte would delay that byte."""
    requests: deque[RecordedRequest] = field(default_factory=deque)
    lock: threading.Lock = field(default_factory=threading.Lock)
    keep: int | None = None

    def __post_init__(self) -> None:
        if self.keep is not None:
            self.requests = deque(self.requests, maxlen=self.keep)

    def emitted_before(self, turn: int) -> list[Message]:
        with self.lock:
            out = []
            for i in sorted(self.emitted):
                if i < turn:
                    got = self.emitted[i]
                    if not isinstance(got, Message):
                        got = self.emitted[i] = assemble(got)
                    out.append(got)
            return out

    def record_emitted(self, turn: int, events: tuple[Event, ...]) -> None:
        with self.lock:
            self.emitted[turn] = events
            if self.keep is not None:
                self.emitted.pop(turn - self.keep, None)


def parse_json(body: bytes) -> Any:
    if not body:
        return None
    try:
        return loads(body)
    except (ValueError, UnicodeDecodeError):
        return None


def _immediate(status: int, body: bytes, headers: tuple[tuple[str, str], ...]) -> Plan:
    return Plan(
        (Head(status, headers, "length", len(body)), Write(body, frozenset({"error"})), Finish()),
        False,
        (),
    )


def _plain(status: int, message: str) -> Plan:
    return _immediate(
        status, (message + "\n").encode(), (("content-type", "text/plain; charset=utf-8"),)
    )


def dispatch(
    state: ConversationState,
    *,
    method: str,
    target: str,
    headers: tuple[tuple[str, str], ...],
    body: bytes,
    t: int,
    conn: int = 0,
    foreign: tuple[tuple[str, str], ...] = (),
) -> tuple[int, Plan]:
    """Record the request (``requests`` and a timeline ``request``) and decide the whole answer.
    ``foreign``: routing tokens of other conversations the request carried (token, conversation
    name): recorded as ``crosstalk``, then the request is answered as scripted."""
    path = target.split("?", 1)[0]
    body_json = parse_json(body)
    with state.lock:
        turn = state.count
        state.count += 1
        state.requests.append(
            RecordedRequest(method, path, target, headers, body, body_json, t, turn, conn)
        )
    tl = state.timeline
    tl.add(
        "upstream",
        "request",
        data=body,
        turn=turn,
        t=t,
        method=method,
        path=target,
        headers=dict(headers),
        conn=conn,
    )
    if foreign:
        tl.add(
            "upstream",
            "crosstalk",
            turn=turn,
            tokens=[tok for tok, _ in foreign],
            cases=[name for _, name in foreign],
        )
    conv = state.conversation
    script = conv.scripts[turn] if turn < len(conv.scripts) else conv.overflow
    if script is None:
        msg = (
            f"thinkwire mock upstream: unexpected request #{turn + 1} {method} {target}: "
            f"the conversation {conv.name!r} has {len(conv.scripts)} script(s) and no overflow"
        )
        tl.add("upstream", "server-error", turn=turn, error=msg, status=500, cause="sut")
        return turn, _plain(500, msg)
    routed = dialect_for_path(path, script.dialect)
    if routed != script.dialect:
        msg = (
            f"thinkwire mock upstream: request #{turn + 1} {method} {path} addresses "
            f"{routed or 'no known dialect'}, but script #{turn + 1} is {script.dialect}"
        )
        tl.add("upstream", "server-error", turn=turn, error=msg, status=404, cause="sut")
        return turn, _plain(404, msg)
    request = body_json if isinstance(body_json, Mapping) else {}
    try:
        rejection = validate_request(script, request, state.emitted_before(turn))
        if rejection is not None:
            tl.add(
                "upstream",
                "rejected",
                turn=turn,
                status=rejection.status,
                rule=rejection.rule,
                differences=rejection.differences,
                body=rejection.body.decode(errors="replace"),
            )
            hdrs = (("content-type", rejection.content_type), *rejection.headers)
            return turn, _immediate(rejection.status, rejection.body, hdrs)
        plan = build_plan(script, path=path, request=request)
    except Exception as exc:
        tl.add(
            "upstream",
            "server-error",
            turn=turn,
            error="".join(traceback.format_exception(exc)),
            cause="harness",
        )
        return turn, Plan((Abort("server-error"),), False, ())
    # What the SUT asked for (streaming or one body) and what it got: the evidence a streaming case
    # needs (a SUT that asks for a whole body and replays it in chunks fake-streams), and whether the
    # answer carried reasoning at all (so a finding never guesses).
    asked = wants_stream(dc_replace(script, stream=None), path, request)
    tl.add(
        "upstream",
        "mode",
        turn=turn,
        stream=plan.stream,
        asked_stream=asked,
        reasoning=any(isinstance(e, ReasoningDelta) and e.text for e in plan.events),
    )
    if plan.events:
        state.record_emitted(turn, plan.events)
    return turn, plan


def stray(
    state: ConversationState,
    *,
    method: str,
    target: str,
    headers: tuple[tuple[str, str], ...],
    body: bytes,
    t: int,
    conn: int = 0,
    token: str | None = None,
) -> Plan:
    """A request that names no conversation in flight: the SUT's (it lost or garbled the routing
    token). Remembered in ``state`` (the upstream's own, bounded) and answered 500 saying so."""
    with state.lock:
        turn = state.count
        state.count += 1
        path = target.split("?", 1)[0]
        state.requests.append(
            RecordedRequest(method, path, target, headers, body, parse_json(body), t, turn, conn)
        )
    why = (
        f"its routing token {token} names no conversation in flight"
        if token
        else "it carries no routing token"
    )
    msg = (
        f"thinkwire mock upstream: request {method} {target} cannot be routed to a case: {why} "
        "(a case's token travels in its user messages, or in the x-thinkwire-case header)"
    )
    state.timeline.add("upstream", "server-error", turn=turn, t=t, error=msg, status=500, cause="sut")
    return _plain(500, msg)
