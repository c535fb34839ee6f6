"""Reading one chat delta or message: reasoning from one text field, the opaque parts of one list carrier,
content and tool calls, and which fields a whole answer or request carried reasoning in. The streaming
observer ``_wire.ChatObserver`` and the non-streaming ``observe_response`` share it, so both read a chunk
the same way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from harness._json import dumps_compact
from harness.codec import SSEDecoder
from harness.dialects._base import json_body
from harness.dialects._carriers import (
    CALL_SIGNATURES,
    CARRIERS,
    LIST_CARRIERS,
    Specs,
    carrier_events,
    carrier_lists,
    carrier_text,
    carriers_on,
)
from harness.dialects._think import TAGS, ThinkSplitter
from harness.dialects._values import mapping, opt_str
from harness.events import Event, Notice, ReasoningDelta, ReasoningSignature, TextDelta, ToolCallDelta

__all__ = ["INLINE_THINK", "Reader", "google_signature", "reasoning_carriers", "thinking_text"]

FORWARDED_BLOCKS = "content_blocks"
"""Portkey's non-strict mode forwards Anthropic and Gemini thinking on its OpenAI-chat front door as
``delta.content_blocks[]`` (``{"type": "thinking", "thinking", "signature"}``, or the same fields wrapped
under ``delta`` with an ``index``): thinking the client received, so a delta whose named fields carry no
reasoning text reads it there, never as no reasoning at all."""

INLINE_THINK = True
"""The observers' ``inline_think`` default: split a leading ``<think>`` out of ``content`` (the SUT
profile's ``inline_think`` key overrides it per front door, see ``drivers/_profile.py``)."""


def google_signature(obj: Mapping[str, Any]) -> str | None:
    """``extra_content.google.thought_signature`` of a delta, message or tool call (Gemini's
    OpenAI-compatible endpoint, https://ai.google.dev/gemini-api/docs/openai), or None."""
    sig = mapping(mapping(obj.get("extra_content")).get("google")).get("thought_signature")
    return sig if isinstance(sig, str) and sig else None


def thinking_text(part: Mapping[str, Any]) -> str:
    """The text of a Mistral ``thinking`` chunk (a list of text parts, or a string)."""
    inner = part.get("thinking")
    if isinstance(inner, list):
        return "".join(p.get("text", "") for p in inner if isinstance(p, Mapping))
    return inner if isinstance(inner, str) else ""


@dataclass
class Reader:
    """Per-stream state shared by the streaming and the non-streaming readers.

    That state is the inline splitter, the field the reasoning was first read from and the tool-call ids;
    nothing it reads is repaired. Reasoning comes from one text field, the others
    being mirrors. Content may hold Mistral thinking chunks or a leading inline tag pair; tool calls may
    carry the thought signature Gemini's OpenAI-compatible endpoint puts on them.
    """

    fields: tuple[str, ...]
    implicit: bool
    inline: bool = INLINE_THINK  # False: never split inline <think> (a door claiming structured reasoning)
    specs: Specs = ()  # the carriers the profile declares
    tags: tuple[str, str] = TAGS  # the inline tag pair this stream's variant uses
    splitter: ThinkSplitter = field(init=False)
    call_ids: dict[int, str] = field(init=False, default_factory=dict)  # index -> id (later deltas)
    structured: bool = False
    mirrored_noted: bool = False
    read_from: str | None = None  # the field this stream's reasoning text was first read from
    text_ended: bool = False
    finish: str | None = None

    def __post_init__(self) -> None:
        self.splitter = ThinkSplitter(implicit=self.implicit, tags=self.tags)

    def reasoning(self, obj: Mapping[str, Any], *, message: bool = False) -> list[Event]:
        """The reasoning of one delta (or non-streaming ``message``): one text field, plus one list
        carrier's opaque parts (``_carriers`` Rule 1: read whatever ``fields`` names)."""
        out: list[Event] = []
        lists = carrier_lists(obj, self.specs, message=message)
        texts = [(n, val) for n in self.fields if (val := carrier_text(n, obj, self.specs, message=message))]
        fields = self.fields
        if not texts and FORWARDED_BLOCKS not in fields and FORWARDED_BLOCKS in lists:
            val = carrier_text(FORWARDED_BLOCKS, obj, self.specs, message=message)
            if val:  # Portkey forwarding Anthropic/Gemini thinking: reasoning, whatever fields name
                texts.append((FORWARDED_BLOCKS, val))
                fields = (*fields, FORWARDED_BLOCKS)
        chosen = texts[0] if texts else None
        if chosen is not None or any(
            carrier_events(n, obj, self.specs, message=message, with_text=False) for n in lists
        ):
            self.structured = True
            out += self.splitter.release()
        if len(texts) > 1 and not self.mirrored_noted:
            self.mirrored_noted = True
            same = all(t == texts[0][1] for _, t in texts)
            names = ",".join(n for n, _ in texts)
            out.append(Notice("mirrored", names if same else names + " (texts differ)"))
        # Read the list carrier in order when it carries the chosen text (keeps redacted/text order);
        # a list carrier outside ``fields`` still gives its opaque parts.
        source = next((n for n in fields if n in lists), lists[0] if lists else None)
        source_text = carrier_text(source, obj, self.specs, message=message) if source else ""
        from_list = (
            source is not None
            and source in fields
            and (chosen is None or chosen[0] == source or chosen[1] == source_text)
        )
        if chosen is not None and self.read_from is not None and self.read_from != chosen[0] and from_list:
            # a list carrier recapping what another field already streamed (LiteLLM sends the whole
            # reasoning item after the reasoning_content deltas): its opaque parts only, read once
            if not self.mirrored_noted:
                self.mirrored_noted = True
                out.append(Notice("mirrored", f"{self.read_from},{source} (recap)"))
            chosen, from_list = None, False
        if chosen is not None and self.read_from is None:
            self.read_from = chosen[0]
        if chosen is not None and not from_list:
            out.append(ReasoningDelta(chosen[1]))
        if source is not None:
            out += carrier_events(source, obj, self.specs, message=message, with_text=from_list)
        return out

    def content(self, content: Any) -> list[Event]:
        if content is None or content == "":
            return []
        if isinstance(content, str):
            if self.structured or not self.inline:
                return [*self.splitter.release(), TextDelta(content)]
            return list(self.splitter.feed(content))
        if not isinstance(content, list):
            return [Notice("unknown-content", dumps_compact(content)[:80])]
        out: list[Event] = []
        for part in content:  # Mistral chunks
            if not isinstance(part, Mapping):
                continue
            if part.get("type") == "thinking":
                text = thinking_text(part)
                self.structured = True
                out += self.splitter.release()
                if text:
                    out.append(ReasoningDelta(text))
                if isinstance(part.get("signature"), str) and part["signature"]:
                    out.append(ReasoningSignature(part["signature"]))
            elif part.get("type") == "text" and isinstance(part.get("text"), str):
                out += self.content(part["text"])
        return out

    def tool_calls(self, calls: Any) -> list[Event]:
        out: list[Event] = []
        for n, call in enumerate(calls if isinstance(calls, list) else ()):
            if not isinstance(call, Mapping):
                continue
            index, cid = call.get("index", n), call.get("id")
            fn = mapping(call.get("function"))
            args = fn.get("arguments")
            if not isinstance(args, str):
                args = dumps_compact(args) if args is not None else ""
            index = int(index) if isinstance(index, int) else n
            if isinstance(cid, str) and cid:
                self.call_ids[index] = cid
            out.append(ToolCallDelta(index, opt_str(cid), opt_str(fn.get("name")), args))
            sig = google_signature(call)
            if sig is not None:  # Gemini's OpenAI-compatible endpoint: the call's thought signature
                out.append(ReasoningSignature(sig, item=self.call_ids.get(index, "")))
        return out

    def extras(self, obj: Mapping[str, Any]) -> list[Event]:
        """A signature on the delta or message itself (Gemini's OpenAI-compatible endpoint puts a text
        answer's thought signature in its ``extra_content``): it attaches to the latest block."""
        sig = google_signature(obj)
        return [] if sig is None else [ReasoningSignature(sig)]

    def end_text(self) -> list[Event]:
        """The content is over (its choice finished, ``[DONE]``, EOF, an error): text held back as a
        possible ``<think>`` prefix goes out now, before any usage that follows. Once."""
        if self.text_ended:
            return []
        self.text_ended = True
        out: list[Event] = list(self.splitter.end())
        if self.splitter.unclosed:
            out.append(Notice("think-unclosed", "a <think> block was never closed"))
        return out


def reasoning_carriers(
    data: bytes, *, form: str, carriers: Specs = (), empty: bool = False
) -> tuple[str, ...]:
    """The fields reasoning rode in, in order of first use: of an answer's deltas (``form`` "stream",
    SSE bytes) or message (``form`` "body"), or of a request's assistant history entries (``form``
    "request"). What the front-door client echoes back, and what it did echo. With ``empty``: the
    string fields that were there but empty instead (DeepSeek's ``"reasoning_content": ""`` on a turn
    that did not reason), which a client that keeps the message it got sends back as they were."""
    objs: list[tuple[Any, bool]] = []
    if form == "stream":
        decoder = SSEDecoder()
        for sse in [*decoder.feed(data), *decoder.end()]:
            choices = mapping(json_body(sse.data.encode())[0]).get("choices") or []
            objs += [(mapping(choice).get("delta"), False) for choice in choices]
    elif form == "body":
        objs += [(mapping(c).get("message"), True) for c in mapping(json_body(data)[0]).get("choices") or []]
    else:
        messages = mapping(json_body(data)[0]).get("messages") or []
        objs += [(m, True) for m in messages if mapping(m).get("role") == "assistant"]
    if empty:
        strings = [n for n in CARRIERS if n not in LIST_CARRIERS]
        return tuple(
            dict.fromkeys(n for o, _ in objs if isinstance(o, Mapping) for n in strings if o.get(n) == "")
        )
    out: dict[str, None] = {}
    for o, message in objs:
        if isinstance(o, Mapping):
            out.update(dict.fromkeys(carriers_on(o, carriers, message=message)))
            calls = o.get("tool_calls")
            signed = [c for c in calls if isinstance(c, Mapping)] if isinstance(calls, list) else []
            if google_signature(o) or any(google_signature(c) for c in signed):
                out[CALL_SIGNATURES] = None
    return tuple(out)
