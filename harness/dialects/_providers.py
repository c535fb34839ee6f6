"""Providers: which real provider a case's mock upstream plays, and the model name it is called by. One
table says it for each provider and its strict rules, and each variant's row for the variant, because
wrappers key behaviour on model names ("replay reasoning when the name contains deepseek"): a case is
called by the name its provider uses in production."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from harness.dialects._registry import find_variant

# A case under strict provider rules (``deepseek-v4``, ``kimi``, ``anthropic``...) plays their provider; a
# lenient case plays the provider its wire variant comes from (its row's ``provider``:
# ``reasoning_content``: DeepSeek; ``reasoning``: vLLM; ``mistral``: Mistral...). Each default model name
# is taken from the provider's documentation (the date below); a SUT profile's ``models`` overrides it.
__all__ = ["PROVIDERS", "Provider", "provider_names", "provider_of"]


@dataclass(frozen=True, slots=True)
class Provider:
    """A provider a mock upstream plays: its name (what ``providers = [...]`` and ``models`` keys say),
    the model name a case is called by, and its strict rules by name, each with the model a case under
    them is called by when only some of the provider's models follow them ("": the default)."""

    name: str
    model: str
    rules: Mapping[str, str] = field(default_factory=dict, compare=False)


_GEMINI_3 = "gemini-3-flash-preview"
# Default model names, from each provider's model list (checked 2026): DeepSeek V4 (api-docs.deepseek.com,
# wire-formats.md fixtures), Moonshot's K2 line (kimi-k2.6 replaced kimi-k2-thinking), Anthropic's
# Claude Sonnet 4.5, OpenAI's GPT-5, Gemini 2.5 Pro and 3 Flash (preview), Magistral, Bedrock's model id
# for Claude Sonnet 4.5, and the open-weight models vLLM and Ollama serve most often (Qwen3); MiniMax-M2,
# Z.ai GLM-5.1, xAI Grok 4, Foundry's DeepSeek-R1 on Azure, Cohere's command-a-reasoning, and Claude on
# Vertex by its publisher model id (docs/wire-notes-2026-b.md).
PROVIDERS: dict[str, Provider] = {
    p.name: p
    for p in (
        Provider(
            "deepseek",
            "deepseek-v4-flash",
            {
                "deepseek-v3.2": "deepseek-reasoner",
                "deepseek-v4": "",
                "deepseek-r1": "deepseek-reasoner",
                "deepseek-anthropic": "",
            },
        ),
        Provider("kimi", "kimi-k2.6", {"kimi": ""}),
        Provider(
            "anthropic", "claude-sonnet-4-5", {"anthropic": "", "anthropic-adaptive": "claude-opus-4-7"}
        ),
        Provider("openai", "gpt-5", {"openai": "", "openai-ws": "", "openai-codex": "gpt-5.3-codex"}),
        Provider(
            "gemini",
            "gemini-2.5-pro",
            {
                "gemini-2.5": "",
                "gemini-3": _GEMINI_3,
                "gemini-3-signatures": _GEMINI_3,
                "gemini-interactions": _GEMINI_3,
                "gemini-3-openai": _GEMINI_3,
            },
        ),
        Provider(
            "openrouter",
            "anthropic/claude-sonnet-4.5",
            {
                "openrouter": "",
                "openrouter-openai": "openai/gpt-5",
                "openrouter-gemini": "google/gemini-3-pro-preview",
            },
        ),
        Provider("vllm", "Qwen/Qwen3-8B", {"vllm": ""}),
        Provider("mistral", "magistral-medium-2509"),
        Provider("ollama", "qwen3", {"ollama": ""}),
        Provider("bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0", {"bedrock-claude": ""}),
        Provider("pi", "deepseek-v4-flash"),
        Provider("minimax", "MiniMax-M2", {"minimax": ""}),
        Provider("zai", "glm-5.1", {"zai-coding": ""}),
        Provider("xai", "grok-4", {"xai": ""}),
        Provider("azure", "DeepSeek-R1"),
        Provider("cohere", "command-a-reasoning-08-2025"),
        Provider("vertex", "claude-sonnet-4-5@20250929", {"vertex": ""}),
    )
}
"""Every provider a case's upstream can play, with its default model name and its strict rules."""
_BY_RULES = {rules: (p.name, model) for p in PROVIDERS.values() for rules, model in p.rules.items()}
_BY_DIALECT = {
    "openai-chat": "openai",
    "openai-responses": "openai",
    "openai-responses-ws": "openai",
    "anthropic-messages": "anthropic",
    "gemini": "gemini",
    "ollama": "ollama",
    "bedrock-converse": "bedrock",
    "pi-json": "pi",
    "cohere": "cohere",
    "gemini-interactions": "gemini",
}


def provider_of(dialect: str, variant: str, rules: str = "lenient") -> Provider:
    """The provider (and model name) a case's upstream plays: its strict rules', else its variant's row's
    (``Variant.provider``, ``Variant.model``), else its dialect's."""
    row = find_variant(dialect, variant)
    model = row.model if row is not None else ""
    hit = _BY_RULES.get(rules)
    if hit is not None:
        name, rules_model = hit
        return Provider(name, rules_model or model or PROVIDERS[name].model)
    name = (row.provider if row is not None else "") or _BY_DIALECT.get(dialect, "openai")
    return Provider(name, model) if model else PROVIDERS[name]


def provider_names() -> tuple[str, ...]:
    return tuple(PROVIDERS)
