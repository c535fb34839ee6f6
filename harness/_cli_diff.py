"""``thinkwire diff OLD NEW``: the sub-command's arguments and what it prints and writes. It reads two saved
runs and never re-runs anything, so it lives apart from the run's command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from harness.report import ResultsError, diff_junit, diff_markdown, diff_runs, diff_text, load_run

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``diff`` sub-command to an ``argparse`` sub-parsers object; returns its parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "diff",
        help="compare two runs: new failures, fixes, changed findings, every verdict change, cases added "
        "or removed",
        description="Compare two runs (results.json files or `thinkwire run --report` dirs). Lists every "
        "verdict change, in both directions, on both axes (stream, with ERROR/TIMEOUT; cleanup), e.g. "
        "PASS -> NON_STRICT and back. Exit 1 when anything regressed (a case fails that did not, or "
        "shows a new cause); a verdict change that fails nothing (PASS -> NON_STRICT without --strict) "
        "is listed but does not.",
    )
    p.add_argument("old", type=Path, help="the earlier run: results.json or a report dir")
    p.add_argument("new", type=Path, help="the later run: results.json or a report dir")
    p.add_argument("--markdown", type=Path, metavar="OUT", help="write the diff as Markdown ('-': stdout)")
    p.add_argument("--junit", type=Path, metavar="OUT", help="write the diff as JUnit XML")
    return p


def run(args: argparse.Namespace) -> int:
    """The diff is printed as text, or as Markdown with ``--markdown -``; Markdown and JUnit XML are written
    on request. The exit code is 1 when anything regressed and 2 when a run cannot be read, with one line
    naming the file and the field."""
    try:
        d = diff_runs(load_run(args.old), load_run(args.new), str(args.old), str(args.new))
    except ResultsError as exc:
        print(f"thinkwire diff: {exc}", file=sys.stderr)
        return 2
    if args.markdown is not None and str(args.markdown) == "-":
        sys.stdout.write(diff_markdown(d))
    else:
        sys.stdout.write(diff_text(d))
        if args.markdown is not None:
            _write(args.markdown, diff_markdown(d))
    if args.junit is not None:
        _write(args.junit, diff_junit(d))
    return d.exit_code


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
