"""A second instance of the SUT for the cases that need it to themselves, so that they run alongside the
shared ones instead of after them. It serves ``--concurrency`` through a gateway thinkwire starts."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from harness.catalog import Case
from harness.drivers import Driver, DriverError, SUTCallable, SUTProfile
from harness.judge import CaseView
from harness.runner._case_run import run_case
from harness.runner._preflight import canary_case
from harness.runner._state import Limits
from harness.verdict import CaseResult, Status

if TYPE_CHECKING:
    from harness.upstream import LiveUpstream

__all__ = ["AsideSUT", "worth_aside"]

StartDriver = Callable[[SUTProfile, SUTCallable | None, str, Driver | None], Driver]
"""The run's driver start: (profile, callable, upstream URL, pooled driver) -> a started driver."""


def worth_aside(profile: SUTProfile, cases: int, lanes: int, limits: Limits) -> bool:
    """Start a second instance for this round? Only of a SUT whose kind allows one (a gateway thinkwire
    starts as a process; a URL names one running instance; a CLI or adapter runs alone anyway), and
    only when its start takes well under the time the shared cases keep the first instance busy
    (taken as the SUT's first-byte latency a case, ``lanes`` at a time: a lower bound): otherwise the
    alone cases would wait for the start, not for the shared cases."""
    measured = limits.measured
    if not profile.abilities.second_instance or measured.latency is None or measured.start_s is None:
        return False
    return cases * measured.latency / lanes > 2 * measured.start_s


class AsideSUT:
    """The second instance: :meth:`ready` starts it (and its upstream); :meth:`run_one` runs a case on
    it; :meth:`restart` replaces one a case left dead; :meth:`stop` stops it and its upstream.
    ``start`` is the run's driver start (tried twice); ``limits`` the run's, without the load of the
    shared cases (its cases run one at a time, as in a serial run); ``names`` the run's routing tokens.

    The instance has a mock upstream of its own and carries one case at a time, so each of its cases meets
    the SUT as in a serial run: the one conversation in flight gets every request, and the upstream
    connections it counts are this case's alone. It is started as the round begins, only when
    :func:`worth_aside` says so, warmed up with the preflight's canary, restarted when a case leaves it
    dead, and stopped with its upstream after its last case or when the round is interrupted. A URL SUT has
    one instance, and its alone cases run after the shared ones.
    """

    def __init__(
        self,
        profile: SUTProfile,
        fn: SUTCallable | None,
        limits: Limits,
        keep: Any,
        start: StartDriver,
        names: Mapping[str, str] | None = None,
    ) -> None:
        self.profile, self.fn, self.keep, self._start = profile, fn, keep, start
        self.limits, self.names = limits.aside(), names
        self.driver: Driver | None = None
        self.upstream: LiveUpstream | None = None
        self.stopped = False
        self._lock = threading.Lock()
        """:meth:`stop` comes from the main thread (an interrupt) while the lane starts the instance."""

    def ready(self) -> bool:
        """Started and warmed up (now, when it was not): False when it cannot be (its alone cases then
        run on the first instance, after the shared ones); nothing of it is left then."""
        if self.stopped:
            return False
        if self.driver is not None:
            return True
        from harness.upstream import ClientSide, MockUpstream

        try:
            upstream = self.upstream
            if upstream is None:
                upstream = MockUpstream()
                upstream.start()
                self._own(upstream=upstream)
            driver = self._start(self.profile, self.fn, upstream.base_url, None)
            self._own(driver=driver)
            warm, _, alive = run_case(
                canary_case(self.profile), self.profile, driver, upstream, ClientSide, self.limits, "none"
            )
        except DriverError:
            self.stop()
            return False
        if warm.status in (Status.ERROR, Status.TIMEOUT) or not alive or self.stopped:
            self.stop()
            return False
        return True

    def _own(self, *, upstream: LiveUpstream | None = None, driver: Driver | None = None) -> None:
        """The started ``upstream`` or ``driver`` kept, unless the instance was stopped meanwhile: then
        it is stopped and DriverError raised (nothing outlives :meth:`stop`)."""
        with self._lock:
            if not self.stopped:
                if upstream is not None:
                    self.upstream = upstream
                if driver is not None:
                    self.driver = driver
                return
        for thing in (upstream, driver):
            if thing is not None:
                thing.stop()
        raise DriverError("the second instance was stopped while it started")

    def run_one(self, case: Case) -> tuple[CaseResult, CaseView | None, bool]:
        from harness.upstream import ClientSide

        assert self.driver is not None
        assert self.upstream is not None
        return run_case(
            case, self.profile, self.driver, self.upstream, ClientSide, self.limits, self.keep, self.names
        )

    def restart(self) -> bool:
        """After a case left the instance dead: a new one (False when it could not be started)."""
        if self.driver is not None:
            self.driver.stop()
            self.driver = None
        return self.ready()

    def stop(self) -> None:
        """Stop the instance and its upstream (a case in flight on it then ends); idempotent."""
        with self._lock:
            self.stopped = True
            driver, self.driver = self.driver, None
            upstream, self.upstream = self.upstream, None
        if driver is not None:
            driver.stop()
        if upstream is not None:
            upstream.stop()
