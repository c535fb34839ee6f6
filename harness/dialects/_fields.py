"""The fields an official SDK's stream types require of each event, as rows of data, and the pure check of
one decoded event against its rows. The dialects' ``_schema`` modules hold the rows; their observers turn
each break into a grammar :class:`~harness.events.Notice` naming the event, the field and the SDK file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from harness.events import Event, Notice

__all__ = ["Field", "FieldNotes", "field_breaks", "json_type"]


class Field(NamedTuple):
    """A field the SDK type requires: its dotted path in the event, its JSON type (``integer``,
    ``string``, ``object``, ``array``) and the SDK file that declares it."""

    path: str
    type: str
    file: str


def json_type(value: Any) -> str:
    """The JSON type of a decoded value (a bool is ``boolean``, never ``integer``)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list):
        return "array"
    return "null"


def field_breaks(obj: Mapping[str, Any], fields: Sequence[Field]) -> list[tuple[Field, str | None]]:
    """Each field of ``fields`` that ``obj`` lacks (None) or holds as another JSON type (that type). A
    field under a parent that is itself absent or not an object is not looked at: the parent's own row
    reports it."""
    out: list[tuple[Field, str | None]] = []
    for f in fields:
        value: Any = obj
        *parents, name = f.path.split(".")
        for key in parents:
            value = value.get(key) if isinstance(value, Mapping) else None
        if not isinstance(value, Mapping):
            continue
        if name not in value:
            out.append((f, None))
        elif json_type(value[name]) != f.type:
            out.append((f, json_type(value[name])))
    return out


class FieldNotes:
    """One stream's field breaks as notices, each (event, field, break) once: ``event-lacks-field`` for
    an absent field, ``field-type`` for one of another JSON type, the SDK and its file in the detail."""

    def __init__(self, sdk: str) -> None:
        self.sdk = sdk
        self._noted: set[tuple[str, str, bool]] = set()

    def note(self, event: str, obj: Mapping[str, Any], fields: Sequence[Field], out: list[Event]) -> None:
        for f, got in field_breaks(obj, fields):
            key = (event, f.path, got is None)
            if key in self._noted:
                continue
            self._noted.add(key)
            where = f"({self.sdk} {f.file})"
            if got is None:
                out.append(Notice("event-lacks-field", f"{event} without {f.path}: {f.type} {where}"))
            else:
                out.append(Notice("field-type", f"{event} {f.path}: {got}, not {f.type} {where}"))
