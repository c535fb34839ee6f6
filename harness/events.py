"""Canonical reasoning events: the one vocabulary every dialect, the mock upstream and the checks share.

Rule: nothing here knows about a wire. Emitters turn these into frames, observers turn frames back into
these, and checks judge sequences of these. Deltas carry an ``item`` key (the provider's item/block id or
index, ``""`` when the wire has none) so that the same stream can be folded into ordered blocks.
"""

from __future__ import annotations

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
    "strip_items",
    "turn_events",
]


class Channel(StrEnum):
    """Where an event belongs. Reasoning and text must never cross: that is what the checks police."""

    REASONING = "reasoning"
    TEXT = "text"
    TOOL = "tool"
    META = "meta"


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

    kind: str
    detail: str = ""
    item: str = ""
    channel: Literal[Channel.META] = field(default=Channel.META, init=False, repr=False)


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


def assemble(events: Iterable[Event]) -> Message:
    """Fold a stream of events into the assistant message it describes.

    Consecutive deltas of the same kind and item form one block; a change of kind or item starts a new
    block; tool-call deltas group by ``index``; a signature attaches to the block named by its item, else
    to the most recent block. Usage, errors, ends and notices are not content and are skipped.
    """
    blocks: list[Block] = []
    last_key: tuple[str, str] | None = None
    tool_pos: dict[int, int] = {}
    early: dict[str, str] = {}  # signatures naming a tool call that has not arrived yet
    for ev in events:
        if isinstance(ev, ReasoningDelta):
            key = ("r", ev.item)
            if last_key == key and isinstance(blocks[-1], ReasoningBlock) and blocks[-1].redacted is None:
                blocks[-1] = replace(blocks[-1], text=blocks[-1].text + ev.text)
            else:
                blocks.append(ReasoningBlock(ev.text, id=ev.item))
            last_key = key
        elif isinstance(ev, RedactedReasoning):
            blocks.append(ReasoningBlock("", redacted=ev.data, id=ev.item))
            last_key = ("x", ev.item)
        elif isinstance(ev, TextDelta):
            key = ("t", ev.item)
            if last_key == key and isinstance(blocks[-1], TextBlock):
                blocks[-1] = replace(blocks[-1], text=blocks[-1].text + ev.text)
            else:
                blocks.append(TextBlock(ev.text, id=ev.item))
            last_key = key
        elif isinstance(ev, ToolCallDelta):
            if ev.index in tool_pos:
                pos = tool_pos[ev.index]
                old = blocks[pos]
                assert isinstance(old, ToolCallBlock)
                blocks[pos] = replace(
                    old,
                    id=old.id or (ev.id or ""),
                    name=old.name or (ev.name or ""),
                    arguments=old.arguments + ev.arguments,
                )
            else:
                tool_pos[ev.index] = len(blocks)
                blocks.append(
                    ToolCallBlock(
                        ev.id or "",
                        ev.name or "",
                        ev.arguments,
                        signature=early.pop(ev.id, None) if ev.id else None,
                    )
                )
            last_key = ("c", str(ev.index))
        elif isinstance(ev, ReasoningSignature):
            target = _signature_target(blocks, ev.item)
            if ev.item and target is not None and _block_id(blocks[target]) != ev.item:
                early[ev.item] = early.get(ev.item, "") + ev.value
                continue
            if target is None:
                blocks.append(ReasoningBlock("", signature=ev.value, id=ev.item))
                last_key = ("r", ev.item)
            else:
                old_block = blocks[target]
                if isinstance(old_block, ToolResultBlock):  # pragma: no cover - never produced by assemble
                    continue
                sig = (old_block.signature or "") + ev.value
                blocks[target] = replace(old_block, signature=sig)
    for value in early.values():  # named a block that never came: the most recent block, as before
        if blocks and not isinstance(blocks[-1], ToolResultBlock):
            blocks[-1] = replace(blocks[-1], signature=(blocks[-1].signature or "") + value)
        else:
            blocks.append(ReasoningBlock("", signature=value))
    return Message("assistant", tuple(blocks))


def _block_id(block: Block) -> str:
    return block.call_id if isinstance(block, ToolResultBlock) else block.id


def _signature_target(blocks: Sequence[Block], item: str) -> int | None:
    if item:
        for i in range(len(blocks) - 1, -1, -1):
            b = blocks[i]
            if (isinstance(b, ReasoningBlock | TextBlock) and b.id == item) or (
                isinstance(b, ToolCallBlock) and b.id == item
            ):
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
    the equality the round-trip tests and the duplication checks use.
    """
    out: list[Event] = []
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
            out[-1] = replace(prev, text=prev.text + ev.text)
        elif (
            isinstance(ev, ToolCallDelta)
            and isinstance(prev, ToolCallDelta)
            and prev.index == ev.index
            and prev.item == ev.item
        ):
            out[-1] = replace(
                prev, id=prev.id or ev.id, name=prev.name or ev.name, arguments=prev.arguments + ev.arguments
            )
        elif (
            isinstance(ev, ReasoningSignature)
            and isinstance(prev, ReasoningSignature)
            and prev.item == ev.item
        ):
            out[-1] = replace(prev, value=prev.value + ev.value)
        else:
            out.append(ev)
    return tuple(out)


def strip_items(events: Iterable[Event]) -> Turn:
    """Blank every ``item`` key: compare turns modulo the ids a wire assigns."""
    return tuple(replace(ev, item="") for ev in events)
