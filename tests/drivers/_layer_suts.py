"""Python SUTs over a framework over an SDK whose decoder raises (both packages made by the test in a
directory of its own, with their dist-info): ``after_upstream`` calls the upstream, then hands its
decoder a broken body; ``before_upstream`` raises in the same place before calling it."""

from __future__ import annotations

from collections.abc import Iterator

from harness.drivers import SUTRequest
from harness.events import Event, ReasoningDelta


def after_upstream(request: SUTRequest) -> Iterator[Event]:
    import fakefw  # type: ignore[import-not-found]

    body = {"model": request.model, "messages": [{"role": "user", "content": "Hi"}], "stream": False}
    request.http.post(request.base_url + "/v1/chat/completions", json=body).raise_for_status()
    yield ReasoningDelta("thinking")
    fakefw.parse("data: {broken")


def before_upstream(request: SUTRequest) -> Iterator[Event]:
    import fakefw

    fakefw.parse("data: {broken")
    yield ReasoningDelta("never")
