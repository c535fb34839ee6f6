"""The shared front half of the observers whose SSE frames are JSON objects with a ``type`` (Anthropic
Messages, OpenAI Responses, Cohere, Gemini Interactions): each frame's JSON and event name, and the EOF
check. The byte level is ``_framed``'s, so these observers read parsed objects only."""

from __future__ import annotations

from typing import Any

from harness.codec import SSEDecoder, SSEEvent
from harness.dialects._framed import FramedObserver, json_frame
from harness.events import Event, Notice

__all__ = ["TypedSSEObserver"]


class TypedSSEObserver(FramedObserver[SSEEvent]):
    """A subclass reads one parsed object at a time in ``_object``; its terminal event sets ``_done``."""

    terminal = "the terminal event"  # named in the no-terminator notice
    type_key = "type"  # the field of a frame's JSON that names its event (Interactions: event_type)
    after_end = False
    """Skip a ``data: [DONE]`` (an SDK's sentinel: read, never sent) and note once, unread, any frame
    after the terminal event; a subclass without it judges those frames in ``_object``."""

    def __init__(self) -> None:
        super().__init__(SSEDecoder(), "sse")
        self._done = False

    def _take(self, sse: SSEEvent, out: list[Event]) -> None:
        self._frame(sse.data, sse.event, out)

    def _eof(self) -> list[Event]:
        return [] if self._done else [Notice("no-terminator", f"EOF before {self.terminal}")]

    def _frame(self, data: str, event: str, out: list[Event]) -> None:
        if self.after_end and data.strip() == "[DONE]":
            return
        if self.after_end and self._done:
            self._after_end(data, out)
            return
        obj = json_frame(data, out)
        if obj is not None:
            raw_type = obj.get(self.type_key)
            kind: str = raw_type if isinstance(raw_type, str) else event
            self._object(obj, kind, data, event, out)

    def _object(self, obj: dict[str, Any], kind: str, data: str, event: str, out: list[Event]) -> None:
        raise NotImplementedError
