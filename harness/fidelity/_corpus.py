"""The fidelity corpus: real recorded exchanges (``recordings/corpus/*.jsonl``) and their manifest
(``recordings/corpus/corpus.toml``: per file its source repository, path, commit, license, and the mock
variant and provider profile that play that provider).

Rule: the manifest is the one place the provenance of a corpus file is written (the README table is
rendered from it); a corpus file without a manifest entry, an entry without its file, or a source
repository without a permissive license is a :class:`~harness._errors.CassetteError`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness._errors import CassetteError
from harness._json import loads
from harness.recording import Exchange, read_cassette
from harness.recording._replay import detect_dialect

__all__ = ["PERMISSIVE_LICENSES", "CorpusExchange", "CorpusFile", "corpus_dir", "load_corpus"]

PERMISSIVE_LICENSES = frozenset({"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC"})


@dataclass(frozen=True, slots=True)
class CorpusFile:
    name: str
    path: Path
    repo: str
    source_path: str
    commit: str
    license: str
    variant: str
    profile: str
    note: str
    trimmed: bool


@dataclass(frozen=True, slots=True)
class CorpusExchange:
    file: CorpusFile
    index: int
    dialect: str
    exchange: Exchange

    @property
    def label(self) -> str:
        return f"{self.file.name}#{self.index}"

    @property
    def request(self) -> dict[str, Any]:
        """The recorded request's JSON body ({} when it has none or it is not a JSON object)."""
        try:
            obj = loads(self.exchange.request_body or b"{}")
        except ValueError:
            return {}
        return obj if isinstance(obj, dict) else {}


def corpus_dir() -> Path:
    here = Path(__file__).resolve().parents[2] / "recordings" / "corpus"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[1] / "_data" / "recordings" / "corpus"  # installed wheel


def _str(entry: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = entry.get(key, default)
    if not isinstance(value, str):
        raise CassetteError(f"{where}: {key!r} must be a string, not {value!r}")
    return value


def load_corpus(root: Path | None = None) -> list[CorpusExchange]:
    root = root or corpus_dir()
    manifest = root / "corpus.toml"
    try:
        doc = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CassetteError(f"{manifest}: cannot be read ({exc})") from None
    licenses = doc.get("licenses", {})
    files = doc.get("files", {})
    on_disk = {p.stem for p in root.glob("*.jsonl")}
    missing = sorted(on_disk - set(files))
    if missing:
        raise CassetteError(f"{manifest}: {missing[0]}.jsonl has no [files.{missing[0]}] entry (its source)")
    out: list[CorpusExchange] = []
    for name, entry in sorted(files.items()):
        where = f"{manifest}: [files.{name}]"
        repo = _str(entry, "repo", where)
        lic = licenses.get(repo)
        if lic not in PERMISSIVE_LICENSES:
            raise CassetteError(
                f"{where}: {repo} has license {lic!r}; the corpus takes only {sorted(PERMISSIVE_LICENSES)}"
            )
        path = root / f"{name}.jsonl"
        if not path.is_file():
            raise CassetteError(f"{where}: {path.name} does not exist")
        cf = CorpusFile(
            name, path, repo, _str(entry, "path", where), _str(entry, "commit", where), lic,
            _str(entry, "variant", where), _str(entry, "profile", where, "lenient"),
            _str(entry, "note", where, ""), bool(entry.get("trimmed", False)),
        )  # fmt: skip
        cassette = read_cassette(path)
        for i, ex in enumerate(cassette.exchanges):
            dialect = cassette.dialect or detect_dialect(ex.path)
            if dialect is None:
                raise CassetteError(f"{path}: exchange {i} ({ex.path}): no dialect serves this path")
            out.append(CorpusExchange(cf, i, dialect, ex))
    return out
