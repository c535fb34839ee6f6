"""Variants declared in TOML files: a team's own (``--variants-dir``, a profile's ``variants_dir``) and the
built-in rows shipped as data. A file becomes the same :class:`Variant` row a built-in one is; a wrong
file is one :class:`~harness._errors.ScenarioError` line naming the file, the field and the fix."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from harness._errors import ScenarioError
from harness._json import dumps_compact
from harness.dialects._base import Difference, ProviderRules, Rejection
from harness.dialects._carriers import Carrier
from harness.dialects._chat_shape import Shape
from harness.dialects._variant import Caps, Senders, Variant
from harness.events import Message, Turn

__all__ = ["ENV", "Declared", "DeclaredRules", "declared_dirs", "read_variant", "read_variants"]

ENV = "THINKWIRE_VARIANTS_DIR"
"""The variant directories of this run (``os.pathsep``-separated): set by ``--variants-dir`` so that a
SUT process thinkwire starts (the reference gateway) reads the same rows."""

_KEYS = frozenset(
    {"name", "dialect", "like", "catalog_id", "description", "caps", "premise", "provider", "model",
     "carrier", "stream", "senders", "request", "strict"}
)  # fmt: skip
_FIELDS = {"reasoning_content": Carrier.REASONING_CONTENT, "reasoning": Carrier.REASONING}
"""The flat text fields a Chat variant's reasoning can ride (``carrier.fields``), the first the main one."""
_STREAM = frozenset(
    {"role", "finish", "usage_on_finish", "text", "envelope", "logprobs", "null_usage", "usage_extra"}
)
_DIALECTS = ("openai-chat",)
"""The dialects whose variants a file can declare: their wire reads every fact of a variant from its row
(the others still key some behaviour on a built-in variant's name)."""


@dataclass(frozen=True, slots=True)
class Declared:
    """One file's row, and its strict passback rules when it declares them (``[strict]``)."""

    variant: Variant
    rules: DeclaredRules | None = None


def declared_dirs() -> tuple[Path, ...]:
    """The directories :data:`ENV` names."""
    return tuple(Path(p) for p in os.environ.get(ENV, "").split(os.pathsep) if p)


def read_variants(directory: Path) -> list[Declared]:
    """Every ``*.toml`` of ``directory`` (sorted by name) as a variant row; a missing directory is an
    error naming it."""
    if not directory.is_dir():
        raise ScenarioError(str(directory), "variants_dir", "not a directory", "give a directory of *.toml")
    return [read_variant(p) for p in sorted(directory.glob("*.toml"))]


def read_variant(path: Path) -> Declared:
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(where, "-", f"cannot read: {exc}", "fix the TOML syntax") from None
    _known(where, "", data, _KEYS)
    name = _str(where, data, "name", required=True)
    dialect = _str(where, data, "dialect", required=True)
    if dialect not in _DIALECTS:
        raise ScenarioError(
            where, "dialect", f"{dialect!r} cannot be declared in a file", f"use {_DIALECTS[0]}"
        )
    caps = _caps(where, data, "caps") or frozenset({Caps.REASONING, Caps.TOOLS, Caps.USAGE, Caps.ERRORS})
    request = _table(where, data, "request")
    _known(where, "request.", request, {"forms", "asks"})
    strict = _table(where, data, "strict")
    rules = _rules(where, name, dialect, strict) if strict else None
    row = Variant(
        name,
        _str(where, data, "catalog_id") or "FILE",
        dialect,
        _str(where, data, "description") or f"declared in {path.name}",
        caps,
        premise=_caps(where, data, "premise"),
        provider=_str(where, data, "provider"),
        model=_str(where, data, "model"),
        like=_str(where, data, "like"),  # checked where the row is added to its dialect
        senders=_senders(where, _table(where, data, "senders")),
        forms=tuple(_strs(where, request, "forms", "request.forms")),
        asks=_table(where, request, "asks", "request.asks"),
        shape=_shape(where, _table(where, data, "carrier"), _table(where, data, "stream")),
        rules=rules.name if rules is not None else "",
        source=where,
    )
    return Declared(row, rules)


# -- the parts ---------------------------------------------------------------------------------------


def _known(where: str, prefix: str, data: Mapping[str, Any], keys: Iterable[str]) -> None:
    extra = sorted(set(data) - set(keys))
    if extra:
        raise ScenarioError(where, prefix + extra[0], "unknown key", f"use one of {', '.join(sorted(keys))}")


def _str(where: str, data: Mapping[str, Any], key: str, *, required: bool = False, at: str = "") -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or (required and not value):
        raise ScenarioError(where, at or key, f"expected a non-empty string, got {value!r}", f'{key} = "..."')
    return value


def _strs(where: str, data: Mapping[str, Any], key: str, at: str = "") -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError(
            where, at or key, f"expected a list of strings, got {value!r}", f'{key} = ["..."]'
        )
    return value


def _table(where: str, data: Mapping[str, Any], key: str, at: str = "") -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ScenarioError(where, at or key, f"expected a table, got {value!r}", f"[{at or key}]")
    return value


def _caps(where: str, data: Mapping[str, Any], key: str) -> frozenset[Caps]:
    out = set()
    for value in _strs(where, data, key):
        try:
            out.add(Caps(value))
        except ValueError:
            raise ScenarioError(
                where, key, f"unknown capability {value!r}", f"use {', '.join(c.value for c in Caps)}"
            ) from None
    return frozenset(out)


def _senders(where: str, data: Mapping[str, Any]) -> Senders:
    _known(where, "senders.", data, {"providers", "servers", "trigger", "docs"})
    return Senders(
        tuple(_strs(where, data, "providers", "senders.providers")),
        tuple(_strs(where, data, "servers", "senders.servers")),
        _str(where, data, "trigger", at="senders.trigger"),
        _str(where, data, "docs", at="senders.docs"),
    )


def _shape(where: str, carrier: Mapping[str, Any], stream: Mapping[str, Any]) -> Shape:
    """Where reasoning rides (``carrier``: ``fields``, one or a mirror of two, or ``markup``, a tag pair
    leading the content) and the rest of the chunk (``stream``)."""
    _known(where, "carrier.", carrier, {"fields", "markup", "opener", "closer", "implicit"})
    _known(where, "stream.", stream, _STREAM)
    rest = {k: v for k, v in stream.items() if k not in ("role", "finish")}
    base = Shape(
        Carrier.NONE, stream.get("role", {"role": "assistant", "content": ""}), stream.get("finish", {})
    )
    base = replace(base, **rest)
    fields = _strs(where, carrier, "fields", "carrier.fields")
    markup = _strs(where, carrier, "markup", "carrier.markup")
    if bool(fields) == bool(markup):
        raise ScenarioError(
            where, "carrier", "give exactly one of fields or markup", 'fields = ["reasoning"]'
        )
    if fields:
        bad = [f for f in fields if f not in _FIELDS]
        if bad or len(fields) > 2:
            raise ScenarioError(
                where,
                "carrier.fields",
                f"unknown or too many fields {fields!r}",
                f"one or two of {sorted(_FIELDS)}",
            )
        return replace(base, carrier=_FIELDS[fields[0]], also=tuple(fields[1:]))
    if len(markup) != 2:
        raise ScenarioError(
            where,
            "carrier.markup",
            f"expected [open, close], got {markup!r}",
            'markup = ["<think>", "</think>"]',
        )
    implicit = carrier.get("implicit", False) is True
    opener = () if implicit else tuple(_strs(where, carrier, "opener", "carrier.opener") or [markup[0]])
    closer = tuple(_strs(where, carrier, "closer", "carrier.closer") or [markup[1]])
    return replace(base, carrier=Carrier.INLINE, opener=opener, closer=closer, tags=(markup[0], markup[1]))


def _rules(where: str, name: str, dialect: str, strict: Mapping[str, Any]) -> DeclaredRules:
    _known(where, "strict.", strict, {"rules", "must_return", "status", "error", "exact"})
    fields = tuple(_strs(where, strict, "must_return", "strict.must_return"))
    if not fields:
        raise ScenarioError(
            where, "strict.must_return", "names no field", 'must_return = ["reasoning_content"]'
        )
    status = strict.get("status", 400)
    error = strict.get("error")
    if not isinstance(status, int) or not 400 <= status < 600:
        raise ScenarioError(
            where, "strict.status", f"expected an HTTP error status, got {status!r}", "status = 400"
        )
    if not isinstance(error, dict):
        raise ScenarioError(
            where, "strict.error", "the provider's error body is missing", "[strict.error] ..."
        )
    rules = _str(where, strict, "rules", at="strict.rules") or name
    told = f"declared in {Path(where).name}: {', '.join(fields)} must come back"
    return DeclaredRules(rules, dialect, told, fields, status, error, strict.get("exact", False) is True)


@dataclass
class DeclaredRules(ProviderRules):
    """A file-declared strict passback rule: every assistant message with tool calls carries each of
    ``fields`` back as a string, not empty when this upstream emitted reasoning for those calls
    (``exact``: equal to it), else the provider answers ``status`` with ``error`` (``{index}`` in its
    strings: the message's index)."""

    name: str
    dialect: str
    description: str
    fields: tuple[str, ...]
    status: int
    error: Mapping[str, Any]
    exact: bool = False
    request_rules: ClassVar[tuple[str, ...]] = ()

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        msgs = request.get("messages")
        by_call = {c.id: m for m in emitted for c in m.tool_calls}
        for i, raw in enumerate(msgs if isinstance(msgs, list) else []):
            if not isinstance(raw, Mapping) or raw.get("role") != "assistant" or not raw.get("tool_calls"):
                continue
            ids = [c.get("id") for c in raw["tool_calls"] if isinstance(c, Mapping)]
            origin = next((by_call[c] for c in ids if c in by_call), None)
            expected = origin.reasoning if origin is not None else ""
            for name in self.fields:
                actual = raw.get(name)
                lost = not isinstance(actual, str) or (bool(expected) and not actual)
                if lost or (self.exact and origin is not None and actual != expected):
                    diff: Difference = (f"messages[{i}].{name}", actual, expected)
                    return Rejection(self.status, self._body(i), f"{self.name}-{name}-missing", (diff,))
        return None

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return turn

    def _body(self, index: int) -> bytes:
        return dumps_compact(_fill(self.error, index)).encode()


def _fill(value: Any, index: int) -> Any:
    if isinstance(value, str):
        return value.replace("{index}", str(index))
    if isinstance(value, Mapping):
        return {k: _fill(v, index) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, index) for v in value]
    return value
