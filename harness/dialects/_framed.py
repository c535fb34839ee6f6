"""The front half every line-framed observer shares, SSE or NDJSON: decoding, the decoder's anomalies as
notices, JSON parsing and the once-only note of data after the end. A subclass reads one decoded frame at a
time and says at EOF what was missing, so the byte-level reading is written once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from harness._json import JSONDecodeError, loads
from harness.events import Event, Notice

__all__ = ["FramedObserver", "json_frame"]

F = TypeVar("F")
F_co = TypeVar("F_co", covariant=True)


class _Decoder(Protocol[F_co]):
    anomalies: list[str]

    def feed(self, data: bytes) -> Sequence[F_co]: ...

    def end(self) -> Sequence[F_co]: ...


def json_frame(data: str, out: list[Event]) -> dict[str, Any] | None:
    """One frame's JSON object, or None with its ``malformed-json`` or ``unknown-frame`` notice."""
    try:
        obj = loads(data)
    except (JSONDecodeError, ValueError):
        out.append(Notice("malformed-json", data[:80]))
        return None
    if not isinstance(obj, dict):
        out.append(Notice("unknown-frame", data[:80]))
        return None
    return obj


class FramedObserver(Generic[F]):
    """:meth:`feed` and :meth:`end` over a decoder (``SSEDecoder``: ``sse-`` notices, ``JSONLDecoder``:
    ``jsonl-``): a subclass reads each decoded frame in ``_take`` and returns its EOF events from ``_eof``."""

    def __init__(self, decoder: _Decoder[F], prefix: str) -> None:
        self._decoder = decoder
        self._prefix = prefix
        self._anomalies = 0
        self._after_noted = False

    def feed(self, data: bytes) -> list[Event]:
        return self._read_frames(self._decoder.feed(data))

    def end(self) -> list[Event]:
        return self._read_frames(self._decoder.end()) + self._eof()

    def _read_frames(self, frames: Sequence[F]) -> list[Event]:
        """The frames' events, then the decoder's new anomalies as notices."""
        out: list[Event] = []
        for frame in frames:
            self._take(frame, out)
        new = self._decoder.anomalies[self._anomalies :]
        self._anomalies = len(self._decoder.anomalies)
        return out + [Notice(f"{self._prefix}-{a}") for a in new]

    def _after_end(self, data: str, out: list[Event]) -> None:
        """A frame after the stream's end: noted once, never read."""
        if not self._after_noted:
            self._after_noted = True
            out.append(Notice("data-after-end", data[:80]))

    def _take(self, frame: F, out: list[Event]) -> None:
        raise NotImplementedError

    def _eof(self) -> list[Event]:
        raise NotImplementedError
