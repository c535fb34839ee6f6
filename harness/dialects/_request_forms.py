"""Request forms: every behaviour of a provider that depends on the request, as one table of data. A row
says which request field turns which wire form on, what the provider sends without it, and where that
is documented or recorded; the mock answers every request through this table."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from harness.dialects._gemini_names import camel_request
from harness.dialects._registry import find_variant, get_dialect
from harness.dialects._values import value_at
from harness.events import Event, ReasoningDelta, ReasoningSignature, RedactedReasoning, Turn, Usage

# A new request-dependent behaviour is a row here, under all provider rules; the strict rules' older
# ``shape`` methods still narrow what they stream and agree with these rows. A row whose form is off
# either withholds what the form carries (``withhold``) or plays another variant of the dialect
# (``fallback``), as the real API answers such a request. Sans-IO: JSON bodies in.
__all__ = [
    "ROWS",
    "THINKS_BY_DEFAULT",
    "Answer",
    "RequestForm",
    "adaptive_only",
    "answer_for",
    "applied_defaults",
    "claude_thinks_by_default",
    "no_reasoning",
    "no_reasoning_text",
    "ollama_thinks",
    "rows_for",
]


@dataclass(frozen=True, slots=True)
class RequestForm:
    """One request-dependent behaviour of one provider's wire.

    ``on(request, model)``: the request (with the model it names) has the form on. When it is off,
    ``withhold`` removes what the form carries from the turn, or ``fallback`` names the variant the
    provider plays instead. ``premise``: a case on one of :attr:`variants` is about this form, so a turn
    that lost it to the request has lost its premise (the verdict says the SUT did not ask). Which
    variants a row governs is said by each variant's row (``Variant.forms``)."""

    name: str
    dialect: str
    field: str
    """The request field (dotted path) that turns the form on, as the provider documents it."""
    form: str
    default: str
    """What the provider sends when the request does not ask."""
    source: str
    on: Callable[[Mapping[str, Any], str], bool]
    withhold: Callable[[Turn], Turn] | None = None
    fallback: str | None = None
    premise: bool = True
    stream_only: bool = False
    exempt: frozenset[str] = frozenset()
    """Provider rules with a rule of their own for this field (DeepSeek's Anthropic endpoint thinks
    unless told not to): the row does not apply to them."""

    @property
    def variants(self) -> frozenset[str]:
        """The variants of :attr:`dialect` whose row names this form (a view of ``Variant.forms``)."""
        return frozenset(v.name for v in get_dialect(self.dialect).variants.values() if self.name in v.forms)


def _without(*kinds: type[Event]) -> Callable[[Turn], Turn]:
    """A ``withhold``: the turn without its events of ``kinds``."""
    return lambda turn: tuple(ev for ev in turn if not isinstance(ev, kinds))


no_reasoning_text = _without(ReasoningDelta)
no_reasoning = _without(ReasoningDelta, ReasoningSignature, RedactedReasoning)
_no_usage = _without(Usage)


def _no_encrypted(turn: Turn) -> Turn:
    """The reasoning item stays (its id, an empty summary); only its ``encrypted_content`` goes."""
    return tuple(
        ReasoningDelta("", item=ev.item) if isinstance(ev, ReasoningSignature | RedactedReasoning) else ev
        for ev in turn
    )


_CLAUDE = re.compile(r"claude-(opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2}))?(?!\d)")
_CLAUDE_NEW = re.compile(r"claude-(mythos|fable)-(preview|\d+)")
"""The Claude families named by a word, not a tier (Mythos Preview, Mythos 5, Fable 5): adaptive only."""

THINKS_BY_DEFAULT: dict[str, str] = {
    "claude-mythos-preview": "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking "
    "(Mythos Preview: adaptive thinking is its default and applies when thinking is unset; type disabled "
    "is not supported); https://platform.claude.com/docs/en/build-with-claude/thinking (thinking disabled "
    "turns it off on models that accept it; where it is off by default, set thinking to turn it on)",
}
"""Claude models that think when the request omits ``thinking``, with their source. No public source
found says so of any other Claude model (Opus 4.7, Mythos 5 and Fable 5 accept only adaptive thinking
and refuse ``disabled``, per the Bedrock adaptive-thinking page, but no page says they think unasked)."""


def claude_thinks_by_default(model: str) -> bool:
    """The model is one of :data:`THINKS_BY_DEFAULT` (by its name inside a provider's id)."""
    return any(name in model for name in THINKS_BY_DEFAULT)


def adaptive_only(model: str) -> bool:
    """Claude Opus 4.7 and later (and every Claude 5, Mythos and Fable model): only adaptive thinking,
    display omitted by default (https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-7;
    https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html)."""
    if _CLAUDE_NEW.search(model):
        return True
    m = _CLAUDE.search(model)
    if m is None:
        return False
    family, major, minor = m.group(1), int(m.group(2)), int(m.group(3) or 0)
    return major >= 5 or (family == "opus" and (major, minor) >= (4, 7))


_GEMINI_FLASH_25 = re.compile(r"gemini-2\.5-flash(?!-image)")
_PATH_MODEL = re.compile(r"/models/([^/:?]+)")


def _asked_model(request: Mapping[str, Any], target: str = "") -> str:
    """The model a request names: its ``model`` field, else the ``/models/<name>:`` segment of its path
    (Gemini names the model in the URL), else ""."""
    model = request.get("model")
    if isinstance(model, str) and model:
        return model
    m = _PATH_MODEL.search(target)
    return m.group(1) if m else ""


def _thinking_on(request: Mapping[str, Any], model: str) -> bool:
    """Thinking asked for, or the request omits ``thinking`` and the model thinks by default."""
    if "thinking" not in request and claude_thinks_by_default(model):
        return True
    return value_at(request, "thinking", "type") in ("enabled", "adaptive")


def _bedrock_fields(request: Mapping[str, Any]) -> Any:
    """Where a Bedrock request carries Anthropic's ``thinking``: Converse's
    ``additionalModelRequestFields``, else the InvokeModel body itself."""
    extra = request.get("additionalModelRequestFields")
    return extra if isinstance(extra, Mapping) and "thinking" in extra else request


def _display(request: Mapping[str, Any], model: str) -> str:
    asked = value_at(request, "thinking", "display")
    if asked in ("summarized", "omitted"):
        return str(asked)
    return "omitted" if adaptive_only(model) else "summarized"


def _summary_on(request: Mapping[str, Any], model: str) -> bool:
    return value_at(request, "reasoning", "summary") is not None


def _encrypted_on(request: Mapping[str, Any], model: str) -> bool:
    include = request.get("include")
    return isinstance(include, list) and "reasoning.encrypted_content" in include


def _gemini_openai_thoughts(request: Mapping[str, Any], model: str) -> bool:
    """Google's documented wire (the openai SDK's ``extra_body`` holding another ``extra_body``), or the
    ``google`` object at the top (what the SDK sends for a single ``extra_body``)."""
    for root in (value_at(request, "extra_body", "google"), request.get("google")):
        if value_at(root, "thinking_config", "include_thoughts") is True:
            return True
    return False


def _qwen_thinks(request: Mapping[str, Any], model: str = "") -> bool:
    """A Qwen3 hybrid model thinks unless the request turns ``enable_thinking`` off: vLLM and SGLang pass
    ``chat_template_kwargs.enable_thinking`` to the chat template, whose default is true
    (https://qwen.readthedocs.io/en/latest/deployment/vllm.html#thinking-non-thinking-modes); DashScope
    reads ``enable_thinking`` at the top (the openai SDK's ``extra_body``), true by default for the
    open-weight Qwen3 models (https://www.alibabacloud.com/help/en/model-studio/deep-thinking)."""
    for root in (request, request.get("extra_body"), request.get("chat_template_kwargs"),
                 value_at(request, "extra_body", "chat_template_kwargs")):  # fmt: skip
        if isinstance(root, Mapping) and root.get("enable_thinking") is False:
            return False
    return True


def _gemini_thinks(request: Mapping[str, Any], model: str) -> bool:
    """Gemini 2.5 and 3 think by default; ``thinkingBudget: 0`` turns thinking off on Gemini 2.5 Flash
    (and Flash-Lite) only: 2.5 Pro cannot turn it off, Gemini 3 has thinkingLevel instead
    (https://ai.google.dev/gemini-api/docs/thinking#set-budget)."""
    budget = value_at(camel_request(request), "generationConfig", "thinkingConfig", "thinkingBudget")
    return not (budget == 0 and _GEMINI_FLASH_25.search(model))


def ollama_thinks(request: Mapping[str, Any], model: str = "") -> bool:
    """A thinking model thinks unless ``think`` is false: Ollama's server sets an absent (or null)
    ``think`` to true for a model with the thinking capability ("Thinking is enabled by default in the
    CLI and API for supported models", docs.ollama.com/capabilities/thinking); a level string
    (gpt-oss's low / medium / high) is on too."""
    return request.get("think") is not False


ROWS: tuple[RequestForm, ...] = (
    RequestForm(
        "openai-responses/reasoning-summary", "openai-responses", "reasoning.summary",
        "reasoning summary text (response.reasoning_summary_part/_text events, item summary[])",
        "a reasoning item with summary [] and no summary events",
        "https://platform.openai.com/docs/guides/reasoning#reasoning-summaries; "
        "recorded: corpus/openai-responses-encrypted.jsonl (no reasoning.summary: summary [])",
        _summary_on, withhold=no_reasoning_text,
    ),
    RequestForm(
        "openai-responses-ws/reasoning-summary", "openai-responses-ws", "reasoning.summary",
        "reasoning summary text",
        "a reasoning item with summary [] and no summary events",
        "https://platform.openai.com/docs/guides/websocket-mode (same events as HTTP streaming)",
        _summary_on, withhold=no_reasoning_text,
    ),
    RequestForm(
        "openai-responses/encrypted-content", "openai-responses",
        "include[reasoning.encrypted_content]",
        "encrypted_content on reasoning items (what a store:false loop passes back)",
        "reasoning items without encrypted_content",
        "https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items; "
        "recorded: corpus/openai-responses-encrypted.jsonl",
        _encrypted_on, withhold=_no_encrypted,
    ),
    RequestForm(
        "anthropic/thinking", "anthropic-messages", "thinking.type",
        "thinking blocks (type enabled or adaptive)",
        "no thinking blocks: text only; claude-mythos-preview thinks (adaptive, display omitted) when the "
        "request omits thinking",
        "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking; "
        + "; ".join(THINKS_BY_DEFAULT.values()),
        _thinking_on, withhold=no_reasoning, exempt=frozenset({"deepseek-anthropic"}),
    ),
    RequestForm(
        "anthropic/display-summarized", "anthropic-messages", "thinking.display",
        "summarized thinking text (display summarized; the default before Opus 4.7)",
        "thinking blocks with empty text and their signature (display omitted; the default on "
        "claude-opus-4-7 and later)",
        "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking; "
        "https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-7",
        lambda request, model: _display(request, model) == "summarized", fallback="omitted",
        exempt=frozenset({"deepseek-anthropic"}),
    ),
    RequestForm(
        "anthropic/display-omitted", "anthropic-messages", "thinking.display",
        "thinking blocks with empty text and their signature (display omitted)",
        "summarized thinking text (models before Opus 4.7 without display)",
        "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking",
        lambda request, model: _display(request, model) == "omitted", fallback="thinking",
    ),
    RequestForm(
        "bedrock/thinking", "bedrock-converse",
        "additionalModelRequestFields.thinking.type",
        "reasoningContent blocks (Converse) / thinking blocks (InvokeModel: thinking.type)",
        "no reasoning: text only",
        "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html; "
        "recorded: corpus/bedrock-thinking-stream.jsonl",
        lambda request, model: _thinking_on(_bedrock_fields(request), model), withhold=no_reasoning,
    ),
    RequestForm(
        "bedrock/display-summarized", "bedrock-converse",
        "additionalModelRequestFields.thinking.display",
        "summarized reasoning text (display summarized)",
        "reasoningContent with its signature and no text (display omitted: the default of adaptive-only "
        "Claude models, Opus 4.7 and later)",
        "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html; "
        "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking",
        lambda request, model: _display(_bedrock_fields(request), model) == "summarized",
        withhold=no_reasoning_text,
    ),
    RequestForm(
        "gemini/include-thoughts", "gemini",
        "generationConfig.thinkingConfig.includeThoughts", "thought summary parts (thought: true)",
        "no thought parts (signatures only)",
        "https://ai.google.dev/gemini-api/docs/thinking#summaries; recorded: corpus/gemini-thoughts*.jsonl",
        lambda request, model: value_at(camel_request(request), "generationConfig", "thinkingConfig",
                                        "includeThoughts") is True,
        withhold=no_reasoning_text,
    ),
    RequestForm(
        "gemini-openai/include-thoughts", "openai-chat",
        "extra_body.google.thinking_config.include_thoughts", "<thought> summaries in content",
        "no thought text",
        "https://ai.google.dev/gemini-api/docs/openai#thinking; "
        "https://discuss.ai.google.dev/t/how-to-include-thoughts-on-openai-compatibility/87141",
        _gemini_openai_thoughts, withhold=no_reasoning_text,
    ),
    RequestForm(
        "gemini-interactions/thinking-summaries", "gemini-interactions",
        "generation_config.thinking_summaries", "thought_summary deltas in thought steps (auto)",
        "thought steps with their signature only (by default only the final output is returned)",
        "https://ai.google.dev/gemini-api/docs/interactions/thinking#thought-summaries; google-genai "
        "3.6.1 GenerationConfig.thinking_summaries: auto | none",
        lambda request, model: value_at(request, "generation_config", "thinking_summaries") == "auto",
        withhold=no_reasoning_text,
    ),
    RequestForm(
        "minimax/reasoning-split", "openai-chat", "reasoning_split",
        "delta.reasoning_details[] text entries", "<think>...</think> inline at the start of the content",
        "https://platform.minimax.io/docs/api-reference/text-openai-api (reasoning_split)",
        lambda request, model: True in (request.get("reasoning_split"),
                                        value_at(request, "extra_body", "reasoning_split")),
        fallback="think-tags",
    ),
    RequestForm(
        "openai-chat/include-usage", "openai-chat", "stream_options.include_usage",
        "a usage chunk before [DONE]", "no usage chunk",
        "https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options; "
        "recorded: corpus/groq-reasoning-stream.jsonl",
        lambda request, model: value_at(request, "stream_options", "include_usage") is True,
        withhold=_no_usage, premise=False, stream_only=True,
    ),
    RequestForm(
        "deepseek/thinking", "openai-chat", "thinking.type",
        "reasoning_content (thinking mode: on by default on DeepSeek V4; type disabled turns it off)",
        "reasoning_content: thinking is on unless the request disables it",
        "https://api-docs.deepseek.com/guides/thinking_mode",
        lambda request, model: value_at(request, "thinking", "type") != "disabled", withhold=no_reasoning,
    ),
    RequestForm(
        "qwen3/enable-thinking", "openai-chat",
        "chat_template_kwargs.enable_thinking",
        "delta.reasoning (Qwen3 thinking mode: on by default; enable_thinking false turns it off)",
        "reasoning: a Qwen3 model thinks unless the request turns enable_thinking off (DashScope's "
        "commercial Qwen models default to off; the mock plays an open-weight Qwen3)",
        "https://qwen.readthedocs.io/en/latest/deployment/vllm.html#thinking-non-thinking-modes; "
        "https://docs.vllm.ai/en/stable/features/reasoning_outputs/; "
        "https://www.alibabacloud.com/help/en/model-studio/deep-thinking",
        _qwen_thinks, withhold=no_reasoning,
    ),
    RequestForm(
        "gemini/thinking-budget", "gemini",
        "generationConfig.thinkingConfig.thinkingBudget",
        "thinking (thought signatures, thought parts when asked): on by default on Gemini 2.5 and 3; "
        "thinkingBudget 0 turns it off on 2.5 Flash only",
        "thinking: on unless a 2.5 Flash request sets thinkingBudget 0 (then no thoughts and no signatures)",
        "https://ai.google.dev/gemini-api/docs/thinking#set-budget; "
        "https://ai.google.dev/gemini-api/docs/thought-signatures",
        _gemini_thinks, withhold=no_reasoning,
    ),
    RequestForm(
        "ollama/think", "ollama", "think",
        "message.thinking (think true or a level; a thinking model's default when think is absent)",
        "no thinking when think is false",
        "https://docs.ollama.com/capabilities/thinking; https://ollama.com/blog/thinking",
        ollama_thinks, withhold=no_reasoning_text,
    ),
)  # fmt: skip
"""Every request-dependent behaviour the mock plays, one row each (docs/request-forms.md lists them)."""


def rows_for(dialect: str, variant: str, rules: str = "lenient") -> tuple[RequestForm, ...]:
    """The rows that govern a variant of a dialect (under a provider's rules): those its row names."""
    row = find_variant(dialect, variant)
    forms = row.forms if row is not None else ()
    return tuple(r for r in ROWS if r.dialect == dialect and r.name in forms and rules not in r.exempt)


@dataclass(frozen=True, slots=True)
class Answer:
    """How the mock answers one request: the variant it plays and the rows whose form is off."""

    variant: str
    off: tuple[RequestForm, ...] = ()

    def shape(self, turn: Turn) -> Turn:
        for row in self.off:
            if row.withhold is not None:
                turn = row.withhold(turn)
        return turn

    def withheld(self, turn: Turn) -> tuple[RequestForm, ...]:
        """The premise rows whose form the scripted ``turn`` carried and this answer leaves out."""
        return tuple(r for r in self.off if r.premise and self._changes(r, turn))

    @staticmethod
    def _changes(row: RequestForm, turn: Turn) -> bool:
        if row.fallback is not None:  # another variant carries the same reasoning in another form
            return any(isinstance(ev, ReasoningDelta | ReasoningSignature) for ev in turn)
        return row.withhold is not None and row.withhold(turn) != turn


def answer_for(
    dialect: str,
    variant: str,
    request: Mapping[str, Any],
    *,
    rules: str = "lenient",
    stream: bool = True,
    model: str = "",
    target: str = "",
) -> Answer:
    """The form the provider answers ``request`` in. ``model``: the model the mock plays (the case's
    provider's); a request that names a model the table knows (a Claude model: the display default
    depends on it; Gemini 2.5 Flash: thinkingBudget 0 turns its thinking off) is answered as that
    model, any other name (gateways rename models) as ``model``. ``target``: the request's path (where
    Gemini names the model)."""
    model = _answered_model(dialect, request, model, target)
    rows = rows_for(dialect, variant, rules)
    off = tuple(r for r in rows if (stream or not r.stream_only) and not r.on(request, model))
    played = next((r.fallback for r in off if r.fallback is not None), variant)
    return Answer(played, off)


def _answered_model(dialect: str, request: Mapping[str, Any], model: str, target: str = "") -> str:
    """The model a request is answered as: the one it names when the table knows it (a Claude model, Gemini
    2.5 Flash), else ``model``, the one the mock plays (gateways rename models)."""
    asked = _asked_model(request, target)
    named = _CLAUDE.search(asked) or _CLAUDE_NEW.search(asked)
    if named or (dialect == "gemini" and _GEMINI_FLASH_25.search(asked)):
        return asked
    return model


def applied_defaults(
    dialect: str, request: Mapping[str, Any], *, model: str = "", target: str = ""
) -> Mapping[str, Any]:
    """The request as the provider reads it: a setting it omits filled in where a row says the model has a
    default for it (a Claude model that thinks by default: ``thinking`` adaptive). The strict provider
    rules judge and shape this request, so they agree with the table."""
    if dialect != "anthropic-messages" or "thinking" in request:
        return request
    if claude_thinks_by_default(_answered_model(dialect, request, model, target)):
        return {**request, "thinking": {"type": "adaptive"}}
    return request
