"""The timeline: one monotonic clock, entries from both sides of the SUT.

Rule: the mock upstream, the drivers and the cleanup watchers only *append*; checks only *read*.
Times are ``time.monotonic_ns()`` of the harness process, so upstream writes and client reads compare
directly. Entry kinds by side:

* ``upstream``: ``request`` (info: method, path, headers, body bytes in ``data``, conn, turn),
  ``rejected`` (info: status, rule, differences), ``write`` (``data``; info: tags, frame), ``gate-wait``,
  ``gate-open``, ``gate-timeout`` (info: condition, withheld, seen), ``fault`` (info: fault),
  ``disconnect`` (the SUT closed the upstream connection before the response ended),
  ``response-end``, ``server-error`` (info: error, cause: ``sut`` for a request the conversation has
  no script for or addressed to another dialect, ``harness`` for a mock-internal exception), ``mode``
  (info: stream — what the upstream answered, asked_stream — what the request asked for, reasoning).
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
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from operator import itemgetter
from time import monotonic_ns as _monotonic_ns
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, TypeAlias

from harness.events import Event

__all__ = ["Entry", "Side", "Timeline", "now"]

Side: TypeAlias = Literal["upstream", "client", "sut", "harness"]


def now() -> int:
    return time.monotonic_ns()


class Entry(NamedTuple):
    """One thing that happened, on one side, at monotonic time ``t`` (ns). Immutable; a named tuple
    because a long stream makes thousands (a frozen dataclass took four times as long to build)."""

    t: int
    side: Side
    kind: str
    data: bytes = b""
    event: Event | None = None
    turn: int = 0
    info: Mapping[str, Any] = MappingProxyType({})


_WriteRow: TypeAlias = tuple[int, Side, bytes, int, tuple[str, ...], int | None]
"""A ``write`` entry as :meth:`Timeline.add_write` keeps it: t, side, data, turn, sorted tags, frame.
Atomic values only, so the garbage collector untracks the row at its first pass (a frozenset in it
would keep every row of a long stream tracked, and each full collection would walk them all)."""


_new = tuple.__new__  # ``Entry(...)`` goes through a Python-level __new__: twice as slow
_by_time = itemgetter(0)  # an Entry's ``t``, read in C


class Timeline:
    """Append-only, thread-safe list of :class:`Entry`. Iteration yields a snapshot in time order.

    ``write`` entries added with :meth:`add_write` (one per socket write, the upstream's hot path) are
    kept as plain tuples and built into :class:`Entry` objects by the first read.

    ``Timeline(limit=N)`` is a ring: it keeps the N most recent entries and releases older ones (a
    long-lived server's record, read by nobody or only for its tail). A case's timeline has no limit:
    its checks read all of it."""

    def __init__(self, limit: int | None = None) -> None:
        if limit is not None and limit < 1:
            raise ValueError(f"Timeline(limit={limit}): expected None or a number of entries >= 1")
        self.limit = limit
        self._entries: deque[Entry] | list[Entry] = [] if limit is None else deque(maxlen=limit)
        self._pending: deque[Entry | _WriteRow] = deque(maxlen=limit)
        """Added since the last read (deque appends are thread-safe: no lock on the write path);
        moved to ``_entries`` by :meth:`_settle`, under the lock, write rows built into entries."""
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._waiting = 0
        """Threads inside :meth:`wait_for`: with none, appending skips the notification."""
        self._tag_keys: dict[frozenset[str], tuple[str, ...]] = {}
        """Each write's tag set, sorted once per distinct set (a stream has a handful)."""
        self._infos: dict[tuple[tuple[str, ...], int | None], Mapping[str, Any]] = {}
        """A write entry's ``info`` per (tags, frame): shared by the writes of one frame."""
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
        entry = Entry(time.monotonic_ns() if t is None else t, side, kind, data, event, turn, info)
        self._pending.append(entry)
        if self._waiting:
            self._notify()
        return entry

    def add_write(
        self,
        side: Side,
        data: bytes,
        turn: int = 0,
        tags: frozenset[str] = frozenset(),
        frame: int | None = None,
    ) -> None:
        """``add(side, "write", data=, turn=, tags=sorted(tags), frame=)`` for the hot path (one per
        socket write): it keeps one tuple and builds the :class:`Entry` when someone reads. Building
        it here cost more than the write, mostly in garbage collection of the info dict and list."""
        key = self._tag_keys.get(tags)
        if key is None:
            key = self._tag_keys.setdefault(tags, tuple(sorted(tags)))
        self._pending.append((_monotonic_ns(), side, data, turn, key, frame))
        if self._waiting:
            self._notify()

    def add_writes(self, side: Side, turn: int, writes: Sequence[Any], times: Sequence[int]) -> None:
        """:meth:`add_write` for a run of writes (``Write``-like: ``data``, ``tags``, ``frame``), made
        at ``times`` (one per write, in order; writes past the last time are not recorded)."""
        keys = self._tag_keys
        for tags in {w.tags for w in writes[: len(times)]}:
            if tags not in keys:
                keys[tags] = tuple(sorted(tags))
        self._pending.extend(
            [(t, side, w.data, turn, keys[w.tags], w.frame) for t, w in zip(times, writes, strict=False)]
        )
        if self._waiting:
            self._notify()

    def _notify(self) -> None:
        # after the append: a waiter counts itself in ``_waiting`` (under the lock) before it looks,
        # so one not counted yet will see the new item when it looks
        with self._changed:
            self._changed.notify_all()

    def _settle(self) -> None:  # caller holds the lock
        """Move what was added to the entries; write rows become entries, and the writes of one frame
        (a byte-wise stream has thousands) share one read-only ``info``."""
        pending, entries, infos = self._pending, self._entries, self._infos
        add, pop, new = entries.append, pending.popleft, _new
        for _ in range(len(pending)):
            item = pop()
            if isinstance(item, Entry):
                add(item)
                continue
            t, side, data, turn, tags, frame = item
            info = infos.get((tags, frame))
            if info is None:
                info = infos[(tags, frame)] = MappingProxyType({"tags": list(tags), "frame": frame})
            add(new(Entry, (t, side, "write", data, None, turn, info)))

    def wait_for(self, side: Side, kind: str, *, timeout: float, after: int = 0) -> Entry | None:
        """Block until an entry of this side/kind (at or after time ``after``) exists, or ``timeout``
        seconds pass. Woken by :meth:`add` and :meth:`add_write`; never polls."""
        deadline = time.monotonic() + timeout

        seen = 0  # entries already looked at (a list only grows; a ring is scanned whole)

        def found() -> Entry | None:
            nonlocal seen
            self._settle()
            entries = self._entries
            todo = entries[seen:] if isinstance(entries, list) else entries
            for e in todo:
                if e.side == side and e.kind == kind and e.t >= after:
                    return e
            seen = len(entries)
            return None

        with self._changed:
            self._waiting += 1
            try:
                while (hit := found()) is None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return None
                    self._changed.wait(left)
                return hit
            finally:
                self._waiting -= 1

    def extend(self, entries: Iterable[Entry]) -> None:
        with self._lock:
            self._settle()
            self._entries.extend(entries)

    def entries(self) -> list[Entry]:
        with self._lock:
            self._settle()
            return sorted(self._entries, key=_by_time)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries())

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries) + len(self._pending)

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
