"""A lane host (``harness.runner._concurrent.LaneHost``) made of a test's callables, for the scheduler's
tests."""

from __future__ import annotations

from typing import Any


class Host:
    """``Lanes``' one host: each method a callable the test gives (defaults: nothing alone, nothing
    waits, a restart that succeeds)."""

    def __init__(
        self,
        run_one: Any,
        alone: Any = lambda c: "",
        finish: Any = lambda i, r, v: None,
        restart: Any = lambda: True,
        stop: Any = lambda: None,
        waits: Any = lambda c: False,
    ) -> None:
        self.run_one, self.alone, self.finished = run_one, alone, finish
        self.restart, self.stop, self.may_wait = restart, stop, waits

    def solo(self) -> None:
        pass

    def starts_first(self, case: object) -> bool:
        return False
