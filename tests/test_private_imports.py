"""A package's private modules are its own: no module of ``harness`` imports a private module (or a private
name through a package) of another ``harness`` package. What a package shares is what its ``__init__``
exports, so a reader finds a package's public surface in one file (issue 38)."""

from __future__ import annotations

import ast
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[1] / "harness"


def _package(path: Path) -> str | None:
    """``harness/<pkg>/...`` -> ``pkg``; a module directly in ``harness/`` belongs to no subpackage."""
    parts = path.parts[path.parts.index("harness") :]
    return parts[1] if len(parts) > 2 else None


def cross_package_private_imports(root: Path = HARNESS) -> list[str]:
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        own = _package(path)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("harness."):
                continue
            assert node.module is not None
            parts = node.module.split(".")
            if len(parts) < 2 or parts[1] == own or parts[1].startswith("_"):
                continue  # own package, or a private module of harness itself (the ground floor)
            private = [p for p in parts[2:] if p.startswith("_")]
            private += [a.name for a in node.names if len(parts) == 2 and a.name.startswith("_")]
            if private:
                where = "/".join(path.parts[path.parts.index("harness") :])
                found.append(f"{where}:{node.lineno}: from {node.module} import {node.names[0].name}")
    return found


def test_no_harness_package_imports_another_ones_private_modules() -> None:
    assert cross_package_private_imports() == []


def test_the_guard_sees_one(tmp_path: Path) -> None:
    """The scan flags both forms: a private module path and a private submodule through the package."""
    pkg = tmp_path / "harness" / "runner"
    pkg.mkdir(parents=True)
    lines = ["from harness.catalog._case import Case", "from harness.report import _cli"]
    lines.append("from harness.runner._y import z")  # its own package: fine
    (pkg / "_x.py").write_text("\n".join(lines) + "\n")
    found = cross_package_private_imports(tmp_path / "harness")
    assert len(found) == 2, found
    assert "from harness.catalog._case import Case" in found[0]
    assert "from harness.report import _cli" in found[1]
