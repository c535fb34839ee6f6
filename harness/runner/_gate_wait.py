"""How long a gate waits, from what the run has learned of the SUT. Once the SUT was seen to buffer, gates
wait less, derived from how fast it was seen to relay; one honest slow relay never shortens anything."""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.judge import CaseView

__all__ = ["GateLearning", "shortened_note"]


def shortened_note(short: float, full: float, seen: int) -> str:
    """What a finding decided by a shortened wait adds to its message."""
    return (
        f" (a shortened wait, {short:g}s instead of {full:g}s: {seen} earlier case(s) of this run had a "
        "gate time out after its full wait, the SUT buffering; the reproduce line runs the case alone, "
        "with the full wait)"
    )


class GateLearning:
    """One run's (one round's) record of its gates, shared by the cases in flight (thread-safe).

    Every gate waits its full timeout until ``BUFFERED_MIN`` cases of the run each had a gate time out
    after its full wait, with the withheld frame held back the whole time and the client still short of the
    gate's condition. From then on a gate waits :meth:`short`: ten times the relay time the preflight
    measured, and the ungated cases measured under the run's load; at least three times the longest any
    gate of the run took to open; at least ``FLOOR_S``; never more than the full wait.

    A gate that times out after a shortened wait still FAILs the case with the same finding, whose message
    says that the wait was shortened. Its reproduce line runs the case alone, where nothing was learned
    yet, so with the full wait.
    """

    BUFFERED_MIN = 2
    """Cases with a gate that timed out after its full wait, before waits are shortened."""
    FLOOR_S = 0.1
    """The shortest wait: well above a relay's jitter on a loaded machine (a correct in-process SUT
    hands on a delta in about a millisecond, the reference gateway in two to five)."""
    RELAY_FACTOR = 10
    OPEN_FACTOR = 3

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buffered = 0
        self._longest_open = 0.0

    @property
    def buffered(self) -> int:
        """The cases seen to buffer so far (a gate timed out after its full wait)."""
        with self._lock:
            return self._buffered

    def short(self, full: float, *relays: float | None) -> float | None:
        """The wait for a gate whose full wait is ``full``: None while nothing says the SUT buffers
        (the full wait then), else the shortened one (below ``full``). ``relays``: what was measured of
        the SUT's relay time (the preflight's; the median of the ungated cases under the run's load,
        when cases share the SUT), None where nothing was."""
        with self._lock:
            if self._buffered < self.BUFFERED_MIN:
                return None
            longest_open = self._longest_open
        relay = max((r for r in relays if r is not None), default=0.0)
        wait = max(self.FLOOR_S, self.RELAY_FACTOR * relay, self.OPEN_FACTOR * longest_open)
        wait = math.ceil(10 * wait - 1e-9) / 10  # to 0.1 s above: the same figure in every finding
        return wait if wait < full else None

    def learn(self, view: CaseView, *, shortened: bool) -> None:
        """What a finished case shows: a gate that timed out after its full wait (``shortened``:
        the case's gates waited a shortened wait, which proves nothing of the SUT), and how long each
        gate that opened waited."""
        timed_out = False
        longest = 0.0
        for turn in view.turns:
            waits = list(turn.gate_waits)
            for e in turn.gate_opens:
                began = [w.t for w in waits if w.t <= e.t]
                if began:
                    longest = max(longest, (e.t - began[-1]) / 1e9)
            if not shortened and any(float(e.info.get("timeout") or 0.0) > 0 for e in turn.gate_timeouts):
                timed_out = True
        with self._lock:
            self._buffered += timed_out
            self._longest_open = max(self._longest_open, longest)
