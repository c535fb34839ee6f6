"""The catalog: the bundled scenario files, the corpus cases, and a team's own scenario directories. Corpus
cases are built from files outside the project, so this module also says which are left out and why."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from harness._errors import ScenarioError
from harness.catalog._promote import scenario_toml
from harness.catalog._scenario import Scenario, catalog_dir, load_scenario, parse_scenario
from harness.recording import Location, absent_reason, locate, open_corpus, read_cassette, read_manifest

__all__ = ["CORPUS_PREFIX", "LeftOut", "corpus_scenarios", "left_out", "load_catalog"]

CORPUS_PREFIX = "recorded/corpus-"


@dataclass(frozen=True, slots=True)
class LeftOut:
    """The corpus cases a run goes without, and the one-line reason."""

    ids: tuple[str, ...]
    reason: str


def load_catalog(
    root: Path | None = None, extra: Sequence[str | Path] = (), only: Sequence[str] | None = None
) -> list[Scenario]:
    """The catalog (``root``, default the bundled one with the corpus cases when a corpus is found) and
    a team's own scenario directories (``extra``: each file's id is its path relative to its directory).
    An id found twice is a ScenarioError naming both files. ``only`` (``--cases`` globs): a catalog
    file whose id no glob can match is not read (a one-case run parses one file); with ``extra``
    directories every file is read, so that a clash of ids is still found."""
    bundled = root is None
    root = root or catalog_dir()
    maybe = _could_match(only) if only and not extra else None
    files = sorted(root.rglob("*.toml"))
    out = [_cached(p, root) for p in files if maybe is None or maybe(_sid(p, root))]
    if bundled and (maybe is None or maybe(CORPUS_PREFIX, prefix=True)):
        out += corpus_scenarios()
    seen = {s.id: s.path for s in out}
    for d in extra:
        folder = Path(d)
        if not folder.is_dir():
            raise ScenarioError(str(folder), "<dir>", "is not a directory of scenario files",
                                "pass a directory holding *.toml scenarios (--scenarios-dir DIR)")
        for path in sorted(folder.rglob("*.toml")):
            scenario = load_scenario(path, folder)
            if scenario.id in seen:
                raise ScenarioError(
                    str(path), "<id>", f"id {scenario.id!r} is taken by {seen[scenario.id]}",
                    "rename the file or move it to another subdirectory",
                )
            seen[scenario.id] = scenario.path
            out.append(scenario)
    return out


def _sid(path: Path, root: Path) -> str:
    return path.relative_to(root).with_suffix("").as_posix()


def _could_match(globs: Sequence[str]) -> Callable[..., bool]:
    """Whether any glob could match a scenario id or one of its case ids (``ID[...]``), judged by each
    glob's literal start (before its first ``*`` or ``?``); ``prefix``: whether it could match an id
    starting with the given text."""
    starts = [re.split(r"[*?]", g, maxsplit=1)[0] for g in globs]

    def could(sid: str, prefix: bool = False) -> bool:
        ids = (sid,) if prefix else (sid, sid + "[")
        return any(
            i.startswith(lit) or (lit.startswith(i) and (prefix or i.endswith("[")))
            for lit in starts
            for i in ids
        )

    return could


@lru_cache(maxsize=1024)
def _parsed(path: Path, root: Path, stamp: tuple[int, int]) -> Scenario:
    return load_scenario(path, root)


def _cached(path: Path, root: Path) -> Scenario:
    """The file's scenario, parsed once per process while the file is unchanged (a run, its
    preflight and its warm-up read the same catalog; scenarios are immutable)."""
    st = path.stat()
    return _parsed(path, root, (st.st_mtime_ns, st.st_size))


def corpus_scenarios() -> list[Scenario]:
    """The corpus cases, or [] when there is no corpus (then :func:`left_out` names them).

    A corpus case, ``recorded/corpus-NAME``, comes from a manifest entry marked ``case = true``. It is
    built from its corpus file as ``thinkwire promote`` builds a scenario, with steps decoded from the
    recorded bytes and each turn replaying them, so that no recorded byte from another repository is part
    of the project. A corpus whose files differ from the manifest is an error.
    """
    return list(_build(locate())[0])


def corpus_left_out(globs: Sequence[str] | None) -> dict[str, int]:
    """The corpus cases a selection (``--cases`` globs; None: all) would have run, left out because no
    corpus was found, as the run's left-out record has them: reason -> number (empty with a corpus)."""
    from harness.catalog._case import matches

    if globs and not _could_match(globs)(CORPUS_PREFIX, prefix=True):
        return {}  # (no corpus case selected: the corpus is not looked at)
    gone = left_out()
    if gone is None:
        return {}
    wanted = list(globs) if globs else ["*"]
    ids = [i for i in gone.ids if any(matches(g, i) or g.split("[")[0] == i for g in wanted)]
    return {f"recorded/corpus-*: {gone.reason}": len(ids)} if ids else {}


def left_out() -> LeftOut | None:
    """Which corpus cases the catalog lacks and why (None when the corpus is present)."""
    return _build(locate())[1]


@lru_cache(maxsize=4)
def _build(where: Location) -> tuple[tuple[Scenario, ...], LeftOut | None]:
    manifest = read_manifest()
    entries = [e for e in manifest.entries if e.case]
    corpus = open_corpus(where, manifest)
    if corpus is None:
        return (), LeftOut(tuple(f"{CORPUS_PREFIX}{e.name}" for e in entries), absent_reason(where))
    out = []
    for e in entries:
        path: Path = corpus.path(e.name)
        text = scenario_toml(
            read_cassette(path),
            str(path),
            description=f"Replays the recorded exchange(s) of the corpus file {e.name}.jsonl byte for byte.",
            variant=e.case_variant,
        )
        out.append(parse_scenario(tomllib.loads(text), sid=f"{CORPUS_PREFIX}{e.name}", file=str(path)))
    return tuple(out), None
