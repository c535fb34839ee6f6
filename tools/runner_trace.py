"""Trace one case from ``run()`` to its verdict and count how often the path enters each runner module.
An entry is a call into a function of module M whose nearest calling project code lies outside M.

What counts, so that the figure means the same every time it is taken:

- calls only, never returns; a Python function's call (``sys.setprofile``, and ``threading.setprofile``
  for the threads the run starts), never a C function's;
- the caller is the nearest frame of project code (``harness/``, ``tools/``), so a call that goes
  through the standard library (``contextlib``, ``sorted(key=...)``, a thread pool) is counted from
  the project function that made it; a thread's first frame has no project caller and is an entry;
- a generator or coroutine counts when it starts, never when it resumes (each ``next()`` of a stream
  would otherwise count once per event);
- code a module did not write is left out: what ``dataclasses`` generates (``__init__``, ``__eq__``),
  and a module's own body run at import.

The case runs without the preflight by default: the preflight drives two more cases (its canary and the
warm-up) through the same modules, so with ``--preflight`` the path is that of three cases.
"""

from __future__ import annotations

import argparse
import dis
import sys
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import harness

CASE = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
PACKAGE = "harness.runner"
_ROOT = Path(harness.__file__).resolve().parent.parent
_STARTS = (dis.opmap["RESUME"], 0)  # the instruction a generator's frame starts on ("RESUME 0")
_RESUMABLE = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR


@dataclass
class Trace:
    """The entries of one traced path: each as (module entered, module it was entered from), in order."""

    package: str = PACKAGE
    entries: list[tuple[str, str]] = field(default_factory=list)
    _modules: dict[str, str | None] = field(default_factory=dict)

    def counts(self) -> Counter[str]:
        return Counter(module for module, _ in self.entries)

    def module_of(self, filename: str) -> str | None:
        """The project module a code object's file is, None for code outside the project or generated."""
        if filename not in self._modules:
            path = Path(filename)
            name = None
            if path.is_absolute() and path.suffix == ".py":
                try:
                    parts = path.resolve().relative_to(_ROOT).with_suffix("").parts
                except ValueError:
                    parts = ()
                if parts and parts[0] in {"harness", "tools"}:
                    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            self._modules[filename] = name
        return self._modules[filename]

    def profiler(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        module = self.module_of(code.co_filename)
        if module is None or not module.startswith(self.package) or code.co_name == "<module>":
            return
        if code.co_flags & _RESUMABLE and tuple(code.co_code[frame.f_lasti : frame.f_lasti + 2]) != _STARTS:
            return  # a generator resumed
        caller = frame.f_back
        while caller is not None and self.module_of(caller.f_code.co_filename) is None:
            caller = caller.f_back
        source = "<thread>" if caller is None else self.module_of(caller.f_code.co_filename) or ""
        if source != module:
            self.entries.append((module, source))


def trace(action: Callable[[], Any], package: str = PACKAGE) -> tuple[Trace, Any]:
    """``action()`` run under the profiler, with what it returned."""
    record = Trace(package)
    threading.setprofile(record.profiler)
    sys.setprofile(record.profiler)
    try:
        value = action()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return record, value


def trace_case(
    case_id: str = CASE, sut: str = "reference", package: str = PACKAGE, *, preflight: bool = False
) -> tuple[Trace, Any]:
    """One case through the public ``run()`` on ``sut``, serial, traced; with the run's result."""
    from harness.runner import run

    return trace(lambda: run([case_id], sut=sut, concurrency=1, preflight=preflight), package)


def table(record: Trace) -> str:
    counts = record.counts()
    width = max((len(m) for m in counts), default=6)
    lines = [f"{'module':<{width}}  entries"]
    lines += [f"{m:<{width}}  {n:>7}" for m, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    lines.append(f"{'total':<{width}}  {sum(counts.values()):>7}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """It prints the table module -> entries and the total (``--sequence``: every entry in order, with the
    module it came from). It exits 1 when the case did not run to a verdict."""
    parser = argparse.ArgumentParser(prog="python -m tools.runner_trace", description=__doc__)
    parser.add_argument("case", nargs="?", default=CASE, help=f"a case id (default {CASE})")
    parser.add_argument("--sut", default="reference", help="the SUT (default: the built-in reference)")
    parser.add_argument("--package", default=PACKAGE, help=f"the modules counted (default {PACKAGE})")
    parser.add_argument(
        "--preflight", action="store_true", help="the canary and warm-up first, as by default"
    )
    parser.add_argument("--sequence", action="store_true", help="print every entry in order")
    args = parser.parse_args(argv)
    record, result = trace_case(args.case, args.sut, args.package, preflight=args.preflight)
    if args.sequence:
        for module, source in record.entries:
            print(f"{source} -> {module}")
    print(table(record))
    verdicts = [f"{r.case_id}: {r.status}" for r in result.results]
    print("\n".join(verdicts) or "no case ran")
    return 0 if verdicts else 1


if __name__ == "__main__":
    sys.exit(main())
