"""What a failing thinkwire test says: per unexpected case the check, the message, expected vs seen and a
reproduce line that runs from a shell, inside pytest's own assertion text and, whole, in a section beneath.
It keeps pytest's truncation budget itself, cutting at words and saying where the rest is."""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from harness.runner import RunResult
    from harness.verdict import CaseResult

__all__ = [
    "SECTION",
    "assertion_lines",
    "section_lines",
    "sut_environment",
    "where_the_rest_is",
    "with_environment",
]

SECTION = "thinkwire unexpected results"
_SECTION_LIMIT = 50
_MIN_WIDTH = 40


def _budget(config: pytest.Config) -> tuple[int, int] | None:
    """pytest's truncation budget for an assertion explanation (lines, characters); None when it shows
    everything (``-vv``, on CI, or both limits 0)."""
    if (
        config.get_verbosity(pytest.Config.VERBOSITY_ASSERTIONS) >= 2
        or os.environ.get("CI")
        or os.environ.get("BUILD_NUMBER")
    ):
        return None

    def ini(name: str, default: int) -> int:
        try:
            value = config.getini(name)
        except (ValueError, KeyError):
            return default
        return default if value in (None, "") else int(value)

    lines, chars = ini("truncation_limit_lines", 8), ini("truncation_limit_chars", 640)
    if not lines and not chars:
        return None
    # pytest keeps an explanation whole up to its limits plus the room of its own footer (2 lines, ~40 chars)
    return (lines + 2 if lines else 10**6), (chars + 40 if chars else 10**9)


def where_the_rest_is(report_dir: str | None) -> str:
    where = f"'{SECTION}' below"
    return where + (f" and {report_dir}/results.json" if report_dir else "") + "; -vv shows them here"


def assertion_lines(
    results: Sequence[CaseResult], config: pytest.Config, report_dir: str | None
) -> list[str]:
    """``assert result.unexpected == []`` explained: a summary line, then each case whole while pytest's
    budget allows (message, expected and seen cut at a word when they would not fit), then where the
    rest is."""
    from harness._explain import case_lines

    head = f"[{len(results)} unexpected case(s)] == []"
    budget = _budget(config)
    if budget is None:
        lines = [head, *[line for r in results[:_SECTION_LIMIT] for line in case_lines(r)]]
        if len(results) > _SECTION_LIMIT:
            lines.append(f"... {len(results) - _SECTION_LIMIT} more case(s): {where_the_rest_is(report_dir)}")
        return lines
    max_lines, max_chars = budget
    lines, shown = [head], 0
    for r in results:
        tail = _tail(len(results) - shown - 1, report_dir)
        room = max_chars - sum(map(len, lines)) - len(tail)
        block = _fit(r, room)
        if block is None or len(lines) + len(block) + bool(tail) > max_lines:
            break
        lines += block
        shown += 1
    rest = len(results) - shown
    if rest:
        lines.append(_tail(rest, report_dir))
    return lines


def _tail(rest: int, report_dir: str | None) -> str:
    return f"... {rest} more case(s), every case whole: {where_the_rest_is(report_dir)}" if rest else ""


def _fit(r: CaseResult, room: int) -> list[str] | None:
    """The case's lines within ``room`` characters, its texts cut at words to the widest that fits; None
    when even the narrowest does not."""
    from harness._explain import case_lines

    whole = case_lines(r)
    if sum(map(len, whole)) <= room:
        return whole
    width = max(len(line) for line in whole)
    while width > _MIN_WIDTH:
        width = max(_MIN_WIDTH, width * 3 // 4)
        block = case_lines(r, width)
        if sum(map(len, block)) <= room:
            return block
    return None


def section_lines(runs: Sequence[RunResult], report_dir: str | None, shown: str = "") -> list[str]:
    """Every unexpected case of the test's runs, whole (the first 50; where the rest is after them),
    but those whose whole lines are in ``shown`` (the failure's text) already."""
    from harness._explain import case_lines

    bad = [
        r for result in runs for r in result.unexpected if not all(line in shown for line in case_lines(r))
    ]
    lines = [line for r in bad[:_SECTION_LIMIT] for line in case_lines(r)]
    if len(bad) > _SECTION_LIMIT:
        kept = f"in {report_dir}/results.json" if report_dir else "kept with --thinkwire-report DIR"
        lines.append(f"... and {len(bad) - _SECTION_LIMIT} more unexpected case(s), {kept}")
    return lines


def sut_environment(config: pytest.Config, sut: Any) -> str:
    """What a shell needs before ``thinkwire run`` to import a ``module:callable`` SUT that pytest
    imports from its rootdir or ``pythonpath``: ``PYTHONPATH=...`` (empty when it is installed)."""
    if not isinstance(sut, str) or "://" in sut or sut.endswith(".toml") or ":" not in sut:
        return ""
    module = sut.split(":", 1)[0]
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return ""
    if spec is None or not spec.origin:
        return ""
    root = Path(spec.origin).resolve().parent
    for _ in range(module.count(".") + (Path(spec.origin).name == "__init__.py")):
        root = root.parent
    if any(str(root).startswith(p) for p in {sys.prefix, sys.base_prefix}):
        return ""  # installed: a shell imports it as pytest does
    entries = [root, *(Path(p).resolve() for p in config.getini("pythonpath")), config.rootpath]
    unique = list(dict.fromkeys(str(p) for p in entries))
    return "PYTHONPATH=" + shlex.quote(os.pathsep.join(unique))


def with_environment(result: RunResult, env: str) -> None:
    """Each case's reproduce line with ``env`` before it."""
    if not env:
        return
    for r in result.results:
        if r.reproduce.startswith("thinkwire "):
            r.reproduce = f"{env} {r.reproduce}"
