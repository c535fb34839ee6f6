"""``thinkwire merge``: its flags and its run. The joining itself is ``harness.report.merge_shards``, so this
module only parses and prints."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from harness.report import (
    JUNIT,
    ResultsError,
    load_run,
    merge_shards,
    print_summary,
    write_junit,
    write_reports,
)

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``merge`` sub-command to an ``argparse`` sub-parsers object; returns its parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "merge",
        help="join the report dirs of `run --shard I/N` shards into one report",
        description="Join the shards of one run (`thinkwire run --shard I/N --report DIR`, every I) into "
        "the report an unsharded run writes: results.json, summary.md, report.html, junit.xml. Refused "
        "(exit 2): shards of different runs (run_info), a shard missing or given twice, a case missing "
        "or in two shards.",
    )
    p.add_argument(
        "shards", nargs="+", type=Path, metavar="DIR", help="a shard's report dir (or its results.json)"
    )
    p.add_argument("--report", required=True, type=Path, metavar="OUT", help="write the merged report here")
    return p


def run(args: argparse.Namespace) -> int:
    """Exit 2 when the shards cannot be read or do not make one run; otherwise the run's exit code."""
    try:
        merged = merge_shards([(str(d), load_run(d)) for d in args.shards])
    except ResultsError as exc:
        print(f"thinkwire merge: {exc}", file=sys.stderr)
        return 2
    try:
        written = write_reports(merged, args.report)
        write_junit(merged, args.report / JUNIT, written.get("swimlanes"))
    except OSError as exc:
        why = exc.strerror or exc
        print(f"thinkwire merge: --report {args.report}: cannot write: {why}", file=sys.stderr)
        return 2
    print_summary(merged)
    n, cases = len(args.shards), len(merged.results)
    print(f"merged {n} shard(s), {cases} case(s): report written to {args.report}")
    return merged.exit_code
