"""Functions in ``harness`` stay readable: over 80 lines a function is named in pytest's warnings summary,
over 120 it fails (issues 26 and 47): a longer one is split along its steps (a table of step handlers,
one function per concern), as ``upstream/_server.py``'s ``_STEPS`` is. Only data tables may be longer,
each named here with why; the count includes the docstring, not decorators."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

import harness

WARN, LIMIT = 80, 120

TABLES: dict[str, str] = {}
"""``module:function`` -> why it may be longer: it only builds a table (e.g. an argument parser)."""

ELSEWHERE: dict[str, str] = {}
"""Functions another branch of work is shortening (empty when none is)."""


def lengths(source: str) -> dict[str, int]:
    """Function name -> its lines (nested functions and methods too; the longest of a name)."""
    out: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out[node.name] = max(out.get(node.name, 0), (node.end_lineno or node.lineno) - node.lineno + 1)
    return out


def long_functions(over: int = LIMIT) -> dict[str, int]:
    root = Path(harness.__file__).parent
    out: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        for name, n in lengths(path.read_text(encoding="utf-8")).items():
            if n > over:
                out[f"{path.relative_to(root).as_posix()}:{name}"] = n
    return out


@pytest.mark.filterwarnings("default::UserWarning")
def test_no_function_over_the_limit() -> None:
    allowed = {**TABLES, **ELSEWHERE}
    for name, n in long_functions(WARN).items():
        if n <= LIMIT and name not in allowed:
            warnings.warn(f"harness/{name}: {n} lines (over {WARN}): one step per function?", UserWarning,
                          stacklevel=1)  # fmt: skip
    assert {name: n for name, n in long_functions().items() if name not in allowed} == {}


def test_the_allow_list_names_only_long_functions() -> None:
    """An entry whose function got short (or went away) leaves the list."""
    assert set(TABLES) | set(ELSEWHERE) <= set(long_functions())


def test_the_scan_sees_functions_methods_and_nested_ones() -> None:
    body, deeper = "    x = 1\n" * 130, "        x = 1\n" * 130
    source = f"def f():\n{body}class C:\n    async def m(self):\n{deeper}"
    source += "def outer():\n    def inner():\n        pass\n"
    assert lengths(source) == {"f": 131, "m": 131, "outer": 3, "inner": 2}
    assert len(list(Path(harness.__file__).parent.rglob("*.py"))) > 50
