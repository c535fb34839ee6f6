"""One incoming request turned into its turn and Plan: record it, pick the script, route, validate, plan.
Every server shares it, the loopback server, respx and the pytest-httpserver handler, so that they agree on
turn order, routing, validation and records."""

from __future__ import annotations

import threading
import traceback
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from typing import Any

from harness._errors import ThinkwireError
from harness._json import loads
from harness.dialects import NeededLoss, Rejection, get_dialect
from harness.events import Event, Message, Notice, ReasoningDelta, Usage, assemble
from harness.timeline import Timeline
from harness.upstream._forms import answered_chunks, withheld_entry
from harness.upstream._gates import ClientSide
from harness.upstream._head import framing, request_id
from harness.upstream._plan import (
    Abort,
    Finish,
    Head,
    Plan,
    Write,
    build_plan,
    dialect_for_path,
    wants_stream,
)
from harness.upstream._rules import check_fidelity, validate_request
from harness.upstream._script import Conversation, Emit, Raw, Script

__all__ = ["ConversationState", "RecordedRequest", "RequestLog", "dispatch", "parse_json", "stray"]


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


class RequestLog:
    """The requests one conversation received, numbered by arrival (the turn each answers). Appended
    by the thread that serves, read from any thread, both under the log's one lock. ``keep``: only
    the last ``keep`` are remembered (the numbering goes on).

    It is appended and read under its one lock, and read only through :meth:`snapshot`.
    """

    def __init__(self, keep: int | None = None) -> None:
        self._lock = threading.Lock()
        self._items: deque[RecordedRequest] = deque(maxlen=keep)
        self._count = 0

    def record(
        self,
        method: str,
        target: str,
        headers: tuple[tuple[str, str], ...],
        body: bytes,
        t: int,
        conn: int = 0,
        turn_of: Callable[[int], int] | None = None,
    ) -> tuple[int, RecordedRequest]:
        """Remember one request: (``n``, how many came before it; the request). Its ``turn`` is
        ``turn_of(n)`` (the client's turn a scripted attempt answers), ``n`` by default."""
        path, body_json = target.split("?", 1)[0], parse_json(body)
        with self._lock:
            n = self._count
            turn = n if turn_of is None else turn_of(n)
            req = RecordedRequest(method, path, target, headers, body, body_json, t, turn, conn)
            self._count += 1
            self._items.append(req)
        return n, req

    def snapshot(self) -> list[RecordedRequest]:
        """The requests remembered, oldest first, as of now (a copy: later requests do not show)."""
        with self._lock:
            return list(self._items)


@dataclass
class ConversationState:
    """What one loaded conversation has seen so far (reset by ``load``).

    ``keep``: remember only the last ``keep`` requests (and what was emitted for them): a server
    answering requests for hours stays flat. None (a case's conversation, a handful of requests):
    remember all."""

    conversation: Conversation
    timeline: Timeline = field(default_factory=Timeline)
    client: ClientSide = field(default_factory=ClientSide)
    emitted: dict[int, tuple[Event, ...] | Message] = field(default_factory=dict)
    """The events each turn's response carried, folded into a message (once) when a later request
    needs it: folding a long stream before its first byte would delay that byte."""
    responses: list[str] = field(default_factory=list)
    """Response ids served over WebSockets (any connection): what ``store: true`` can chain from."""
    keep: int | None = None
    requests: RequestLog = field(init=False)
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Guards ``emitted`` (the request log has its own)."""

    def __post_init__(self) -> None:
        self.requests = RequestLog(self.keep)

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
    return _immediate(status, (message + "\n").encode(), (("content-type", "text/plain; charset=utf-8"),))


def _judge(
    state: ConversationState, script: Script, req: RecordedRequest, reject: Rejection | None
) -> Plan | None:
    """The strict rules' say on a request: its passback comparison (a ``fidelity`` entry) and its
    verdict, or ``reject`` (the transport's): a ``rejected`` entry and the provider's exact answer (an
    error, or the turn a provider that refuses with a 200 streams instead), or None: serve the script."""
    turn = req.turn
    request = req.json if isinstance(req.json, Mapping) else {}
    tl = state.timeline
    emitted = state.emitted_before(turn)
    fidelity = check_fidelity(script, request, emitted)
    if fidelity is not None:
        tl.add(
            "upstream",
            "fidelity",
            turn=turn,
            rule=fidelity.rule,
            differences=fidelity.differences,
            rejects=fidelity.rejects,
            needed=fidelity.source if isinstance(fidelity, NeededLoss) else "",
        )
    rejection = reject or validate_request(script, request, emitted, path=req.path)
    if rejection is None:
        return None
    tl.add(
        "upstream",
        "rejected",
        turn=turn,
        status=rejection.status,
        rule=rejection.rule,
        rule_family=rejection.family,
        differences=rejection.differences,
        body=rejection.body.decode(errors="replace"),
    )
    if rejection.answer is not None:  # a refusal in a 200: its turn instead of the script's
        instead = dc_replace(script, steps=(Emit(tuple(rejection.answer)),))
        return build_plan(instead, path=req.path, request=request, target=req.target)
    ids = request_id(get_dialect(script.dialect))  # the provider's request-id header, as on any answer
    headers = (("content-type", rejection.content_type), *ids, *rejection.headers)
    return _immediate(rejection.status, rejection.body, headers)


def _carried(script: Script, plan: Plan, request: Mapping[str, Any]) -> tuple[bool | None, bool | None]:
    """Whether the answer carried reasoning text and usage: from its events, or, for recorded bytes
    (a replayed cassette has no events), from those bytes read back by the dialect's observer; None
    when nothing can tell (a finding then says nothing about it rather than something false)."""
    raw = b"".join(
        c
        for st in script.steps
        if isinstance(st, Raw)
        for c in answered_chunks(st.chunks, script.dialect, request, stream=plan.stream)
    )
    events: Sequence[Event] = plan.events
    if raw:
        dialect = get_dialect(script.dialect)
        try:
            if plan.stream:
                obs = dialect.observer()
                events = obs.feed(raw) + obs.end()
            else:
                events = dialect.observe_response(raw)
        except (ThinkwireError, ValueError):  # bytes the observer cannot read: unknown, never a guess
            return None, None
        if all(isinstance(e, Notice) for e in events):  # it read nothing it understood
            return None, None
    reasoning = any(isinstance(e, ReasoningDelta) and e.text for e in events)
    return reasoning, any(isinstance(e, Usage) for e in events)


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
    reject: Rejection | None = None,
) -> tuple[int, Plan]:
    """Record the request (``requests`` and a timeline ``request``) and decide the whole answer.
    ``foreign``: routing tokens of other conversations the request carried (token, conversation
    name): recorded as ``crosstalk``, then the request is answered as scripted. ``reject``: a
    rejection the transport already decided (a WebSocket's unknown previous response).

    Immediate answers such as 404, 500 or a strict rules' 400 are plans too.
    """
    conv = state.conversation
    n, req = state.requests.record(method, target, headers, body, t, conn, turn_of=conv.turn_of)
    script = conv.script_for(n)
    turn, tl = req.turn, state.timeline
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
        attempt=script.attempt if script is not None else 0,
    )
    if foreign:
        tl.add(
            "upstream",
            "crosstalk",
            turn=turn,
            tokens=[tok for tok, _ in foreign],
            cases=[name for _, name in foreign],
        )
    if script is None:
        msg = (
            f"thinkwire mock upstream: unexpected request #{n + 1} {method} {target}: "
            f"the conversation {conv.name!r} has {len(conv.scripts)} script(s) and no overflow"
        )
        tl.add("upstream", "server-error", turn=turn, error=msg, status=500, cause="sut")
        return turn, _plain(500, msg)
    routed = dialect_for_path(req.path, script.dialect)
    if routed != script.dialect:
        msg = (
            f"thinkwire mock upstream: request #{n + 1} {method} {req.path} addresses "
            f"{routed or 'no known dialect'}, but script #{n + 1} is {script.dialect}"
        )
        tl.add("upstream", "server-error", turn=turn, error=msg, status=404, cause="sut")
        return turn, _plain(404, msg)
    return turn, _answer(state, req, script, reject)


def _answer(state: ConversationState, req: RecordedRequest, script: Script, reject: Rejection | None) -> Plan:
    """The routed request's answer: ``reject`` or the strict rules' rejection, or the script's plan
    (a mock-internal failure is a ``server-error`` of cause ``harness`` and an aborted answer)."""
    turn, tl = req.turn, state.timeline
    request = req.json if isinstance(req.json, Mapping) else {}
    try:
        rejected = _judge(state, script, req, reject)
        if rejected is not None:
            return rejected
        plan = build_plan(script, path=req.path, request=request, target=req.target)
    except Exception as exc:
        tl.add(
            "upstream",
            "server-error",
            turn=turn,
            error="".join(traceback.format_exception(exc)),
            cause="harness",
        )
        return Plan((Abort("server-error"),), False, ())
    # What the SUT asked for (streaming or one body) and what it got: the evidence a streaming case
    # needs (a SUT that asks for a whole body and replays it in chunks fake-streams), and whether the
    # answer carried reasoning and usage at all (so a finding never guesses).
    asked = wants_stream(dc_replace(script, stream=None), req.path, request)
    withheld_entry(tl, turn, script, request, plan.stream, req.target)
    reasoning, usage = _carried(script, plan, request)
    transport, _, played = framing(get_dialect(script.dialect), req.target, request, script.perturbation)
    tl.add(
        "upstream",
        "mode",
        turn=turn,
        stream=plan.stream,
        transport=transport if plan.stream else "body",
        perturbation=played if plan.stream else "none",
        perturbed=script.perturbation == "none" or (plan.stream and played == script.perturbation),
        asked_stream=asked,
        attempt=script.attempt,
        reasoning=reasoning,
        usage=usage,
    )
    if plan.events:
        state.record_emitted(turn, plan.events)
    return plan


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
    turn = state.requests.record(method, target, headers, body, t, conn)[1].turn
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
