"""A run's quiet garbage collector: the process's thresholds come back when the last run in flight
ends, whichever ends first (runs in several threads share one collector)."""

from __future__ import annotations

import gc

from harness.runner._run import _quiet_gc


def test_overlapping_runs_restore_the_thresholds_when_the_last_one_ends() -> None:
    before = gc.get_threshold()
    first, second = _quiet_gc(), _quiet_gc()
    first.__enter__()
    second.__enter__()
    assert gc.get_threshold()[0] == 20_000
    first.__exit__(None, None, None)  # the first run ends while the second is still in flight
    assert gc.get_threshold()[0] == 20_000
    second.__exit__(None, None, None)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
