"""The adapter contract at the driver boundary: what a Python SUT may yield. Every event an in-process adapter
yields is checked here before anything records or judges it."""

from __future__ import annotations

import types
import typing
from dataclasses import fields
from typing import Any

from harness.events import Event

__all__ = ["EVENT_TYPES", "contract_violation"]

EVENT_TYPES: tuple[type, ...] = typing.get_args(Event)
"""The canonical event classes (the members of ``harness.events.Event``)."""


_FIELD_TYPES: dict[type, tuple[tuple[str, tuple[type, ...]], ...]] = {}


def _field_types(cls: type) -> tuple[tuple[str, tuple[type, ...]], ...]:
    """(field name, accepted runtime types) for each init field of an event class (computed once)."""
    known = _FIELD_TYPES.get(cls)
    if known is not None:
        return known
    hints = typing.get_type_hints(cls)
    out: list[tuple[str, tuple[type, ...]]] = []
    for f in fields(cls):
        if not f.init:
            continue
        hint = hints[f.name]
        args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        accepted = tuple(type(None) if a is None else a for a in args if isinstance(a, type) or a is None)
        out.append((f.name, accepted))
    _FIELD_TYPES[cls] = tuple(out)
    return _FIELD_TYPES[cls]


def contract_violation(obj: Any) -> str | None:
    """Why ``obj`` is not a valid canonical event (None when it is).

    The event's type must be a canonical event and each field must have its declared type. A violation
    names the offending event and field; it is a harness-side ERROR, because the adapter broke thinkwire's
    contract, never a SUT verdict.
    """
    if type(obj) not in EVENT_TYPES:
        names = ", ".join(t.__name__ for t in EVENT_TYPES)
        return f"{type(obj).__name__} {_short(obj)} is not a canonical event (one of {names})"
    for name, accepted in _field_types(type(obj)):
        value = getattr(obj, name)
        if isinstance(value, bool) and bool not in accepted:  # bool is an int, never a count here
            accepted_ok = False
        else:
            accepted_ok = isinstance(value, accepted)
        if not accepted_ok:
            want = " | ".join("None" if t is type(None) else t.__name__ for t in accepted)
            return f"{type(obj).__name__}.{name} is {type(value).__name__} {_short(value)}, expected {want}"
    return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
