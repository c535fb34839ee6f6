"""A package's names that load on first use, by PEP 562. A process pays for a heavy import such as httpx,
respx, asyncio with h11, or wsproto only when it uses a name that needs it."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The package's module ``__getattr__``: ``homes`` maps each lazy name to its submodule.

    The names stay in the package's ``__all__`` and, for type checkers, in an ``if TYPE_CHECKING:`` import.
    """

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)  # looked up once
        return value

    return __getattr__
