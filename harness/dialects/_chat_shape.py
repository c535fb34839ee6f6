"""A Chat Completions variant's stream as data: a :class:`Shape` says where reasoning rides and how the rest
of the stream looks. It is a field of the variant's row (:class:`~harness.dialects._variant.Variant`), so a
provider difference becomes a field here, never a branch on a provider name in the emitter."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.dialects._carriers import Carrier
from harness.dialects._think import CLOSE, TAGS

__all__ = ["Shape"]


@dataclass(frozen=True, slots=True)
class Shape:
    """One variant's stream (``Variant.shape``): where reasoning rides, a :class:`Carrier` defined with
    the others in ``_carriers``, then the role, finish and text deltas, the provider's envelope and usage
    fields, and where usage rides."""

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
    also: tuple[str, ...] = ()  # a flat mirror: the same text also rides these delta fields of the chunk
    wrapper: str = ""  # the provider's own envelope around the deltas: "azure" or "google" (_extras)

    @property
    def implicit(self) -> bool:
        """Template-primed: no ``<think>`` opener on the wire, only the closer."""
        return self.carrier is Carrier.INLINE and not self.opener
