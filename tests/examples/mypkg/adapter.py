"""``mypkg.adapter:stream``, the SDK wrapper the README's quick example tests: here the bundled
reference SDK wrapper stands in for yours (a callable taking a ``harness.drivers.SUTRequest`` and
yielding canonical events)."""

from __future__ import annotations

from collections.abc import Iterator

from harness.drivers import SUTRequest
from harness.events import Event
from harness.reference.sdk import reference_sdk


def stream(request: SUTRequest) -> Iterator[Event]:
    yield from reference_sdk(request)
