"""OpenAI Chat Completions variants as data: a :class:`Shape` row says where reasoning rides and how the rest
of a variant's stream looks, and usage goes in and out of the wire here. A provider difference recorded in
recordings/corpus/ becomes a field of :class:`Shape`, never a branch on a provider name in the emitter."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.dialects._carriers import Carrier
from harness.dialects._think import CLOSE, TAGS
from harness.events import Usage

__all__ = ["Shape", "usage_event", "usage_json"]


@dataclass(frozen=True, slots=True)
class Shape:
    """One variant's stream, as data: a row of the variant table.

    Where reasoning rides is a :class:`Carrier`, defined with the other carriers in ``_carriers``; the rest
    is the role, finish and text deltas, the provider's envelope and usage fields, and where usage rides.
    ``openai_chat.SHAPES`` holds one row per variant.
    """

    carrier: Carrier
    role: Mapping[str, Any]  # the first chunk's delta
    finish: Mapping[str, Any]  # the finish chunk's delta
    usage_on_finish: bool = False  # usage rides the finish chunk; else a choices:[] chunk after it
    text: Mapping[str, Any] = field(default_factory=dict)  # keys a text delta carries beside content
    finish_on_tools: Mapping[str, Any] | None = None  # the finish delta for tool_calls (None: finish)
    envelope: Mapping[str, Any] = field(default_factory=dict)  # top-level keys after "model"
    logprobs: bool = False  # each choice carries "logprobs": null
    opener: tuple[str, ...] = ()  # INLINE: frames before the first reasoning; the last one prefixes it
    closer: tuple[str, ...] = (CLOSE,)  # INLINE: the closing frame; the rest prefixes the next content
    base_delta: Mapping[str, Any] = field(default_factory=dict)  # keys every delta carries (OpenRouter)
    native_finish: bool = False  # each choice carries native_finish_reason (OpenRouter)
    null_usage: bool = False  # "usage": null on every chunk when the request asks for usage
    obfuscation: bool = False  # OpenAI's padding field on every chunk
    usage_choice: Mapping[str, Any] | None = None  # the usage chunk's one choice's delta; None: choices:[]
    usage_extra: Mapping[str, Any] = field(default_factory=dict)  # the provider's own usage fields
    role_with_tools: bool = False  # a stream that opens with a tool call has the role in that chunk
    tags: tuple[str, str] = TAGS  # INLINE: the tag pair, for the readers and the request codec
    replay_inline: bool = True  # INLINE: history content carries the tagged reasoning back
    mirror: bool = True  # DETAILS: the text also rides delta.reasoning / message.reasoning (OpenRouter)
    detail: Mapping[str, Any] = field(default_factory=dict)  # DETAILS: a text entry's id, format ...
    message: Mapping[str, Any] = field(default_factory=dict)  # keys a non-streamed message carries

    @property
    def implicit(self) -> bool:
        """Template-primed: no ``<think>`` opener on the wire, only the closer."""
        return self.carrier is Carrier.INLINE and not self.opener


def usage_json(u: Usage, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``extra``: the provider's own usage fields, merged in (nested objects key by key; the value
    ``"prompt"`` stands for the prompt token count, as DeepSeek's ``prompt_cache_miss_tokens``)."""
    out: dict[str, Any] = {}
    if u.input_tokens is not None:
        out["prompt_tokens"] = u.input_tokens
    if u.output_tokens is not None:
        out["completion_tokens"] = u.output_tokens
    total = u.total_tokens
    if total is None and u.input_tokens is not None and u.output_tokens is not None:
        total = u.input_tokens + u.output_tokens  # every provider's usage has it (corpus deepseek-*, groq-*)
    if total is not None:
        out["total_tokens"] = total
    if u.reasoning_tokens is not None:
        out["completion_tokens_details"] = {"reasoning_tokens": u.reasoning_tokens}
    for key, value in (extra or {}).items():
        if isinstance(value, Mapping):  # the known counts first, as recorded (reasoning_tokens leads)
            out[key] = {**out.get(key, {}), **value}
        else:
            out[key] = (u.input_tokens or 0) if value == "prompt" else value
    return out


def usage_event(raw: Any) -> Usage | None:
    if not isinstance(raw, Mapping):
        return None
    details = raw.get("completion_tokens_details")
    rt = details.get("reasoning_tokens") if isinstance(details, Mapping) else None
    return Usage(raw.get("prompt_tokens"), raw.get("completion_tokens"), rt, raw.get("total_tokens"))
