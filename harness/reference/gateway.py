"""The reference gateway: an OpenAI-chat front door, and Anthropic, Responses and Gemini Interactions
ones, over any upstream dialect. It forwards reasoning frame by frame, passes it back on tool turns,
surfaces every upstream error, and while its upstream is silent it keeps the client's stream alive
(``_keepalive``).

Run: ``python -m harness.reference.gateway --port PORT --upstream BASE_URL [--host HOST] [--fault NAME]...
[--keepalive SECONDS]``; in a container, configured by environment instead: ``THINKWIRE_UPSTREAM``,
``PORT`` and ``THINKWIRE_GATEWAY_HOST`` (a flag given wins).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from harness._json import dumps_compact, loads
from harness.codec import Frame, encode_pieces
from harness.dialects import Dialect, get_dialect
from harness.events import End, Event, Message, StreamError, Usage, assemble
from harness.net import Request, Responder, Server
from harness.reference._bridge_faults import BridgeFrames, bridge_body
from harness.reference._core import (
    Route,
    UpstreamPipe,
    error_message,
    parse_model,
    pipe_faults,
    retry_delay,
    structured_fields,
    upstream_request,
    whole_response,
)
from harness.reference._default_faults import unasked_faults
from harness.reference._door_faults import SchemaFrames
from harness.reference._faults import (
    GATEWAY_FAULTS,
    announce_thinking_as_text,
    check_faults,
    signature_after_stop,
)
from harness.reference._keepalive import DEFAULT_INTERVAL, Heartbeat
from harness.reference._parser_mutants import CHUNK_BOUND_FAULTS
from harness.reference._schema_faults import FieldFrames
from harness.reference._upstream_http import UpstreamBroken, UpstreamError, UpstreamHTTP
from harness.reference._upstream_ws import KeptSockets, UpstreamSocket, chain_after, socket_and_chain

__all__ = ["FRONT_DOORS", "FrontDoor", "Gateway", "main"]


@dataclass(frozen=True, slots=True)
class FrontDoor:
    """A dialect this gateway speaks to its clients, and the variant it answers in."""

    dialect: str
    variant: str
    usage_opt_in: bool  # OpenAI chat: usage only when stream_options.include_usage is set


FRONT_DOORS: dict[str, FrontDoor] = {
    "/v1/chat/completions": FrontDoor("openai-chat", "reasoning_details", True),
    "/chat/completions": FrontDoor("openai-chat", "reasoning_details", True),
    "/v1/messages": FrontDoor("anthropic-messages", "thinking", False),
    "/v1/interactions": FrontDoor("gemini-interactions", "summaries", False),
    "/v1beta/interactions": FrontDoor("gemini-interactions", "summaries", False),
    "/v1/responses": FrontDoor("openai-responses", "summary", False),
}


class Gateway:
    """``Gateway(upstream, faults=())``; ``start()`` -> base URL; ``stop()``; a context manager.

    Each upstream read goes through the observer, the fault filters and the front-door emitter, and each
    frame is one client write, never buffered. When the client leaves, the upstream response or socket is
    closed at once. A 429 or 5xx that came before any byte reached the client is retried once, after its
    Retry-After. The Responses WebSocket upstream keeps a socket per conversation between its turns, in
    ``_upstream_ws``, and chains each turn to the socket's last response.
    """

    def __init__(
        self, upstream: str, faults: Sequence[str] = (), host: str = "127.0.0.1", port: int = 0,
        keepalive: float = DEFAULT_INTERVAL,
    ):  # fmt: skip
        self.upstream = upstream.rstrip("/")
        self.keepalive = keepalive  # seconds of a silent client stream before a keepalive (0: never)
        self.faults = check_faults(faults, GATEWAY_FAULTS)
        self.server = Server(self.handle, host, port)
        self._http: dict[str, UpstreamHTTP] = {}  # per upstream URL (one, unless it is changed)
        self.sockets = KeptSockets()  # the Responses WebSocket upstream's, between a conversation's turns

    def start(self) -> str:
        return self.server.start()

    def stop(self) -> None:
        loop = self.server.loop
        for http in self._http.values():
            if loop is not None:
                with contextlib.suppress(Exception):
                    asyncio.run_coroutine_threadsafe(http.aclose(), loop).result(5.0)
        if loop is not None:
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._close_sockets(), loop).result(5.0)
        self.server.stop()

    async def _close_sockets(self) -> None:
        self.sockets.close()

    def __enter__(self) -> Gateway:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return self.server.base_url

    @property
    def http(self) -> UpstreamHTTP:
        http = self._http.get(self.upstream)  # made on the server's loop, used only there; a client
        if http is None:  # per upstream, so that a connection in use goes back to its own pool
            http = self._http[self.upstream] = UpstreamHTTP(self.upstream, connect=5.0, read=300.0)
        return http

    # -- requests ------------------------------------------------------------------------------------
    async def handle(self, req: Request, resp: Responder) -> None:
        if req.method == "GET" and req.path == "/health":
            await _send(resp, 200, b'{"status":"ok"}', "application/json")
            return
        door = FRONT_DOORS.get(req.path)
        if req.method != "POST" or door is None:
            await _send(resp, 404, _openai_error(404, f"no route for {req.method} {req.path}"))
            return
        try:
            front = get_dialect(door.dialect)
        except ImportError:
            await _send(resp, 404, _openai_error(404, f"front door {door.dialect} is not available"))
            return
        with contextlib.suppress(ConnectionError):  # the client left while we answered
            await self.forward(req, resp, door, front)

    async def forward(self, req: Request, resp: Responder, door: FrontDoor, front: Dialect) -> None:
        try:
            body: Any = loads(req.body)
            route = parse_model(str(body.get("model", "")))
            messages = front.parse_request(body)
        except (ValueError, KeyError, AttributeError) as exc:
            await _send(resp, 400, front.error_body(400, f"bad request: {exc}"))
            return
        stream = bool(body.get("stream"))
        want_usage = not (door.usage_opt_in and stream) or bool(
            (body.get("stream_options") or {}).get("include_usage")
        )
        client_model = str(body.get("model", ""))
        upstream = get_dialect(route.dialect)
        structured = structured_fields(body)
        faults = unasked_faults(self.faults, body)
        if upstream.websocket:
            await self.forward_ws(resp, door, front, route, messages, stream, want_usage, client_model)
            return
        spec = upstream_request(route, messages, stream=stream, faults=faults, structured=structured)
        try:
            for attempt in range(2):  # one retry, only before the client got a byte (see retry_delay)
                headers = dict(spec.headers)
                async with self.http.stream("POST", spec.path, json=spec.body, headers=headers) as up:
                    if up.status_code >= 400:
                        data = await up.aread()
                        wait = None if attempt else retry_delay(up.status_code, dict(up.headers), self.faults)
                        if wait is not None:
                            await asyncio.sleep(wait)  # the provider's Retry-After: the SUT's own pacing
                            continue
                        await self.upstream_error(resp, door, front, up.status_code, data, stream)
                    elif not stream:
                        data = await up.aread()
                        await self.whole(resp, front, door, (upstream, route.variant), data, want_usage,
                                         client_model, faults)  # fmt: skip
                    else:
                        piped = pipe_faults(faults, structured) - {"double-done"}
                        pipe = UpstreamPipe(upstream, route.variant, piped)
                        chunks = up.aiter_raw(per_chunk=bool(self.faults & CHUNK_BOUND_FAULTS))
                        await self.relay(resp, front, door, chunks, pipe, want_usage, client_model)
                return
        except UpstreamError as exc:  # the upstream could not be reached at all
            if not resp.started:
                await _send(resp, 502, front.error_body(502, f"upstream unreachable: {exc!r}"))

    async def whole(
        self, resp: Responder, front: Dialect, door: FrontDoor, upstream: tuple[Dialect, str], body: bytes,
        want_usage: bool, client_model: str, faults: frozenset[str] | None = None,
    ) -> None:  # fmt: skip
        """A non-streaming answer: the upstream's whole body (``upstream``: its dialect and the route's
        variant, whose inline tag pair the reader knows), translated (its error as an error status)."""
        _, events = whole_response(upstream[0], body, self.faults if faults is None else faults, upstream[1])
        events = [e for e in events if want_usage or not isinstance(e, Usage)]
        err = next((e for e in events if isinstance(e, StreamError)), None)
        if err is not None:
            await _send(resp, err.status or 502, front.error_body(err.status or 502, err.message))
        else:
            out = front.emit_response(tuple(events), door.variant, model=client_model)
            if door.dialect == "openai-responses":
                out = bridge_body(out, self.faults)
            await _send(resp, 200, out)

    async def relay(
        self, resp: Responder, front: Dialect, door: FrontDoor, chunks: AsyncIterator[bytes],
        pipe: UpstreamPipe, want_usage: bool, client_model: str,
    ) -> bool:  # fmt: skip
        """A streamed answer, frame by frame, to its end (True) or until the client leaves (False)."""
        await resp.start(200, [("content-type", front.content_type), ("cache-control", "no-cache")])
        emitter = front.emitter(door.variant, model=client_model)
        door_faults = self.faults if door.dialect == "openai-responses" else frozenset()
        bridge, schema = BridgeFrames(door_faults), SchemaFrames(door_faults)
        fields = FieldFrames(self.faults)  # the Responses and Anthropic doors' field rules

        def broken(frames: list[Frame]) -> list[Frame]:
            return fields.rewrite(schema.rewrite(bridge.rewrite(frames)))

        alive = None if "no-keepalive" in self.faults else front.keepalive()  # FAULT: none while silent
        beat = Heartbeat(resp, alive, self.keepalive)

        async def deliver(events: list[Event]) -> None:
            events = [e for e in events if want_usage or not isinstance(e, Usage)]
            frames = emitter.feed(events)
            if "bom-unnamed-start" in self.faults and not getattr(pipe.observer, "started", True):
                frames = [f for f in frames if f.event != "message_start"]  # FAULT: relays none either
            await beat.write(lambda: self.write(resp, front, broken(frames)))

        beat.start()
        try:
            ended = await self.pump(resp, chunks, pipe, deliver)
        finally:
            await beat.stop()
        if ended:
            await self.write(resp, front, broken(emitter.close()))
            await resp.end()
        return ended

    async def forward_ws(
        self, resp: Responder, door: FrontDoor, front: Dialect, route: Route, messages: list[Message],
        stream: bool, want_usage: bool, client_model: str,
    ) -> None:  # fmt: skip
        """The Responses WebSocket upstream: the conversation's kept socket (else a new one), one
        ``response.create`` chained to the socket's last response; an ``error`` before any output is
        the client's error status, the rest relayed as an HTTP stream is. Only a completed response
        keeps its socket for the next turn; any other end (the client's leaving first) closes it."""
        state = self.sockets.take(messages)
        sock, chain = socket_and_chain(state, self.faults)
        spec = upstream_request(route, messages, stream=True, faults=self.faults, chain=chain)
        completed = False
        try:
            if sock is None:
                sock = state["ws"] = await UpstreamSocket.open(self.upstream + spec.path, connect=5.0)
            await sock.send(dumps_compact(spec.body))
            reply = await self._ws_answer(resp, door, front, route, sock, stream, want_usage, client_model)
            completed = reply is not None and sock.event_type == "response.completed"
            chain_after(state, sock.event_type, sock.response_id, len(messages) + 1)
            if reply is not None and completed:
                self.sockets.keep([*messages, reply], state)
        except UpstreamError as exc:
            if not resp.started:
                await _send(resp, 502, front.error_body(502, f"upstream unreachable: {exc!r}"))
        finally:
            if sock is not None and not completed:
                sock.close()

    async def _ws_answer(
        self, resp: Responder, door: FrontDoor, front: Dialect, route: Route, sock: UpstreamSocket,
        stream: bool, want_usage: bool, client_model: str,
    ) -> Message | None:  # fmt: skip
        """One response off the socket to the client; the reply it carried (None: it did not end, the
        client having left)."""
        upstream = get_dialect(route.dialect)
        chunks = sock.response()
        first = await anext(chunks)
        if sock.event_type == "error":
            error: Any = loads(sock.message)
            data = dumps_compact({"error": error.get("error")}).encode()
            await self.upstream_error(resp, door, front, int(error.get("status") or 500), data, stream)
            return Message("assistant")
        if not stream:
            async for _ in chunks:
                pass
            body = dumps_compact(loads(sock.message).get("response")).encode()
            await self.whole(resp, front, door, (upstream, route.variant), body, want_usage, client_model)
            return assemble(whole_response(upstream, body, (), route.variant)[0])
        pipe = UpstreamPipe(upstream, route.variant, self.faults - {"double-done"})
        ended = await self.relay(resp, front, door, _after(first, chunks), pipe, want_usage, client_model)
        return assemble(pipe.upstream) if ended else None

    async def pump(
        self, resp: Responder, chunks: AsyncIterator[bytes], pipe: UpstreamPipe, deliver: Any
    ) -> bool:
        """Upstream chunks -> client frames until the upstream ends (True) or the client leaves (False).

        One relay task for the whole stream, raced once against the client's departure (a task per
        chunk cost more than the relaying itself on byte-by-byte streams)."""
        relay = asyncio.ensure_future(self._relay(chunks, pipe, deliver))
        gone = asyncio.ensure_future(resp.closed.wait())
        try:
            await asyncio.wait({relay, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if not resp.closed.is_set():
            return relay.result()
        # the client left (while the relay waited for the upstream, or just as it finished)
        if "keep-upstream-open" in self.faults:  # FAULT: let the read go on, read the upstream to its end
            with contextlib.suppress(ConnectionError, UpstreamError):
                await relay
            with contextlib.suppress(UpstreamError):
                async for _ in chunks:
                    pass
        else:  # stop reading now: leaving `async with` closes the upstream response
            relay.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, UpstreamError):
                await relay
        return False

    async def _relay(self, chunks: AsyncIterator[bytes], pipe: UpstreamPipe, deliver: Any) -> bool:
        try:
            async for chunk in chunks:
                try:
                    await deliver(pipe.feed(chunk))
                except ConnectionError:  # the client left while we wrote to it
                    return False
        except UpstreamBroken as exc:  # the upstream broke the stream
            await deliver(pipe.fail(f"upstream connection lost: {exc!r}"))
            return True
        await deliver(pipe.end())
        return True

    async def write(self, resp: Responder, front: Dialect, frames: list[Frame]) -> None:
        """One client write per frame (the frames of one upstream read encoded in one call)."""
        if not frames:
            return
        if "thinking-as-text-block" in self.faults:  # FAULT: thinking announced as a text block
            frames = announce_thinking_as_text(frames)
        if "signature-after-step-stop" in self.faults:  # FAULT: the signature comes after its step ended
            frames = signature_after_stop(frames)
        double = "double-done" in self.faults
        for index, data in encode_pieces(frames, front.transport):
            copies = 2 if double and index is not None and "terminal" in frames[index].tags else 1  # FAULT
            for _ in range(copies):
                if resp.closed.is_set():
                    raise ConnectionResetError("client gone")
                await resp.write(data)

    async def upstream_error(
        self, resp: Responder, door: FrontDoor, front: Dialect, status: int, body: bytes, stream: bool
    ) -> None:
        if "hide-upstream-error" in self.faults:  # FAULT: an error becomes an empty success
            if stream:
                await resp.start(200, [("content-type", front.content_type)])
                frames = front.emitter(door.variant).feed([End("stop")])
                await self.write(resp, front, frames)
                await resp.end()
            else:
                await _send(resp, 200, front.emit_response((End("stop"),), door.variant))
            return
        await _send(resp, status, front.error_body(status, error_message(body)))


async def _after(first: bytes, rest: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    yield first
    async for chunk in rest:
        yield chunk


def _openai_error(status: int, message: str) -> bytes:
    kind = "invalid_request_error" if status < 500 else "server_error"
    return dumps_compact({"error": {"message": message, "type": kind, "param": None, "code": None}}).encode()


async def _send(resp: Responder, status: int, body: bytes, content_type: str = "application/json") -> None:
    await resp.start(status, [("content-type", content_type)], framing="length", length=len(body))
    await resp.write(body)
    await resp.end()


def main(argv: Sequence[str] | None = None, *, make: type[Gateway] = Gateway) -> int:
    """The gateway as a process until SIGTERM / SIGINT; ``make``: a subclass to run instead (the
    benchmarks' slower gateway)."""
    ap = argparse.ArgumentParser(prog="python -m harness.reference.gateway", description=__doc__)
    env = os.environ
    ap.add_argument("--port", type=int, default=int(env.get("PORT") or 0), help="default: $PORT, else any")
    ap.add_argument(
        "--upstream", required=not env.get("THINKWIRE_UPSTREAM"), default=env.get("THINKWIRE_UPSTREAM"),
        help="the provider's base URL (default: $THINKWIRE_UPSTREAM)",
    )  # fmt: skip
    ap.add_argument(
        "--host", default=env.get("THINKWIRE_GATEWAY_HOST") or "127.0.0.1",
        help="the address to listen on (default: $THINKWIRE_GATEWAY_HOST, else 127.0.0.1)",
    )  # fmt: skip
    ap.add_argument("--fault", action="append", default=[], choices=sorted(GATEWAY_FAULTS))
    ap.add_argument(
        "--keepalive", type=float, default=DEFAULT_INTERVAL, metavar="SECONDS",
        help=f"seconds of a silent client stream before a keepalive (default {DEFAULT_INTERVAL}; 0: never)",
    )  # fmt: skip
    args = ap.parse_args(argv)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    gateway = make(args.upstream, args.fault, host=args.host, port=args.port, keepalive=args.keepalive)
    url = gateway.start()
    sys.stderr.write(f"thinkwire reference gateway on {url} -> {args.upstream}\n")
    sys.stderr.flush()
    try:
        while not stop.wait(3600):
            pass
    finally:
        gateway.stop()
        gc.freeze()  # the exit's collections would walk every object for nothing: its stop is awaited
    return 0


if __name__ == "__main__":
    sys.exit(main())
