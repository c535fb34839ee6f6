"""Signals during ``thinkwire run``: the first SIGINT or SIGTERM stops the run, later ones wait. It is
separate so that cleanup and the partial report are never cut short by a second signal."""

from __future__ import annotations

import signal
import threading
from typing import Any

__all__ = ["Signals"]


class Signals:
    """SIGINT and SIGTERM during ``thinkwire run``: the first one stops the run (KeyboardInterrupt in
    the main thread, where the runner turns it into a partial, ``interrupted`` result after stopping
    every SUT); later ones, and any after ``disarm()``, are only remembered, so cleanup and the
    partial report are never cut short. Outside the main thread (embedded use) nothing is installed."""

    def __init__(self) -> None:
        self.signum = 0
        self.armed = True
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> Signals:
        if threading.current_thread() is threading.main_thread():
            self._previous = {s: signal.signal(s, self._handle) for s in (signal.SIGINT, signal.SIGTERM)}
        return self

    def __exit__(self, *exc: object) -> None:
        for s, previous in self._previous.items():
            signal.signal(s, previous)

    def _handle(self, signum: int, frame: object) -> None:
        if self.signum:
            return
        self.signum = signum
        if self.armed:
            raise KeyboardInterrupt

    def disarm(self) -> None:
        self.armed = False

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name if self.signum else ""
