"""What the mock upstream is to its users, as protocols: every executor (the loopback ``MockUpstream``, the
respx router's ``RespxUpstream``, pytest-httpserver's ``ScriptHandler``) keeps the records of what it served,
and the loopback one is also what a run serves its cases from."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from harness.timeline import Timeline
    from harness.upstream._dispatch import ConversationState, RecordedRequest
    from harness.upstream._gates import ClientSide
    from harness.upstream._script import Conversation, Script

__all__ = ["LiveUpstream", "Upstream"]


@runtime_checkable
class Upstream(Protocol):
    """Any executor of a conversation: its timeline, its view of the client, the requests it got."""

    @property
    def timeline(self) -> Timeline: ...

    @property
    def client(self) -> ClientSide: ...

    @property
    def requests(self) -> list[RecordedRequest]: ...


@runtime_checkable
class LiveUpstream(Upstream, Protocol):
    """A loopback server a run serves its cases from: one conversation loaded at a time, or one per case
    routed by the case's token (``strict_routing``: a request carrying no token is refused)."""

    strict_routing: bool

    @property
    def base_url(self) -> str: ...

    @property
    def port(self) -> int: ...

    def start(self) -> str: ...

    def stop(self) -> None: ...

    def load(
        self,
        conversation: Conversation | Script,
        timeline: Timeline | None = None,
        client: ClientSide | None = None,
    ) -> object: ...

    def route(
        self,
        token: str,
        conversation: Conversation | Script,
        timeline: Timeline | None = None,
        client: ClientSide | None = None,
    ) -> ConversationState: ...

    def unroute(self, token: str) -> None: ...
