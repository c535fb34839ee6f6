"""The reasoning carriers of an OpenAI-compatible chat front door: the fields a gateway may carry reasoning
in, the carriers a SUT profile declares, and how each is read and echoed. They live apart from the chat
dialect because SUT profiles, the observers and the client's echo all name them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum, auto
from typing import Any, Literal

from harness._json import dumps_compact, loads
from harness.dialects._values import mapping, opt_str
from harness.events import (
    Event,
    Message,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    ToolCallBlock,
    index_item,
)

__all__ = [
    "BUILTIN_SPECS",
    "CALL_SIGNATURES",
    "CARRIERS",
    "GEMINI_FORMAT",
    "LIST_CARRIERS",
    "OPENAI_FORMAT",
    "RD_FORMAT",
    "Carrier",
    "CarrierSpec",
    "Part",
    "Specs",
    "carrier_events",
    "carrier_lists",
    "carrier_text",
    "carriers_on",
    "details",
    "echo_fields",
    "encrypted_detail",
    "item_detail",
    "list_text",
    "parse_carriers",
    "parse_reasoning_items",
    "parse_thinking_blocks",
    "server_tool_call",
    "summary_detail",
    "text_detail",
    "with_echo",
]


class Carrier(Enum):
    """Where a variant's reasoning text rides."""

    REASONING_CONTENT = auto()  # delta.reasoning_content (DeepSeek, Kimi)
    REASONING = auto()  # delta.reasoning (vLLM, OpenRouter, Groq)
    DETAILS = auto()  # delta.reasoning_details[] (OpenRouter mirrors it in delta.reasoning; MiniMax not)
    INLINE = auto()  # a tag pair (<think>, <mm:think>, <thought>, harmony channels) leading delta.content
    MISTRAL = auto()  # delta.content as a list of thinking chunks (Magistral)
    NONE = auto()  # not on the wire: only usage's reasoning_tokens (OpenAI)


Part = tuple[Literal["text", "signature", "redacted", "answer"], str]
"""One piece a carrier holds, in order: reasoning ``text``, a ``signature``, ``redacted`` data, or
``answer`` text (a mirror of ``content``: never reasoning)."""


@dataclass(frozen=True, slots=True)
class CarrierSpec:
    """Where one carrier's reasoning sits: all thinkwire knows about a carrier it has no code for, so
    reading (:meth:`parts`) and echoing (:meth:`echo`) follow the spec and nothing else. A ``text``
    carrier is a string field, with optional sibling fields holding a signature and redacted data; a
    ``blocks`` carrier is a list of typed entries (``thinking`` with its signature, ``redacted_thinking``
    with its data, optionally answer ``text``), whose streamed entries may be untyped and wrapped
    (Portkey's ``content_blocks``: ``{"index": 0, "delta": {"thinking": "..."}}``). The built-in
    ``thinking_blocks`` (LiteLLM) and ``content_blocks`` (Portkey) are specs too; a profile's
    ``[carriers.<name>]`` table declares more (:func:`parse_carriers`). ``delta``/``message``: the field
    on a streamed delta and on a message (response and echoed history); empty means ``name``."""

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
        if self.form == "text":  # the string, then its sibling fields where the spec names them
            siblings = (("signature", self.signature_key), ("redacted", self.data_key))
            found = [("text", raw), *((kind, obj.get(key)) for kind, key in siblings if key)]
            return [(kind, val) for kind, val in found if isinstance(val, str) and val]  # type: ignore[misc]
        entries = raw if isinstance(raw, list) else []
        return [part for e in entries if isinstance(e, Mapping) for part in self._entry(e)]

    def _entry(self, entry: Mapping[str, Any]) -> list[Part]:
        fields = entry[self.wrap] if self.wrap and isinstance(entry.get(self.wrap), Mapping) else entry
        kind = fields.get(self.type_key, entry.get(self.type_key))
        wanted: tuple[tuple[str, str], ...] = ()
        if kind == self.redacted or (kind is None and self.data_key in fields):
            wanted = (("redacted", self.data_key),)
        elif kind == self.thinking or (
            kind is None and (self.text_key in fields or self.signature_key in fields)
        ):
            wanted = (("text", self.text_key), ("signature", self.signature_key))
        elif self.answer and (kind == self.answer or (kind is None and self.answer_key in fields)):
            wanted = (("answer", self.answer_key),)
        return [(name, val) for name, key in wanted if isinstance(val := fields.get(key), str) and val]  # type: ignore[misc]

    def text(self, obj: Mapping[str, Any], *, message: bool) -> str:
        return "".join(v for k, v in self.parts(obj, message=message) if k == "text")

    def echo(self, msg: Message) -> dict[str, Any]:
        """An assistant message's reasoning in this carrier's message form (empty: nothing to send)."""
        blocks = [b for b in msg.content if isinstance(b, ReasoningBlock)]
        name = self.field_name(message=True)
        if self.form == "text":  # the text, then its sibling fields where the spec names them
            text = "".join(b.text for b in blocks if b.redacted is None)
            sig = next((b.signature for b in blocks if b.signature), None)
            data = next((b.redacted for b in blocks if b.redacted is not None), None)
            return {
                k: v for k, v in ((name, text), (self.signature_key, sig), (self.data_key, data)) if k and v
            }
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
"""The block carriers thinkwire ships as specs (the others have code of their own below)."""

_KEYS = {f.name: ("text", "blocks") if f.name == "form" else str for f in fields(CarrierSpec)[1:]}
"""What a profile's ``[carriers.<name>]`` table may set: every field but the name, a string."""


def parse_carriers(raw: Any, source: str, taken: Sequence[str]) -> tuple[CarrierSpec, ...]:
    """A profile's ``[carriers]`` table -> specs; a bad key or value is a ProfileError naming it."""
    from harness._errors import ProfileError, closest

    if not isinstance(raw, Mapping):
        hint = '[carriers.my_reasoning] form = "text"'
        raise ProfileError(source, "carriers", f"expected a table of carriers, got {raw!r}", hint)
    out: list[CarrierSpec] = []
    for name, table in raw.items():
        where = f"carriers.{name}"
        if name in taken:
            raise ProfileError(source, where, "names a built-in carrier", "choose another name")
        if not isinstance(table, Mapping):
            raise ProfileError(source, where, f"expected a table, got {table!r}", 'form = "blocks"')
        for key, val in table.items():
            want, at = _KEYS.get(key), f"{where}.{key}"
            if want is None:
                raise ProfileError(source, at, "unknown field", closest(key, _KEYS))
            if isinstance(want, tuple) and val not in want:
                raise ProfileError(source, at, f"expected one of {', '.join(want)}, got {val!r}")
            if not isinstance(want, tuple) and not isinstance(val, str):
                raise ProfileError(source, at, f"expected a string, got {val!r}")
        given = {str(k): v for k, v in table.items()}
        if given.get("form") == "text":  # a string field: sibling fields only where declared
            given = {"signature_key": "", "data_key": "", **given}
        out.append(CarrierSpec(str(name), **given))
    return tuple(out)


CARRIERS = (
    "reasoning_content",
    "reasoning",
    "reasoning_text",
    "reasoning_details",
    "thinking_blocks",
    "content_blocks",
    "reasoning_items",
)
"""Every field an openai-chat front door may carry reasoning in (observer and echo):
``reasoning_content`` (DeepSeek, LiteLLM), ``reasoning`` (vLLM, OpenRouter), ``reasoning_text``,
``reasoning_details[]`` (OpenRouter's ``reasoning.text``, ``reasoning.summary`` and ``reasoning.encrypted``
entries), ``thinking_blocks[]`` (LiteLLM's Anthropic blocks: ``thinking`` with its ``signature``,
``redacted_thinking`` with its ``data``), ``content_blocks[]`` (Portkey: the same typed blocks plus
``text``, streamed as ``{"index", "delta": {...}}``) and ``reasoning_items[]`` (LiteLLM's Responses items:
``id``, ``summary``, ``encrypted_content``); a SUT profile may declare more (:class:`CarrierSpec`).

Reading: the text of a delta is taken from one field, the first in ``reasoning_fields``' priority order;
the others are mirrors, noted once and never counted twice. The opaque parts (signatures, redacted data,
encrypted items) come from one list carrier, the first present in priority order, whatever
``reasoning_fields`` names, so a narrowed text priority never hides them. Echo: an assistant message
goes back in the carriers the SUT streamed it in (:func:`carriers_on`) or in those its profile pins
(``echo_fields``), each complete: a client of a LiteLLM-style gateway sends ``thinking_blocks`` (with
signatures and redacted blocks) and ``reasoning_items`` back, as LiteLLM expects."""
CALL_SIGNATURES = "extra_content"
"""Not a reasoning field but echoed like one: Gemini's OpenAI-compatible endpoint puts a thought
signature in ``extra_content.google`` on tool calls (and on a text answer), and wants it back there."""
LIST_CARRIERS = ("reasoning_details", "thinking_blocks", "content_blocks", "reasoning_items")
"""The carriers that are lists of typed entries (text, signatures, opaque data) rather than a string."""

Specs = tuple[CarrierSpec, ...]
"""The carriers a profile declares (``[carriers.<name>]``), beside the built-in ones."""


def _spec(name: str, specs: Specs) -> CarrierSpec | None:
    return next((s for s in specs if s.name == name), None) or BUILTIN_SPECS.get(name)


def carrier_lists(obj: Mapping[str, Any], specs: Specs, *, message: bool) -> list[str]:
    """The list carriers (built-in and declared block carriers) that hold entries on ``obj``, in
    :data:`CARRIERS` order then declaration order: where opaque parts can come from."""
    names = [*LIST_CARRIERS, *(s.name for s in specs if s.form == "blocks")]
    fields = {n: spec.field_name(message=message) if (spec := _spec(n, specs)) else n for n in names}
    return [n for n, key in fields.items() if isinstance(obj.get(key), list) and obj[key]]


def carriers_on(obj: Mapping[str, Any], specs: Specs, *, message: bool) -> list[str]:
    """Every carrier that holds reasoning on one delta or message (text, or list entries), in
    :data:`CARRIERS` order then declaration order: where the SUT put it, so a client can echo it there."""
    lists = carrier_lists(obj, specs, message=message)
    names = (*CARRIERS, *(s.name for s in specs if s.name not in CARRIERS))
    return [n for n in names if n in lists or carrier_text(n, obj, specs, message=message)]


def carrier_text(name: str, obj: Mapping[str, Any], specs: Specs, *, message: bool) -> str:
    """The reasoning text carrier ``name`` holds on one delta or message ("" when none)."""
    spec = _spec(name, specs)
    if spec is not None:
        return spec.text(obj, message=message)
    val = obj.get(name)
    if name in LIST_CARRIERS:
        return list_text(name, val) if isinstance(val, list) else ""
    return val if isinstance(val, str) else ""


def carrier_events(
    name: str, obj: Mapping[str, Any], specs: Specs, *, message: bool, with_text: bool
) -> list[Event]:
    """A list carrier's entries on ``obj`` as events, in order (see :func:`_list_events`)."""
    spec = _spec(name, specs)
    if spec is None:
        val = obj.get(name)
        return _list_events(name, val, with_text=with_text) if isinstance(val, list) else []
    makers = {"text": ReasoningDelta if with_text else None, "signature": ReasoningSignature,
              "redacted": RedactedReasoning}  # fmt: skip
    return [make(value) for kind, value in spec.parts(obj, message=message) if (make := makers.get(kind))]


RD_FORMAT = "unknown"
GEMINI_FORMAT = "google-gemini-v1"  # OpenRouter: a tool call's thoughtSignature
OPENAI_FORMAT = "openai-responses-v1"
"""OpenRouter in front of OpenAI: a reasoning item as a ``reasoning.summary`` detail and a
``reasoning.encrypted`` detail that share the item's ``rs_`` id (the openrouter SDK's ReasoningFormat;
docs/wire-formats.md 2.3)."""
_ITEM_FORMATS = frozenset(
    {OPENAI_FORMAT, "azure-openai-responses-v1", "bedrock-openai-responses-v1", "bedrock-xai-responses-v1",
     "xai-responses-v1", "meta-responses-v1"}
)  # fmt: skip
"""The openrouter SDK's ReasoningFormat values of Responses-API upstreams (components/reasoningformat.py,
openrouter 1.3.84): their details name a Responses item."""


def item_detail(d: Mapping[str, Any]) -> str:
    """The Responses item id a detail belongs to when its format is a Responses one (its summary and its
    encrypted content share it), else ""."""
    item = d.get("id")
    return str(item) if d.get("format") in _ITEM_FORMATS and isinstance(item, str) and item else ""


_DETAIL_TEXT = ("reasoning.text", "reasoning.summary")


SERVER_TOOL_CALL = "reasoning.server_tool_call"


def server_tool_call(data: str | None) -> dict[str, Any] | None:
    """The OpenRouter server-tool record a redacted block's data holds (its JSON, without the
    positional ``index``), or None (openrouter SDK ``ReasoningDetailServerToolCall``). OpenRouter's
    ``reasoning.server_tool_call`` records (a server tool's call and result, kept so that a later turn
    can rehydrate it) are opaque data that must come back: they travel as redacted reasoning."""
    if not data or not data.startswith("{"):
        return None
    try:
        obj = loads(data)
    except ValueError:
        return None
    if not isinstance(obj, dict) or obj.get("type") != SERVER_TOOL_CALL:
        return None
    return {k: v for k, v in obj.items() if k != "index"}


def _item_parts(item: Mapping[str, Any]) -> list[str]:
    """The readable texts of a Responses reasoning item (its summary parts, else its content parts)."""
    parts = item.get("summary") or item.get("content") or []
    return [str(p.get("text") or "") for p in parts if isinstance(p, Mapping) and p.get("text")]


def list_text(name: str, items: Sequence[Any]) -> str:
    """The reasoning text a list carrier holds (its readable entries, in order)."""
    if name == "reasoning_items":
        return "".join(t for i in items if mapping(i).get("type") == "reasoning" for t in _item_parts(i))
    if name in BUILTIN_SPECS:
        return BUILTIN_SPECS[name].text({name: items}, message=True)
    details = [d for d in items if mapping(d).get("type") in _DETAIL_TEXT]
    return "".join(str(d.get("text") or d.get("summary") or "") for d in details)


def _list_events(name: str, items: Sequence[Any], *, with_text: bool) -> list[Event]:
    """The entries of ``reasoning_details`` or ``reasoning_items`` as events, in order: text (when this
    carrier is the one read), then each entry's signature or opaque data."""
    out: list[Event] = []
    for d in items:
        if not isinstance(d, Mapping):
            continue
        kind = d.get("type")
        if name == "reasoning_items":
            if kind == "reasoning":
                item = str(d.get("id") or "")
                if with_text:
                    out += [ReasoningDelta(t, item=item) for t in _item_parts(d)]
                enc = d.get("encrypted_content")
                if isinstance(enc, str) and enc:
                    out.append(ReasoningSignature(enc, item=item))
            continue
        if kind in _DETAIL_TEXT:
            piece = d.get("text") or d.get("summary")
            if with_text and isinstance(piece, str) and piece:
                out.append(ReasoningDelta(piece, item=item_detail(d)))
            sig, index = d.get("signature"), d.get("index")
            if kind == "reasoning.text" and isinstance(sig, str) and sig:
                # fragments sharing an index are one detail: the signature belongs to that block
                item = index_item(index) if isinstance(index, int) and not isinstance(index, bool) else ""
                out.append(ReasoningSignature(sig, item=item))
        elif kind == SERVER_TOOL_CALL:
            out.append(RedactedReasoning(dumps_compact({k: v for k, v in d.items() if k != "index"})))
        elif kind == "reasoning.encrypted" and isinstance(d.get("data"), str):
            # a tool call's signature, or a Responses item's encrypted content (its summary's), or opaque
            item = str(d["id"]) if d.get("format") == GEMINI_FORMAT and d.get("id") else item_detail(d)
            out.append(ReasoningSignature(d["data"], item=item) if item else RedactedReasoning(d["data"]))
    return out


def _reasoning_items(blocks: Sequence[ReasoningBlock]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for b in (b for b in blocks if b.redacted is None):
        enc = {"encrypted_content": b.signature} if b.signature is not None else {}
        summary = [{"type": "summary_text", "text": b.text}] if b.text else []
        out.append({"type": "reasoning", "id": b.id, **enc, "summary": summary})
    return out


def text_detail(text: str, index: int, form: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One ``reasoning.text`` entry in a provider's form: OpenRouter's ``type, text, format, index``
    (``format`` "unknown"), or ``form``'s fields (MiniMax: ``index, type, id, format, text``; its order,
    recorded, is the dict's)."""
    if not form:
        return {"type": "reasoning.text", "text": text, "format": RD_FORMAT, "index": index}
    return {**form, "index": index, "text": text}  # (a key already in ``form`` keeps its place)


def summary_detail(text: str, item: str, index: int) -> dict[str, Any]:
    """A Responses item's summary as OpenRouter in front of OpenAI sends it, under the item's id."""
    return {"type": "reasoning.summary", "summary": text, "id": item, "format": OPENAI_FORMAT, "index": index}


def encrypted_detail(data: str, index: int, item: str = "", form: str = RD_FORMAT) -> dict[str, Any]:
    """A ``reasoning.encrypted`` entry: opaque data, named by ``item`` when it is a Responses item's
    encrypted content (``form`` :data:`OPENAI_FORMAT`) or a tool call's signature (:data:`GEMINI_FORMAT`)."""
    d: dict[str, Any] = {"type": "reasoning.encrypted", "data": data}
    if item:
        d["id"] = item
    return d | {"format": form, "index": index}


def _item_entries(b: ReasoningBlock, n: int, at: int) -> list[dict[str, Any]]:
    """A reasoning item as OpenRouter in front of OpenAI sends it: its summary detail and its encrypted
    detail, both under the item's id (``rs_mockN`` when the block has none), each with an ``index`` of
    its own, from ``at`` (docs/wire-formats.md 2.3, the openrouter SDK's detail types)."""
    item = b.id or f"rs_mock{n}"
    out = [summary_detail(b.text, item, at)] if b.text else []
    if b.signature is not None:
        out.append(encrypted_detail(b.signature, at + len(out), item, OPENAI_FORMAT))
    return out


_FERNET = "gAAAA"
"""How OpenAI's encrypted reasoning content begins (a Fernet token: version byte 0x80, as base64; every
recorded blob, e.g. openai/codex#8145 "gAAA...DQ=="); an Anthropic signature begins otherwise."""


def _is_item(b: ReasoningBlock, form: Mapping[str, Any] | None) -> bool:
    """A block that goes back as a Responses item: the variant's form says so, or the block is one (an
    ``rs_`` id with OpenAI's encrypted content, read from such details; a bridge's rs_ id over another
    provider's signature stays that provider's detail)."""
    if b.redacted is not None:
        return False
    if (form or {}).get("format") == OPENAI_FORMAT:
        return True
    return b.id.startswith("rs_") and b.signature is not None and b.signature.startswith(_FERNET)


def details(
    blocks: Sequence[ReasoningBlock],
    calls: Sequence[ToolCallBlock] = (),
    form: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """``reasoning_details`` entries; a tool call's own signature (Gemini's thoughtSignature) travels as
    a ``reasoning.encrypted`` detail whose ``id`` is the tool call id, as OpenRouter sends it; a
    Responses item (OpenRouter in front of OpenAI) as its summary and encrypted details. ``form``: a
    provider's own text entry (:func:`text_detail`)."""
    out: list[dict[str, Any]] = []
    for n, b in enumerate(blocks):
        if _is_item(b, form):
            out += _item_entries(b, n, len(out))
            continue
        record = server_tool_call(b.redacted)
        if record is not None:
            out.append(record | {"index": n})
        elif b.redacted is not None:
            out.append(encrypted_detail(b.redacted, n))
        elif form and b.signature is None:
            out.append(text_detail(b.text, n, form))
        else:
            signed = {"signature": b.signature} if b.signature is not None else {}
            out.append({"type": "reasoning.text", "text": b.text, **signed, "format": RD_FORMAT, "index": n})
    for c in calls:
        if c.signature is not None:
            out.append(encrypted_detail(c.signature, len(out), c.id, GEMINI_FORMAT))
    return out


def echo_fields(msg: Message, fields: Sequence[str], specs: Specs = ()) -> dict[str, Any]:
    """The reasoning fields of an assistant history entry, in each carrier ``fields`` names (the
    string carriers hold the readable text; the list carriers every block, signed or redacted; a
    declared carrier its spec's message form)."""
    blocks = [b for b in msg.content if isinstance(b, ReasoningBlock)]
    text = "".join(b.text for b in blocks if b.redacted is None)
    calls = msg.tool_calls
    out: dict[str, Any] = {}
    for name in fields:
        spec = _spec(name, specs)
        if spec is not None:
            out.update(spec.echo(msg))
        elif name == "reasoning_items":
            if blocks:
                out[name] = _reasoning_items(blocks)
        elif name == "reasoning_details":
            if blocks or any(c.signature for c in calls):
                out[name] = details(blocks, calls)
        elif name == "reasoning_content":
            if text or calls:
                out[name] = text  # DeepSeek: present (maybe empty) on a tool-call turn
        elif text:
            out[name] = text
    return out


def parse_reasoning_items(raw: Any) -> list[ReasoningBlock]:
    """``reasoning_items`` of a request-history entry -> reasoning blocks (id, encrypted content)."""
    out: list[ReasoningBlock] = []
    for i in raw if isinstance(raw, list) else ():
        if isinstance(i, Mapping) and i.get("type") == "reasoning":
            enc, item = opt_str(i.get("encrypted_content")), str(i.get("id") or "")
            out.append(ReasoningBlock("".join(_item_parts(i)), signature=enc, id=item))
    return out


def parse_thinking_blocks(raw: Any, name: str = "thinking_blocks") -> list[ReasoningBlock]:
    """``thinking_blocks`` (or ``content_blocks``) of a request-history entry -> reasoning blocks
    (signed, redacted)."""
    entries = raw if isinstance(raw, list) else []
    return [block for entry in entries for block in BUILTIN_SPECS[name].parse({name: [entry]})]


def with_echo(
    entry: Mapping[str, Any], msg: Message, fields: Sequence[str], specs: Specs = ()
) -> dict[str, Any]:
    """An assistant history entry rewritten to carry its reasoning in ``fields`` only: every other
    carrier dropped, the content plain text (no inline tags, no thinking chunks)."""
    out = {k: v for k, v in entry.items() if k not in CARRIERS}
    if not isinstance(out.get("content"), str | None):
        out["content"] = msg.text if (msg.text or not msg.tool_calls) else None
    elif isinstance(out.get("content"), str) and out["content"] != msg.text:
        out["content"] = msg.text  # the variant had put inline <think> tags there
    reasoning = echo_fields(msg, fields, specs)
    tail = {k: out.pop(k) for k in ("tool_calls",) if k in out}
    return {**out, **reasoning, **tail}
