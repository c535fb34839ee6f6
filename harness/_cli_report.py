"""``thinkwire report results.json``: saved results rendered again as HTML, Markdown or JUnit XML. It reads
only results.json and never re-runs anything; with no output flag it prints the Markdown."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from harness.report import ResultsError, load_results, render_html, render_markdown, write_junit

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``report`` sub-command to an ``argparse`` sub-parsers object; returns its parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "report",
        help="re-render a results.json as HTML / Markdown / JUnit XML",
        description="Re-render results written by `thinkwire run --report DIR` (DIR/results.json).",
    )
    p.add_argument("results", type=Path, help="results.json written by `thinkwire run --report`")
    p.add_argument("--html", type=Path, metavar="OUT", help="write the HTML report here")
    p.add_argument(
        "--markdown", type=Path, metavar="OUT", help="write the Markdown summary here ('-': stdout)"
    )
    p.add_argument("--junit", type=Path, metavar="OUT", help="write JUnit XML here")
    return p


def run(args: argparse.Namespace) -> int:
    """Exit 2 when the results cannot be read; otherwise the run's own exit code (0 / 1)."""
    try:
        result = load_results(args.results)
    except ResultsError as exc:
        print(f"thinkwire report: {exc}", file=sys.stderr)
        return 2
    wrote = False
    if args.html:
        _write(args.html, render_html(result))
        print(f"HTML report written to {args.html}")
        wrote = True
    if args.junit:
        write_junit(result, args.junit)
        print(f"JUnit XML written to {args.junit}")
        wrote = True
    if args.markdown and str(args.markdown) != "-":
        _write(args.markdown, render_markdown(result))
        print(f"Markdown summary written to {args.markdown}")
        wrote = True
    elif args.markdown or not wrote:
        sys.stdout.write(render_markdown(result))
    return result.exit_code


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
