"""The Chat Completions request history read back: each assistant entry, in every passback form a SUT may send
(``reasoning_content``, ``reasoning``, ``reasoning_details``, ``thinking_blocks``, inline tags, Google's
signatures), becomes a canonical message. It is the strict upstream's and the checks' reading of what came
back, kept apart from the request and answer the mock writes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from harness._json import dumps_compact
from harness.dialects._carriers import (
    GEMINI_FORMAT,
    item_detail,
    parse_reasoning_items,
    parse_thinking_blocks,
)
from harness.dialects._think import HARMONY, MM_THINK, TAGS, THOUGHT, split_think
from harness.dialects._values import mapping, opt_str, string
from harness.dialects.openai_chat._reader import google_signature, thinking_text
from harness.events import Message, ReasoningBlock, TextBlock, ToolCallBlock

__all__ = ["parse_request"]


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p.get("text", "") for p in content if isinstance(p, Mapping) and p.get("type") == "text"
        )
    return ""


def _encrypted(d: Mapping[str, Any], blocks: list[ReasoningBlock | TextBlock | ToolCallBlock]) -> None:
    """An encrypted detail into ``blocks``: a Responses item's encrypted content signs the summary just
    read under the same id (OpenRouter in front of OpenAI), any other is opaque redacted data."""
    item, data = item_detail(d), str(d.get("data", ""))
    last = blocks[-1] if blocks else None
    if item and isinstance(last, ReasoningBlock) and last.id == item and last.signature is None:
        blocks[-1] = ReasoningBlock(last.text, signature=data, id=item)
    elif item:
        blocks.append(ReasoningBlock("", signature=data, id=item))
    else:
        blocks.append(ReasoningBlock("", redacted=data, id=str(d.get("id", ""))))


_LISTS: dict[str, Callable[[Any, str], list[ReasoningBlock]]] = {
    "thinking_blocks": parse_thinking_blocks,  # LiteLLM's Anthropic blocks
    "content_blocks": parse_thinking_blocks,  # Portkey's blocks
    "reasoning_items": lambda raw, _: parse_reasoning_items(raw),  # LiteLLM's Responses items
}
"""The list passback forms after ``reasoning_details``, in the order they are looked for."""
_FLAT = ("reasoning_content", "reasoning", "reasoning_text")
"""The string passback forms, last, in the order they are looked for."""


def parse_assistant(raw: Mapping[str, Any]) -> Message:
    """One request-history assistant entry -> canonical message (every passback form accepted)."""
    blocks: list[ReasoningBlock | TextBlock | ToolCallBlock] = []
    call_ids = {c.get("id") for c in raw.get("tool_calls") or [] if isinstance(c, Mapping)}
    call_sigs: dict[str, str] = {}
    details = raw.get("reasoning_details")
    content = raw.get("content")
    if isinstance(details, list) and details:
        for d in details:
            if not isinstance(d, Mapping):
                continue
            if d.get("type") == "reasoning.server_tool_call":  # OpenRouter: kept whole, opaque
                record = {k: v for k, v in d.items() if k != "index"}
                blocks.append(ReasoningBlock("", redacted=dumps_compact(record)))
            elif d.get("type") == "reasoning.encrypted":
                if d.get("format") == GEMINI_FORMAT and d.get("id") in call_ids:
                    call_sigs[str(d["id"])] = str(d.get("data", ""))
                    continue
                _encrypted(d, blocks)
            elif d.get("type") in ("reasoning.text", "reasoning.summary"):
                text, sig = str(d.get("text") or d.get("summary") or ""), opt_str(d.get("signature"))
                blocks.append(ReasoningBlock(text, signature=sig, id=str(d.get("id", ""))))
    elif listed := next((n for n in _LISTS if isinstance(raw.get(n), list) and raw[n]), None):
        blocks += _LISTS[listed](raw[listed], listed)
    else:  # the first string carrier that holds text
        flat = [val for n in _FLAT if (val := string(raw.get(n)))]
        blocks += [ReasoningBlock(flat[0])] if flat else []
    text = ""
    if isinstance(content, list):
        thoughts = [t for p in content if mapping(p).get("type") == "thinking" and (t := thinking_text(p))]
        if thoughts and not blocks:  # Mistral's first thinking chunk
            blocks.append(ReasoningBlock(thoughts[0]))
        text = _text_of(content)
    elif isinstance(content, str):
        if not blocks:
            for tags in (TAGS, MM_THINK, THOUGHT, HARMONY):
                r, c, found = split_think(content, tags=tags)
                if found:
                    if r:
                        blocks.append(ReasoningBlock(r))
                    content = c
                    break
        text = content
    if text:
        blocks.append(TextBlock(text, signature=google_signature(raw)))
    for call in raw.get("tool_calls") or []:
        if isinstance(call, Mapping):
            fn, cid = mapping(call.get("function")), str(call.get("id", ""))
            sig = google_signature(call)  # Gemini's OpenAI-compatible endpoint
            if sig is not None:
                call_sigs.setdefault(cid, sig)
            name, args = str(fn.get("name", "")), str(fn.get("arguments", ""))
            blocks.append(ToolCallBlock(cid, name, args, signature=call_sigs.get(cid)))
    return Message("assistant", tuple(blocks))


def parse_request(body: Mapping[str, Any]) -> list[Message]:
    out: list[Message] = []
    for raw in body.get("messages") or []:
        if not isinstance(raw, Mapping):
            continue
        role = raw.get("role")
        if role == "assistant":
            out.append(parse_assistant(raw))
        elif role == "tool":
            call_id, name = str(raw.get("tool_call_id", "")), str(raw.get("name", ""))
            out.append(Message.tool(call_id, _text_of(raw.get("content")), name))
        elif role in ("system", "developer"):
            out.append(Message("system", (TextBlock(_text_of(raw.get("content"))),)))
        else:
            out.append(Message.user(_text_of(raw.get("content"))))
    return out
