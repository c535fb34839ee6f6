"""Where dialects and their variants are found: a dialect's name to its module, imported on first use, and
every variant's row through its dialect. Each module exposes ``DIALECT``, so adding a dialect is one line
here; every lookup of a variant's facts by name goes through :func:`find_variant` or a dialect's rows."""

from __future__ import annotations

import importlib
from functools import cache

from harness._errors import UnknownName
from harness.dialects._base import Dialect, Variant

__all__ = ["DIALECT_MODULES", "all_variants", "dialect_names", "find_variant", "get_dialect"]

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


def dialect_names() -> list[str]:
    return list(DIALECT_MODULES)


@cache
def get_dialect(name: str) -> Dialect:
    try:
        module = DIALECT_MODULES[name]
    except KeyError:
        raise UnknownName("dialect", name, DIALECT_MODULES) from None
    dialect: Dialect = importlib.import_module(module).DIALECT
    return dialect


def all_variants() -> list[Variant]:
    return [v for name in DIALECT_MODULES for v in get_dialect(name).variants.values()]


def find_variant(dialect: str, variant: str) -> Variant | None:
    """The row of ``dialect:variant``, or None when either name is unknown (lookups with a default)."""
    if dialect not in DIALECT_MODULES:
        return None
    return get_dialect(dialect).variants.get(variant)
