"""Gemini request field names in one spelling, lowerCamelCase. Everything that reads a Gemini request reads
:func:`camel_request` of it once, so no reader has to accept two names for a field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["camel", "camel_request"]

# Fields that hold user data keep their keys as written: function arguments and responses, JSON schemas,
# labels.
_USER_DATA = frozenset(
    {"args", "response", "parameters", "parametersJsonSchema", "responseSchema", "responseJsonSchema"}
    | {"labels"}
)


def camel(name: str) -> str:
    """``include_thoughts`` -> ``includeThoughts`` (a name without ``_`` is returned as it is)."""
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def camel_request(obj: Any) -> Any:
    """``obj`` with every field name in lowerCamelCase.

    The API reads protobuf JSON, whose parsers accept each field's lowerCamelCase name and its original
    snake_case name alike: ``generation_config.thinking_config.include_thoughts`` is
    ``generationConfig.thinkingConfig.includeThoughts``. Recorded: a request with ``function_call`` /
    ``function_response`` parts and ``parameters_json_schema`` answered 200, see
    recordings/corpus/gemini-tools-array.jsonl and gemini-signature-stream.jsonl.
    """
    if isinstance(obj, Mapping):
        named = ((camel(key) if isinstance(key, str) else key, value) for key, value in obj.items())
        return {name: value if name in _USER_DATA else camel_request(value) for name, value in named}
    if isinstance(obj, list):
        return [camel_request(value) for value in obj]
    return obj
