"""One alarm thread for every deadline the drivers set: a callback at a monotonic time, cancellable. A
request's deadline costs a heap entry, not a thread."""

from __future__ import annotations

import contextlib
import heapq
import itertools
import threading
import time
from collections.abc import Callable

__all__ = ["Alarm", "alarm"]


class Alarm:
    """``handle = alarm.at(seconds, fn)``; ``alarm.cancel(handle)``. The thread starts on first use
    (a daemon: it holds nothing a process must wait for).

    A ``threading.Timer`` per request started a thread per turn, which measured a few per cent of a
    whole-catalog run. Callbacks run on the alarm thread and must be quick, such as shutting a socket down
    or setting a flag; one that raises is ignored.
    """

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._heap: list[tuple[float, int]] = []
        self._due: dict[int, Callable[[], None]] = {}  # the handles not fired nor cancelled
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None

    def at(self, seconds: float, fn: Callable[[], None]) -> int:
        """Call ``fn`` once ``seconds`` have passed (unless cancelled); returns its handle."""
        handle = next(self._ids)
        with self._lock:
            heapq.heappush(self._heap, (time.monotonic() + max(0.0, seconds), handle))
            self._due[handle] = fn
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="thinkwire-alarm", daemon=True)
                self._thread.start()
            if self._heap[0][1] == handle:  # sooner than what the thread sleeps towards
                self._lock.notify()
        return handle

    def cancel(self, handle: int) -> None:
        with self._lock:
            self._due.pop(handle, None)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._heap or self._heap[0][0] > time.monotonic():
                    self._lock.wait(self._heap[0][0] - time.monotonic() if self._heap else None)
                _, handle = heapq.heappop(self._heap)
                fn = self._due.pop(handle, None)
                if fn is None:  # cancelled
                    continue
            with contextlib.suppress(Exception):
                fn()


alarm = Alarm()
"""The drivers' one alarm."""
