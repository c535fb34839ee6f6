"""``thinkwire corpus fetch``: the command line of the corpus rebuild, its flags and printed lines. The work
itself is ``_corpus_fetch``, so this module only parses and prints."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from harness._errors import FlagError
from harness.recording import DEFAULT_BASE, ENV, fetch_corpus, locate

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    corpus = sub.add_parser("corpus", help="the fidelity corpus (recorded traffic kept outside the project)")
    what = corpus.add_subparsers(dest="corpus_command", metavar="ACTION", required=True)
    fetch = what.add_parser(
        "fetch", help="download each original at its pinned commit, check it, convert it with `import`"
    )
    fetch.add_argument(
        "--from", dest="base", default=DEFAULT_BASE, metavar="BASE_URL",
        help=f"where the originals are, as BASE_URL/<owner>/<repo>/<commit>/<path> (default {DEFAULT_BASE})",
    )  # fmt: skip
    fetch.add_argument(
        "--dir", metavar="DIR", help=f"where to write the corpus (default: ${ENV}, else ../shared/corpus)"
    )


def run(args: argparse.Namespace) -> int:
    """It prints one line per file written, then ``wrote N file(s) to DIR``. Every problem is a
    :class:`~harness._errors.ThinkwireError` the CLI prints as one line, with exit 2."""
    if not args.base.startswith(("http://", "https://")):
        raise FlagError(f"--from {args.base!r}: expected an http:// or https:// base URL")
    if args.dir:
        dest = Path(args.dir)
    else:
        where = locate()
        if where.dir is None:
            raise FlagError(f"--dir DIR is required: {where.how}")
        dest = where.dir
    n = fetch_corpus(dest, args.base, progress=print)
    print(f"wrote {n} file(s) to {dest}")
    return 0
