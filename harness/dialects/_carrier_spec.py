"""Declarative reasoning carriers: where an OpenAI-compatible gateway puts reasoning text, signatures and
redacted data on a delta and on a message, and how an assistant message goes back, as data.

Rule: a :class:`CarrierSpec` is all thinkwire knows about a carrier it has no code for; reading
(:meth:`CarrierSpec.parts`) and echoing (:meth:`CarrierSpec.echo`) follow the spec and nothing else.
A ``text`` carrier is a string field (with optional sibling fields holding a signature and redacted
data); a ``blocks`` carrier is a list of typed entries (``thinking`` with its signature,
``redacted_thinking`` with its data, optionally answer ``text``), whose streamed entries may be untyped
and wrapped (Portkey's ``content_blocks``: ``{"index": 0, "delta": {"thinking": "..."}}``). The
built-in ``thinking_blocks`` (LiteLLM) and ``content_blocks`` (Portkey) are specs too; a profile's
``[carriers.<name>]`` table declares more (:func:`parse_carriers`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from harness.events import Message, ReasoningBlock

__all__ = ["BUILTIN_SPECS", "CarrierSpec", "Part", "parse_carriers"]

Part = tuple[Literal["text", "signature", "redacted", "answer"], str]
"""One piece a carrier holds, in order: reasoning ``text``, a ``signature``, ``redacted`` data, or
``answer`` text (a mirror of ``content``: never reasoning)."""


@dataclass(frozen=True, slots=True)
class CarrierSpec:
    """Where one carrier's reasoning sits (see the module rule). ``delta``/``message``: the field on a
    streamed delta and on a message (response and echoed history); empty means ``name``."""

    name: str
    form: Literal["text", "blocks"] = "blocks"
    delta: str = ""
    message: str = ""
    type_key: str = "type"
    thinking: str = "thinking"  # blocks: the type of a readable reasoning entry
    text_key: str = "thinking"  # blocks: where its text sits
    signature_key: str = "signature"  # blocks: its signature; text form: a sibling field ("" none)
    redacted: str = "redacted_thinking"  # blocks: the type of a redacted entry
    data_key: str = "data"  # blocks: where its data sits; text form: a sibling field ("" none)
    answer: str = ""  # blocks: the type of an answer-text entry, echoed after the reasoning ("" none)
    answer_key: str = "text"
    wrap: str = ""  # blocks: streamed entries hold their fields under this key, untyped

    def field_name(self, *, message: bool) -> str:
        return (self.message or self.delta or self.name) if message else (self.delta or self.name)

    def parts(self, obj: Mapping[str, Any], *, message: bool) -> list[Part]:
        """The pieces this carrier holds on one delta or message, in order."""
        raw = obj.get(self.field_name(message=message))
        out: list[Part] = []
        if self.form == "text":
            if isinstance(raw, str) and raw:
                out.append(("text", raw))
            for kind, key in (("signature", self.signature_key), ("redacted", self.data_key)):
                val = obj.get(key) if key else None
                if isinstance(val, str) and val:
                    out.append((kind, val))  # type: ignore[arg-type]
            return out
        for entry in raw if isinstance(raw, list) else ():
            if isinstance(entry, Mapping):
                out += self._entry(entry)
        return out

    def _entry(self, entry: Mapping[str, Any]) -> list[Part]:
        fields = entry.get(self.wrap) if self.wrap and isinstance(entry.get(self.wrap), Mapping) else entry
        assert isinstance(fields, Mapping)
        kind = fields.get(self.type_key, entry.get(self.type_key))
        found: list[Part] = []

        def take(name: Literal["text", "signature", "redacted", "answer"], key: str) -> None:
            val = fields.get(key)
            if isinstance(val, str) and val:
                found.append((name, val))

        if kind == self.redacted or (kind is None and self.data_key in fields):
            take("redacted", self.data_key)
        elif kind == self.thinking or (
            kind is None and (self.text_key in fields or self.signature_key in fields)
        ):
            take("text", self.text_key)
            take("signature", self.signature_key)
        elif self.answer and (kind == self.answer or (kind is None and self.answer_key in fields)):
            take("answer", self.answer_key)
        return found

    def text(self, obj: Mapping[str, Any], *, message: bool) -> str:
        return "".join(v for k, v in self.parts(obj, message=message) if k == "text")

    def echo(self, msg: Message) -> dict[str, Any]:
        """An assistant message's reasoning in this carrier's message form (empty: nothing to send)."""
        blocks = [b for b in msg.content if isinstance(b, ReasoningBlock)]
        name = self.field_name(message=True)
        if self.form == "text":
            out: dict[str, Any] = {}
            text = "".join(b.text for b in blocks if b.redacted is None)
            if text:
                out[name] = text
            sig = next((b.signature for b in blocks if b.signature), None)
            if self.signature_key and sig:
                out[self.signature_key] = sig
            data = next((b.redacted for b in blocks if b.redacted is not None), None)
            if self.data_key and data:
                out[self.data_key] = data
            return out
        entries: list[dict[str, Any]] = []
        for b in blocks:
            if b.redacted is not None:
                entries.append({self.type_key: self.redacted, self.data_key: b.redacted})
                continue
            entry: dict[str, Any] = {self.type_key: self.thinking, self.text_key: b.text}
            if b.signature is not None:
                entry[self.signature_key] = b.signature
            entries.append(entry)
        if not entries:
            return {}
        if self.answer and msg.text:
            entries.append({self.type_key: self.answer, self.answer_key: msg.text})
        return {name: entries}

    def parse(self, raw: Mapping[str, Any]) -> list[ReasoningBlock]:
        """A request-history entry's reasoning blocks (signed, redacted) in this carrier."""
        out: list[ReasoningBlock] = []
        for kind, val in self.parts(raw, message=True):
            if kind == "redacted":
                out.append(ReasoningBlock("", redacted=val))
            elif kind == "text":
                out.append(ReasoningBlock(val))
            elif kind == "signature":
                last = out[-1] if out and out[-1].redacted is None and out[-1].signature is None else None
                if last is None:
                    out.append(ReasoningBlock("", signature=val))
                else:
                    out[-1] = ReasoningBlock(last.text, signature=val)
        return out


BUILTIN_SPECS: dict[str, CarrierSpec] = {
    "thinking_blocks": CarrierSpec("thinking_blocks"),  # LiteLLM's Anthropic blocks
    "content_blocks": CarrierSpec("content_blocks", answer="text", wrap="delta"),  # Portkey
}
"""The block carriers thinkwire ships as specs (the others have code of their own in
``_chat_carriers``)."""

_KEYS = {
    "form": ("text", "blocks"),
    "delta": str,
    "message": str,
    "type_key": str,
    "thinking": str,
    "text_key": str,
    "signature_key": str,
    "redacted": str,
    "data_key": str,
    "answer": str,
    "answer_key": str,
    "wrap": str,
}


def parse_carriers(raw: Any, source: str, taken: Sequence[str]) -> tuple[CarrierSpec, ...]:
    """A profile's ``[carriers]`` table -> specs; a bad key or value is a ProfileError naming it."""
    from harness._errors import ProfileError, closest

    if not isinstance(raw, Mapping):
        raise ProfileError(
            source,
            "carriers",
            f"expected a table of carriers, got {raw!r}",
            '[carriers.my_reasoning] form = "text"',
        )
    out: list[CarrierSpec] = []
    for name, table in raw.items():
        where = f"carriers.{name}"
        if name in taken:
            raise ProfileError(source, where, "names a built-in carrier", "choose another name")
        if not isinstance(table, Mapping):
            raise ProfileError(source, where, f"expected a table, got {table!r}", 'form = "blocks"')
        for key, val in table.items():
            want = _KEYS.get(key)
            if want is None:
                raise ProfileError(source, f"{where}.{key}", "unknown field", closest(key, _KEYS))
            if isinstance(want, tuple):
                if val not in want:
                    raise ProfileError(
                        source, f"{where}.{key}", f"expected one of {', '.join(want)}, got {val!r}"
                    )
            elif not isinstance(val, str):
                raise ProfileError(source, f"{where}.{key}", f"expected a string, got {val!r}")
        given = {str(k): v for k, v in table.items()}
        if given.get("form") == "text":  # a string field: sibling fields only where declared
            given = {"signature_key": "", "data_key": "", **given}
        out.append(CarrierSpec(str(name), **given))
    return tuple(out)
