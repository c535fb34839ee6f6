"""Where dialects are found: a dialect's name to its module, imported on first use. Each module exposes
``DIALECT``, so adding a dialect is one line here."""

from __future__ import annotations

import importlib
from functools import cache

from harness._errors import UnknownName
from harness.dialects._base import Dialect, Variant

__all__ = ["DIALECT_MODULES", "all_variants", "dialect_names", "get_dialect"]

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
