"""The shared mock: one MockUpstream answering any case of a catalog, per request, for other test suites, with
a small HTTP control plane. It backs ``thinkwire serve --catalog``."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from typing import Any
from urllib.parse import parse_qs

from harness._errors import closest
from harness._json import dumps_compact
from harness._routing import token_for
from harness.net import Request
from harness.timeline import Entry, Timeline
from harness.upstream._dispatch import ConversationState, parse_json
from harness.upstream._gates import ClientSide
from harness.upstream._script import Conversation, Gate

__all__ = ["CONTROL", "JOURNAL_BODY", "SharedCase", "SharedCatalog", "without_gates"]

CONTROL = "/_thinkwire/"
"""The control plane's path prefix (no provider path starts with it)."""

JOURNAL_KEEP = 20
"""Requests each case's journal keeps (and x 100 timeline entries)."""

JOURNAL_BODY = 65536
"""Characters of a request or answer body a journal entry shows (the rest is counted, not kept)."""


@dataclass(frozen=True, slots=True)
class SharedCase:
    """One case the shared mock can answer: its id, conversation and what ``GET cases`` shows."""

    id: str
    conversation: Conversation
    info: Mapping[str, Any] = field(default_factory=dict)

    @property
    def token(self) -> str:
        return token_for(self.id)


def without_gates(conversation: Conversation) -> Conversation:
    """The conversation without its gates (nobody reports what the client saw to a shared mock)."""
    scripts = tuple(
        dc_replace(s, steps=tuple(st for st in s.steps if not isinstance(st, Gate)))
        for s in conversation.scripts
    )
    return dc_replace(conversation, scripts=scripts)


class SharedCatalog:
    """The cases, their states (made on first use) and the control plane over them.

    A request goes to the case its routing token names, in the body as thinkwire's own runs send it, or its
    ``x-thinkwire-case`` header with a token or a case id. Each case keeps its own conversation state,
    request N getting its script N until a reset, and its own bounded journal. A request naming no case is
    a stray: 500, as for any SUT. Gates need thinkwire's own client to open them, so cases are served
    without gates.

    The control plane lives under ``/_thinkwire/`` and only reads or resets the state: ``GET cases`` lists
    id, token, upstream path and dialect; ``GET journal?case=`` shows what the mock received and what it
    answered, including a strict validator's 400 with its ``differences``; ``POST reset`` resets every
    case, or one with ``?case=``.
    """

    def __init__(self, cases: Sequence[SharedCase]) -> None:
        self.cases = {c.id: c for c in cases}
        self.tokens = {c.token: c.id for c in cases}
        self._lock = threading.Lock()
        self._states: dict[str, ConversationState] = {}

    def find(self, name: str) -> SharedCase | None:
        """The case a token or a case id names."""
        return self.cases.get(self.tokens.get(name, name))

    def resolve(self, name: str) -> ConversationState | None:
        """The state of the case ``name`` names (a routing resolver), made on its first request."""
        case = self.find(name)
        if case is None:
            return None
        with self._lock:
            state = self._states.get(case.id)
            if state is None:
                state = self._states[case.id] = ConversationState(
                    case.conversation,
                    Timeline(limit=JOURNAL_KEEP * 100),
                    ClientSide(),
                    keep=JOURNAL_KEEP,
                )
            return state

    def reset(self, name: str | None = None) -> int:
        """Forget every case's state (or the one ``name`` names): its next request is its first."""
        with self._lock:
            if name is None:
                n = len(self._states)
                self._states.clear()
                return n
            case = self.find(name)
            return int(case is not None and self._states.pop(case.id, None) is not None)

    # -- the control plane -------------------------------------------------------------------------
    def control(self, req: Request) -> tuple[int, Any]:
        """(status, JSON value) for a request under :data:`CONTROL`."""
        what = req.path[len(CONTROL) :].strip("/")
        query = {k: v[-1] for k, v in parse_qs(req.query).items()}
        name = query.get("case")
        if name is not None and self.find(name) is None:
            return 404, {"error": f"no case {name!r}; {closest(name, self.cases)}"}
        if (req.method, what) == ("GET", "cases"):
            return 200, [{"id": c.id, "token": c.token, **c.info} for c in self.cases.values()]
        if (req.method, what) == ("GET", "journal"):
            if name is None:
                return 400, {"error": "GET /_thinkwire/journal needs ?case=<case id or token>"}
            return 200, self.journal(name)
        if (req.method, what) == ("POST", "reset"):
            return 200, {"reset": self.reset(name)}
        return 404, {
            "error": f"{req.method} {req.path}: not a control-plane endpoint",
            "endpoints": ["GET cases", "GET journal?case=ID", "POST reset", "POST reset?case=ID"],
        }

    def journal(self, name: str) -> dict[str, Any]:
        """What the case's mock received and answered since its last reset, request by request."""
        case = self.find(name)
        assert case is not None
        with self._lock:
            state = self._states.get(case.id)
        if state is None:
            return {"case": case.id, "token": case.token, "requests": []}
        requests = state.requests.snapshot()
        by_turn: dict[int, list[Entry]] = {}
        for e in state.timeline.entries():
            by_turn.setdefault(e.turn, []).append(e)
        return {
            "case": case.id,
            "token": case.token,
            "requests": [_exchange(r, by_turn.get(r.turn, [])) for r in requests],
        }


def _exchange(r: Any, entries: list[Entry]) -> dict[str, Any]:
    """One journal entry: the request as received, then the answer as the timeline recorded it."""
    answer: dict[str, Any] = {"status": None, "stream": None, "body": "", "events": []}
    body = b"".join(e.data for e in entries if e.act == "write")
    answer["body"], answer["body_bytes"] = _text(body), len(body)
    for e in entries:
        info = dict(e.info)
        if e.act == "response-end":
            answer["status"] = info.get("status")
        elif e.act == "mode":
            answer["stream"] = info.get("stream")
        elif e.act == "rejected":
            answer["rejected"] = {
                "status": info.get("status"),
                "rule": info.get("rule"),
                "differences": [
                    {"field": d[0], "actual": _plain(d[1]), "expected": _plain(d[2])}
                    for d in info.get("differences", ())
                ],
                "body": parse_json(str(info.get("body", "")).encode()) or info.get("body"),
            }
        elif e.act == "server-error":
            answer["error"] = info.get("error")
        elif e.act in ("gate-wait", "gate-open", "gate-timeout", "fault", "disconnect", "crosstalk"):
            said = {k: _plain(v) for k, v in info.items()}
            # "kind": act's old key, written too for one release
            answer["events"].append({"act": e.act, **said, "kind": e.act})
    return {
        "turn": r.turn,
        "method": r.method,
        "path": r.target,
        "headers": dict(r.headers),
        "body": r.json if r.json is not None else _text(r.body),
        "answer": answer,
    }


def _text(data: bytes) -> str:
    text = data[:JOURNAL_BODY].decode(errors="replace")
    return text + (f"... [{len(data) - JOURNAL_BODY} more bytes]" if len(data) > JOURNAL_BODY else "")


def _plain(v: Any) -> Any:
    return v if isinstance(v, str | int | float | bool | type(None) | list | dict) else repr(v)


def json_body(value: Any) -> bytes:
    return dumps_compact(value).encode() + b"\n"
