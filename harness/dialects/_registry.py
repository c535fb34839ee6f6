"""Where dialects and their variants are found: a dialect's name to its module, imported on first use, and
every variant's row through its dialect, the built-in ones and those files declare (``--variants-dir``).
Adding a dialect is one line here; every lookup of a variant's facts by name goes through this module."""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from harness._errors import ScenarioError, UnknownName
from harness.dialects._base import Dialect, ProviderRules, Variant
from harness.dialects._declared import ENV, Declared, declared_dirs, read_variants

__all__ = [
    "DIALECT_MODULES",
    "all_variants",
    "declare",
    "declare_dir",
    "declared_rules",
    "dialect_names",
    "find_variant",
    "get_dialect",
    "retract",
]

DIALECT_MODULES: dict[str, str] = {
    "openai-chat": "harness.dialects.openai_chat",
    "openai-responses": "harness.dialects.openai_responses",
    "openai-responses-ws": "harness.dialects.openai_responses.websocket",
    "anthropic-messages": "harness.dialects.anthropic_messages",
    "gemini": "harness.dialects.gemini",
    "gemini-interactions": "harness.dialects.gemini_interactions",
    "ollama": "harness.dialects.ollama",
    "bedrock-converse": "harness.dialects.bedrock_converse",
    "pi-json": "harness.dialects.pi_json",
    "cohere": "harness.dialects.cohere",
}

_RULES: dict[str, dict[str, ProviderRules]] = {}
"""dialect -> the strict rules declared variant files add to it, by rules name."""


def dialect_names() -> list[str]:
    return list(DIALECT_MODULES)


@cache
def get_dialect(name: str) -> Dialect:
    try:
        module = DIALECT_MODULES[name]
    except KeyError:
        raise UnknownName("dialect", name, DIALECT_MODULES) from None
    dialect: Dialect = importlib.import_module(module).DIALECT
    for d in (d for path in declared_dirs() for d in _read(path)):
        if d.variant.dialect == name:
            _add(dialect, d)
    return dialect


def all_variants() -> list[Variant]:
    return [v for name in DIALECT_MODULES for v in get_dialect(name).variants.values()]


def find_variant(dialect: str, variant: str) -> Variant | None:
    """The row of ``dialect:variant``, or None when either name is unknown (lookups with a default)."""
    if dialect not in DIALECT_MODULES:
        return None
    return get_dialect(dialect).variants.get(variant)


def declared_rules(dialect: str) -> dict[str, ProviderRules]:
    """The strict rules that declared variant files add to ``dialect``."""
    return dict(_RULES.get(dialect, {}))


def declare(rows: Iterable[Declared]) -> None:
    """Add file-declared rows to their dialects (a name a built-in row has is an error naming the file)."""
    for d in rows:
        _add(get_dialect(d.variant.dialect), d)


def declare_dir(path: str | Path) -> list[Variant]:
    """Read and add every variant file of ``path``, and name the directory in :data:`ENV` so that the
    SUT processes this run starts read the same rows. Returns the rows."""
    directory = Path(path).resolve()
    rows = _read(directory)
    declare(rows)
    dirs = [str(p) for p in declared_dirs()]
    if str(directory) not in dirs:
        os.environ[ENV] = os.pathsep.join([*dirs, str(directory)])
    return [d.variant for d in rows]


@cache
def _read(directory: Path) -> list[Declared]:
    """Each declared directory's rows, read once."""
    return read_variants(directory)


def _add(dialect: Dialect, d: Declared) -> None:
    row = d.variant
    known = dialect.variants.get(row.name)
    if known is not None and known.source != row.source:
        fix = "give the file's variant another name"
        raise ScenarioError(row.source, "name", f"{dialect.name}:{row.name} is already a variant", fix)
    if row.like and row.like not in dialect.variants:
        fix = f"use one of {', '.join(dialect.variants)}"
        raise ScenarioError(row.source, "like", f"{dialect.name} has no variant {row.like!r}", fix)
    dialect.variants[row.name] = row
    if d.rules is not None:
        _RULES.setdefault(dialect.name, {})[d.rules.name] = d.rules


def retract(rows: Iterable[Variant]) -> None:
    """Remove file-declared rows (and their rules) again; built-in rows stay (tests declare for a while)."""
    for row in rows:
        dialect = get_dialect(row.dialect)
        if row.source and dialect.variants.get(row.name) is row:
            del dialect.variants[row.name]
        if row.rules:
            _RULES.get(row.dialect, {}).pop(row.rules, None)
