"""No branch on a SUT kind's name outside ``harness/drivers`` (issue 38): the suite asks a kind's
capability record (``SUTProfile.caps``, ``CaseView.caps``) what the SUT can do, so a new kind is a
driver and a row of ``KIND_TABLE``, never a hunt for ``kind == "cli"``. Scenario files may still name
kinds (``sut_kinds``: data); ``Scenario.for_kind`` is where the catalog reads that list."""

from __future__ import annotations

import ast
from pathlib import Path

import harness
from harness.drivers import KINDS

ROOT = Path(harness.__file__).parent
ALLOWED = ("drivers/",)
"""Where kind names may be compared: the drivers, which define the kinds."""


def _names(node: ast.expr) -> list[str]:
    """The kind names ``node`` spells as string literals: itself, or the items of a tuple, list or set."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and i.value in KINDS]


def _on_profile(node: ast.expr) -> bool:
    """``node`` is ``<something>.kind`` read from a SUT profile or a case view (by the name it is reached
    through: ``profile.kind``, ``self.sut.profile.kind``, ``view.kind``)."""
    if not (isinstance(node, ast.Attribute) and node.attr == "kind"):
        return False
    base = node.value
    name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
    return name.endswith("profile") or name in ("view", "sut")


def branches(source: str) -> list[tuple[int, str]]:
    """(line, what) of every comparison, membership test or match case on a kind name in ``source``."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            named = [n for o in operands for n in _names(o)]
            if named:
                out.append((node.lineno, f"compares the kind name(s) {named}"))
            elif any(_on_profile(o) for o in operands):
                out.append((node.lineno, "compares a profile's .kind"))
        elif isinstance(node, ast.MatchValue) and _names(node.value):
            out.append((node.lineno, f"matches the kind name(s) {_names(node.value)}"))
    return out


def kind_branches() -> dict[str, list[tuple[int, str]]]:
    out: dict[str, list[tuple[int, str]]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(ALLOWED):
            continue
        found = branches(path.read_text(encoding="utf-8"))
        if found:
            out[rel] = found
    return out


def test_no_kind_name_is_compared_outside_the_drivers() -> None:
    assert kind_branches() == {}


def test_the_scan_sees_every_form_of_branch() -> None:
    source = "\n".join(
        [
            'if profile.kind == "cli": pass',
            'if kind in ("gateway", "url"): pass',
            'x = "python" != kind',
            "y = self.sut.profile.kind in allowed",
            "z = view.kind is not None",
            'match kind:\n    case "adapter": pass',
            'ok = e.kind == "write"',  # a timeline entry's kind: not a SUT kind
            'ok = profile.name == "reference"',
            "ok = kind in scenario.sut_kinds",  # (Scenario.for_kind: data, through a name)
        ]
    )
    assert [line for line, _ in branches(source)] == [1, 2, 3, 4, 5, 7]
    assert set(KINDS) == {"gateway", "url", "python", "cli", "adapter"}
    assert len(list(ROOT.rglob("*.py"))) > 50


def test_the_guide_names_every_capability_and_the_files_a_new_kind_touches() -> None:
    """docs/writing-a-sut-profile.md's "A new kind of SUT" lists the record's fields and three files."""
    from dataclasses import fields

    from harness.drivers import Abilities

    guide = (ROOT.parent / "docs" / "writing-a-sut-profile.md").read_text(encoding="utf-8")
    section = guide.split("## A new kind of SUT", 1)[1].split("\n## ", 1)[0]
    named = [f.name for f in fields(Abilities) if f.name not in ("what", "example")]  # (said with `needs`)
    unnamed = [name for name in named if f"`{name}`" not in section]
    assert unnamed == []
    for name in ("_kinds.py", "__init__.py"):
        assert f"`{name}`" in section
        assert (ROOT / "drivers" / name).is_file()
