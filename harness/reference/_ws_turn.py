"""The Responses WebSocket mode of the blocking reference SUTs, the SDK wrapper and the agent CLI: one socket
per conversation, each turn a ``response.create`` with only the new input items, chained to the
connection's last response as the real API wants."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping, Sequence
from typing import Any

from harness._json import dumps_compact
from harness.dialects.openai_responses.websocket import TERMINAL, sse_event
from harness.events import Event, Message
from harness.net import WsClient
from harness.reference._core import Route, UpstreamPipe, upstream_request

__all__ = ["chain_after", "socket_and_chain", "ws_turn"]


def socket_and_chain(state: MutableMapping[str, Any], faults: frozenset[str]) -> tuple[Any, dict[str, Any]]:
    """The conversation's open socket (None: open a new one) and the chaining options of its next
    turn: none on a new socket (its connection holds no response to chain to)."""
    sock = state.get("ws")
    if sock is not None and "ws-new-socket-per-turn" in faults:  # FAULT: the connection's cache is lost
        sock.close()  # (and the turn is chained to the old socket's response all the same)
        sock = None
    elif sock is None or sock.closed:
        sock = None
        state.pop("last_id", None)
    last = state.get("last_id")
    return sock, {} if last is None else {"previous_response_id": last, "since": state.get("since", 0)}


def chain_after(state: MutableMapping[str, Any], kind: str, response_id: str | None, covered: int) -> None:
    """Remember the response that just ended: a completed one is the next turn's to chain to (covering
    ``covered`` messages), any other end leaves nothing to chain to."""
    if kind == "response.completed" and response_id is not None:
        state["last_id"], state["since"] = response_id, covered
    else:
        state.pop("last_id", None)


def ws_turn(
    state: MutableMapping[str, Any],
    base_url: str,
    route: Route,
    messages: Sequence[Message],
    faults: frozenset[str],
    timeout: float,
    pipe: UpstreamPipe,
) -> Iterator[Event]:
    """One turn over the conversation's socket (``state["ws"]``, opened at ``base_url`` when missing or
    closed); the events ``pipe`` delivers. The caller closes ``state["ws"]`` when the conversation ends.

    A conversation's state, its socket, the last response's id and how many messages that response covers,
    lives in a dict its caller keeps. Closing the generator mid-response closes the socket, the mode's only
    cancel. Only a completed response is chained to, and only on the socket that produced it; a new socket
    starts with the whole input.
    """
    sock, chain = socket_and_chain(state, faults)
    spec = upstream_request(route, messages, stream=True, faults=faults, chain=chain)
    if sock is None:
        sock = state["ws"] = WsClient(base_url.rstrip("/") + spec.path, timeout=timeout)
    done = False
    try:
        sock.send(dumps_compact(spec.body))
        kind, rid = "", None
        while kind not in TERMINAL:
            message = sock.recv(timeout=timeout)
            if message is None:
                done = True
                state.pop("last_id", None)
                yield from pipe.fail("the upstream closed the WebSocket")
                return
            kind, rid, data = sse_event(message, rid)
            yield from pipe.feed(data)
        done = True
        chain_after(state, kind, rid, len(messages) + 1)
        yield from pipe.end()
    finally:
        if not done:  # the user left mid-response: closing the socket is how a WebSocket cancels
            sock.close()
            state.pop("ws", None)
            state.pop("last_id", None)
