"""Where ``thinkwire run`` writes: output paths checked before the first case, and the detail of a failure
that stopped the run. It is separate so that no run of minutes ends in a traceback about its report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness._errors import FlagError

__all__ = ["check_output", "explained"]


def check_output(flag: str, path: Path, *, directory: bool) -> None:
    """Can ``path`` (a directory, or a file) be written? Probed by creating what is missing, writing a
    probe file in the directory, and removing both again.

    A path that cannot be written is refused with one line before any case runs.
    """
    import contextlib
    import os
    import tempfile

    if directory and path.exists() and not path.is_dir():
        raise FlagError(
            f"{flag}: {path} is an existing file; expected a directory (name a new or existing directory)"
        )
    if not directory and path.is_dir():
        raise FlagError(f"{flag}: {path} is a directory; expected a file path (e.g. {path / 'out.xml'})")
    folder = path if directory else path.parent
    missing = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    if not probe.is_dir():  # afile/j.xml where afile is a file: mkdir would say "File exists"
        raise FlagError(f"{flag}: cannot write to {path}: {probe} is a file, not a directory")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".thinkwire-probe-", dir=folder)
        os.close(fd)
        os.unlink(name)
        if not directory and path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(f"{path} is not writable")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise FlagError(f"{flag}: cannot write to {path}: {reason} (choose a writable path)") from None
    finally:
        for d in missing:  # deepest first: leave the file system as it was
            with contextlib.suppress(OSError):
                d.rmdir()


def explained(args: argparse.Namespace, line: str, detail: str, name: str) -> str:
    """The one line of a failure that stopped the run, and where its whole traceback and timeline are:
    printed above (``-v``), written to the report dir (``--report``), or how to get them.

    The whole traceback and timeline of a preflight or start failure go where the one line says: printed
    with ``-v``, or a file in ``--report DIR``. They are never lost.
    """
    if not detail:
        return line
    if args.verbose:
        sys.stderr.write(detail if detail.endswith("\n") else detail + "\n")
        return f"{line} (traceback and timeline above)"
    if args.report:
        path = Path(args.report) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(detail, encoding="utf-8")
        return f"{line} (traceback and timeline: {path})"
    return f"{line} (-v prints the traceback and timeline; --report DIR writes them to DIR/{name})"
