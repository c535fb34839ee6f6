"""The timeline: one monotonic clock, entries from both sides of the SUT.

Rule: the mock upstream, the drivers and the cleanup watchers only *append*; checks only *read*.
Times are ``time.monotonic_ns()`` of the harness process, so upstream writes and client reads compare
directly. Entry kinds by side:

* ``upstream``: ``request`` (info: method, path, headers, body bytes in ``data``, conn, turn),
  ``rejected`` (info: status, rule, differences), ``write`` (``data``; info: tags, frame), ``gate-wait``,
  ``gate-open``, ``gate-timeout`` (info: condition, withheld, seen), ``fault`` (info: fault),
  ``disconnect`` (the SUT closed the upstream connection before the response ended),
  ``response-end``, ``server-error`` (info: error).
* ``client``: ``request``, ``status`` (info: status, headers), ``chunk`` (``data``), ``event``
  (``event``), ``end``, ``error`` (info: error), ``cancel``.
* ``sut``: ``start`` (info: pid), ``ready``, ``exit`` (info: code), ``stderr`` (``data``),
  ``child-exit`` (info: pid), ``dir-removed`` (info: path), ``dir-left`` (info: path),
  ``process-left`` (info: pid, cmdline).
* ``harness``: ``note`` (info: text), ``timeout``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from harness.events import Event

__all__ = ["Entry", "Side", "Timeline", "now"]

Side: TypeAlias = Literal["upstream", "client", "sut", "harness"]


def now() -> int:
    return time.monotonic_ns()


@dataclass(frozen=True, slots=True)
class Entry:
    t: int
    side: Side
    kind: str
    data: bytes = b""
    event: Event | None = None
    turn: int = 0
    info: Mapping[str, Any] = field(default_factory=dict)


class Timeline:
    """Append-only, thread-safe list of :class:`Entry`. Iteration yields a snapshot in time order."""

    def __init__(self) -> None:
        self._entries: list[Entry] = []
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self.t0 = now()

    def add(
        self,
        side: Side,
        kind: str,
        *,
        data: bytes = b"",
        event: Event | None = None,
        turn: int = 0,
        t: int | None = None,
        **info: Any,
    ) -> Entry:
        entry = Entry(now() if t is None else t, side, kind, data, event, turn, info)
        with self._changed:
            self._entries.append(entry)
            self._changed.notify_all()
        return entry

    def wait_for(self, side: Side, kind: str, *, timeout: float, after: int = 0) -> Entry | None:
        """Block until an entry of this side/kind (at or after time ``after``) exists, or ``timeout``
        seconds pass. Woken by :meth:`add`; never polls."""
        deadline = time.monotonic() + timeout

        def found() -> Entry | None:
            for e in self._entries:
                if e.side == side and e.kind == kind and e.t >= after:
                    return e
            return None

        with self._changed:
            while (hit := found()) is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._changed.wait(left)
            return hit

    def extend(self, entries: Iterable[Entry]) -> None:
        with self._lock:
            self._entries.extend(entries)

    def entries(self) -> list[Entry]:
        with self._lock:
            return sorted(self._entries, key=lambda e: e.t)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries())

    def __len__(self) -> int:
        return len(self._entries)

    def select(
        self, side: Side | None = None, kind: str | None = None, turn: int | None = None
    ) -> list[Entry]:
        return [
            e
            for e in self.entries()
            if (side is None or e.side == side)
            and (kind is None or e.kind == kind)
            and (turn is None or e.turn == turn)
        ]

    def client_events(self, turn: int | None = None) -> list[Event]:
        return [e.event for e in self.select("client", "event", turn) if e.event is not None]
