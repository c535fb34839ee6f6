"""The shared front half of the observers whose SSE frames are JSON objects with a ``type``, Anthropic
Messages and OpenAI Responses: SSE decoding, decoder anomalies as notices, JSON parsing, the EOF check.
Everything byte-level lives here once, so those observers read parsed objects only."""

from __future__ import annotations

from typing import Any

from harness._json import JSONDecodeError, loads
from harness.codec import SSEDecoder
from harness.events import Event, Notice

__all__ = ["TypedSSEObserver"]


class TypedSSEObserver:
    """A subclass reads one parsed object at a time in ``_object``; its terminal event sets ``_done``."""

    terminal = "the terminal event"  # named in the no-terminator notice
    type_key = "type"  # the field of a frame's JSON that names its event (Interactions: event_type)

    def __init__(self) -> None:
        self._sse = SSEDecoder()
        self._anomalies = 0
        self._done = False

    def feed(self, data: bytes) -> list[Event]:
        out: list[Event] = []
        for sse in self._sse.feed(data):
            self._frame(sse.data, sse.event, out)
        out += self._notices()
        return out

    def end(self) -> list[Event]:
        self._sse.end()
        out = self._notices()
        if not self._done:
            out.append(Notice("no-terminator", f"EOF before {self.terminal}"))
        return out

    def _notices(self) -> list[Event]:
        new = self._sse.anomalies[self._anomalies :]
        self._anomalies = len(self._sse.anomalies)
        return [Notice(f"sse-{a}") for a in new]

    def _frame(self, data: str, event: str, out: list[Event]) -> None:
        try:
            obj = loads(data)
        except (JSONDecodeError, ValueError):
            out.append(Notice("malformed-json", data[:80]))
            return
        if not isinstance(obj, dict):
            out.append(Notice("unknown-frame", data[:80]))
            return
        raw_type = obj.get(self.type_key)
        kind: str = raw_type if isinstance(raw_type, str) else event
        self._object(obj, kind, data, event, out)

    def _object(self, obj: dict[str, Any], kind: str, data: str, event: str, out: list[Event]) -> None:
        raise NotImplementedError
