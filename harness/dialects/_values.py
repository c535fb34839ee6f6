"""Untrusted wire JSON read field by field: a value as the type its field should have (the value itself when
it has that type, else None or an empty default), the fields an object should not have, and tool-call
arguments as a JSON value. Every codec meets a malformed or unknown field the same way, written once here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from typing import Any

from harness._json import loads
from harness.events import Notice

__all__ = ["json_args", "mapping", "object_args", "opt_str", "string", "unknown_fields", "value_at"]


def opt_str(value: Any) -> str | None:
    """``value`` if it is a string, else None (an id or a name the wire may leave out)."""
    return value if isinstance(value, str) else None


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else an empty one (a nested object the wire may leave out)."""
    return value if isinstance(value, Mapping) else {}


def value_at(value: Any, *path: str) -> Any:
    """The value at ``path`` down nested objects, None where a step is missing or no object."""
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def string(value: Any) -> str:
    """``value`` if it is a string, else "" (text the wire may leave out, or send as another type)."""
    return value if isinstance(value, str) else ""


def unknown_fields(obj: Iterable[str], known: Set[str], where: str = "") -> list[Notice]:
    """An ``unknown-field`` notice, named ``where`` + its key, for each key of ``obj`` not in ``known``."""
    return [Notice("unknown-field", where + key) for key in obj if key not in known]


def json_args(text: str, *, keep_bad: bool = True) -> Any:
    """Tool-call arguments as the JSON a wire carries them in: ``{}`` when blank, and text that is no JSON
    kept whole under ``arguments`` (without ``keep_bad``: ``{}``)."""
    try:
        return loads(text) if text.strip() else {}
    except ValueError:  # JSONDecodeError and orjson's error are both ValueErrors
        return {"arguments": text} if keep_bad else {}


def object_args(text: str) -> Any:
    """Tool-call arguments for a wire that can carry them only as a JSON object (Ollama, pi): ``{}`` when
    empty, and text that is no JSON kept whole under ``_raw``."""
    try:
        return loads(text) if text else {}
    except ValueError:  # JSONDecodeError and orjson's error are both ValueErrors
        return {"_raw": text}
