"""The runner reads its own objects (options, drivers, the upstream, cases, events) by their declared
attributes, never by a name in a string (issue 47): no ``getattr``/``hasattr``/``setattr``/``delattr`` in
harness/runner/ but the few below, each on what a user handed in or the frozen-dataclass idiom."""

from __future__ import annotations

import ast
from pathlib import Path

import harness

RUNNER = Path(harness.__file__).parent / "runner"

ALLOWED = {
    # a user's SUT callable: its name, module and qualname, and the walk of its module to find it again
    ("_sut.py", "getattr(sut, '__name__', 'callable')"),
    ("_sut.py", "getattr(fn, '__module__', None)"),
    ("_sut.py", "getattr(fn, '__qualname__', None)"),
    ("_sut.py", "getattr(obj, part, None)"),
    # RunOptions.__post_init__ keeps a checked value: how a frozen dataclass sets its field while made
    ("_options.py", "object.__setattr__(self, f.name, check(f.metadata['flag'], value))"),
}

_NAMES = {"getattr", "hasattr", "setattr", "delattr", "__getattribute__", "__setattr__", "__delattr__"}


def probes(source: str) -> list[str]:
    """Each call of a by-name attribute function (``getattr(...)``, ``object.__setattr__(...)``, ...)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in _NAMES:
            out.append(ast.unparse(node))
    return out


def test_the_scan_sees_each_form() -> None:
    assert probes("getattr(ev, f.name)") == ["getattr(ev, f.name)"]
    assert len(probes('hasattr(driver, "concurrent")')) == 1
    assert len(probes("setattr(self, name, thing)")) == 1
    assert len(probes("object.__setattr__(self, 'x', 1)")) == 1
    assert len(probes("self.__getattribute__('x')")) == 1
    assert probes("driver.concurrent") == []


def test_no_probe_in_the_runner() -> None:
    files = sorted(RUNNER.glob("*.py"))
    assert len(files) > 10  # (the glob found the package)
    found = {(path.name, what) for path in files for what in probes(path.read_text(encoding="utf-8"))}
    assert found - ALLOWED == set()
    assert ALLOWED - found == set(), "an allowed probe is gone: drop it from ALLOWED"
