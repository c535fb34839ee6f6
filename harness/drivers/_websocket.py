"""The front-door client for a SUT whose front door is a WebSocket: the Responses API's socket mode,
``front_door = "openai-responses-ws"``. It keeps one socket per conversation and sends a
``response.create`` message per turn with only the new input items and the last response's id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness._json import dumps_compact
from harness.drivers._base import CancelWatch, CaseContext, DriverTimeout, TurnOutcome
from harness.drivers._http import FrontDoor, _Budget
from harness.events import Event, Message, StreamError
from harness.net import WsClient, WsClosed

if TYPE_CHECKING:
    from harness._gate import Gate

__all__ = ["WsFrontDoor"]


class WsFrontDoor(FrontDoor):
    """Speaks the Responses WebSocket mode to a SUT; ``end_conversation`` closes the socket.

    As in the HTTP front door, each message is recorded as a ``client``/``chunk``, decoded by the observer
    and reported to the upstream's ClientSide so gates can open. Reading is bounded by the case's deadline
    and byte cap. A cancel closes the socket, since the mode has no cancel message.
    """

    def __init__(self, base_url: str, **kw: Any) -> None:
        super().__init__(base_url, **kw)
        self.sock: WsClient | None = None
        self.last_id: str | None = None
        self.since = 0

    def end_conversation(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.last_id, self.since = None, None, 0

    def close(self) -> None:
        self.end_conversation()
        super().close()

    def send(self, ctx: CaseContext, turn: int, messages: list[Message], cancel: Gate | None) -> TurnOutcome:
        from harness.dialects.openai_responses.websocket import TERMINAL, WsMessageObserver, event_kind

        spec = self.dialect.build_request(
            messages, model=ctx.model, stream=True, variant=self.variant,
            previous_response_id=self.last_id, since=self.since, **self.build_options,
        )  # fmt: skip
        payload, headers, unasked = self._shaped(ctx, dict(spec.body), dict(spec.headers), turn)
        tl, out = ctx.timeline, TurnOutcome()
        asked: dict[str, Any] = {"unasked": list(unasked)} if unasked else {}
        data = dumps_compact(payload).encode()
        tl.add("client", "request", turn=turn, data=data, url=self.base_url, **asked)
        if ctx.left() <= 0:
            raise DriverTimeout(f"the case did not finish within {ctx.timeout:g}s (before turn {turn})")
        try:
            if self.sock is None or self.sock.closed:
                url = self.base_url + (self.path or spec.path)
                extra = [(k, v) for k, v in headers.items() if k.lower() != "content-type"]
                self.sock = WsClient(url, extra, timeout=min(5.0, ctx.left()))
            self.sock.send(dumps_compact(payload))
        except (OSError, WsClosed) as exc:
            tl.add("client", "error", turn=turn, error=repr(exc))
            out.events.append(StreamError(f"transport error: {exc!r}"))
            tl.add("client", "event", event=out.events[-1], turn=turn)
            return out
        observer, taken, watch = WsMessageObserver(), _Budget(ctx, tl, turn), CancelWatch(cancel)
        rid = None
        while True:
            left = ctx.left()
            message = self.sock.recv(timeout=left) if left > 0 else None
            if message is None:
                if ctx.left() <= 0:
                    tl.add("client", "error", turn=turn, error="deadline: socket closed by thinkwire")
                    self.end_conversation()
                    raise DriverTimeout(f"the case did not finish within {ctx.timeout:g}s (turn {turn})")
                self._emit(ctx, turn, out, [*observer.end(), StreamError("transport error: socket closed")])
                self.sock = None
                return out
            data = message.encode()
            taken.chunk(data)
            event_type, rid = event_kind(message, rid)
            fresh = observer.feed(data)
            self._emit(ctx, turn, out, fresh)
            if cancel is not None and [ev for ev in fresh if watch.see(ev)]:
                tl.add("client", "cancel", turn=turn)
                out.cancelled = True
                self.end_conversation()  # leaving mid-response: the socket goes
                return out
            if event_type in TERMINAL:
                break
        self._emit(ctx, turn, out, observer.end())
        tl.add("client", "end", turn=turn)
        if event_type == "response.completed" and rid is not None:
            self.last_id, self.since = rid, len(messages) + 1
        return out

    @staticmethod
    def _emit(ctx: CaseContext, turn: int, out: TurnOutcome, events: list[Event]) -> None:
        for ev in events:
            ctx.timeline.add("client", "event", event=ev, turn=turn)
            ctx.client.observe(ev)
            out.events.append(ev)
