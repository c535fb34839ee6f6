"""Run every benchmark module of this package (each has ``run() -> str``, a Markdown section) and write
docs/benchmarks.md; ``python -m benchmarks NAME...`` runs only the named modules."""

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
    for name in chosen:
        t0 = time.perf_counter()
        section = importlib.import_module(f"benchmarks.{name}").run()
        took = time.perf_counter() - t0
        sections += [section.rstrip("\n"), "", f"<sub>`benchmarks/{name}.py`: {took:.1f} s</sub>", ""]
    text = "\n".join(sections)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
