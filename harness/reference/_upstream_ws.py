"""The reference SUTs' WebSocket upstream for the Responses API's socket mode: the blocking turn the SDK
wrapper and the agent CLI run, and the gateway's asyncio socket with the sockets it keeps between a
conversation's turns. Both sit on the sans-IO core ``harness.net.WsClientSide``, and each turn is a
``response.create`` with only the new input items, chained to the connection's last response.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any

from harness._json import dumps_compact
from harness.dialects.openai_responses.websocket import TERMINAL, sse_event
from harness.events import Event, Message, ToolResultBlock
from harness.reference._core import Route, UpstreamPipe, upstream_request
from harness.reference._upstream_http import READ_SIZE, UpstreamBroken, UpstreamUnreachable

if TYPE_CHECKING:  # (wsproto loads with the first socket: a gateway that never opens one skips it)
    from harness.net import WsClientSide

__all__ = ["KeptSockets", "UpstreamSocket", "chain_after", "conversation_keys", "socket_and_chain", "ws_turn"]


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
    cancel. Only a completed response is chained to, by ``previous_response_id``, and only on the socket
    that produced it; a new socket starts with the whole input.
    """
    sock, chain = socket_and_chain(state, faults)
    spec = upstream_request(route, messages, stream=True, faults=faults, chain=chain)
    if sock is None:
        from harness.net import WsClient

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


class UpstreamSocket:
    """``await UpstreamSocket.open(url)``; ``await send(text)``; ``response()``; ``close()``.

    One response runs at a time per socket. Its messages are handed on one by one as they arrive, by
    :meth:`response`, each as the SSE event the Responses pipe reads, never buffered. A socket that closes
    before its response ended is :class:`UpstreamBroken`.
    """

    def __init__(self, side: WsClientSide, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 read: float) -> None:  # fmt: skip
        self.side, self.reader, self.writer, self.read_timeout = side, reader, writer, read
        self.pending: list[str] = []
        self.event_type = self.message = ""  # the type of the last message of the response in flight, itself
        self.response_id: str | None = None

    @classmethod
    async def open(cls, url: str, *, connect: float = 5.0, read: float = 300.0) -> UpstreamSocket:
        from harness.net import WsClientSide

        side = WsClientSide(url)
        try:
            async with asyncio.timeout(connect):
                reader, writer = await asyncio.open_connection(side.host, side.port, limit=READ_SIZE)
        except (OSError, TimeoutError) as exc:
            raise UpstreamUnreachable(f"cannot connect to {side.host}:{side.port}: {exc!r}") from None
        sock = cls(side, reader, writer, read)
        try:
            writer.write(side.handshake())
            async with asyncio.timeout(connect):
                while not side.accepted:
                    await sock._read()
        except (OSError, TimeoutError, ConnectionError) as exc:
            sock.close()
            raise UpstreamUnreachable(f"no WebSocket from the upstream: {exc}") from None
        return sock

    @property
    def closed(self) -> bool:
        return self.side.closed or self.writer.transport.is_closing() or self.reader.at_eof()

    async def _read(self) -> None:
        data = await self.reader.read(READ_SIZE)
        messages, out = self.side.receive(data)
        self.pending += messages
        if out and not self.writer.transport.is_closing():
            self.writer.write(out)

    async def send(self, message: str) -> None:
        if self.closed:
            raise UpstreamBroken("the upstream WebSocket is closed")
        self.writer.write(self.side.text(message))
        await self.writer.drain()

    async def recv(self) -> str | None:
        """The next message; None once the upstream closed the socket (or it broke)."""
        while not self.pending:
            if self.side.closed:
                return None
            try:
                async with asyncio.timeout(self.read_timeout):
                    await self._read()
            except (OSError, TimeoutError, ConnectionError):
                self.close()
                return None
        return self.pending.pop(0)

    async def response(self) -> AsyncIterator[bytes]:
        """The messages of the response in flight, each as an SSE event, to its terminal message
        (``event_type``, ``response_id``: what it said last); a close before it is UpstreamBroken."""
        self.event_type, self.response_id = "", None
        while self.event_type not in TERMINAL:
            message = await self.recv()
            if message is None:
                raise UpstreamBroken("the upstream closed the WebSocket")
            self.message = message
            self.event_type, self.response_id, data = sse_event(message, self.response_id)
            yield data

    def close(self) -> None:
        """A close frame if the socket is open, then the connection (at once: this is the cancel)."""
        with contextlib.suppress(Exception):
            if not self.writer.transport.is_closing():
                self.writer.write(self.side.close())
        self.side.closed = True
        self.writer.close()


def conversation_keys(messages: Sequence[Message]) -> list[str]:
    """``keys[k]``: the content of ``messages[:k + 1]`` as one hash: roles, text, tool calls and results
    (reasoning and signatures left out: the upstream keeps the reasoning of the responses it chains,
    and front doors carry it back in many shapes)."""
    h = hashlib.blake2b(digest_size=16)
    keys = []
    for m in messages:
        calls = [[c.id, c.name, c.arguments] for c in m.tool_calls]
        results = [[b.call_id, b.content] for b in m.content if isinstance(b, ToolResultBlock)]
        h.update(dumps_compact([m.role, m.text, calls, results]).encode())
        keys.append(h.copy().hexdigest())
    return keys


class KeptSockets:
    """Conversation states between turns (``{"ws": UpstreamSocket, "last_id", "since"}``, as
    ``ws_turn`` keeps them), by conversation key; at most ``limit`` (the oldest one's socket is closed).

    A kept socket belongs to one conversation, found again by the conversation's content: its messages up
    to the reply that socket produced, since chat front doors are stateless. Taking it removes it, so no
    two requests share a socket.
    """

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self._kept: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def take(self, messages: Sequence[Message]) -> dict[str, Any]:
        """The state of the longest prefix of ``messages`` ending in a reply relayed on a kept socket,
        no longer kept; an empty one when there is none."""
        keys = conversation_keys(messages)
        for k in range(len(messages) - 1, 0, -1):
            if messages[k - 1].role == "assistant" and keys[k - 1] in self._kept:
                return self._kept.pop(keys[k - 1])
        return {}

    def keep(self, messages: Sequence[Message], state: dict[str, Any]) -> None:
        """``messages``: the conversation up to and including the reply its socket just completed."""
        self._kept[conversation_keys(messages)[-1]] = state
        while len(self._kept) > self.limit:
            _, old = self._kept.popitem(last=False)
            old["ws"].close()

    def close(self) -> None:
        for state in self._kept.values():
            state["ws"].close()
        self._kept.clear()
