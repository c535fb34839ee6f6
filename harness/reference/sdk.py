"""The reference SDK wrapper: an in-process "python" SUT that calls the provider directly and yields
canonical events, streaming or not, with the same fault switches as the gateway.

Rule: closing the iterator closes the upstream response (a client cancel must reach the provider).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import httpx

from harness.dialects import get_dialect
from harness.events import End, Event, Message
from harness.reference._core import Route, UpstreamPipe, error_message, upstream_request, whole_response
from harness.reference._faults import SDK_FAULTS, check_faults

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
    spec = upstream_request(route, request.messages, stream=request.stream, faults=faults)
    url = request.base_url.rstrip("/") + spec.path
    body: Any = spec.body
    with request.http.stream("POST", url, json=body, headers=dict(spec.headers)) as resp:
        if resp.status_code >= 400:
            data = resp.read()
            if "hide-upstream-error" in faults:  # FAULT: an error becomes an empty success
                yield End("stop")
                return
            raise ReferenceSDKError(resp.status_code, data)
        if not request.stream:
            _, delivered = whole_response(dialect, resp.read(), faults, route.variant)
            yield from delivered
            return
        pipe = UpstreamPipe(dialect, route.variant, faults)
        for chunk in resp.iter_raw():
            yield from pipe.feed(chunk)
        yield from pipe.end()
