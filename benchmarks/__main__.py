"""Run every benchmark module of this package (each has ``run() -> str``, a Markdown section) and write
docs/benchmarks.md; ``python -m benchmarks NAME...`` runs only the named modules and keeps the other
modules' sections as the last run wrote them."""

from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
import time
from pathlib import Path

import benchmarks

OUT = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    names = modules()
    chosen = argv or names
    unknown = [n for n in chosen if n not in names]
    if unknown:
        print(f"unknown benchmark(s) {', '.join(unknown)}: valid: {', '.join(names)}", file=sys.stderr)
        return 2
    sections = [
        "# Benchmarks",
        "",
        "Written by `nox -s bench` (`python -m benchmarks`). Every figure is a ratio against a peer "
        "measured in the same run on the same machine; absolute numbers vary with the machine.",
        "",
        f"Python {platform.python_version()} on {platform.machine()} ({platform.system()}).",
        "",
    ]
    kept = _sections(OUT.read_text(encoding="utf-8")) if OUT.exists() and argv else {}
    fresh: dict[str, str] = {}
    for name in chosen:
        t0 = time.perf_counter()
        section = importlib.import_module(f"benchmarks.{name}").run()
        took = time.perf_counter() - t0
        fresh[name] = "\n".join(
            [section.rstrip("\n"), "", f"<sub>`benchmarks/{name}.py`: {took:.1f} s</sub>", ""]
        )
    for name in names:  # a subset run keeps the other modules' sections from the last run
        if name in fresh or name in kept:
            sections.append(fresh.get(name) or kept[name])
    text = "\n".join(sections)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(text)
    return 0


def _sections(text: str) -> dict[str, str]:
    """Each module's section of a written file: from its ``## `` heading to its ``<sub>`` line."""
    out: dict[str, str] = {}
    current: list[str] = []
    for line in text.splitlines():
        if line.startswith("## "):
            current = []
        current.append(line)
        if line.startswith("<sub>`benchmarks/") and ".py`" in line:
            name = line.split("`benchmarks/", 1)[1].split(".py`", 1)[0]
            out[name] = "\n".join([*current, ""])
            current = []
    return out


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
