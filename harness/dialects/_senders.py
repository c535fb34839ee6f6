"""Who sends what: for every wire variant, the providers and servers whose answers take that form, the
request field that turns it on, and where it is documented. It is data only, kept apart so that claims,
the catalog and the generated "who sends what" page read one table."""

from __future__ import annotations

from dataclasses import dataclass

# ``providers`` are names of ``_providers.PROVIDERS``: what a profile's ``providers = [...]`` claims, so a
# SUT claiming none of a variant's providers is not judged on it. ``servers`` are other software known to
# send the same form, listed for the reader. tools/docs/_senders_page.py renders the page, and a test
# keeps the table complete (every variant has a row).
__all__ = ["SENDERS", "Senders", "senders_of"]


@dataclass(frozen=True, slots=True)
class Senders:
    """Who sends one variant: ``providers`` (claimable), ``servers`` (informational), the request field
    that turns the form on (``trigger``, "" when the form is the default or not known) and a docs link."""

    providers: tuple[str, ...]
    servers: tuple[str, ...] = ()
    trigger: str = ""
    docs: str = ""


_DS = "https://api-docs.deepseek.com/guides/thinking_mode"
_VLLM = "https://docs.vllm.ai/en/latest/features/reasoning_outputs.html"
_OR = "https://openrouter.ai/docs/use-cases/reasoning-tokens"
_ANT = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
_GEM = "https://ai.google.dev/gemini-api/docs/thought-signatures"
_OAI = "https://platform.openai.com/docs/guides/reasoning"
_GEMI = "https://ai.google.dev/gemini-api/docs/interactions/thinking"
_BR = "https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference.html"
_OLL = "https://github.com/ollama/ollama/blob/main/docs/api.md"
_PI = "https://github.com/badlogic/pi-mono"

SENDERS: dict[tuple[str, str], Senders] = {
    ("openai-chat", "reasoning_content"): Senders(
        ("deepseek", "kimi", "zai"),
        ("litellm", "sglang", "lmdeploy"),
        "thinking model (DeepSeek V4: on by default)",
        _DS,
    ),
    ("openai-chat", "reasoning"): Senders(
        ("vllm", "openrouter"), ("groq", "llama.cpp"), "a reasoning parser", _VLLM
    ),
    ("openai-chat", "reasoning_details"): Senders(
        ("openrouter",), (), "reasoning: {...} in the request", _OR
    ),
    ("openai-chat", "openrouter-openai"): Senders(
        ("openrouter",), (), "an OpenAI reasoning model (openai/...): on by default", _OR
    ),
    ("openai-chat", "openrouter-gemini"): Senders(
        ("openrouter",), (), "a Gemini thinking model (google/...): on by default", _OR
    ),
    ("openai-chat", "minimax-details"): Senders(
        ("minimax",),
        (),
        "reasoning_split: true",
        "https://platform.minimax.io/docs/api-reference/text-openai-api",
    ),
    ("openai-chat", "think-tags"): Senders(
        ("vllm", "minimax"), ("llama.cpp", "lm-studio"), "no reasoning parser", _VLLM
    ),
    ("openai-chat", "think-split"): Senders(("vllm",), ("llama.cpp",), "no reasoning parser", _VLLM),
    ("openai-chat", "think-implicit"): Senders(
        ("vllm",), ("llama.cpp",), "a chat template that opens the think block", _VLLM
    ),
    ("openai-chat", "mistral"): Senders(
        ("mistral",), (), "", "https://docs.mistral.ai/capabilities/reasoning/"
    ),
    ("openai-chat", "mm-think"): Senders(("vllm",), (), "MiniMax-M3 without a reasoning parser", _VLLM),
    ("openai-chat", "harmony"): Senders(("vllm",), (), "gpt-oss without a reasoning parser", _VLLM),
    ("openai-chat", "gemini-openai"): Senders(
        ("gemini",),
        (),
        "extra_body.google.thinking_config.include_thoughts",
        "https://ai.google.dev/gemini-api/docs/openai",
    ),
    ("openai-chat", "azure"): Senders(
        ("azure",), (), "", "https://learn.microsoft.com/azure/ai-foundry/openai/how-to/reasoning"
    ),
    ("openai-chat", "usage-only"): Senders(("openai",), (), "", _OAI),
    ("openai-responses", "summary"): Senders(("openai", "xai"), ("litellm",), "reasoning.summary", _OAI),
    ("openai-responses", "empty"): Senders(
        ("openai",), (), "no reasoning.summary; include encrypted_content", _OAI
    ),
    ("openai-responses", "reasoning_text"): Senders(("openai", "vllm"), (), "", _OAI),
    ("openai-responses", "alias-string"): Senders(
        (), ("open-responses servers",), "", "https://www.openresponses.org"
    ),
    ("openai-responses", "alias-object"): Senders((), ("older Responses servers",), "", ""),
    ("openai-responses", "alias-summary"): Senders((), ("older Responses servers",), "", ""),
    ("openai-responses", "vllm-parts"): Senders(("vllm",), (), "", _VLLM),
    ("openai-responses", "phase"): Senders(("openai",), (), "gpt-5.3-codex and later", _OAI),
    ("openai-responses", "failed"): Senders(("openai",), (), "", _OAI),
    ("openai-responses-ws", "summary"): Senders(("openai",), (), "reasoning.summary", _OAI),
    ("openai-responses-ws", "empty"): Senders(("openai",), (), "no reasoning.summary", _OAI),
    ("openai-responses-ws", "reasoning_text"): Senders(("openai",), (), "", _OAI),
    ("anthropic-messages", "thinking"): Senders(
        ("anthropic", "deepseek"), ("litellm",), "thinking.type enabled", _ANT
    ),
    ("anthropic-messages", "redacted"): Senders(
        ("anthropic",), (), "thinking enabled (safety-redacted blocks)", _ANT
    ),
    ("anthropic-messages", "omitted"): Senders(("anthropic",), (), 'thinking.display "omitted"', _ANT),
    ("anthropic-messages", "adaptive"): Senders(("anthropic",), (), 'thinking.type "adaptive"', _ANT),
    ("anthropic-messages", "interleaved"): Senders(
        ("anthropic",), (), "interleaved-thinking beta header", _ANT
    ),
    ("anthropic-messages", "vertex"): Senders(
        ("vertex",), (), "", "https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude"
    ),
    ("gemini", "thought"): Senders(("gemini",), (), "thinkingConfig.includeThoughts", _GEM),
    ("gemini", "signature"): Senders(("gemini",), (), "", _GEM),
    ("gemini", "signature-text"): Senders(("gemini",), (), "", _GEM),
    ("gemini", "signature-empty"): Senders(("gemini",), (), "", _GEM),
    ("ollama", "native"): Senders(("ollama",), (), "think: true", _OLL),
    ("ollama", "generate"): Senders(("ollama",), (), "think: true", _OLL),
    ("bedrock-converse", "converse"): Senders(("bedrock",), (), "additionalModelRequestFields.thinking", _BR),
    ("bedrock-converse", "invoke"): Senders(
        ("bedrock",),
        (),
        "",
        "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html",
    ),
    ("pi-json", "v1"): Senders(("pi",), ("pi-mono",), "", _PI),
    ("pi-json", "v2"): Senders(("pi",), ("earendil pi",), "", _PI),
    ("cohere", "thinking"): Senders(
        ("cohere",), (), 'thinking.type "enabled"', "https://docs.cohere.com/docs/reasoning"
    ),
    ("gemini-interactions", "summaries"): Senders(
        ("gemini",), (), 'generation_config.thinking_summaries "auto"', _GEMI
    ),
    ("gemini-interactions", "signature-only"): Senders(("gemini",), (), "", _GEMI),
}
"""(dialect, variant) -> who sends it. A variant without providers (a Responses alias older servers
sent) is claimed by any SUT whose ``providers`` are not narrowed."""


def senders_of(dialect: str, variant: str) -> Senders:
    """Who sends ``dialect:variant`` (no one known: an empty row)."""
    return SENDERS.get((dialect, variant), Senders(()))
