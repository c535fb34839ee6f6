"""The reference SDK wrapper: an in-process "python" SUT that calls the provider directly and yields
canonical events, streaming or not, with the same fault switches as the gateway.

Rule: closing the iterator closes the upstream response (a client cancel must reach the provider). A
request the upstream fails (429 / 5xx) before anything reached the user is retried once, after its
Retry-After; a stream that fails after output is surfaced, never replayed. The Responses WebSocket mode
keeps one socket per conversation and chains each turn to the last response.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence
from typing import Any, Protocol

import httpx

from harness._json import dumps_compact
from harness.dialects import get_dialect
from harness.dialects.openai_responses_ws import TERMINAL, event_kind
from harness.events import End, Event, Message, ReasoningDelta, StreamError, TextDelta
from harness.net import WsClient
from harness.reference._core import (
    Route,
    UpstreamPipe,
    error_message,
    pipe_faults,
    retry_delay,
    structured_fields,
    upstream_request,
    whole_response,
)
from harness.reference._faults import SDK_FAULTS, check_faults
from harness.reference._request_faults import passback_messages

__all__ = ["ReferenceSDKError", "SDKRequest", "reference_sdk"]


class SDKRequest(Protocol):
    """What the harness's python driver passes (duck-typed: ``harness.drivers.SUTRequest``)."""

    base_url: str
    dialect: str
    variant: str | None
    model: str
    messages: Sequence[Message]
    stream: bool
    http: httpx.Client
    faults: frozenset[str]


class ReferenceSDKError(Exception):
    """The upstream answered with an HTTP error: ``status`` and its ``body`` (what the user sees)."""

    def __init__(self, status: int, body: bytes) -> None:
        self.status = self.status_code = status
        self.body = body
        super().__init__(f"HTTP {status}: {error_message(body)}")


def reference_sdk(request: SDKRequest) -> Iterator[Event]:
    """Call the upstream in ``request.dialect`` and yield the events its users would see."""
    faults = check_faults(getattr(request, "faults", ()), SDK_FAULTS)
    dialect = get_dialect(request.dialect)
    route = Route(request.dialect, request.variant or dialect.default_variant, request.model)
    structured = structured_fields(getattr(request, "body", None) or {})
    spec = upstream_request(
        route, request.messages, stream=request.stream, faults=faults, structured=structured
    )
    url = request.base_url.rstrip("/") + spec.path
    if getattr(dialect, "websocket", False):
        yield from _websocket(request, dialect, route, url, faults)
        return
    body: Any = spec.body
    for attempt in range(2):  # one retry, only before anything reached the user (see _attempt)
        last = attempt == 1
        retry = yield from _attempt(
            request, dialect, route, url, body, spec.headers, faults, structured, last
        )
        if retry is None:
            return
        time.sleep(retry)  # the provider's Retry-After: the SDK's own pacing, not a test's


def _attempt(
    request: SDKRequest,
    dialect: Any,
    route: Route,
    url: str,
    body: Any,
    headers: Any,
    faults: frozenset[str],
    structured: Any,
    last: bool,
) -> Generator[Event, None, float | None]:
    """One upstream request; returns the wait before a retry (None: done). A retry is asked for only
    for a status the upstream answered before any event reached the user, and not on the ``last``."""
    with request.http.stream("POST", url, json=body, headers=dict(headers)) as resp:
        if resp.status_code >= 400:
            data = resp.read()
            wait = None if last else retry_delay(resp.status_code, dict(resp.headers.items()), faults)
            if wait is not None:
                return wait
            if "hide-upstream-error" in faults:  # FAULT: an error becomes an empty success
                yield End("stop")
                return None
            raise ReferenceSDKError(resp.status_code, data)
        if not request.stream:
            _, delivered = whole_response(dialect, resp.read(), faults)
            yield from delivered
            return None
        pipe = UpstreamPipe(dialect, route.variant, pipe_faults(faults, structured))
        shown = False
        for chunk in resp.iter_raw():
            for ev in pipe.feed(chunk):
                if isinstance(ev, StreamError) and shown and "retry-after-partial" in faults:
                    return 0.0  # FAULT: the failed stream is retried although its output was shown
                shown = shown or isinstance(ev, ReasoningDelta | TextDelta)
                yield ev
        yield from pipe.end()
    return None


def _websocket(
    request: SDKRequest, dialect: Any, route: Route, url: str, faults: frozenset[str]
) -> Iterator[Event]:
    """The Responses WebSocket mode: one socket per conversation (kept in ``request.state``, closed by
    the driver at its end), ``response.create`` per turn with only the new input items and the last
    response's id. Closing the iterator mid-response closes the socket (the mode's only cancel)."""
    state: dict[str, Any] | None = getattr(request, "state", None)
    if state is None:
        state = {}
    sock = state.get("ws")
    if sock is not None and "ws-new-socket-per-turn" in faults:  # FAULT: the connection's cache is lost
        sock.close()
        sock = None
    if sock is None or sock.closed:
        sock = state["ws"] = WsClient(url, timeout=request.http.timeout.read or 10.0)
    messages = passback_messages(request.messages, route.dialect, faults)
    spec = dialect.build_request(
        messages,
        model=route.model,
        stream=True,
        variant=route.variant,
        previous_response_id=state.get("last_id"),
        since=state.get("since", 0),
    )
    pipe = UpstreamPipe(dialect, route.variant, faults)
    done = False
    try:
        sock.send(dumps_compact(spec.body))
        rid = None
        while not done:
            message = sock.recv(timeout=request.http.timeout.read or 10.0)
            if message is None:
                yield from pipe.fail("the upstream closed the WebSocket")
                done = True
                return
            kind, rid = event_kind(message, rid)
            yield from pipe.feed(b"event: " + kind.encode() + b"\ndata: " + message.encode() + b"\n\n")
            done = kind in TERMINAL
        yield from pipe.end()
        if kind == "response.completed" and rid is not None:
            state["last_id"], state["since"] = rid, len(request.messages) + 1
    finally:
        if not done:  # the user left mid-response: closing the socket is how a WebSocket cancels
            sock.close()
            state.pop("ws", None)
