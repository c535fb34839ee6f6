"""What a run knows beside its cases, created by each run and passed down to whoever reads it. It is never a
module global, so two runs in one process, such as the pytest plugin's or ``run()`` called twice, each see
only their own."""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from harness.runner._gate_wait import GateLearning

if TYPE_CHECKING:
    from harness.catalog import Case
    from harness.drivers import Driver, SUTProfile

__all__ = ["Limits", "Live", "LoadLatency", "Measured", "RunState", "Settings"]


@dataclass(frozen=True, slots=True)
class Settings:
    """What the user asked of every case: its wall-clock budget, its byte cap, and the gates' timeout
    (None: the scenario's own, raised to the measured figure when one was measured)."""

    timeout: float
    max_bytes: int
    gate_timeout: float | None = None


@dataclass(slots=True)
class Measured:
    """What the preflight measured of a started SUT (its canary, then its warm-up)."""

    gate_timeout: float | None = None
    """The gates' timeout the warm-up's first-byte latency gave (None: nothing derived)."""
    latency: float | None = None
    """The SUT's first-byte latency at the preflight (warm-up, else canary); None: nothing measured
    (the default concurrency is then 1)."""
    routable: bool = True
    """The canary's upstream request carried its routing token: cases can share the SUT."""
    start_s: float | None = None
    """How long the SUT took to start (None: thinkwire did not start it, or not in this run)."""
    relay: float | None = None
    """The SUT's relay time at the preflight (``relay_time`` of the warm-up, else the canary)."""


class LoadLatency:
    """The relay times (``relay_time``) of the ungated cases that finished while cases shared the
    SUT: how long the SUT, under thinkwire's own load, takes to hand on what the upstream wrote, which
    is what a gate waits for. A derived gate timeout is raised to ten times their median (the
    warm-up's rule, applied to the SUT as loaded), so that a SUT slowed down by the cases in flight is
    not judged to buffer; before ``MIN`` of them are in, to the warm-up's figure times the cases in
    flight. Not the first-byte latency: that adds the SUT's work on the request before it calls the
    upstream (a proxy's auth, routing, logging: LiteLLM's was twice its relay time under load), and a
    gate opens mid-stream. Gated cases are left out: a buffering SUT's relay waits for the gate, and
    would feed the timeout back into itself."""

    MIN = 4
    WINDOW = 32

    def __init__(self, lanes: int) -> None:
        self.lanes = lanes
        self._recent: deque[float] = deque(maxlen=self.WINDOW)
        self._lock = threading.Lock()

    def add(self, seconds: float) -> None:
        with self._lock:
            self._recent.append(seconds)

    def median(self) -> float | None:
        """The median relay time (None: fewer than ``MIN`` are in)."""
        with self._lock:
            recent = sorted(self._recent)
        return recent[len(recent) // 2] if len(recent) >= self.MIN else None

    def gate_timeout(self, derived: float) -> float:
        median = self.median()
        if median is None:
            return derived * self.lanes
        return max(derived, math.ceil(100 * median) / 10)  # 10x, to 0.1 s above


@dataclass(slots=True)
class Live:
    """What a round learns while its cases run."""

    load: LoadLatency | None = None
    """While cases share the SUT (``--concurrency``): how long it takes to hand on a stream, under
    the run's load."""
    learning: GateLearning | None = None
    """What the round learned of the SUT's gates (``_gate_wait``): None, every gate waits in full."""


@dataclass(slots=True)
class Limits:
    """What a case runs within: the run's settings, what was measured of its SUT, what its round
    learned so far."""

    settings: Settings
    measured: Measured = field(default_factory=Measured)
    live: Live = field(default_factory=Live)

    def aside(self) -> Limits:
        """These limits for a second instance of the SUT, which carries one case at a time: the same
        settings and gate learning, a copy of the measurements, no load of the shared cases."""
        return Limits(self.settings, replace(self.measured), Live(None, self.live.learning))


@dataclass(slots=True)
class RunState:
    """One run's state: its settings, its cases' routing tokens (token -> case id: how a check names
    another case whose content shows up in one), and what the run measured of each SUT it started
    (read again when a later round takes that SUT from the pool, instead of measuring it anew).

    Three things are kept apart: what the user asked, :class:`Settings`; what was measured of the SUT,
    :class:`Measured`; and what a round learns while its cases run, :class:`Live`.
    """

    settings: Settings
    names: Mapping[str, str] = field(default_factory=dict)
    measured: dict[Driver, Measured] = field(default_factory=dict)

    @classmethod
    def for_run(cls, cases: Iterable[Case], profile: SUTProfile, max_bytes: int) -> RunState:
        """A new run's state: ``profile``'s settings (``max_bytes`` where it sets none)."""
        settings = Settings(profile.timeout, profile.max_bytes or max_bytes, profile.gate_timeout)
        return cls(settings, {c.token: c.id for c in cases})

    def round_limits(self, driver: Driver | None) -> Limits:
        """A round's limits: what this run measured of ``driver`` (a SUT from the pool; nothing for a
        new one, or one this run did not start), and fresh gate learning."""
        known = self.measured.get(driver) if driver is not None else None
        measured = replace(known) if known is not None else Measured()
        return Limits(self.settings, measured, Live(learning=GateLearning()))
