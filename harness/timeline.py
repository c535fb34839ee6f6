"""The timeline: one monotonic clock, with entries from both sides of the SUT. The mock upstream, the drivers
and the cleanup watchers only append and checks only read, so the evidence a verdict cites is what
happened."""

from __future__ import annotations

import threading
import time
import warnings
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
    """``time.monotonic_ns()`` of the harness process, so upstream writes and client reads compare directly.
    """
    return time.monotonic_ns()


class Entry(NamedTuple):
    """One thing that happened, on one side, at monotonic time ``t`` (ns). Immutable; a named tuple
    because a long stream makes thousands (a frozen dataclass took four times as long to build)."""

    t: int
    side: Side
    act: str
    """What happened: ``request``, ``chunk``, ``write``, ``response-end``... (listed in :class:`Timeline`)."""
    data: bytes = b""
    event: Event | None = None
    turn: int = 0
    info: Mapping[str, Any] = MappingProxyType({})

    @property
    def kind(self) -> str:
        """Deprecated spelling of :attr:`act` ("kind" is a SUT kind's name)."""
        warnings.warn("Entry.kind is deprecated; use Entry.act", DeprecationWarning, stacklevel=2)
        return self.act


def _old_keyword(act: str | None, kind: str | None, where: str) -> str | None:
    """``act``, or the deprecated keyword ``kind=`` given for it, with a warning naming the new one."""
    if kind is None:
        return act
    warnings.warn(f"{where}(kind=...) is deprecated; use act=", DeprecationWarning, stacklevel=3)
    if act is not None and act != kind:
        raise TypeError(f"{where}: act={act!r} and its old spelling kind={kind!r} disagree")
    return kind


_WriteRow: TypeAlias = tuple[int, Side, bytes, int, tuple[str, ...], int | None]
"""A ``write`` entry as :meth:`Timeline.add_write` keeps it: t, side, data, turn, sorted tags, frame.
Atomic values only, so the garbage collector untracks the row at its first pass (a frozenset in it
would keep every row of a long stream tracked, and each full collection would walk them all)."""


class _WriteRun(tuple):  # type: ignore[type-arg]
    """A run of writes as :meth:`Timeline.add_writes` keeps it: times, side, turn and the columns
    datas, tags, frames (a handful of objects for the whole run, whatever its length)."""

    __slots__ = ()


_new = tuple.__new__  # ``Entry(...)`` goes through a Python-level __new__: twice as slow
_by_time = itemgetter(0)  # an Entry's ``t``, read in C


class Timeline:
    """Append-only, thread-safe list of :class:`Entry`. Iteration yields a snapshot in time order.

    ``write`` entries added with :meth:`add_write` or :meth:`add_writes` (one per socket write, the
    upstream's hot path) are kept as plain tuples or columns and built into :class:`Entry` objects by
    the first read.

    ``Timeline(limit=N)`` is a ring: it keeps the N most recent entries and releases older ones (a
    long-lived server's record, read by nobody or only for its tail). A case's timeline has no limit:
    its checks read all of it.

    Writers only append; the one move is :meth:`retag`, a driver moving its client entries to the turn
    the upstream's requests say they belong to. Entry acts by side:

    * ``upstream``: ``request`` (info: method, path, headers, body bytes in ``data``, conn, turn),
      ``rejected`` (info: status, rule, differences), ``write`` (``data``; info: tags, frame), ``gate-wait``,
      ``gate-open``, ``gate-timeout`` (info: condition, withheld, seen), ``fault`` (info: fault),
      ``disconnect`` (the SUT closed the upstream connection before the response ended),
      ``response-end``, ``server-error`` (info: error, cause: ``sut`` for a request the conversation has
      no script for or addressed to another dialect, ``harness`` for a mock-internal exception), ``mode``
      (info: stream, what the upstream answered; asked_stream, what the request asked for; reasoning).
    * ``client``: ``request``, ``status`` (info: status, headers), ``chunk`` (``data``), ``event``
      (``event``), ``end``, ``error`` (info: error, exception, traceback, where), ``cancel``, ``tool``
      (info: name, arguments, result: a tool the SUT ran through ``SUTRequest.tool_functions``).
    * ``sut``: ``start`` (info: pid), ``ready``, ``exit`` (info: code), ``stderr`` (``data``),
      ``child-start`` (info: pid, cmdline), ``child-exit`` (info: pid), ``dir-created`` (info: path),
      ``dir-removed`` (info: path, children_alive), ``dir-left`` (info: path), ``process-left`` (info:
      pid, cmdline).
    * ``harness``: ``note`` (info: text), ``timeout``.
    """

    def __init__(self, limit: int | None = None) -> None:
        if limit is not None and limit < 1:
            raise ValueError(f"Timeline(limit={limit}): expected None or a number of entries >= 1")
        self.limit = limit
        self._entries: deque[Entry] | list[Entry] = [] if limit is None else deque(maxlen=limit)
        self._pending: deque[Entry | _WriteRow | _WriteRun] = deque(maxlen=limit)
        """Added since the last read (deque appends are thread-safe: no lock on the write path);
        moved to ``_entries`` by :meth:`_settle`, under the lock, write rows built into entries."""
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._waiting = 0
        """Threads inside :meth:`wait_for`: with none, appending skips the notification."""
        self.writing = 0
        """Write runs between their socket send and their record, counted by the one thread that
        writes them (the mock's): the SUT may already hold bytes the timeline has not got yet."""
        self._tag_keys: dict[frozenset[str], tuple[str, ...]] = {}
        """Each write's tag set, sorted once per distinct set (a stream has a handful)."""
        self._infos: dict[tuple[tuple[str, ...], int | None], Mapping[str, Any]] = {}
        """A write entry's ``info`` per (tags, frame): shared by the writes of one frame."""
        self.t0 = now()

    def add(
        self,
        side: Side,
        act: str | None = None,
        *,
        data: bytes = b"",
        event: Event | None = None,
        turn: int = 0,
        t: int | None = None,
        **info: Any,
    ) -> Entry:
        """Append an entry: ``side`` did ``act``; ``info`` is what else it says (a ``kind=`` keyword is
        the deprecated spelling of ``act``, not an info key)."""
        if "kind" in info:
            act = _old_keyword(act, info.pop("kind"), "Timeline.add")
        if act is None:
            raise TypeError("Timeline.add() missing the argument 'act' (what happened)")
        entry = Entry(time.monotonic_ns() if t is None else t, side, act, data, event, turn, info)
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
        self._pending.append((_monotonic_ns(), side, data, turn, self._key(tags), frame))
        if self._waiting:
            self._notify()

    def add_writes(
        self,
        side: Side,
        turn: int,
        times: Sequence[int],
        datas: Sequence[bytes],
        tags: Sequence[frozenset[str]],
        frames: Sequence[int | None],
    ) -> None:
        """:meth:`add_write` for a run of writes, given as columns: the ``i``-th write was made at
        ``times[i]`` with ``datas[i]``, ``tags[i]`` and ``frames[i]`` (writes past the last time are
        not recorded). The run is kept as it is, one item for all its writes, and built into entries
        by the first read: a row per write, made while the stream goes out, cost the upstream's hot
        path a tenth of its frame rate (mostly garbage collection). A ring (``limit``) keeps rows, so
        that it holds at most ``limit`` writes."""
        if self.limit is None:
            self._pending.append(_WriteRun((times, side, turn, datas, tags, frames)))
        else:
            key = self._key
            self._pending.extend(
                [
                    (t, side, d, turn, key(g), f)
                    for t, d, g, f in zip(times, datas, tags, frames, strict=False)
                ]
            )
        if self._waiting:
            self._notify()

    def quiesce(self, timeout: float = 2.0) -> bool:
        """Wait (at most ``timeout`` seconds) until no write run is between its send and its record,
        so that a reader sees every byte the SUT could have read: the client can get an answer and
        the case be judged while the mock's thread, preempted right after its send, has not recorded
        the write yet. False when the wait ran out (the record is then what it is)."""
        if not self.writing:
            return True
        deadline = time.monotonic() + timeout
        while self.writing:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.0005)  # hands the GIL to the writing thread, which needs a few microseconds
        return True

    def _key(self, tags: frozenset[str]) -> tuple[str, ...]:
        """A tag set, sorted once per distinct set (a stream has a handful)."""
        key = self._tag_keys.get(tags)
        if key is None:
            key = self._tag_keys[tags] = tuple(sorted(tags))
        return key

    def _notify(self) -> None:
        # after the append: a waiter counts itself in ``_waiting`` (under the lock) before it looks,
        # so one not counted yet will see the new item when it looks
        with self._changed:
            self._changed.notify_all()

    def _settle(self) -> None:  # caller holds the lock
        """Move what was added to the entries; write rows become entries, and the writes of one frame
        (a byte-wise stream has thousands) share one read-only ``info``."""
        pending, entries, infos, key = self._pending, self._entries, self._infos, self._key
        add, pop, new = entries.append, pending.popleft, _new
        for _ in range(len(pending)):
            item = pop()
            if isinstance(item, Entry):
                add(item)
                continue
            if type(item) is _WriteRun:
                times, side, turn, datas, tagss, frames = item
                rows: Iterable[tuple[int, bytes, tuple[str, ...], int | None]] = zip(
                    times, datas, map(key, tagss), frames, strict=False
                )
            else:
                t, side, data, turn, tags, frame = item
                rows = ((t, data, tags, frame),)
            for t, data, tags, frame in rows:
                info = infos.get((tags, frame))
                if info is None:
                    info = infos[(tags, frame)] = MappingProxyType({"tags": list(tags), "frame": frame})
                add(new(Entry, (t, side, "write", data, None, turn, info)))

    def wait_for(
        self,
        side: Side,
        act: str | None = None,
        *,
        timeout: float,
        after: int = 0,
        kind: str | None = None,
    ) -> Entry | None:
        """Block until an entry of this side and act (at or after time ``after``) exists, or ``timeout``
        seconds pass. Woken by :meth:`add` and :meth:`add_write`; never polls. (``kind=``: the
        deprecated spelling of ``act``.)"""
        act = _old_keyword(act, kind, "Timeline.wait_for")
        if act is None:
            raise TypeError("Timeline.wait_for() missing the argument 'act' (what to wait for)")
        deadline = time.monotonic() + timeout

        seen = 0  # entries already looked at (a list only grows; a ring is scanned whole)

        def found() -> Entry | None:
            nonlocal seen
            self._settle()
            entries = self._entries
            todo = entries[seen:] if isinstance(entries, list) else entries
            for e in todo:
                if e.side == side and e.act == act and e.t >= after:
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
            self._settle()  # a pending run counts its writes
            return len(self._entries)

    def select(
        self,
        side: Side | None = None,
        act: str | None = None,
        turn: int | None = None,
        *,
        kind: str | None = None,
    ) -> list[Entry]:
        """The entries of ``side``, ``act`` and ``turn`` (None: any), in time order. (``kind=``: the
        deprecated spelling of ``act``.)"""
        act = _old_keyword(act, kind, "Timeline.select")
        return [
            e
            for e in self.entries()
            if (side is None or e.side == side)
            and (act is None or e.act == act)
            and (turn is None or e.turn == turn)
        ]

    def retag(self, side: Side, turn: int, since: int, new_turn: int) -> int:
        """Move ``side``'s entries of ``turn`` at or after time ``since`` to ``new_turn``: a SUT that
        continued the conversation on its own (ran a tool itself, asked the model again) is read by
        what reached the upstream, not by the call that carried it. Returns how many moved."""
        moved = 0
        with self._lock:
            self._settle()
            entries = self._entries
            for i, e in enumerate(entries):
                if e.side == side and e.turn == turn and e.t >= since:
                    entries[i] = e._replace(turn=new_turn)
                    moved += 1
        return moved

    def client_events(self, turn: int | None = None) -> list[Event]:
        return [e.event for e in self.select("client", "event", turn) if e.event is not None]
