"""Rules a response obeys that a field-by-field comparison cannot see: behaviour that depends on the request
and wire habits. Each rule is checked twice, on every recorded exchange it applies to and on the mock's
answer to the same request."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tools.fidelity._shapes import Unit
from tools.fidelity._wire import Wire

__all__ = ["RULES", "Rule", "Seen"]


@dataclass(frozen=True, slots=True)
class Seen:
    """One response as the rules see it, beside the request that asked for it."""

    target: str
    request: Mapping[str, Any]
    wire: Wire
    units: list[Unit]
    stream: bool


@dataclass(frozen=True, slots=True)
class Rule:
    """Request-dependent behaviour includes ``alt=sse``, ``include_usage``, ``store`` and what the request
    asked for; wire habits include Anthropic's padding, ping, and the empty ``thinking_delta`` before a
    ``signature_delta``. A rule a recording breaks is wrong, and says so. ``check`` returns None when the
    rule holds or does not apply, else what broke it."""
    name: str
    dialect: str
    says: str
    evidence: str
    check: Callable[[Seen], str | None]


def _get(obj: Any, *keys: str) -> Any:
    for k in keys:
        obj = obj.get(k) if isinstance(obj, Mapping) else None
    return obj


def _either(obj: Any, camel: str, snake: str) -> Any:
    if not isinstance(obj, Mapping):
        return None
    return obj.get(camel, obj.get(snake))


# -- gemini -----------------------------------------------------------------------------------------
def _alt_sse(s: Seen) -> str | None:
    if not s.target.split("?", 1)[0].endswith(":streamGenerateContent"):
        return None
    want = "sse" if "alt=sse" in s.target.partition("?")[2] else "json-array"
    return None if s.wire.framing == want else f"{s.target}: framed as {s.wire.framing}, not {want}"


def _include_thoughts(request: Mapping[str, Any]) -> bool:
    gen = _either(request, "generationConfig", "generation_config")
    cfg = _either(gen, "thinkingConfig", "thinking_config")
    return _either(cfg, "includeThoughts", "include_thoughts") is True


def _thoughts_asked(s: Seen) -> str | None:
    thought = any("thought" in kind.split("|")[0].split(",") or kind.startswith("part:thought")
                  for kind, _ in s.units)  # fmt: skip
    if thought and not _include_thoughts(s.request):
        return "thought parts streamed although the request did not ask for includeThoughts"
    return None


# -- openai-responses ---------------------------------------------------------------------------------
def _responses_objects(s: Seen) -> list[Mapping[str, Any]]:
    out = []
    for kind, obj in s.units:
        if kind == "response":
            out.append(obj)
        elif isinstance(_get(obj, "response"), Mapping):
            out.append(obj["response"])
    return out


def _store_default(s: Seen) -> str | None:
    want = s.request.get("store", True)
    for resp in _responses_objects(s):
        if "store" in resp and resp["store"] != want:
            asked = "absent (the default)" if "store" not in s.request else repr(want)
            return f"response.store is {resp['store']!r} for a request whose store is {asked}"
    return None


def _summary_asked(s: Seen) -> str | None:
    summary = any("reasoning_summary" in kind for kind, _ in s.units) or any(
        kind == "item:reasoning" and obj.get("summary") for kind, obj in s.units
    )
    if summary and _get(s.request, "reasoning", "summary") is None:
        return "reasoning summaries sent although the request has no reasoning.summary"
    return None


def _encrypted_asked(s: Seen) -> str | None:
    def has(obj: Any) -> bool:
        if isinstance(obj, Mapping):
            return isinstance(obj.get("encrypted_content"), str) or any(has(v) for v in obj.values())
        return isinstance(obj, list) and any(has(v) for v in obj)

    asked = "reasoning.encrypted_content" in (s.request.get("include") or [])
    if not asked and any(has(obj) for _, obj in s.units):
        return "encrypted_content sent although include lacks reasoning.encrypted_content"
    return None


# -- openai-chat ----------------------------------------------------------------------------------------
def _usage_chunk_asked(s: Seen) -> str | None:
    asked = _get(s.request, "stream_options", "include_usage") is True
    if not asked and any(kind.startswith("choices[]") for kind, _ in s.units):
        return "a choices:[] usage chunk sent although stream_options.include_usage was not set"
    return None


# -- anthropic-messages ---------------------------------------------------------------------------------
def _thinking_asked(s: Seen) -> str | None:
    kind_of = _get(s.request, "thinking", "type")
    thinking = any("thinking" in kind for kind, _ in s.units)
    if thinking and kind_of not in ("enabled", "adaptive"):
        return f"thinking blocks sent although thinking.type is {kind_of!r}"
    return None


def _empty_delta_before_signature(s: Seen) -> str | None:
    if not s.stream:
        return None
    for i, (kind, _) in enumerate(s.units):
        if kind == "content_block_delta:signature_delta":
            prev = s.units[i - 1] if i else ("", {})
            if prev[0] != "content_block_delta:thinking_delta" or _get(prev[1], "delta", "thinking") != "":
                return f"signature_delta #{i} follows {prev[0] or 'nothing'}, not an empty thinking_delta"
    return None


def _ping(s: Seen) -> str | None:
    if not s.stream or not any(k.startswith("content_block_start") for k, _ in s.units):
        return None
    frames = s.wire.frames
    first = next((i for i, f in enumerate(frames) if f.event == "ping"), None)
    if first is None:
        return "no ping"
    if frames[first - 1].event != "content_block_start":
        return f"the first ping follows {frames[first - 1].event}, not a content_block_start"
    bad = next((f.text for f in frames if f.event == "ping" and f.text != '{"type": "ping"}'), None)
    if bad is not None:
        return f'ping data is {bad!r}, not \'{{"type": "ping"}}\''
    return None


def _padding(s: Seen) -> str | None:
    if s.stream and len(s.wire.frames) >= 8 and "padded" not in s.wire.facts:
        return f"none of {len(s.wire.frames)} data lines is padded with spaces before its closing brace"
    return None


def _details_in_delta_only(s: Seen) -> str | None:
    for kind, obj in s.units:
        if kind == "message_start" and _get(obj, "message", "usage", "output_tokens_details") is not None:
            return "usage.output_tokens_details in message_start"
    return None


_A, _G, _R, _C = "anthropic-messages", "gemini", "openai-responses", "openai-chat"
RULES: tuple[Rule, ...] = (
    Rule("alt-sse", _G, "streamGenerateContent answers SSE with ?alt=sse, else a streamed JSON array",
         "llm-gemini (no alt) and pydantic-ai (alt=sse) recordings", _alt_sse),
    Rule("thoughts-only-when-asked", _G, "thought parts only when thinkingConfig.includeThoughts is true "
         "(either field casing)", "llm-gemini recordings with and without includeThoughts", _thoughts_asked),
    Rule("store-defaults-true", _R, "response.store echoes the request's store, true when absent",
         "pydantic-ai o3-mini stream (no store: true), llm (store:false: false)", _store_default),
    Rule("summary-only-when-asked", _R, "reasoning summaries only with reasoning.summary",
         "llm gpt-5.5 streams (no summary asked: none)", _summary_asked),
    Rule("encrypted-only-when-asked", _R, "encrypted_content only with include reasoning.encrypted_content",
         "llm and pydantic-ai recordings", _encrypted_asked),
    Rule("usage-chunk-only-when-asked", _C, "a choices:[] usage chunk only with "
         "stream_options.include_usage", "Groq recording without include_usage; OpenAI API reference",
         _usage_chunk_asked),
    Rule("thinking-only-when-asked", _A, "thinking blocks only when thinking is enabled or adaptive",
         "every recording", _thinking_asked),
    Rule("empty-thinking-delta-before-signature", _A, "a signature_delta follows an empty thinking_delta",
         "pydantic-ai and llm-anthropic thinking streams", _empty_delta_before_signature),
    Rule("ping-after-block-start", _A, 'the first ping {"type": "ping"} right after a content_block_start',
         "every recorded stream", _ping),
    Rule("padded-data", _A, "data JSON padded with spaces before its closing brace",
         "every recorded stream", _padding),
    Rule("output-tokens-details-in-message-delta", _A, "usage.output_tokens_details (thinking_tokens) only "
         "in message_delta / the final usage, never in message_start", "llm-anthropic 2026-05 and "
         "pydantic-ai 2026-07 recordings", _details_in_delta_only),
)  # fmt: skip
