"""No module in ``harness`` over 600 lines (issue 18): a module that grows past it is split along its
concerns, as the dialects are (``<name>.py`` + ``_<name>_wire.py`` + ``_<name>_rules.py``)."""

from __future__ import annotations

from pathlib import Path

import harness

LIMIT = 600


def test_no_module_over_the_limit() -> None:
    root = Path(harness.__file__).parent
    sizes = {p.relative_to(root).as_posix(): len(p.read_text().splitlines()) for p in root.rglob("*.py")}
    assert len(sizes) > 50  # the walk found the package
    assert {name: n for name, n in sizes.items() if n > LIMIT} == {}
