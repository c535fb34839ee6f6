"""The OpenAI Chat Completions variants, one row each: what the variant carries, the provider whose wire it
is, who sends it, the request forms that turn it on, and its stream's :class:`Shape`. A new built-in Chat
variant is one row: a file in ``variants/`` (the form a team's ``--variants-dir`` file takes, read after the
rows written here), or a row here; the dialect reads nothing about a variant anywhere else."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from harness.dialects._carriers import GEMINI_FORMAT, OPENAI_FORMAT, Carrier
from harness.dialects._chat_shape import Shape
from harness.dialects._declared import read_variants
from harness.dialects._think import THOUGHT
from harness.dialects._variant import DOCS, Caps, Senders, Variant, by_name

__all__ = ["NAME", "VARIANTS"]

NAME = "openai-chat"
_BASE = frozenset({Caps.REASONING, Caps.TOOLS, Caps.USAGE, Caps.ERRORS})


def _v(name: str, catalog_id: str, description: str, caps: frozenset[Caps], **row: Any) -> Variant:
    return Variant(name, catalog_id, NAME, description, caps, **row)


_ROLE = {"role": "assistant", "content": ""}
_EMPTY = {"content": ""}
_OPENROUTER_DELTA: dict[str, Any] = {
    "role": "assistant", "content": "", "reasoning": None, "reasoning_details": [],
}  # fmt: skip
# Usage fields each provider adds (recorded: recordings/corpus/deepseek-*, openrouter-*, openai-chat-*)
_DEEPSEEK_USAGE = {
    "prompt_tokens_details": {"cached_tokens": 0}, "prompt_cache_hit_tokens": 0,
    "prompt_cache_miss_tokens": "prompt",
}  # fmt: skip
_OPENROUTER_USAGE = {
    "cost": 0, "is_byok": False,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0, "video_tokens": 0},
    "cost_details": {"upstream_inference_cost": None, "upstream_inference_prompt_cost": 0,
                     "upstream_inference_completions_cost": 0},
    "completion_tokens_details": {"image_tokens": 0},
}  # fmt: skip
_OPENAI_USAGE = {
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {"audio_tokens": 0, "accepted_prediction_tokens": 0,
                                  "rejected_prediction_tokens": 0},
}  # fmt: skip
# MiniMax's text entry with reasoning_split=True, in its recorded key order: the OpenAPI schema's
# ReasoningDetail (id, format, index, text) and a client fixture of live MiniMax-M3 traffic
# (https://platform.minimax.io/docs/api-reference/text-openai-api); "text" is each delta's own piece
# (incremental: MiniMax-AI/MiniMax-M2 issue #95), the values of "index" and "text" are filled in.
_MINIMAX_DETAIL = {
    "index": 0, "type": "reasoning.text", "id": "reasoning-text-1", "format": "MiniMax-response-v1",
    "text": "",
}  # fmt: skip
_OPENROUTER_SHAPE = Shape(
    Carrier.DETAILS,
    _ROLE,
    {},
    base_delta=_OPENROUTER_DELTA,
    envelope={"provider": "Mock"},
    native_finish=True,
    usage_choice=_ROLE,
    usage_extra=_OPENROUTER_USAGE,
    role_with_tools=True,
    message={"refusal": None},
)
# OpenRouter's text entry for a Gemini model (the openrouter SDK's ReasoningDetailText, format
# google-gemini-v1), in OpenRouter's key order; "index" and "text" are filled in.
_GEMINI_DETAIL = {"type": "reasoning.text", "text": "", "format": GEMINI_FORMAT, "index": 0}
_USAGE = "openai-chat/include-usage"
VARIANTS: dict[str, Variant] = by_name(
    (
        _v(
            "reasoning_content",
            "CC-RC",
            "DeepSeek/Kimi delta.reasoning_content, usage on the finish chunk",
            _BASE,
            provider="deepseek",
            senders=Senders(
                ("deepseek", "kimi", "zai"),
                ("litellm", "sglang", "lmdeploy"),
                "thinking model (DeepSeek V4: on by default)",
                DOCS["deepseek"],
            ),
            forms=("deepseek/thinking",),
            shape=Shape(
                Carrier.REASONING_CONTENT,
                role={"role": "assistant", "content": None, "reasoning_content": ""},
                finish={"content": "", "reasoning_content": None},
                usage_on_finish=True,
                text={"reasoning_content": None},
                finish_on_tools={},
                envelope={"system_fingerprint": "fp_mock"},
                logprobs=True,
                null_usage=True,
                usage_extra=_DEEPSEEK_USAGE,
            ),
        ),
        _v(
            "reasoning_details",
            "CC-RD",
            "OpenRouter delta.reasoning mirrored in delta.reasoning_details[] (signature, encrypted)",
            _BASE | {Caps.SIGNATURE, Caps.CALL_SIGNATURE, Caps.REDACTED},
            provider="openrouter",
            senders=Senders(("openrouter",), (), "reasoning: {...} in the request", DOCS["openrouter"]),
            forms=(_USAGE,),
            shape=_OPENROUTER_SHAPE,
        ),
        _v(
            "openrouter-openai",
            "CC-RD",
            "OpenRouter in front of OpenAI: reasoning.summary and reasoning.encrypted details sharing the "
            "item's rs_ id (format openai-responses-v1)",
            _BASE | {Caps.SIGNATURE},
            provider="openrouter",
            model="openai/gpt-5",  # OpenRouter's model slugs
            senders=Senders(
                ("openrouter",),
                (),
                "an OpenAI reasoning model (openai/...): on by default",
                DOCS["openrouter"],
            ),
            shape=replace(_OPENROUTER_SHAPE, detail={"format": OPENAI_FORMAT}),
        ),
        _v(
            "openrouter-items",
            "CC-RD",
            "OpenRouter in front of OpenAI, several reasoning items in one answer: each item's "
            "reasoning.encrypted detail (opaque data under its rs_ id) is flagged between the "
            "reasoning.summary deltas of the items around it",
            _BASE | {Caps.SIGNATURE, Caps.MULTI_REASONING},
            premise=frozenset({Caps.SIGNATURE, Caps.MULTI_REASONING}),
            provider="openrouter",
            model="openai/gpt-5",
            senders=Senders(
                ("openrouter",),
                (),
                "an OpenAI reasoning model (openai/...) that emits several reasoning items",
                "https://openrouter.ai/docs/use-cases/reasoning-tokens",
            ),
            shape=replace(_OPENROUTER_SHAPE, detail={"format": OPENAI_FORMAT}),
        ),
        _v(
            "openrouter-gemini",
            "CC-RD",
            "OpenRouter in front of Gemini: reasoning.text details, each tool call's thought signature a "
            "reasoning.encrypted detail named by the call id (format google-gemini-v1)",
            _BASE | {Caps.CALL_SIGNATURE},
            provider="openrouter",
            model="google/gemini-3-pro-preview",
            senders=Senders(
                ("openrouter",), (), "a Gemini thinking model (google/...): on by default", DOCS["openrouter"]
            ),
            shape=replace(_OPENROUTER_SHAPE, detail=_GEMINI_DETAIL),
        ),
        _v(
            "minimax-details",
            "CC-RD",
            "MiniMax reasoning_split: delta.reasoning_details[] text entries (id, format), no mirror",
            _BASE,
            provider="minimax",  # MiniMax's own API with reasoning_split
            senders=Senders(
                ("minimax",),
                (),
                "reasoning_split: true",
                "https://platform.minimax.io/docs/api-reference/text-openai-api",
            ),
            forms=("minimax/reasoning-split", _USAGE),
            asks={"reasoning_split": True},  # MiniMax keeps <think> in the content without it
            shape=Shape(Carrier.DETAILS, _ROLE, {}, mirror=False, detail=_MINIMAX_DETAIL),
        ),
        _v(
            "mistral",
            "CC-MISTRAL",
            "Magistral delta.content list of thinking chunks, then string content",
            _BASE,
            provider="mistral",
            senders=Senders(("mistral",), (), "", "https://docs.mistral.ai/capabilities/reasoning/"),
            shape=Shape(Carrier.MISTRAL, _ROLE, _EMPTY, usage_on_finish=True),
        ),
        _v(
            "gemini-openai",
            "CC-GEMINI",
            "Gemini's OpenAI endpoint: <thought> content; extra_content.google.thought_signature on calls",
            _BASE | {Caps.CALL_SIGNATURE},
            provider="gemini",
            senders=Senders(
                ("gemini",),
                (),
                "extra_body.google.thinking_config.include_thoughts",
                "https://ai.google.dev/gemini-api/docs/openai",
            ),
            forms=("gemini-openai/include-thoughts", _USAGE),
            asks={"extra_body": {"google": {"thinking_config": {"include_thoughts": True}}}},
            shape=Shape(
                Carrier.INLINE,
                {"role": "assistant"},
                {},
                opener=(THOUGHT[0],),
                closer=(THOUGHT[1],),
                tags=THOUGHT,
                replay_inline=False,
                wrapper="google",
            ),
        ),
        _v(
            "azure",
            "CC-AZURE",
            "Azure OpenAI envelope: prompt_filter_results chunk (choices: []), content_filter_results, "
            "annotation chunks without delta; reasoning_content (Foundry DeepSeek-R1)",
            _BASE,
            provider="azure",
            senders=Senders(
                ("azure",), (), "", "https://learn.microsoft.com/azure/ai-foundry/openai/how-to/reasoning"
            ),
            forms=(_USAGE,),
            shape=Shape(
                Carrier.REASONING_CONTENT,
                {"content": "", "refusal": None, "role": "assistant"},
                _EMPTY,
                text={},
                logprobs=True,
                envelope={"system_fingerprint": "fp_mock"},
                wrapper="azure",
            ),
        ),
        _v(
            "usage-only",
            "CC-USAGE",
            "OpenAI's own endpoint: no reasoning text, only completion_tokens_details.reasoning_tokens",
            frozenset({Caps.TOOLS, Caps.USAGE, Caps.ERRORS}),
            provider="openai",
            senders=Senders(("openai",), (), "", DOCS["openai"]),
            forms=(_USAGE,),
            shape=Shape(
                Carrier.NONE,
                {"role": "assistant", "content": "", "refusal": None},
                {},
                envelope={"service_tier": "default", "system_fingerprint": "fp_mock"},
                logprobs=True,
                null_usage=True,
                obfuscation=True,
                usage_extra=_OPENAI_USAGE,
                role_with_tools=True,
            ),
        ),
        *(declared.variant for declared in read_variants(Path(__file__).parent / "variants")),
    )
)
"""The variants, one row each: what the variant is, who sends it, and its stream's :class:`Shape` (where
reasoning rides, the role chunk, the text and finish deltas, where usage rides, the inline tags)."""
