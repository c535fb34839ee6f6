"""Modules in ``harness`` stay readable: over 600 lines a module is named in pytest's warnings summary (a
hint to look for a second concern in it), over 800 it fails (issue 47: a module is split along its
concerns, never cut at a line count to please a guard)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import harness

WARN, LIMIT = 600, 800


def sizes() -> dict[str, int]:
    root = Path(harness.__file__).parent
    return {p.relative_to(root).as_posix(): len(p.read_text().splitlines()) for p in root.rglob("*.py")}


@pytest.mark.filterwarnings("default::UserWarning")
def test_no_module_over_the_limit() -> None:
    found = sizes()
    assert len(found) > 50  # the walk found the package
    for name, n in sorted(found.items()):
        if WARN < n <= LIMIT:
            warnings.warn(f"harness/{name}: {n} lines (over {WARN}): has it grown a second concern?",
                          UserWarning, stacklevel=1)  # fmt: skip
    assert {name: n for name, n in found.items() if n > LIMIT} == {}
