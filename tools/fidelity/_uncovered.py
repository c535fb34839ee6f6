"""The wire variants no corpus file plays, each with why, in one table. docs/fidelity.md then says for every
emitter variant either which recordings it was compared with or why none."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.dialects import all_variants
from tools.fidelity._corpus import CorpusExchange

__all__ = ["UNCOVERED", "Coverage", "coverage"]

_SEARCHED = (
    "none found so far in the public cassettes the corpus is drawn from (pydantic-ai, llm, "
    "llm-anthropic, llm-gemini)"
)
_SELF_HOSTED = (
    "a self-hosted server's form (vLLM / SGLang reasoning parsers, chat templates): SDK test suites "
    "record hosted APIs; " + _SEARCHED
)
_ALIAS = (
    "Open Responses / vLLM spellings of the reasoning events, not sent by OpenAI's API (the corpus "
    "holds OpenAI's); " + _SEARCHED
)
_CANDIDATE = "public cassettes that play it are named as wanted in the corpus manifest, not yet in the corpus"
_WS = (
    "the Responses API over a WebSocket: the same emitter as openai-responses (its HTTP rows compare "
    "the events), and vcrpy / HAR cassettes cannot hold a WebSocket exchange"
)

# A variant is covered when a corpus file names it as ``variant`` in ``corpus.toml``, in its dialect; every
# other variant of every dialect has a row here. A row for a variant that a corpus file now plays, or that
# no dialect has, is stale and fails ``tests/fidelity``, as a missing row does, so a new emitter variant
# cannot slip past the fidelity page.
UNCOVERED: dict[tuple[str, str], str] = {
    ("openai-chat", "think-tags"): _SELF_HOSTED,
    ("openai-chat", "think-split"): _SELF_HOSTED,
    ("openai-chat", "think-implicit"): _SELF_HOSTED,
    ("openai-responses", "reasoning_text"): "raw reasoning text (gpt-oss on vLLM / OpenAI-compatible "
    "servers); OpenAI's hosted models send summaries (recorded); " + _CANDIDATE,
    ("openai-responses", "alias-string"): _ALIAS,
    ("openai-responses", "alias-object"): _ALIAS,
    ("openai-responses", "alias-summary"): _ALIAS,
    ("openai-responses", "vllm-parts"): _ALIAS,
    ("openai-responses", "failed"): "a stream ended by response.failed (an error path); " + _SEARCHED,
    ("openai-responses-ws", "summary"): _WS,
    ("openai-responses-ws", "empty"): _WS,
    ("openai-responses-ws", "reasoning_text"): _WS,
    ("anthropic-messages", "omitted"): "display: omitted (Opus 4.7 and later default); " + _SEARCHED,
    ("anthropic-messages", "unasked"): "a Claude model that thinks by default (claude-mythos-preview) asked "
    "without thinking: the omitted variant's events (display omitted) to a request that names no "
    "thinking; " + _SEARCHED,
    ("anthropic-messages", "interleaved"): "interleaved thinking between tool calls (beta header); "
    + _SEARCHED,
    ("gemini", "signature-text"): "a thoughtSignature on a text part; the recordings carry it on a "
    "functionCall part or an empty text part (signature, signature-empty); " + _SEARCHED,
    ("ollama", "native"): "Ollama's native /api/chat NDJSON; the corpus's Ollama exchanges "
    "(ollama-cloud-reasoning) use its OpenAI-compatible endpoint; " + _SEARCHED,
    ("bedrock-converse", "invoke"): "InvokeModelWithResponseStream (base64 Anthropic events in the "
    "AWS event stream); the Bedrock recordings are Converse / ConverseStream; " + _SEARCHED,
    ("anthropic-messages", "vertex"): "Claude on Vertex AI (:streamRawPredict, anthropic_version in the "
    "body): the Messages API's events behind Google's URL; the recordings are Anthropic's own API; "
    + _SEARCHED,
    ("gemini-interactions", "summaries"): "the Gemini Interactions API (beta, 2026): no public cassette "
    "yet; tests/dialects/test_gemini_interactions.py reads the emitter's frames with google-genai's own "
    "InteractionSSEEvent types; " + _SEARCHED,
    ("gemini-interactions", "signature-only"): "thought steps without summaries on the Interactions "
    "API (beta); the same SDK-type test; " + _SEARCHED,
    ("cohere", "thinking"): "Cohere v2 chat with thinking content; tests/dialects/test_cohere.py compares "
    "the emitter frame by frame with frames composed from Cohere's documented event shapes (no importable "
    "cassette); " + _SEARCHED,
    ("ollama", "generate"): "Ollama's native /api/generate NDJSON (thinking + response); the corpus's Ollama "
    "exchanges use its OpenAI-compatible endpoint; " + _SEARCHED,
    ("openai-chat", "azure"): "the Azure OpenAI envelope (prompt_filter_results, content_filter_results); "
    "the recordings are OpenAI's own API; " + _SEARCHED,
    ("openai-chat", "gemini-openai"): "Gemini's OpenAI-compatible endpoint (extra_content.google."
    "thought_signature); the Gemini recordings use the native generateContent API; " + _SEARCHED,
    ("openai-chat", "openrouter-openai"): "OpenRouter in front of an OpenAI reasoning model "
    "(reasoning.summary and reasoning.encrypted details sharing the item's rs_ id, format "
    "openai-responses-v1): the corpus's OpenRouter recordings play other models; " + _SEARCHED,
    ("openai-chat", "openrouter-gemini"): "OpenRouter in front of Gemini (reasoning.text details and each "
    "call's thought signature as a reasoning.encrypted detail, format google-gemini-v1): the corpus's "
    "OpenRouter recordings play other models; " + _SEARCHED,
    ("openai-chat", "harmony"): "raw harmony channels in content (gpt-oss behind a backend without a "
    "reasoning parser); " + _SELF_HOSTED,
    ("openai-chat", "mm-think"): "MiniMax's <mm:think> markers leading content; " + _SEARCHED,
    ("openai-chat", "minimax-details"): "MiniMax's own API with reasoning_split (reasoning_details text "
    "entries with id and format); the frames follow its OpenAPI schema (tests/dialects/frames_chat.py, "
    "minimax-split); " + _SEARCHED,
    ("openai-responses", "phase"): "an assistant message's phase (gpt-5.3-codex and later); the Responses "
    "recordings are of models without it; " + _CANDIDATE,
    ("openai-chat", "openrouter-items"): "OpenRouter in front of an OpenAI reasoning model that streams "
    "several reasoning items, one item's reasoning.encrypted detail between the summary deltas; the "
    "corpus's OpenRouter recordings play other models; " + _SEARCHED,
    ("openai-chat", "flat-mirror"): "the same reasoning in reasoning_content and reasoning of one chunk "
    "(vLLM between PR #27752 and #33402, mlx-vlm); " + _SELF_HOSTED,
    ("bedrock-converse", "adaptive"): "Converse with adaptive thinking and its display "
    "(additionalModelRequestFields, Claude Opus 4.7 on Bedrock); the Bedrock recordings use manual "
    "thinking; " + _SEARCHED,
    ("pi-json", "v1"): "a coding agent CLI's JSON-lines output, not a provider's HTTP API: there is no "
    "HTTP recording to import",
    ("pi-json", "v2"): "a coding agent CLI's JSON-lines output, not a provider's HTTP API: there is no "
    "HTTP recording to import",
}


@dataclass(frozen=True, slots=True)
class Coverage:
    covered: dict[tuple[str, str], list[str]]
    """(dialect, variant) -> the corpus files that play it."""
    uncovered: dict[tuple[str, str], str]
    """(dialect, variant) -> why no corpus file plays it."""
    missing: list[tuple[str, str]]
    """Variants neither covered nor explained (a new emitter variant: add a recording or a row)."""
    stale: list[tuple[str, str]]
    """Rows for a variant that a corpus file plays or that no dialect has."""


def coverage(corpus: Iterable[CorpusExchange], rows: dict[tuple[str, str], str] | None = None) -> Coverage:
    rows = UNCOVERED if rows is None else rows
    variants = {(v.dialect, v.name) for v in all_variants()}
    covered: dict[tuple[str, str], list[str]] = {}
    for cx in corpus:
        names = covered.setdefault((cx.dialect, cx.file.variant), [])
        if cx.file.name not in names:
            names.append(cx.file.name)
    return Coverage(
        covered=dict(sorted(covered.items())),
        uncovered={key: rows[key] for key in sorted(variants) if key in rows and key not in covered},
        missing=sorted(key for key in variants if key not in covered and key not in rows),
        stale=sorted(key for key in rows if key in covered or key not in variants),
    )
