"""The differences from the corpus that the mock keeps on purpose, each with its reason, in one table. The
table only ever holds live exceptions: a row that explains no difference fails the fidelity test."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KEPT", "Kept"]


@dataclass(frozen=True, slots=True)
class Kept:
    """A row names the dialect; the aspect, one of ``status``, ``framing``, ``header``, ``kind``, ``order``,
    ``field``, ``type``, ``rule``; glob patterns for the subject, an event kind, header, fact or rule; the
    detail; the corpus exchange as ``file#n``; and why the mock differs."""
    dialect: str
    aspect: str
    subject: str
    detail: str
    reason: str
    where: str = "*"


_A, _C, _R, _G = "anthropic-messages", "openai-chat", "openai-responses", "gemini"
_NEWER_ANTHROPIC = (
    "The mock sends the newest recorded shape (2026-05 onwards, and in the official SDK's types: "
    "Message.stop_details, Usage.inference_geo, ToolUseBlock.caller); this recording predates the field."
)
_PING = (
    "Pings are keep-alives sent on a timer; the mock sends one, right after the first "
    "content_block_start, as 4 of the 5 recorded streams do."
)
_CHARSET = (
    "OpenAI, DeepSeek and Mistral send the charset, OpenRouter and Groq do not; one content type per "
    "dialect, the majority's (clients read the media type)."
)
_GROQ = (
    "Groq's own envelope (x_groq with usage and timings, system_fingerprint) and finish delta; the "
    "reasoning variant plays vLLM-style servers, Groq's delta.reasoning carrier is the part it shares."
)
_OLLAMA_CLOUD = (
    "Ollama's OpenAI-compatible endpoint (system_fingerprint fp_ollama, no logprobs, tool_calls with "
    "index and empty-string content); the reasoning variant plays vLLM-style servers."
)
_OPENROUTER = (
    "OpenRouter passes on each upstream provider's own fields; the reasoning_details variant follows "
    "the recorded Anthropic-via-OpenRouter stream (openrouter-reasoning-stream), not this provider's."
)
_OPENROUTER_EMPTY = (
    "OpenRouter sends an empty reasoning_details chunk between a reasoning block's text and its "
    "signature; the mock's signature chunk follows the text directly (the same deltas, one empty chunk "
    "fewer)."
)
_MISTRAL_EMPTY = (
    "Mistral sends one empty content chunk after the role chunk; the mock does not (a chunk with nothing "
    "in it)."
)
_NEWER_RESPONSES = (
    "The mock sends the newest recorded Response object (gpt-5.5, 2026-05; every field is in the SDK's "
    "Response type); this older recording (o3-mini, 2025-09) predates the field."
)
_PHASE = (
    "gpt-5.5's message items carry phase: final_answer; a per-model field the other recordings lack "
    "(the mock plays no particular model)."
)
_BILLING = (
    "billing.payer appears only on non-streaming gpt-5.5 bodies of one account; an account detail, not "
    "part of the reasoning contract."
)
_ENCRYPTED_ADDED = (
    "The real API knows the encrypted reasoning when the item opens; the mock learns it from the turn's "
    "signature event at the end of the item, and sends it on output_item.done (where clients take it)."
)
_SERVICE_TIER = (
    "Only the newest recording (gemini-3.6, 2026-08) has usageMetadata.serviceTier; not in the SDK's "
    "types read here (google-genai 3.6.1)."
)
_GEMINI_USAGE = (
    "The real API counts usage up frame by frame (a thought frame has no candidatesTokenCount yet); the "
    "mock knows the turn's usage once and sends the final counts on every frame (a client reading the "
    "last usageMetadata gets the same numbers)."
)
_GEMINI_FINISH = (
    'Gemini 2.5 puts the finishReason on the last content frame; the mock always ends with its own '
    '{"text": ""} finish frame, as Gemini 3 does (gemini-signature-stream, gemini-tools-array), so that a '
    "dropped terminator leaves the content whole."
)
_OLDER_RESPONSES = "openai-responses-summary*"
KEPT: tuple[Kept, ...] = (
    # anthropic-messages
    Kept(_A, "field", "*", "invented *stop_details", _NEWER_ANTHROPIC),
    Kept(_A, "field", "*", "invented *inference_geo", _NEWER_ANTHROPIC),
    Kept(_A, "field", "block:tool_use", "invented caller*", _NEWER_ANTHROPIC),
    Kept(_A, "order", "*", "*", _PING, "anthropic-redacted-stream#0"),
    # openai-chat
    Kept(_C, "header", "content-type", "text/event-stream;charset=utf-8 (recorded: text/event-stream)",
         _CHARSET, "groq-*"),
    Kept(_C, "header", "content-type", "text/event-stream;charset=utf-8 (recorded: text/event-stream)",
         _CHARSET, "openrouter-*"),
    Kept(_C, "*", "*", "*", _GROQ, "groq-reasoning-stream#0"),
    Kept(_C, "*", "*", "*", _OLLAMA_CLOUD, "ollama-cloud-reasoning#*"),
    Kept(_C, "*", "*", "*", _OPENROUTER, "openrouter-kimi-tools-stream#*"),
    Kept(_C, "field", "chat.completion", "*", _OPENROUTER, "openrouter-reasoning-details#0"),
    Kept(_C, "order", "*", "*", _OPENROUTER_EMPTY, "openrouter-reasoning-stream#0"),
    Kept(_C, "kind", "chunk:empty", "missing", _MISTRAL_EMPTY, "mistral-thinking-stream#0"),
    # openai-responses
    Kept(_R, "field", "*", "invented *completed_at", _NEWER_RESPONSES, _OLDER_RESPONSES),
    Kept(_R, "field", "*", "invented *frequency_penalty", _NEWER_RESPONSES, _OLDER_RESPONSES),
    Kept(_R, "field", "*", "invented *presence_penalty", _NEWER_RESPONSES, _OLDER_RESPONSES),
    Kept(_R, "field", "*", "invented *moderation", _NEWER_RESPONSES, _OLDER_RESPONSES),
    Kept(_R, "field", "*", "invented *prompt_cache_retention", _NEWER_RESPONSES, _OLDER_RESPONSES),
    Kept(_R, "type", "response", "prompt_cache_retention: string (recorded: null)", _NEWER_RESPONSES,
         _OLDER_RESPONSES),
    Kept(_R, "field", "*", "missing *phase", _PHASE),
    Kept(_R, "field", "response", "missing billing*", _BILLING),
    Kept(_R, "field", "response.output_item.added:reasoning", "missing item.encrypted_content",
         _ENCRYPTED_ADDED),
    # gemini
    Kept(_G, "field", "*", "missing usageMetadata.serviceTier", _SERVICE_TIER),
    Kept(_G, "field", "thought", "invented usageMetadata.*", _GEMINI_USAGE),
    Kept(_G, "kind", "*", "*", _GEMINI_FINISH, "gemini-thoughts-stream#0"),
)  # fmt: skip
