"""Canonical reasoning events: the one vocabulary every dialect, the mock upstream and the checks share.
Nothing here knows about a wire; emitters turn these events into frames, observers turn frames back into
them, and checks judge their sequences."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Literal, TypeAlias

__all__ = [
    "Block",
    "Channel",
    "End",
    "Event",
    "Message",
    "Notice",
    "ReasoningBlock",
    "ReasoningDelta",
    "ReasoningSignature",
    "RedactedReasoning",
    "StreamError",
    "TextBlock",
    "TextDelta",
    "ToolCallBlock",
    "ToolCallDelta",
    "ToolResultBlock",
    "Turn",
    "Usage",
    "assemble",
    "channel_of",
    "coalesce",
    "index_item",
    "strip_items",
    "turn_events",
]


class Channel(StrEnum):
    """Where an event belongs. Reasoning and text must never cross: that is what the checks police."""

    REASONING = "reasoning"
    TEXT = "text"
    TOOL = "tool"
    META = "meta"


# Deltas carry an ``item`` key, the provider's item or block id or index, or ``""`` when the wire has none,
# so that the same stream can be folded into ordered blocks.
@dataclass(frozen=True, slots=True)
class ReasoningDelta:
    """A piece of visible reasoning (raw thinking text or a summary)."""

    text: str
    item: str = ""
    channel: Literal[Channel.REASONING] = field(default=Channel.REASONING, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class ReasoningSignature:
    """An opaque token that must travel back unmodified (Anthropic signature, Gemini thoughtSignature,
    Responses encrypted_content). It attaches to the most recent block unless ``item`` names another."""

    value: str
    item: str = ""
    channel: Literal[Channel.REASONING] = field(default=Channel.REASONING, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class RedactedReasoning:
    """Reasoning the client cannot read but must pass back (Anthropic redacted_thinking, Bedrock
    redactedContent, OpenRouter reasoning.encrypted)."""

    data: str
    item: str = ""
    channel: Literal[Channel.REASONING] = field(default=Channel.REASONING, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class TextDelta:
    """A piece of the public answer."""

    text: str
    item: str = ""
    channel: Literal[Channel.TEXT] = field(default=Channel.TEXT, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class ToolCallDelta:
    """A piece of a tool call. ``index`` groups deltas of one call; ``id``/``name`` arrive on the first."""

    index: int
    id: str | None = None
    name: str | None = None
    arguments: str = ""
    item: str = ""
    channel: Literal[Channel.TOOL] = field(default=Channel.TOOL, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts; ``reasoning_tokens`` is the figure SUTs most often lose or miscount."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    reasoning_tokens: int | None = None
    total_tokens: int | None = None
    item: str = ""
    channel: Literal[Channel.META] = field(default=Channel.META, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class StreamError:
    """An error the stream reported (mid-stream error frame, or an HTTP error status)."""

    message: str
    code: str | None = None
    status: int | None = None
    item: str = ""
    channel: Literal[Channel.META] = field(default=Channel.META, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class End:
    """The stream's proper end (``[DONE]``, ``message_stop``, ``response.completed``...), with the
    finish reason normalised to ``stop`` / ``tool_calls`` / ``length`` / ``error`` / the wire's own word."""

    reason: str = "stop"
    item: str = ""
    channel: Literal[Channel.META] = field(default=Channel.META, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Notice:
    """Something an observer saw but could not interpret, or wants a check to know (unknown event type,
    malformed JSON, data after the end, mirrored fields). Not part of the turn; checks read it."""

    code: str
    """What was seen, as a short fixed word: ``unknown-event``, ``malformed-json``, ``mirrored``..."""
    detail: str = ""
    item: str = ""
    channel: Literal[Channel.META] = field(default=Channel.META, init=False, repr=False)

    def __init__(
        self, code: str | None = None, detail: str = "", item: str = "", *, kind: str | None = None
    ) -> None:
        if kind is not None:  # the old keyword, for one release
            warnings.warn(
                "Notice(kind=...) is deprecated; use Notice(code=...)", DeprecationWarning, stacklevel=2
            )
            if code is not None and code != kind:
                raise TypeError(f"Notice: code={code!r} and its old spelling kind={kind!r} disagree")
            code = kind
        if code is None:
            raise TypeError("Notice() missing the argument 'code' (what was seen)")
        setattr_ = object.__setattr__  # frozen
        setattr_(self, "code", code)
        setattr_(self, "detail", detail)
        setattr_(self, "item", item)
        setattr_(self, "channel", Channel.META)

    @property
    def kind(self) -> str:
        """Deprecated spelling of :attr:`code` ("kind" is a SUT kind's name)."""
        warnings.warn("Notice.kind is deprecated; use Notice.code", DeprecationWarning, stacklevel=2)
        return self.code


Event: TypeAlias = (
    ReasoningDelta
    | ReasoningSignature
    | RedactedReasoning
    | TextDelta
    | ToolCallDelta
    | Usage
    | StreamError
    | End
    | Notice
)
Turn: TypeAlias = tuple[Event, ...]


def channel_of(event: Event) -> Channel:
    return event.channel


# --------------------------------------------------------------------------------------------------
# Blocks: a turn folded into an ordered assistant message (what a SUT must pass back).


@dataclass(frozen=True, slots=True)
class ReasoningBlock:
    text: str = ""
    signature: str | None = None
    redacted: str | None = None
    id: str = ""


@dataclass(frozen=True, slots=True)
class TextBlock:
    text: str
    signature: str | None = None
    id: str = ""


@dataclass(frozen=True, slots=True)
class ToolCallBlock:
    id: str
    name: str
    arguments: str = ""
    signature: str | None = None


@dataclass(frozen=True, slots=True)
class ToolResultBlock:
    call_id: str
    content: str
    name: str = ""


Block: TypeAlias = ReasoningBlock | TextBlock | ToolCallBlock | ToolResultBlock


@dataclass(frozen=True, slots=True)
class Message:
    """One conversation message in canonical form. Assistant messages keep block order (interleaving)."""

    role: Literal["system", "user", "assistant", "tool"]
    content: tuple[Block, ...] = ()

    @classmethod
    def user(cls, text: str) -> Message:
        return cls("user", (TextBlock(text),))

    @classmethod
    def tool(cls, call_id: str, content: str, name: str = "") -> Message:
        return cls("tool", (ToolResultBlock(call_id, content, name),))

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.content if isinstance(b, TextBlock))

    @property
    def reasoning(self) -> str:
        return "".join(b.text for b in self.content if isinstance(b, ReasoningBlock))

    @property
    def tool_calls(self) -> tuple[ToolCallBlock, ...]:
        return tuple(b for b in self.content if isinstance(b, ToolCallBlock))


class _Growing:
    """A block under construction: text, arguments and signature grow as lists of pieces, joined once
    at the end, so folding a stream costs time linear in its size (``old.text + new`` per delta copied
    the whole text each time: a 200 MB reasoning stream took minutes)."""

    __slots__ = ("channel", "id", "name", "parts", "redacted", "sig")

    def __init__(
        self, channel: str, id: str, text: str = "", name: str = "", redacted: str | None = None
    ) -> None:
        self.channel = channel  # "r" reasoning, "t" text, "c" tool call
        self.id = id
        self.name = name
        self.redacted = redacted
        self.parts: list[str] = [text] if text else []
        self.sig: list[str] | None = None

    def add_sig(self, value: str) -> None:
        if self.sig is None:
            self.sig = []
        self.sig.append(value)

    def block(self) -> Block:
        sig = None if self.sig is None else "".join(self.sig)
        text = "".join(self.parts)
        if self.channel == "t":
            return TextBlock(text, signature=sig, id=self.id)
        if self.channel == "c":
            return ToolCallBlock(self.id, self.name, text, signature=sig)
        return ReasoningBlock(text, signature=sig, redacted=self.redacted, id=self.id)


def assemble(events: Iterable[Event]) -> Message:
    """Fold a stream of events into the assistant message it describes.

    Consecutive deltas of the same kind and item form one block; a change of kind or item starts a new
    block; tool-call deltas group by ``index``; a signature attaches to the block named by its item (a
    tool call named before it arrives gets it when it does); one naming an item that never came goes to
    the latest reasoning block with no id and no signature, which takes that id (a chat carrier streams a
    reasoning item's id and blob after its id-less text, even after the tool call: LiteLLM's
    ``reasoning_items``), else to the most recent block. Usage, errors, ends and notices are not content
    and are skipped. Linear in the size of the stream.
    """
    blocks: list[_Growing] = []
    last_key: tuple[str, str] | None = None
    tool_pos: dict[int, int] = {}
    early: dict[str, list[str]] = {}  # signatures naming a tool call that has not arrived yet
    for ev in events:
        if isinstance(ev, ReasoningDelta):
            key = ("r", ev.item)
            if last_key == key and blocks[-1].channel == "r" and blocks[-1].redacted is None:
                blocks[-1].parts.append(ev.text)
            else:
                blocks.append(_Growing("r", ev.item, ev.text))
            last_key = key
        elif isinstance(ev, RedactedReasoning):
            blocks.append(_Growing("r", ev.item, redacted=ev.data))
            last_key = ("x", ev.item)
        elif isinstance(ev, TextDelta):
            key = ("t", ev.item)
            if last_key == key and blocks[-1].channel == "t":
                blocks[-1].parts.append(ev.text)
            else:
                blocks.append(_Growing("t", ev.item, ev.text))
            last_key = key
        elif isinstance(ev, ToolCallDelta):
            if ev.index in tool_pos:
                old = blocks[tool_pos[ev.index]]
                old.id = old.id or (ev.id or "")
                old.name = old.name or (ev.name or "")
                old.parts.append(ev.arguments)
            else:
                tool_pos[ev.index] = len(blocks)
                call = _Growing("c", ev.id or "", ev.arguments, name=ev.name or "")
                if ev.id and ev.id in early:
                    call.sig = early.pop(ev.id)
                blocks.append(call)
            last_key = ("c", str(ev.index))
        elif isinstance(ev, ReasoningSignature):
            nth = _nth_reasoning(blocks, ev.item)
            if nth is not None:  # a fragment of reasoning block n (OpenRouter's index), merged into it
                nth.add_sig(ev.value)
                continue
            if ev.item.startswith(_INDEX):
                ev = ReasoningSignature(ev.value)  # no such block yet: an item-less signature
            target = _signature_target(blocks, ev.item)
            if ev.item and target is not None and blocks[target].id != ev.item:
                early.setdefault(ev.item, []).append(ev.value)
                continue
            if target is None:
                blocks.append(_Growing("r", ev.item))
                blocks[-1].add_sig(ev.value)
                last_key = ("r", ev.item)
            else:
                blocks[target].add_sig(ev.value)
    for item, pieces in early.items():  # named a block that never came
        home = _anonymous_reasoning(blocks)
        if home is None:  # the most recent block, as before
            home = blocks[-1]
        else:  # a reasoning item's id and blob streamed after its id-less text (LiteLLM's reasoning_items)
            home.id = item
        for piece in pieces:
            home.add_sig(piece)
    return Message("assistant", tuple(b.block() for b in blocks))


_INDEX = "reasoning-index:"


def index_item(index: int) -> str:
    """The item of a signature that names its reasoning block by position among the message's
    reasoning blocks, not by id: OpenRouter's ``reasoning_details`` fragments share an ``index``, and a
    signature-only fragment may arrive after the answer text has begun; :func:`assemble` merges it into
    that block."""
    return f"{_INDEX}{index}"


def _nth_reasoning(blocks: Sequence[_Growing], item: str) -> _Growing | None:
    if not item.startswith(_INDEX):
        return None
    try:
        n = int(item[len(_INDEX) :])
    except ValueError:
        return None
    reasoning = [b for b in blocks if b.channel == "r"]
    return reasoning[n] if 0 <= n < len(reasoning) and reasoning[n].redacted is None else None


def _anonymous_reasoning(blocks: Sequence[_Growing]) -> _Growing | None:
    """The most recent reasoning block with neither an id nor a signature (text read from a carrier
    that names no item), if there is one."""
    for b in reversed(blocks):
        if b.channel == "r" and b.redacted is None and not b.id and b.sig is None:
            return b
    return None


def _signature_target(blocks: Sequence[_Growing], item: str) -> int | None:
    if item:
        for i in range(len(blocks) - 1, -1, -1):
            if blocks[i].id == item:
                return i
    return len(blocks) - 1 if blocks else None


def turn_events(message: Message) -> Turn:
    """The inverse of :func:`assemble` for an assistant message: one delta per block."""
    out: list[Event] = []
    index = 0
    for b in message.content:
        if isinstance(b, ReasoningBlock):
            if b.redacted is not None:
                out.append(RedactedReasoning(b.redacted, item=b.id))
            else:
                if b.text:
                    out.append(ReasoningDelta(b.text, item=b.id))
                if b.signature is not None:
                    out.append(ReasoningSignature(b.signature, item=b.id))
        elif isinstance(b, TextBlock):
            out.append(TextDelta(b.text, item=b.id))
            if b.signature is not None:
                out.append(ReasoningSignature(b.signature, item=b.id))
        elif isinstance(b, ToolCallBlock):
            out.append(ToolCallDelta(index, b.id, b.name, b.arguments))
            if b.signature is not None:
                out.append(ReasoningSignature(b.signature, item=b.id))
            index += 1
    return tuple(out)


def coalesce(events: Iterable[Event]) -> Turn:
    """Merge adjacent deltas of the same kind and item, and drop notices and empty deltas.

    Two streams that differ only in how text was split into deltas coalesce to the same turn; this is
    the equality the round-trip tests and the duplication checks use. The pieces of a merged delta are
    joined once, when the next event differs (linear in the stream's size).
    """
    out: list[Event] = []
    pieces: list[str] = []  # the growing field of out[-1] (text, arguments or value), when it merges

    def settle() -> None:
        if len(pieces) > 1:
            last = out[-1]
            joined = "".join(pieces)
            if isinstance(last, ToolCallDelta):
                out[-1] = replace(last, arguments=joined)
            elif isinstance(last, ReasoningSignature):
                out[-1] = replace(last, value=joined)
            elif isinstance(last, ReasoningDelta | TextDelta):
                out[-1] = replace(last, text=joined)
        pieces.clear()

    for ev in events:
        if isinstance(ev, Notice):
            continue
        if isinstance(ev, ReasoningDelta | TextDelta) and not ev.text:
            continue
        if isinstance(ev, ToolCallDelta) and not (ev.id or ev.name or ev.arguments):
            continue
        prev = out[-1] if out else None
        if (isinstance(ev, ReasoningDelta) and isinstance(prev, ReasoningDelta) and prev.item == ev.item) or (
            isinstance(ev, TextDelta) and isinstance(prev, TextDelta) and prev.item == ev.item
        ):
            pieces.append(ev.text)
        elif (
            isinstance(ev, ToolCallDelta)
            and isinstance(prev, ToolCallDelta)
            and prev.index == ev.index
            and prev.item == ev.item
        ):
            if not (prev.id and prev.name) and (ev.id or ev.name):
                out[-1] = replace(prev, id=prev.id or ev.id, name=prev.name or ev.name)
            pieces.append(ev.arguments)
        elif (
            isinstance(ev, ReasoningSignature)
            and isinstance(prev, ReasoningSignature)
            and prev.item == ev.item
        ):
            pieces.append(ev.value)
        else:
            settle()
            out.append(ev)
            if isinstance(ev, ReasoningDelta | TextDelta):
                pieces.append(ev.text)
            elif isinstance(ev, ToolCallDelta):
                pieces.append(ev.arguments)
            elif isinstance(ev, ReasoningSignature):
                pieces.append(ev.value)
    settle()
    return tuple(out)


def strip_items(events: Iterable[Event]) -> Turn:
    """Blank every ``item`` key: compare turns modulo the ids a wire assigns."""
    return tuple(replace(ev, item="") for ev in events)
