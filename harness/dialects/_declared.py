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
    top = _Table(where, data)
    top.known(_KEYS)
    name = top.text("name", required=True)
    dialect = top.text("dialect", required=True)
    if dialect not in _DIALECTS:
        raise top.error("dialect", f"{dialect!r} cannot be declared in a file", f"use {_DIALECTS[0]}")
    caps = top.caps_at("caps") or frozenset({Caps.REASONING, Caps.TOOLS, Caps.USAGE, Caps.ERRORS})
    request = top.table("request")
    request.known({"forms", "asks"})
    strict = top.table("strict")
    rules = _rules(name, dialect, strict) if strict.data else None
    row = Variant(
        name,
        top.text("catalog_id") or "FILE",
        dialect,
        top.text("description") or f"declared in {path.name}",
        caps,
        premise=top.caps_at("premise"),
        provider=top.text("provider"),
        model=top.text("model"),
        like=top.text("like"),  # checked where the row is added to its dialect
        senders=_senders(top.table("senders")),
        forms=tuple(request.texts("forms")),
        asks=request.table("asks").data,
        shape=_shape(top.table("carrier"), top.table("stream")),
        rules=rules.name if rules is not None else "",
        source=where,
    )
    return Declared(row, rules)


# -- the parts ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Table:
    """One table of a file (``at``: its dotted path, "" for the top one), read key by key: a wrong value
    is a ScenarioError naming the file, the key's path and the fix."""

    where: str
    data: dict[str, Any]
    at: str = ""

    def error(self, key: str, problem: str, hint: str) -> ScenarioError:
        return ScenarioError(self.where, ".".join(p for p in (self.at, key) if p), problem, hint)

    def known(self, keys: Iterable[str]) -> None:
        extra = sorted(set(self.data) - set(keys))
        if extra:
            raise self.error(extra[0], "unknown key", f"use one of {', '.join(sorted(keys))}")

    def text(self, key: str, *, required: bool = False) -> str:
        value = self.data.get(key, "")
        if not isinstance(value, str) or (required and not value):
            raise self.error(key, f"expected a non-empty string, got {value!r}", f'{key} = "..."')
        return value

    def texts(self, key: str) -> list[str]:
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(key, f"expected a list of strings, got {value!r}", f'{key} = ["..."]')
        return value

    def table(self, key: str) -> _Table:
        value = self.data.get(key, {})
        at = ".".join(p for p in (self.at, key) if p)
        if not isinstance(value, dict):
            raise self.error(key, f"expected a table, got {value!r}", f"[{at}]")
        return _Table(self.where, value, at)

    def caps_at(self, key: str) -> frozenset[Caps]:
        out = set()
        for value in self.texts(key):
            try:
                out.add(Caps(value))
            except ValueError:
                raise self.error(
                    key, f"unknown capability {value!r}", f"use {', '.join(c.value for c in Caps)}"
                ) from None
        return frozenset(out)


def _senders(senders: _Table) -> Senders:
    senders.known({"providers", "servers", "trigger", "docs"})
    return Senders(
        tuple(senders.texts("providers")),
        tuple(senders.texts("servers")),
        senders.text("trigger"),
        senders.text("docs"),
    )


def _shape(carrier: _Table, stream: _Table) -> Shape:
    """Where reasoning rides (``carrier``: ``fields``, one or a mirror of two, or ``markup``, a tag pair
    leading the content) and the rest of the chunk (``stream``)."""
    carrier.known({"fields", "markup", "opener", "closer", "implicit"})
    stream.known(_STREAM)
    rest = {k: v for k, v in stream.data.items() if k not in ("role", "finish")}
    role = stream.data.get("role", {"role": "assistant", "content": ""})
    base = replace(Shape(Carrier.NONE, role, stream.data.get("finish", {})), **rest)
    fields = carrier.texts("fields")
    markup = carrier.texts("markup")
    if bool(fields) == bool(markup):
        raise carrier.error("", "give exactly one of fields or markup", 'fields = ["reasoning"]')
    if fields:
        if [f for f in fields if f not in _FIELDS] or len(fields) > 2:
            hint = f"one or two of {sorted(_FIELDS)}"
            raise carrier.error("fields", f"unknown or too many fields {fields!r}", hint)
        return replace(base, carrier=_FIELDS[fields[0]], also=tuple(fields[1:]))
    if len(markup) != 2:
        raise carrier.error(
            "markup", f"expected [open, close], got {markup!r}", 'markup = ["<think>", "</think>"]'
        )
    implicit = carrier.data.get("implicit", False) is True
    opener = () if implicit else tuple(carrier.texts("opener") or [markup[0]])
    closer = tuple(carrier.texts("closer") or [markup[1]])
    return replace(base, carrier=Carrier.INLINE, opener=opener, closer=closer, tags=(markup[0], markup[1]))


def _rules(name: str, dialect: str, strict: _Table) -> DeclaredRules:
    strict.known({"rules", "must_return", "status", "error", "exact"})
    fields = tuple(strict.texts("must_return"))
    if not fields:
        raise strict.error("must_return", "names no field", 'must_return = ["reasoning_content"]')
    status = strict.data.get("status", 400)
    error = strict.data.get("error")
    if not isinstance(status, int) or not 400 <= status < 600:
        raise strict.error("status", f"expected an HTTP error status, got {status!r}", "status = 400")
    if not isinstance(error, dict):
        raise strict.error("error", "the provider's error body is missing", "[strict.error] ...")
    rules = strict.text("rules") or name
    told = f"declared in {Path(strict.where).name}: {', '.join(fields)} must come back"
    exact = strict.data.get("exact", False) is True
    return DeclaredRules(rules, dialect, told, fields, status, error, exact)


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
