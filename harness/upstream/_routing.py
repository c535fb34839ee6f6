"""Routing: which conversation an upstream request belongs to, read from the request itself. A request names
its conversation by a routing token in the content gateways forward, because gateways rewrite model names
and drop unknown headers but forward the conversation."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from harness._routing import ROUTE_HEADER, token_for, tokens_in
from harness.upstream._dispatch import ConversationState

__all__ = ["Routed", "Routes"]


@dataclass(frozen=True, slots=True)
class Routed:
    """Where a request goes: ``state`` (None: a stray, the SUT's), the ``token`` that chose it, and
    the ``foreign`` tokens it carried too, with the conversation each names (``""`` when unknown)."""

    state: ConversationState | None
    token: str | None
    foreign: tuple[tuple[str, str], ...] = ()


class Routes:
    """Token -> conversation in flight. ``add``/``remove`` from any thread; ``pick`` per request.

    ``resolve`` (optional) is asked for a conversation a request names that is not in the table (a
    server holding a whole catalog creates each case's state on first use). ``names`` remembers the
    conversation of every token ever added (bounded by the cases of a run), so a foreign token of a
    case that already finished is still named.

    The token rides in the user message text and in the salt of the reasoning or answer the mock emits,
    which comes back in passback; ``harness._routing`` says what a token is and how a case's is derived.
    ``x-thinkwire-case`` may name a conversation too, where headers pass through: a token or, for a server
    that knows them, a case id.
    """

    def __init__(self, resolve: Callable[[str], ConversationState | None] | None = None) -> None:
        self._lock = threading.Lock()
        self._table: dict[str, ConversationState] = {}
        self.names: dict[str, str] = {}
        self.resolve = resolve
        self.strict = False
        """Several conversations in flight: a request naming none is a stray, never a guess."""

    def add(self, token: str, state: ConversationState) -> None:
        with self._lock:
            self._table[token] = state
            self.names[token] = state.conversation.name

    def remove(self, token: str) -> None:
        with self._lock:
            self._table.pop(token, None)

    def __len__(self) -> int:
        return len(self._table)

    def get(self, token: str) -> ConversationState | None:
        with self._lock:
            return self._table.get(token)

    def by_response(self, response_id: str) -> ConversationState | None:
        """The conversation in flight that produced ``response_id``: a chained Responses WebSocket turn
        names no user message, only the response it continues (ids are unique within a mock)."""
        with self._lock:
            states = list(self._table.values())
        for state in states:
            with state.lock:
                if response_id in state.responses:
                    return state
        return None

    def pick(self, headers: tuple[tuple[str, str], ...], body: bytes) -> Routed:
        """The conversation of a request: the named one; the only one when the request names none, unless
        routing is ``strict``, when several cases are in flight and a guess could be wrong; for a chained
        Responses WebSocket turn, the conversation that produced the response it names. Any other token in
        the same request is foreign: another conversation's content in this one, cross-talk, which
        ``dispatch`` records. A request that names no conversation in flight is the SUT's, a stray."""
        named = [v.strip() for k, v in headers if k.lower() == ROUTE_HEADER and v.strip()]
        found = list(dict.fromkeys([*named, *tokens_in(body)]))
        with self._lock:
            chosen = next((t for t in found if t in self._table), None)
            state = self._table.get(chosen) if chosen is not None else None
            if state is None and len(self._table) == 1 and not self.strict and not named:
                chosen, state = next(iter(self._table.items()))  # one in flight: as before tokens
        if state is None and self.resolve is not None:
            for name in found:
                state = self.resolve(name)
                if state is not None:
                    chosen = name
                    break
        if state is None:
            return Routed(None, found[0] if found else None)
        own = {chosen, token_for(state.conversation.name)}
        foreign = tuple((t, self.names.get(t, "")) for t in found if t not in own and t not in named)
        return Routed(state, chosen, foreign)
