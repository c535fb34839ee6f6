"""thinkwire: a conformance test harness for LLM reasoning ("thinking") streams.

The public names are imported lazily, so that ``import harness`` (and the pytest plugin) costs
nothing until something is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "SSEDecoder": "harness.codec",
    "SSEEvent": "harness.codec",
    "ThinkwireError": "harness._errors",
    "ScenarioError": "harness._errors",
    "ProfileError": "harness._errors",
    "CassetteError": "harness._errors",
    "DecodeError": "harness._errors",
    "HarnessError": "harness._errors",
    "Timeline": "harness.timeline",
    "get_dialect": "harness.dialects",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from harness._errors import (
        CassetteError,
        DecodeError,
        HarnessError,
        ProfileError,
        ScenarioError,
        ThinkwireError,
    )
    from harness.codec import SSEDecoder, SSEEvent
    from harness.dialects import get_dialect
    from harness.timeline import Timeline


def __getattr__(name: str) -> Any:
    try:
        module = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'harness' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
