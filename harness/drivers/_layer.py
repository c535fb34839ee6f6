"""Which layer of a SUT raised: the innermost third-party package in an exception's frames, with its version
and file:line, and the package it was called under. A message then reads "raised in openai 3.63.0
_streaming.py:110, under langchain-openai 1.0.0"."""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["Frame", "frames_of", "js_frames", "named_layer"]

_OWN = "thinkwire"
_V8_FRAME = re.compile(r"^\s*at (?:.*? \()?(?:file://)?(?P<file>[^()\s]+?):(?P<line>\d+)(?::\d+)?\)?\s*$")
_CAUSED_BY = re.compile(r"^\s*(?:\[cause\]|Caused by:)", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Frame:
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class _Package:
    name: str
    version: str
    path: str  # the frame's file inside the package


def frames_of(exc: BaseException) -> list[Frame]:
    """An exception's frames, innermost first: those of the exception it was raised from (its cause
    or context, unless suppressed) before its own."""
    chain: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and cur not in chain and len(chain) < 8:
        chain.append(cur)
        cur = cur.__cause__ or (None if cur.__suppress_context__ else cur.__context__)
    out: list[Frame] = []
    for e in reversed(chain):
        out += [Frame(f.filename, f.lineno or 0) for f in reversed(traceback.extract_tb(e.__traceback__))]
    return out


def js_frames(stack: str, frames: Any = None) -> list[Frame]:
    """A JS error's frames, innermost first, from its V8 ``stack`` (a cause's stack appended after
    ``Caused by:`` is read first) or from an adapter's ``frames`` list (``{"file", "line"}``)."""
    if isinstance(frames, list):
        return [
            Frame(str(f["file"]), int(f.get("line") or 0)) for f in frames
            if isinstance(f, Mapping) and isinstance(f.get("file"), str)
            and isinstance(f.get("line", 0), int) and not isinstance(f.get("line"), bool)
        ]
    out: list[Frame] = []
    for part in reversed(_CAUSED_BY.split(stack)):
        for line in part.splitlines():
            m = _V8_FRAME.match(line)
            if m and not m["file"].startswith("node:"):
                out.append(Frame(m["file"], int(m["line"])))
    return out


def named_layer(frames: Sequence[Frame]) -> str:
    """``raised in PKG VERSION PATH:LINE[, under PKG VERSION]`` for the innermost frame that belongs
    to a third-party package and the next other package outwards; ``""`` when none does.

    A Python frame belongs to the installed distribution whose file list holds its file, found through
    ``importlib.metadata`` and read once per import path. A JS frame belongs to the package of its last
    ``node_modules/<pkg>/`` segment, whose package.json gives the version. Frames are taken innermost
    first, the exception an error was raised from before the error itself. thinkwire's own frames, the
    standard library's and the SUT's own code belong to no package; when no frame belongs to one, there is
    nothing to name.
    """
    inner: tuple[_Package, Frame] | None = None
    for f in frames:
        pkg = _package(f.file)
        if pkg is None:
            continue
        if inner is None:
            inner = (pkg, f)
        elif pkg.name != inner[0].name:
            return f"{_raised_in(*inner)}, under {pkg.name} {pkg.version}"
    return _raised_in(*inner) if inner is not None else ""


def _raised_in(pkg: _Package, f: Frame) -> str:
    return f"raised in {pkg.name} {pkg.version} {pkg.path}:{f.line}"


def _package(file: str) -> _Package | None:
    if "node_modules/" in file.replace(os.sep, "/"):
        return _node_package(file.replace(os.sep, "/"))
    return _python_package(os.path.abspath(file))


def _node_package(file: str) -> _Package | None:
    root, _, rest = file.rpartition("node_modules/")
    parts = rest.split("/")
    n = 2 if parts[0].startswith("@") else 1
    if len(parts) <= n:
        return None
    name, path = "/".join(parts[:n]), "/".join(parts[n:])
    return _Package(name, _node_version(f"{root}node_modules/{name}"), path)


@cache
def _node_version(package_dir: str) -> str:
    try:
        data = json.loads(Path(package_dir, "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "(version unknown)"
    version = data.get("version") if isinstance(data, dict) else None
    return str(version) if version else "(version unknown)"


def _python_package(file: str) -> _Package | None:
    for entry in _import_dirs(tuple(sys.path)):
        if not file.startswith(entry + os.sep):
            continue
        rel = file[len(entry) + 1 :].replace(os.sep, "/")
        top = rel.split("/", 1)[0].removesuffix(".py")
        for dist in _top_level(tuple(sys.path)).get(top, ()):
            if _norm(dist) == _OWN or rel not in _files(dist):
                continue
            shown = rel.split("/", 1)[1] if "/" in rel and _norm(top) == _norm(dist) else rel
            return _Package(dist, _version(dist), shown)
        return None
    return None


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def _import_dirs(path: tuple[str, ...]) -> tuple[str, ...]:
    """The import path's directories, longest first (a file belongs to the deepest that holds it)."""
    dirs = {os.path.abspath(p) for p in path if p and os.path.isdir(p)}
    return tuple(sorted(dirs, key=len, reverse=True))


@cache
def _top_level(path: tuple[str, ...]) -> Mapping[str, list[str]]:
    """Import name -> distributions (read once per import path: it reads every installed one)."""
    from importlib.metadata import packages_distributions

    return packages_distributions()


@cache
def _files(dist: str) -> frozenset[str]:
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        files: Iterable[Any] = distribution(dist).files or ()
    except PackageNotFoundError:
        return frozenset()
    return frozenset(str(f).replace(os.sep, "/") for f in files)


@cache
def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "(version unknown)"
