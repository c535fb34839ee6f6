"""One value of untrusted wire JSON read as the type its field should have: the value itself when it has
that type, else None or an empty mapping. Every observer and request reader meets a malformed field the
same way, so that test is written once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["mapping", "opt_str", "string"]


def opt_str(value: Any) -> str | None:
    """``value`` if it is a string, else None (an id or a name the wire may leave out)."""
    return value if isinstance(value, str) else None


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else an empty one (a nested object the wire may leave out)."""
    return value if isinstance(value, Mapping) else {}


def string(value: Any) -> str:
    """``value`` if it is a string, else "" (text the wire may leave out, or send as another type)."""
    return value if isinstance(value, str) else ""
