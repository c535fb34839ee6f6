"""The reference SDK wrapper: an in-process "python" SUT that calls the provider directly and yields canonical
events, streaming or not. It has the same fault switches as the gateway."""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence
from typing import Any, Protocol

import httpx

from harness.dialects import get_dialect
from harness.events import End, Event, Message, ReasoningDelta, StreamError, TextDelta
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
from harness.reference._upstream_ws import ws_turn

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
    """Call the upstream in ``request.dialect`` and yield the events its users would see.

    Closing the iterator closes the upstream response, since a client cancel must reach the provider. A
    request the upstream fails with 429 or 5xx before anything reached the user is retried once, after its
    Retry-After; a stream that fails after output is surfaced, never replayed. The Responses WebSocket mode
    keeps one socket per conversation and chains each turn to the last response.
    """
    faults = check_faults(getattr(request, "faults", ()), SDK_FAULTS)
    dialect = get_dialect(request.dialect)
    route = Route(request.dialect, request.variant or dialect.default_variant, request.model)
    structured = structured_fields(getattr(request, "body", None) or {})
    spec = upstream_request(
        route, request.messages, stream=request.stream, faults=faults, structured=structured
    )
    url = request.base_url.rstrip("/") + spec.path
    if dialect.websocket:
        yield from _websocket(request, dialect, route, faults)
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


reference_sdk.thinkwire_concurrent = True  # type: ignore[attr-defined]
"""Each call keeps its state to itself (the shared ``httpx.Client`` is thread-safe): thinkwire may
put several cases in flight through it."""


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
            _, delivered = whole_response(dialect, resp.read(), faults, route.variant)
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


def _websocket(request: SDKRequest, dialect: Any, route: Route, faults: frozenset[str]) -> Iterator[Event]:
    """The Responses WebSocket mode (``_upstream_ws``): the conversation's socket kept in ``request.state``,
    closed by the driver at its end; closing the iterator mid-response closes it (the mode's cancel)."""
    state: dict[str, Any] | None = getattr(request, "state", None)
    timeout = request.http.timeout.read or 10.0
    pipe = UpstreamPipe(dialect, route.variant, faults)
    state = {} if state is None else state
    yield from ws_turn(state, request.base_url, route, request.messages, faults, timeout, pipe)
