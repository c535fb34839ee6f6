"""A name-to-definition registry for the kinds that data refers to: the checks and the driver kinds. Every
lookup fails the same way, so the CLI can print one line for all of them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from harness._errors import UnknownName

__all__ = ["Registry"]

T = TypeVar("T")


class Registry(Generic[T]):
    """An unknown name raises :class:`~harness._errors.UnknownName` with the closest known names, as the
    dialect and variant lookups do. A duplicate name is a programming error and raises ``TypeError`` naming
    both definitions, respx's rule."""
    def __init__(self, noun: str) -> None:
        self.noun = noun
        self._items: dict[str, T] = {}

    def add(self, name: str, item: T) -> T:
        if name in self._items:
            raise TypeError(f"{self.noun} {name!r} registered twice: {self._items[name]!r} and {item!r}")
        self._items[name] = item
        return item

    def get(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            raise UnknownName(self.noun, name, self._items) from None

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def items(self) -> list[tuple[str, T]]:
        return list(self._items.items())

    def names(self) -> list[str]:
        return list(self._items)
