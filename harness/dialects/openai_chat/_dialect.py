"""The OpenAI Chat Completions dialect (``/chat/completions``): the variant table, non-streaming bodies,
the request the client builds and the DIALECT object. The wire, the request history read back and the
provider rules have modules of their own beside it."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import (
    READ_ALL,
    Caps,
    Dialect,
    ProviderRules,
    Reading,
    RequestSpec,
    Transport,
    Variant,
    check_variant,
    json_body,
    stream_flag,
    turn_error,
)
from harness.dialects._carriers import (
    CALL_SIGNATURES,
    GEMINI_FORMAT,
    OPENAI_FORMAT,
    Specs,
    details,
    with_echo,
)
from harness.dialects._provider_errors import openai_error
from harness.dialects._think import HARMONY, MM_THINK, OPEN, TAGS, THOUGHT
from harness.dialects.openai_chat._extras import AzureEmitter, GeminiChatEmitter, azure_response, google
from harness.dialects.openai_chat._messages import parse_request
from harness.dialects.openai_chat._reader import reasoning_carriers
from harness.dialects.openai_chat._wire import (
    CREATED,
    DEFAULT_REASONING_FIELDS,
    Carrier,
    ChatEmitter,
    ChatObserver,
    Reader,
    Shape,
    completion_id,
    error_event,
    reading_order,
    usage_event,
    usage_json,
)
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    Turn,
    Usage,
    assemble,
)

# A request carries each assistant message's reasoning back in its variant's form (the variant's
# ``Carrier``), or in the carriers a SUT's profile names (``echo_fields``, ``dialects/_carriers.py``); the
# request parser accepts every passback form, ``thinking_blocks`` included.
__all__ = [
    "DEFAULT_REASONING_FIELDS",
    "DIALECT",
    "SHAPES",
    "VARIANTS",
    "ChatEmitter",
    "ChatObserver",
    "OpenAIChatDialect",
    "observe_response",
]

NAME = "openai-chat"
_C = Caps
_BASE = frozenset({_C.REASONING, _C.TOOLS, _C.USAGE, _C.ERRORS})


def _v(name: str, catalog_id: str, description: str, caps: frozenset[Caps]) -> Variant:
    return Variant(name, catalog_id, NAME, description, caps)


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
_TABLE: tuple[tuple[Variant, Shape], ...] = (
    (
        _v(
            "reasoning_content",
            "CC-RC",
            "DeepSeek/Kimi delta.reasoning_content, usage on the finish chunk",
            _BASE,
        ),
        Shape(
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
    (
        _v("reasoning", "CC-R", "vLLM/Groq delta.reasoning, a choices:[] usage chunk when asked", _BASE),
        Shape(Carrier.REASONING, _ROLE, _EMPTY, logprobs=True),
    ),
    (
        _v(
            "reasoning_details",
            "CC-RD",
            "OpenRouter delta.reasoning mirrored in delta.reasoning_details[] (signature, encrypted)",
            _BASE | {_C.SIGNATURE, _C.CALL_SIGNATURE, _C.REDACTED},
        ),
        _OPENROUTER_SHAPE,
    ),
    (
        _v(
            "openrouter-openai",
            "CC-RD",
            "OpenRouter in front of OpenAI: reasoning.summary and reasoning.encrypted details sharing the "
            "item's rs_ id (format openai-responses-v1)",
            _BASE | {_C.SIGNATURE},
        ),
        replace(_OPENROUTER_SHAPE, detail={"format": OPENAI_FORMAT}),
    ),
    (
        _v(
            "openrouter-gemini",
            "CC-RD",
            "OpenRouter in front of Gemini: reasoning.text details, each tool call's thought signature a "
            "reasoning.encrypted detail named by the call id (format google-gemini-v1)",
            _BASE | {_C.CALL_SIGNATURE},
        ),
        replace(_OPENROUTER_SHAPE, detail=_GEMINI_DETAIL),
    ),
    (
        _v(
            "minimax-details",
            "CC-RD",
            "MiniMax reasoning_split: delta.reasoning_details[] text entries (id, format), no mirror",
            _BASE,
        ),
        Shape(Carrier.DETAILS, _ROLE, {}, mirror=False, detail=_MINIMAX_DETAIL),
    ),
    (
        _v("think-tags", "CC-THINK", "leading <think>...</think> inside delta.content", _BASE),
        Shape(Carrier.INLINE, _ROLE, {}, opener=(OPEN,)),
    ),
    (
        _v("think-split", "CC-THINK", "leading <think> tags split across deltas (<th | ink>)", _BASE),
        Shape(Carrier.INLINE, _ROLE, {}, opener=("<th", "ink>"), closer=("</th", "ink>")),
    ),
    (
        _v("think-implicit", "CC-THINK", "template-primed: no <think> opener, only </think>", _BASE),
        Shape(Carrier.INLINE, _ROLE, {}),
    ),
    (
        _v(
            "mistral",
            "CC-MISTRAL",
            "Magistral delta.content list of thinking chunks, then string content",
            _BASE,
        ),
        Shape(Carrier.MISTRAL, _ROLE, _EMPTY, usage_on_finish=True),
    ),
    (
        _v("mm-think", "CC-THINK", "MiniMax-M3 served raw: <mm:think>...</mm:think> leading content", _BASE),
        Shape(Carrier.INLINE, _ROLE, {}, opener=(MM_THINK[0],), closer=(MM_THINK[1],), tags=MM_THINK),
    ),
    (
        _v(
            "harmony",
            "CC-HARMONY",
            "gpt-oss raw harmony channels in content: <|channel|>analysis<|message|>...<|end|> then final",
            _BASE,
        ),
        Shape(Carrier.INLINE, _ROLE, {}, opener=(HARMONY[0],), closer=(HARMONY[1],), tags=HARMONY),
    ),
    (
        _v(
            "gemini-openai",
            "CC-GEMINI",
            "Gemini's OpenAI endpoint: <thought> content; extra_content.google.thought_signature on calls",
            _BASE | {_C.CALL_SIGNATURE},
        ),
        Shape(
            Carrier.INLINE,
            {"role": "assistant"},
            {},
            opener=(THOUGHT[0],),
            closer=(THOUGHT[1],),
            tags=THOUGHT,
            replay_inline=False,
        ),
    ),
    (
        _v(
            "azure",
            "CC-AZURE",
            "Azure OpenAI envelope: prompt_filter_results chunk (choices: []), content_filter_results, "
            "annotation chunks without delta; reasoning_content (Foundry DeepSeek-R1)",
            _BASE,
        ),
        Shape(
            Carrier.REASONING_CONTENT,
            {"content": "", "refusal": None, "role": "assistant"},
            _EMPTY,
            text={},
            logprobs=True,
            envelope={"system_fingerprint": "fp_mock"},
        ),
    ),
    (
        _v(
            "usage-only",
            "CC-USAGE",
            "OpenAI's own endpoint: no reasoning text, only completion_tokens_details.reasoning_tokens",
            frozenset({_C.TOOLS, _C.USAGE, _C.ERRORS}),
        ),
        Shape(
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
)
"""The variants, one row each: what the variant is, and its stream's :class:`Shape` (where reasoning
rides, the role chunk, the text and finish deltas, where usage rides, the inline tags)."""
VARIANTS: dict[str, Variant] = {v.name: v for v, _ in _TABLE}
SHAPES: dict[str, Shape] = {v.name: shape for v, shape in _TABLE}
_EMITTERS: dict[str, type[ChatEmitter]] = {"azure": AzureEmitter, "gemini-openai": GeminiChatEmitter}
"""Variants whose provider wraps the deltas in its own envelope (``_extras``)."""

_check_variant = functools.partial(check_variant, NAME, VARIANTS)


# --------------------------------------------------------------------------------------------------
# Non-streaming observer and emitter, the request codec


def observe_response(body: bytes, *, variant: str | None = None, reading: Reading = READ_ALL) -> list[Event]:
    """Canonical events from a non-streaming ``chat.completion`` body (``variant``: the upstream's,
    whose inline tag pair and implicit opener the reader then knows; ``reading``: which carriers, and
    whether inline tags are split)."""
    obj, notice = json_body(body)
    if notice is not None:
        return [notice]
    if not isinstance(obj, Mapping):
        return [Notice("unknown-frame", body[:80].decode(errors="replace"))]
    if obj.get("error"):
        return [error_event(obj["error"])]
    shape = SHAPES.get(variant or "")
    implicit = bool(reading.implicit_think) or bool(shape and shape.implicit)
    fields = reading_order(reading.reasoning_fields, reading.carriers)
    tags = shape.tags if shape is not None else TAGS
    r = Reader(fields, implicit, reading.inline_think, reading.carriers, tags)
    out: list[Event] = []
    finish: str | None = None
    for choice in obj.get("choices") or []:
        if not isinstance(choice, Mapping):
            continue
        msg = choice.get("message")
        if isinstance(msg, Mapping):
            out += r.reasoning(msg, message=True)
            out += r.content(msg.get("content"))
            out += r.end_text()
            out += r.tool_calls(msg.get("tool_calls"))
            out += r.extras(msg)
        if isinstance(choice.get("finish_reason"), str):
            finish = choice["finish_reason"]
    usage = usage_event(obj.get("usage"))
    if usage is not None:
        out.append(usage)
    out.append(End(finish or "stop"))
    return out


def _assistant_json(msg: Message, variant: str, *, request: bool) -> dict[str, Any]:
    """An assistant message in ``variant``'s form (response ``message`` or request history entry)."""
    rblocks = [b for b in msg.content if isinstance(b, ReasoningBlock)]
    reasoning = "".join(b.text for b in rblocks if b.redacted is None)
    text = msg.text
    calls = msg.tool_calls
    shape = SHAPES[variant]
    carrier = shape.carrier
    out: dict[str, Any] = {"role": "assistant"}
    content: Any = text if (text or not calls) else None
    if carrier is Carrier.INLINE and reasoning and (shape.replay_inline or not request):
        content = f"{shape.tags[0]}{reasoning}{shape.tags[1]}{text}"
    elif carrier is Carrier.MISTRAL and reasoning:
        think: dict[str, Any] = {"type": "thinking", "thinking": [{"type": "text", "text": reasoning}]}
        if request:
            think["closed"] = True
        content = [think] + ([{"type": "text", "text": text}] if text else [])
    out["content"] = content
    if carrier is Carrier.DETAILS:
        rblocks = _text_signed(rblocks, msg)
    if carrier is Carrier.REASONING_CONTENT and (reasoning or calls or not request):
        out["reasoning_content"] = reasoning
    elif carrier is Carrier.REASONING and reasoning:
        out["reasoning"] = reasoning
    elif carrier is Carrier.DETAILS and (rblocks or any(c.signature for c in calls)):
        if reasoning and not request and shape.mirror:
            out["reasoning"] = reasoning
        out["reasoning_details"] = details(rblocks, calls, shape.detail)
    if not request:
        out.update(shape.message)  # recorded: OpenRouter's "refusal": null
    if carrier is Carrier.MISTRAL and not request and not calls:
        out["tool_calls"] = None  # recorded (Mistral)
    if calls:
        out["tool_calls"] = [_call_json(c, variant) for c in calls]
        if carrier is Carrier.REASONING_CONTENT and not request:  # recorded (DeepSeek): the call's index
            for i, call in enumerate(out["tool_calls"]):
                call["index"] = i
    if variant == "gemini-openai":
        sig = next((b.signature for b in msg.content if isinstance(b, TextBlock) and b.signature), None)
        out |= google(thought_signature=sig) if sig else {}
    return out


def _text_signed(rblocks: list[ReasoningBlock], msg: Message) -> list[ReasoningBlock]:
    """The reasoning blocks with the signature of a signed text block (Gemini's signature of a text
    answer, which may arrive in a last part of its own) merged in, as a stream carries it: into the last
    unsigned reasoning block (the detail whose index it shares), else as a signature-only block."""
    sigs = [b.signature for b in msg.content if isinstance(b, TextBlock) and b.signature]
    if not sigs:
        return rblocks
    out = list(rblocks)
    for sig in sigs:
        free = [i for i, b in enumerate(out) if b.signature is None and b.redacted is None]
        at = free[-1] if free else None
        if at is None:
            out.append(ReasoningBlock("", signature=sig))
        else:
            out[at] = replace(out[at], signature=sig)
    return out


def _google_signatures(entry: dict[str, Any], msg: Message) -> dict[str, Any]:
    """``entry`` with each signature back in ``extra_content.google`` where Gemini's OpenAI-compatible
    endpoint sent it: on its tool call, or on the message for a text answer's."""
    sigs = {c.id: c.signature for c in msg.tool_calls if c.signature}
    calls = [
        c | google(thought_signature=sigs[c["id"]]) if c.get("id") in sigs else c
        for c in entry.get("tool_calls") or []
    ]
    if calls:
        entry = {**entry, "tool_calls": calls}
    text = next((b.signature for b in msg.content if isinstance(b, TextBlock) and b.signature), None)
    return entry | google(thought_signature=text) if text else entry


def _call_json(c: ToolCallBlock, variant: str) -> dict[str, Any]:
    call = {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
    if variant == "gemini-openai" and c.signature is not None:
        call |= google(thought_signature=c.signature)
    return call


def emit_response(turn: Turn, variant: str, *, model: str = "mock-model") -> bytes:
    _check_variant(variant)
    err = turn_error(turn)
    if err is not None:
        return error_body(err.status or 500, err.message, err.code)
    msg = assemble(turn)
    end = next((ev for ev in turn if isinstance(ev, End)), End("tool_calls" if msg.tool_calls else "stop"))
    usage = next((ev for ev in turn if isinstance(ev, Usage)), None)
    shape = SHAPES[variant]
    message = _assistant_json(msg, variant, request=False)
    choice: dict[str, Any] = {"index": 0, "message": message}
    if shape.logprobs or shape.native_finish:
        choice["logprobs"] = None
    choice["finish_reason"] = end.reason
    if shape.native_finish:
        choice["native_finish_reason"] = end.reason
    obj: dict[str, Any] = {
        "id": completion_id(),
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        **shape.envelope,
        "choices": [choice],
    }
    if usage is not None:
        obj["usage"] = usage_json(usage, shape.usage_extra)
    if variant == "azure":
        obj = azure_response(obj)
    return dumps_compact(obj).encode()


def error_body(status: int, message: str, code: str | None = None) -> bytes:
    return dumps_compact(openai_error(status, message, code)).encode()


_VARIANT_ASKS: dict[str, dict[str, Any]] = {
    "minimax-details": {"reasoning_split": True},
    "gemini-openai": {"extra_body": {"google": {"thinking_config": {"include_thoughts": True}}}},
}
"""What a client that wants a variant's form asks for (the request-forms table's triggers: MiniMax keeps
``<think>`` in the content without ``reasoning_split``; Gemini's OpenAI endpoint sends no thoughts
without ``include_thoughts``)."""


def build_request(
    messages: Sequence[Message],
    *,
    model: str,
    stream: bool,
    variant: str = "reasoning_content",
    echo_fields: Sequence[str] | None = None,
    carriers: Specs = (),
    **options: Any,
) -> RequestSpec:
    """``echo_fields``: the carriers a SUT reads reasoning back from (default: the variant's own);
    ``carriers``: the ones its profile declares."""
    _check_variant(variant)
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "assistant":
            entry = _assistant_json(m, variant, request=True)
            if echo_fields is not None:
                fields = [f for f in echo_fields if f != CALL_SIGNATURES]
                entry = with_echo(entry, m, fields, carriers)
                if CALL_SIGNATURES in echo_fields:
                    entry = _google_signatures(entry, m)
            out.append(entry)
        elif m.role == "tool":
            for b in m.content:
                if isinstance(b, ToolResultBlock):
                    out.append({"role": "tool", "tool_call_id": b.call_id, "content": b.content})
        else:
            out.append({"role": m.role, "content": m.text})
    body: dict[str, Any] = {"model": model, "messages": out, "stream": stream}
    if stream:
        body["stream_options"] = {"include_usage": True}
    body.update(_VARIANT_ASKS.get(variant, {}))
    body.update(options)
    return RequestSpec("/v1/chat/completions", body)


class OpenAIChatDialect(Dialect):
    name = NAME
    transport = Transport.SSE
    content_type = "text/event-stream; charset=utf-8"
    """As OpenAI, DeepSeek and Mistral send it (OpenRouter and Groq omit the charset: docs/fidelity.md)."""
    id_header = "x-request-id"
    """Read by the official SDK (``openai/_response.py``: ``_request_id``)."""
    path_suffixes: tuple[str, ...] = ("/chat/completions",)
    variants: Mapping[str, Variant] = VARIANTS
    default_variant = "reasoning_content"
    wants_stream = staticmethod(stream_flag)

    def emitter(self, variant: str, *, model: str = "mock-model") -> ChatEmitter:
        _check_variant(variant)
        return _EMITTERS.get(variant, ChatEmitter)(SHAPES[variant], model=model)

    emit_response = staticmethod(emit_response)

    def observer(self, variant: str | None = None, *, reading: Reading = READ_ALL) -> ChatObserver:
        if variant is not None:
            _check_variant(variant)
        shape = SHAPES[variant] if variant is not None else None
        implicit = reading.implicit_think
        return ChatObserver(
            reasoning_fields=reading.reasoning_fields,
            implicit_think=(shape is not None and shape.implicit) if implicit is None else implicit,
            inline_think=reading.inline_think,
            carriers=reading.carriers,
            think_tags=shape.tags if shape is not None else TAGS,
        )

    def observe_response(
        self, body: bytes, *, variant: str | None = None, reading: Reading = READ_ALL
    ) -> list[Event]:
        return observe_response(body, variant=variant, reading=reading)

    multi_carrier = True  # reasoning_content, reasoning, reasoning_details ... (_carriers.CARRIERS)
    reasoning_carriers = staticmethod(reasoning_carriers)
    error_body = staticmethod(error_body)
    build_request = staticmethod(build_request)
    parse_request = staticmethod(parse_request)

    def provider_rules(self) -> Mapping[str, ProviderRules]:
        from harness.dialects.openai_chat._rules import RULES
        from harness.dialects.openai_chat._rules_2026 import RULES as RULES_2026

        return RULES | RULES_2026


DIALECT = OpenAIChatDialect()
