"""The run's pool of started SUTs: a driver started (tried twice), a stand-in for one that could not start,
and a driver handed back for the next round or stopped when the run was interrupted. The run and its
rounds take drivers from here and give them back."""

from __future__ import annotations

from harness.drivers import CaseContext, Driver, DriverError, SUTCallable, SUTProfile, make_driver

__all__ = ["StartFailed", "return_driver", "start_driver"]


class StartFailed(Driver):
    """Stands in a ``drivers`` pool for a SUT that could not start: later runs sharing the pool (the
    rounds of ``repeat``, the pytest plugin's runs) fail at once instead of trying again."""

    kind = "start-failed"

    def __init__(self, error: DriverError) -> None:
        self.error = error

    def start(self, upstream_url: str) -> None:
        raise self.error

    def run(self, ctx: CaseContext) -> None:
        raise self.error

    def stop(self) -> None:
        pass


def start_driver(
    profile: SUTProfile, fn: SUTCallable | None, upstream_url: str, driver: Driver | None
) -> Driver:
    """A started driver, tried twice (a SUT that exits before readiness or misses it gets a second
    chance); raises the last DriverError. A pooled ``StartFailed`` fails at once."""
    if isinstance(driver, StartFailed):
        raise driver.error
    for attempt in (1, 2):
        driver = make_driver(profile, fn)
        try:
            driver.start(upstream_url)
            return driver
        except DriverError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def return_driver(driver: Driver | None, drivers: dict[str, Driver], name: str, interrupted: bool) -> None:
    """Back into the pool for the next round or run; stopped instead when the run was interrupted
    (then every SUT process goes: a CLI SUT interrupted mid-case is only known to its Process)."""
    if driver is not None:
        if interrupted:
            driver.stop()
        else:
            drivers[name] = driver
    if interrupted:
        from harness.drivers import stop_all

        stop_all()
