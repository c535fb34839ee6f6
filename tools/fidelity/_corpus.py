"""The fidelity corpus as exchanges: each recorded exchange of each corpus file, with its dialect and its
manifest entry. The corpus is found, read and verified by :mod:`harness.recording._corpus` and nowhere
else."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness._errors import CassetteError, CorpusAbsent
from harness._json import loads
from harness.recording import Exchange, read_cassette
from harness.recording._corpus import (
    PERMISSIVE_LICENSES,
    Corpus,
    Entry,
    Location,
    absent_reason,
    open_corpus,
    read_manifest,
)
from harness.recording._replay import detect_dialect

__all__ = [
    "PERMISSIVE_LICENSES",
    "CorpusAbsent",
    "CorpusExchange",
    "CorpusFile",
    "find_corpus",
    "load_corpus",
]


CorpusFile = Entry  # a corpus file as its manifest entry names it (where it lies: Corpus.path)


@dataclass(frozen=True, slots=True)
class CorpusExchange:
    """The manifest entry gives source, license, and the mock variant and provider rules that play that
    provider."""
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


def find_corpus(root: Path | None = None, manifest: Path | None = None) -> Corpus:
    """The verified corpus (at ``root``, default where :func:`~harness.recording._corpus.locate` says),
    or :class:`CorpusAbsent`."""
    where = Location(root, "given") if root is not None else None
    corpus = open_corpus(where, read_manifest(manifest))
    if corpus is None:
        raise CorpusAbsent(absent_reason(where))
    return corpus


def load_corpus(root: Path | None = None, manifest: Path | None = None) -> list[CorpusExchange]:
    """Without a corpus it raises :class:`CorpusAbsent`, whose message says where it was looked for."""
    corpus = find_corpus(root, manifest)
    out: list[CorpusExchange] = []
    for e in corpus.manifest.entries:
        path = corpus.path(e.name)
        cassette = read_cassette(path)
        for i, ex in enumerate(cassette.exchanges):
            dialect = cassette.dialect or detect_dialect(ex.path)
            if dialect is None:
                raise CassetteError(f"{path}: exchange {i} ({ex.path}): no dialect serves this path")
            out.append(CorpusExchange(e, i, dialect, ex))
    return out
