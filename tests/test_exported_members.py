"""``harness.__all__`` is the public surface (httpx's test_exported_members): every name resolves to the
object of its home module, nothing users import is missing, ``import harness`` stays lazy."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import harness
from harness._errors import ThinkwireError

ROOT = Path(__file__).resolve().parent.parent
USER_FACING = {"run", "RunResult", "CaseResult", "MockUpstream", "Script", "SUTProfile", "UnknownName"}


def test_all_is_sorted_unique_and_resolves() -> None:
    assert harness.__all__ == sorted(set(harness.__all__))
    for name in harness.__all__:
        obj = getattr(harness, name)
        home = importlib.import_module(harness._EXPORTS[name])
        assert getattr(home, name) is obj, name
        assert obj.__module__.startswith("harness."), name


def test_users_names_are_exported() -> None:
    assert set(harness.__all__) >= USER_FACING
    assert set(harness.__all__) <= set(dir(harness))


def test_the_documented_imports_from_harness_exist() -> None:
    """Every ``from harness import X`` in the README and docs names an exported member."""
    texts = [(ROOT / "README.md").read_text(), *(p.read_text() for p in (ROOT / "docs").glob("*.md"))]
    names = {
        n.strip()
        for text in texts
        for group in re.findall(r"^\s*from harness import ([\w, ]+)$", text, re.M)
        for n in group.split(",")
    }
    submodules = {m.name for m in pkgutil.iter_modules(harness.__path__)}
    assert names <= set(harness.__all__) | submodules, names - set(harness.__all__) - submodules


def test_the_whole_error_family_is_exported() -> None:
    for module in ("harness.drivers", "harness.report"):  # where the layered errors live
        importlib.import_module(module)
    family: set[type] = set()
    todo = [ThinkwireError]
    while todo:
        cls = todo.pop()
        family.add(cls)
        todo += cls.__subclasses__()
    exported = {getattr(harness, n) for n in harness.__all__}
    assert {c for c in family if c.__module__.startswith("harness.")} <= exported


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'no_such_member'"):
        harness.no_such_member  # noqa: B018


def test_import_harness_imports_nothing_else() -> None:
    code = (
        "import sys, harness; "
        "print(sorted(m for m in sys.modules if m.startswith('harness.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

