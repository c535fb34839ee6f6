"""The fidelity corpus: where it is kept and what it must hold. This module is the one place the corpus is
found and read, so every caller skips or fails on it the same way."""

from __future__ import annotations

import hashlib
import os
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from harness._errors import CassetteError

__all__ = [
    "ENV",
    "PERMISSIVE_LICENSES",
    "Corpus",
    "Entry",
    "Location",
    "Manifest",
    "Wanted",
    "absent_reason",
    "checkout_root",
    "locate",
    "manifest_path",
    "open_corpus",
    "read_manifest",
    "sha256_of",
]

ENV = "THINKWIRE_CORPUS"
PERMISSIVE_LICENSES = frozenset({"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One corpus file as the manifest names it (``[files.NAME]``)."""

    name: str
    repo: str
    source_path: str
    commit: str
    license: str
    variant: str
    provider_rules: str
    note: str
    trimmed: bool
    imported_with: str  # the ``thinkwire import`` flags, e.g. "--only 1 --trim 40"
    imported_as: str  # the file name the original had when it was imported (the cassette's "source")
    source_sha256: str  # of the original, byte for byte as it is in ``repo`` at ``commit``
    sha256: str  # of the converted ``NAME.jsonl``
    case: bool  # also a catalog case, ``recorded/corpus-NAME``
    case_variant: str  # the variant that case runs on (default ``variant``)

    @property
    def source_dir(self) -> str:
        """Where the original lies under the corpus folder (``src/<owner>/<repo>/<commit[:12]>/<path>``)."""
        return f"src/{self.repo}/{self.commit[:12]}/{self.source_path}"


@dataclass(frozen=True, slots=True)
class Wanted:
    """A recording the corpus lacks (``[wanted.NAME]``): the variant it would play, and why."""

    name: str
    dialect: str
    variant: str
    why: str


@dataclass(frozen=True, slots=True)
class Manifest:
    path: Path
    entries: tuple[Entry, ...]
    wanted: tuple[Wanted, ...]


@dataclass(frozen=True, slots=True)
class Location:
    """The corpus folder and how it was chosen (for the line that says where it was looked for)."""

    dir: Path | None
    how: str


@dataclass(frozen=True, slots=True)
class Corpus:
    """A present corpus whose every file matched the manifest's sha256."""

    root: Path
    manifest: Manifest

    def path(self, name: str) -> Path:
        return self.root / f"{name}.jsonl"


def checkout_root() -> Path | None:
    """The repository root when thinkwire runs from a checkout (None from an installed wheel)."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "recordings" / "corpus").is_dir():
        return root
    return None


def manifest_path() -> Path:
    root = checkout_root()
    if root is not None:
        return root / "recordings" / "corpus" / "corpus.toml"
    return Path(str(resources.files("harness") / "_data" / "recordings" / "corpus" / "corpus.toml"))


def _str(entry: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = entry.get(key, default)
    if not isinstance(value, str):
        raise CassetteError(f"{where}: {key!r} must be a string, not {value!r}")
    return value


def _sha(entry: dict[str, Any], key: str, where: str) -> str:
    value = _str(entry, key, where)
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise CassetteError(f"{where}: {key!r} must be 64 lower-case hex digits (a sha256), not {value!r}")
    return value


def read_manifest(path: Path | None = None) -> Manifest:
    """The manifest, checked: every field typed, every source repository permissively licensed.

    The project ships only the manifest, ``recordings/corpus/corpus.toml``: per file the source repository,
    path, commit, license, import flags, and the sha256 of the original and of the converted file. The
    recorded data, taken from other repositories, is read from a folder outside the project.
    """
    path = path or manifest_path()
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CassetteError(f"{path}: cannot be read ({exc})") from None
    licenses = doc.get("licenses", {})
    entries: list[Entry] = []
    for name, entry in sorted(doc.get("files", {}).items()):
        where = f"{path}: [files.{name}]"
        repo = _str(entry, "repo", where)
        lic = licenses.get(repo)
        if lic not in PERMISSIVE_LICENSES:
            raise CassetteError(
                f"{where}: {repo} has license {lic!r}; the corpus takes only {sorted(PERMISSIVE_LICENSES)}"
            )
        commit = _str(entry, "commit", where)
        if len(commit) != 40:
            raise CassetteError(f"{where}: 'commit' must be the full 40-digit commit, not {commit!r}")
        entries.append(Entry(
            name, repo, _str(entry, "path", where), commit, lic,
            _str(entry, "variant", where),
            _str(entry, "provider_rules", where, _str(entry, "profile", where, "lenient")),
            _str(entry, "note", where, ""), bool(entry.get("trimmed", False)),
            _str(entry, "imported_with", where, ""), _str(entry, "imported_as", where, f"{name}.yaml"),
            _sha(entry, "source_sha256", where), _sha(entry, "sha256", where), bool(entry.get("case", False)),
            _str(entry, "case_variant", where, _str(entry, "variant", where)),
        ))  # fmt: skip
    wanted = []
    for name, w in sorted(doc.get("wanted", {}).items()):
        where = f"{path}: [wanted.{name}]"
        fields = (_str(w, "dialect", where), _str(w, "variant", where), _str(w, "why", where))
        wanted.append(Wanted(name, *fields))
    return Manifest(path, tuple(entries), tuple(wanted))


def _checkout_around(start: Path) -> Path | None:
    """The thinkwire checkout ``start`` is in (it or a parent), where thinkwire was installed from
    with ``pip install .``: its files then run from site-packages, not from the checkout."""
    for folder in (start, *start.parents):
        project = folder / "pyproject.toml"
        if project.is_file() and (folder / "recordings" / "corpus").is_dir():
            try:
                name = tomllib.loads(project.read_text(encoding="utf-8")).get("project", {}).get("name")
            except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
                continue
            if name == "thinkwire":
                return folder
    return None


def locate() -> Location:
    """Where the corpus is looked for: ``THINKWIRE_CORPUS`` (``--corpus DIR`` sets it), else
    ``../shared/corpus`` beside the checkout thinkwire runs from, or beside the checkout the working
    directory is in (thinkwire installed from it, non-editable), else nowhere."""
    env = os.environ.get(ENV, "").strip()
    if env:
        return Location(Path(env).expanduser(), f"${ENV}")
    root = checkout_root() or _checkout_around(Path.cwd().resolve())
    if root is not None:
        return Location(root.parent / "shared" / "corpus", "../shared/corpus beside the checkout")
    return Location(
        None,
        f"${ENV} is not set, and neither thinkwire's files nor the working directory are in a checkout of "
        "thinkwire",
    )


def absent_reason(where: Location | None = None) -> str:
    """One line: no corpus, where it was looked for, and how to get one.

    A folder holding none of the manifest's files is absent, and callers skip with this reason.
    """
    where = where or locate()
    at = f"looked for it at {where.dir} ({where.how})" if where.dir is not None else where.how
    return f"no fidelity corpus: {at}; set {ENV} or --corpus DIR, or build it with `thinkwire corpus fetch`"


def sha256_of(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise CassetteError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def open_corpus(where: Location | None = None, manifest: Manifest | None = None) -> Corpus | None:
    """The corpus at ``where`` (default :func:`locate`), every file verified; None when absent (no
    folder, or none of the manifest's files in it). A missing file or a sha256 mismatch raises."""
    where = where or locate()
    if where.dir is None:
        return None
    manifest = manifest or read_manifest()
    return _open(where.dir.resolve(), manifest)


@lru_cache(maxsize=4)
def _open(root: Path, manifest: Manifest) -> Corpus | None:
    present = [e for e in manifest.entries if (root / f"{e.name}.jsonl").is_file()]
    if not present:
        return None
    for e in manifest.entries:
        path = root / f"{e.name}.jsonl"
        if not path.is_file():
            raise CassetteError(
                f"{path}: missing from the corpus at {root} (the manifest {manifest.path.name} names it); "
                "rebuild the corpus with `thinkwire corpus fetch`"
            )
        got = sha256_of(path)
        if got != e.sha256:
            raise CassetteError(
                f"{path}: sha256 {got} differs from the manifest's {e.sha256} ({manifest.path.name} "
                f"[files.{e.name}]); rebuild it with `thinkwire corpus fetch`"
            )
    return Corpus(root, manifest)
