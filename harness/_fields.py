"""The TOML files users write, scenarios, SUT profiles and expectations, read by one loader and one
table-driven field checker. Every file therefore reports a mistake in the same words."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from harness._errors import ScenarioError, closest

__all__ = [
    "Err",
    "Field",
    "Invalid",
    "Rule",
    "check_fields",
    "integer",
    "load_toml",
    "one_of",
    "seconds",
    "shown",
    "type_words",
]


class Err(Protocol):
    """``err(field, problem, hint="")``: the caller's error, bound to its file."""

    def __call__(self, field: str, problem: str, hint: str = "", /) -> ScenarioError: ...


def load_toml(path: Path, error: type[ScenarioError] = ScenarioError) -> dict[str, Any]:
    """A TOML file as a table; a file that cannot be read, is not UTF-8 or not TOML is ``error``
    (field ``<file>``) saying which."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise error(str(path), "<file>", f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise error(str(path), "<file>", f"cannot be read: {exc}") from None
    except UnicodeDecodeError as exc:
        raise error(
            str(path),
            "<file>",
            f"is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})",
            "save it as UTF-8",
        ) from None


_WORDS = {
    str: "a string",
    list: "a list",
    dict: "a table",
    bool: "true or false",
    int: "an integer",
    float: "a number",
}


def type_words(types: type | tuple[type, ...]) -> str:
    """``(list, str)`` -> ``a list or a string``: what a field takes, in words."""
    seq = types if isinstance(types, tuple) else (types,)
    return " or ".join(dict.fromkeys(_WORDS.get(t, t.__name__) for t in seq))


def shown(value: Any) -> str:
    """``str ('20')``: the type a value has and the value, for "expected X, got Y"."""
    return f"{type(value).__name__} ({value!r})"


def _is(value: Any, types: type | tuple[type, ...]) -> bool:
    seq = types if isinstance(types, tuple) else (types,)
    return isinstance(value, seq) and not (isinstance(value, bool) and bool not in seq)


class Invalid(Exception):
    """Raised by a field's rule: ``problem`` (and a ``hint``) about the value; ``sub`` names the part
    of the value at fault (``"*"`` of ``models.*``)."""

    def __init__(self, problem: str, hint: str = "", sub: str = "") -> None:
        super().__init__(problem)
        self.problem, self.hint, self.sub = problem, hint, sub


Rule = Callable[[str, Any], None]
"""A rule on a field's value, of the right type by then: ``rule(key, value)`` returns quietly or
raises :class:`Invalid`."""


@dataclass(frozen=True, slots=True)
class Field:
    """What one key takes: its type(s); ``items``: the type of each list element or table value
    (``items_want``: that in words); ``required``; ``want``: the expected value in words when the
    types say too little ("a number of seconds"); ``hint``: the fix, when the value is missing or of
    the wrong type; ``rule``: a further check of the value."""

    types: type | tuple[type, ...]
    required: bool = False
    items: type | tuple[type, ...] | None = None
    want: str = ""
    items_want: str = ""
    hint: str = ""
    rule: Rule | None = None

    def check_type(self, key: str, value: Any, err: Err) -> None:
        if not _is(value, self.types):
            raise err(key, f"expected {self.want or type_words(self.types)}, got {shown(value)}", self.hint)
        if self.items is None:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                if not _is(v, self.items):
                    want = self.items_want or type_words(self.items)
                    hint = self.hint or f'e.g. {key}.{k} = "..."'
                    raise err(f"{key}.{k}", f"expected {want}, got {shown(v)}", hint)
        elif isinstance(value, list):
            for v in value:
                if not _is(v, self.items):
                    want = self.items_want or f"a list of {type_words(self.items).removeprefix('a ')}s"
                    raise err(key, f"expected {want}, found {shown(v)}", self.hint or f'e.g. {key} = ["..."]')


def check_fields(
    data: Mapping[str, Any], fields: Mapping[str, Field], err: Err, *, unknown: str = "unknown field"
) -> None:
    """Every key known (``unknown``: what a key that is not is called) and of its type (in the file's
    order), every required key present, then each field's rule (in the table's order).

    A mistake is the caller's error class, :class:`~harness._errors.ScenarioError` or its
    :class:`~harness._errors.ProfileError`, naming the file, the field, the value with its type, and a fix
    or the closest valid names. Types are checked for every key before any rule runs, so a file with a
    wrongly typed value never reaches a rule that would misread it. ``bool`` is never a number: TOML
    ``true`` is not 1 second.
    """
    for key, value in data.items():
        spec = fields.get(key)
        if spec is None:
            raise err(key, unknown, closest(key, fields))
        spec.check_type(key, value, err)
    for key, spec in fields.items():
        if spec.required and key not in data:
            raise err(key, "missing required field", spec.hint)
    for key, spec in fields.items():
        if spec.rule is not None and key in data:
            try:
                spec.rule(key, data[key])
            except Invalid as exc:
                raise err(f"{key}.{exc.sub}" if exc.sub else key, exc.problem, exc.hint) from None


def one_of(kind: str, options: Callable[[], Any]) -> Rule:
    """A rule: the value (or each string of a list) is one of ``options()`` (read when the rule runs,
    so a registry is imported only when a file uses the field)."""

    def rule(key: str, value: Any) -> None:
        known = list(options())
        for v in value if isinstance(value, list) else [value]:
            if v not in known:
                raise Invalid(f"unknown {kind} {v!r}", closest(str(v), known))

    return rule


def seconds(value: Any, fld: str, err: Err, *, positive: bool = False) -> float:
    """A number of seconds: a TOML integer or float, not a string or boolean; >= 0 (``positive``: > 0)."""
    want = "a number of seconds" + (" > 0" if positive else " >= 0")
    if not _is(value, (int, float)):
        raise err(fld, f"expected {want}, got {shown(value)}", "write it unquoted, e.g. 1.5")
    if value < 0 or (positive and value == 0) or value != value:
        raise err(fld, f"expected {want}, got {value!r}")
    return float(value)


def integer(value: Any, fld: str, err: Err, *, low: int | None = None, high: int | None = None) -> int:
    """An integer, as a TOML integer (``"429"`` or ``true`` are not numbers), within [low, high]."""
    rng = (
        f" from {low} to {high}"
        if low is not None and high is not None
        else (f" >= {low}" if low is not None else "")
    )
    if not _is(value, int):
        raise err(fld, f"expected an integer{rng}, got {shown(value)}", f"write it unquoted, e.g. {low or 1}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise err(fld, f"expected an integer{rng}, got {value!r}")
    return int(value)
