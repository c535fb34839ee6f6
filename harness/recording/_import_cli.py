"""``thinkwire import SOURCE --out CASSETTE``: the command line of the importer, its flags and printed lines.
The conversion itself is ``_import``, so this module only parses and prints."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from harness._errors import CassetteError, FlagError
from harness.recording._import import import_file, parse_only
from harness.recording._redact import Redactor

__all__ = ["add_import_parser", "run_import"]


def add_import_parser(sub: Any) -> None:
    """The ``import`` subcommand's flags."""
    imp = sub.add_parser(
        "import", help="convert a vcrpy / pytest-recording cassette or a HAR file into a thinkwire cassette"
    )
    imp.add_argument("source", help="vcrpy YAML/JSON (.gz too) or HAR file")
    imp.add_argument(
        "--out", required=True, metavar="FILE", help="thinkwire cassette to write, e.g. recordings/NAME.jsonl"
    )
    imp.add_argument(
        "--format",
        choices=("auto", "vcr", "har"),
        default="auto",
        help="the source's format (default: guessed)",
    )
    imp.add_argument(
        "--dialect", metavar="DIALECT", help="dialect name for the header (guessed from each path otherwise)"
    )
    imp.add_argument(
        "--only", metavar="N,N", help="interaction numbers to keep, e.g. 0,2 (from 0; default: all)"
    )
    imp.add_argument(
        "--trim", type=int, default=0, metavar="N", help="keep the first and last N events of each stream"
    )
    imp.add_argument("--force", action="store_true", help="replace an existing cassette")
    for what in ("header", "query", "json", "value"):
        imp.add_argument(
            f"--redact-{what}",
            action="append",
            default=[],
            metavar="PATH" if what == "json" else "REGEX",
            help=f"as for record: an extra {what} rule",
        )


def run_import(args: argparse.Namespace) -> int:
    """Convert, print one line per interaction and a summary; errors propagate as ThinkwireError.

    The summary line is ``wrote FILE: N exchange(s)``, and the CLI prints any ThinkwireError as one line
    with exit 2.
    """
    if args.dialect is not None:
        from harness.dialects import get_dialect

        get_dialect(args.dialect)
    if args.trim < 0:
        raise FlagError(f"--trim {args.trim}: expected a number of events >= 0 (0 keeps every event)")
    out = Path(args.out)
    if out.exists() and not args.force:
        raise FlagError(f"--out {out}: exists; pass --force to replace it or choose another --out")
    result = import_file(
        Path(args.source),
        fmt=args.format,
        dialect=args.dialect,
        only=parse_only(args.only),
        trim=args.trim,
        redactor=Redactor(args.redact_header, args.redact_json, args.redact_query, args.redact_value),
    )
    for line in result.lines:
        print(f"{args.source}: {line}")
    if not result.converted:
        raise CassetteError(f"{args.source}: no interaction could be converted (see the lines above)")
    result.cassette.write(out)
    print(f"wrote {out}: {result.converted} exchange(s)")
    return 0
