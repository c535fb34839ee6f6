"""``thinkwire corpus fetch``: rebuild the fidelity corpus from the manifest. It downloads each original at
its pinned commit, checks it, and converts it with ``thinkwire import`` as the manifest says."""

from __future__ import annotations

import argparse
import hashlib
import shlex
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

from harness._errors import CassetteError
from harness.recording._corpus import Entry, Manifest, read_manifest
from harness.recording._import import import_file, parse_only
from harness.recording._redact import Redactor

__all__ = ["DEFAULT_BASE", "fetch_corpus", "source_url"]

DEFAULT_BASE = "https://raw.githubusercontent.com"
TIMEOUT = 60.0


def source_url(base: str, entry: Entry) -> str:
    return f"{base.rstrip('/')}/{entry.repo}/{entry.commit}/{urllib.parse.quote(entry.source_path)}"


def _download(url: str, name: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as resp:
            data: bytes = resp.read()
            return data
    except urllib.error.HTTPError as exc:
        raise CassetteError(f"{name}: {url} answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise CassetteError(f"{name}: {url} could not be fetched ({reason})") from None


def _import_args(entry: Entry) -> argparse.Namespace:
    """The entry's ``imported_with`` flags, read by the ``import`` command's own parser."""
    from harness.recording._import_cli import add_import_parser

    parser = argparse.ArgumentParser(prog="thinkwire", exit_on_error=False)
    add_import_parser(parser.add_subparsers(dest="command"))
    try:
        flags = shlex.split(entry.imported_with)
        return parser.parse_args(["import", entry.imported_as, "--out", "-", *flags])
    except (argparse.ArgumentError, ValueError, SystemExit) as exc:
        raise CassetteError(f"[files.{entry.name}]: imported_with {entry.imported_with!r}: {exc}") from None


def convert(entry: Entry, original: bytes) -> bytes:
    """The original converted as ``thinkwire import`` converts it, under its ``imported_as`` name."""
    args = _import_args(entry)
    with tempfile.TemporaryDirectory(prefix="thinkwire-corpus-") as tmp:
        src = Path(tmp) / entry.imported_as
        src.write_bytes(original)
        result = import_file(
            src, fmt=args.format, dialect=args.dialect, only=parse_only(args.only), trim=args.trim,
            redactor=Redactor(args.redact_header, args.redact_json, args.redact_query, args.redact_value),
        )  # fmt: skip
        out = Path(tmp) / f"{entry.name}.jsonl"
        result.cassette.write(out)
        return out.read_bytes()


def _put(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_bytes(data)
    part.replace(path)


def fetch_corpus(
    dest: Path,
    base: str = DEFAULT_BASE,
    manifest: Manifest | None = None,
    progress: Callable[[str], None] = lambda line: None,
) -> int:
    """Download, check and convert every manifest file into ``dest``; the number of files written.

    An original comes from ``BASE/<owner>/<repo>/<commit>/<path>``, GitHub's raw file layout by default, is
    checked against the manifest's ``source_sha256`` and kept under
    ``DIR/src/<owner>/<repo>/<commit[:12]>/<path>``. It is converted with the entry's ``imported_with``
    flags into ``DIR/NAME.jsonl``, which must match the manifest's ``sha256``.

    Nothing is written into DIR under a final name before its checksum matched. A failed download or a
    checksum mismatch is one :class:`CassetteError` line naming the file and the URL.
    """
    manifest = manifest or read_manifest()
    for e in manifest.entries:
        url = source_url(base, e)
        original = _download(url, f"{e.name}.jsonl")
        got = hashlib.sha256(original).hexdigest()
        if got != e.source_sha256:
            raise CassetteError(
                f"{e.name}.jsonl: {url} has sha256 {got}, the manifest pins {e.source_sha256} "
                f"([files.{e.name}] source_sha256)"
            )
        converted = convert(e, original)
        got = hashlib.sha256(converted).hexdigest()
        if got != e.sha256:
            raise CassetteError(
                f"{e.name}.jsonl: converted by `thinkwire import` ({e.imported_with or 'no flags'}) it has "
                f"sha256 {got}, the manifest pins {e.sha256} (the importer changed, or the manifest is stale)"
            )
        _put(dest / e.source_dir, original)
        _put(dest / f"{e.name}.jsonl", converted)
        progress(f"{e.name}.jsonl: {len(converted)} bytes from {e.repo}@{e.commit[:12]}")
    return len(manifest.entries)
