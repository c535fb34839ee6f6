"""The mock upstream as pytest fixtures hand it out: one server for the session, reset for each test by
``mock_upstream`` and for each hypothesis example by ``mock_upstream_factory.fresh()``. A reset is a fresh
timeline and client side, and an empty conversation loaded."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.timeline import Timeline

__all__ = ["MockUpstreamFactory", "MockUpstreamHandle", "fresh_handle"]


@dataclass
class MockUpstreamHandle:
    """The session's mock upstream, reset for one test: ``load(conversation)``, ``base_url``,
    ``timeline``, ``client`` (report client-side events with ``client.observe(event)``)."""

    server: Any = field(repr=False)
    timeline: Timeline = field(repr=False)
    client: Any = field(repr=False)
    loaded: list[Any] = field(default_factory=list, repr=False)

    def __repr__(self) -> str:  # (a failing hypothesis example prints it: the URL, not the internals)
        return f"<mock upstream {self.base_url}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis' pretty printer
        printer.text(repr(self))

    @property
    def base_url(self) -> str:
        return str(self.server.base_url)

    def load(self, conversation: Any) -> None:
        from harness.upstream import Conversation, Script

        if isinstance(conversation, Script):
            conversation = Conversation((conversation,))
        self.server.load(conversation, timeline=self.timeline, client=self.client)
        self.loaded.append(conversation)

    @property
    def requests(self) -> list[Any]:
        return list(self.server.requests)


def fresh_handle(server: Any) -> MockUpstreamHandle:
    """``server`` reset: a fresh timeline and client side, an empty conversation loaded."""
    from harness.timeline import Timeline
    from harness.upstream import ClientSide, Conversation

    handle = MockUpstreamHandle(server, Timeline(), ClientSide())
    server.load(Conversation(()), timeline=handle.timeline, client=handle.client)
    return handle


class MockUpstreamFactory:
    """Session-scoped: ``with mock_upstream_factory.fresh() as upstream:`` gives the session's mock upstream
    reset for one hypothesis example (a function-scoped fixture would be shared by every example)."""

    def __init__(self, server: Any) -> None:
        self.server = server

    def __repr__(self) -> str:  # (a failing example names it: its URL, not the server's internals)
        return f"<mock upstream factory {self.server.base_url}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis' pretty printer
        printer.text(repr(self))

    @contextlib.contextmanager
    def fresh(self) -> Iterator[MockUpstreamHandle]:
        handle = fresh_handle(self.server)
        try:
            yield handle
        finally:  # nothing of this example is left loaded for the next one
            fresh_handle(self.server)
