"""The OpenAI Chat Completions dialect (``/chat/completions``): non-streaming bodies, the request the client
builds and the DIALECT object. The variant rows (``_variants``), the wire, the request history read back
and the provider rules have modules of their own beside it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import Dialect, ProviderRules, Reading, RequestSpec, chat_messages
from harness.dialects._carriers import CALL_SIGNATURES, Carrier, Specs, details, with_echo
from harness.dialects._chat_shape import Shape
from harness.dialects._provider_errors import openai_error
from harness.dialects._registry import declared_rules
from harness.dialects._think import TAGS
from harness.dialects.openai_chat._extras import AzureEmitter, GeminiChatEmitter, azure_response, google
from harness.dialects.openai_chat._messages import parse_request
from harness.dialects.openai_chat._reader import reasoning_carriers
from harness.dialects.openai_chat._variants import NAME, VARIANTS
from harness.dialects.openai_chat._wire import (
    CREATED,
    ChatEmitter,
    ChatObserver,
    Reader,
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
    Turn,
    Usage,
    assemble,
)

# A request carries each assistant message's reasoning back in its variant's form (the variant's
# ``Carrier``), or in the carriers a SUT's profile names (``echo_fields``, ``dialects/_carriers.py``); the
# request parser accepts every passback form, ``thinking_blocks`` included.
__all__ = ["DIALECT", "OpenAIChatDialect"]

_EMITTERS: dict[str, type[ChatEmitter]] = {"azure": AzureEmitter, "google": GeminiChatEmitter}
"""The provider envelopes (``Shape.wrapper``) some variants wrap their deltas in (``_extras``)."""


def shape_of(variant: str) -> Shape:
    """The Chat variant's stream shape, from its row."""
    shape = VARIANTS[variant].shape
    assert shape is not None, f"openai-chat:{variant} has no shape"
    return shape


# --------------------------------------------------------------------------------------------------
# Non-streaming observer and emitter, the request codec


def _assistant_json(msg: Message, variant: str, *, request: bool) -> dict[str, Any]:
    """An assistant message in ``variant``'s form (response ``message`` or request history entry)."""
    rblocks = [b for b in msg.content if isinstance(b, ReasoningBlock)]
    reasoning = "".join(b.text for b in rblocks if b.redacted is None)
    text = msg.text
    calls = msg.tool_calls
    shape = shape_of(variant)
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
    if reasoning and not request:
        out |= dict.fromkeys(shape.also, reasoning)  # a flat mirror: the same text in another field
    if not request:
        out.update(shape.message)  # recorded: OpenRouter's "refusal": null
    if carrier is Carrier.MISTRAL and not request and not calls:
        out["tool_calls"] = None  # recorded (Mistral)
    if calls:
        out["tool_calls"] = [_call_json(c, variant) for c in calls]
        if carrier is Carrier.REASONING_CONTENT and not request:  # recorded (DeepSeek): the call's index
            for i, call in enumerate(out["tool_calls"]):
                call["index"] = i
    if shape.wrapper == "google":
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
        if free:
            out[free[-1]] = replace(out[free[-1]], signature=sig)
        else:
            out.append(ReasoningBlock("", signature=sig))
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
    if shape_of(variant).wrapper == "google" and c.signature is not None:
        call |= google(thought_signature=c.signature)
    return call


class OpenAIChatDialect(Dialect):
    name = NAME
    content_type = "text/event-stream; charset=utf-8"
    """As OpenAI, DeepSeek and Mistral send it (OpenRouter and Groq omit the charset: docs/fidelity.md)."""
    id_header = "x-request-id"
    """Read by the official SDK (``openai/_response.py``: ``_request_id``)."""
    path_suffixes: tuple[str, ...] = ("/chat/completions",)
    variants = VARIANTS
    default_variant = "reasoning_content"
    multi_carrier = True  # reasoning_content, reasoning, reasoning_details ... (_carriers.CARRIERS)
    reasoning_carriers = staticmethod(reasoning_carriers)
    parse_request = staticmethod(parse_request)

    def emitter(self, variant: str, *, model: str = "mock-model") -> ChatEmitter:
        self.require_variant(variant)
        shape = shape_of(variant)
        return _EMITTERS.get(shape.wrapper, ChatEmitter)(shape, model=model)

    def stream_observer(self, variant: str | None, reading: Reading) -> ChatObserver:
        shape = shape_of(variant) if variant is not None else None
        implicit = reading.implicit_think
        return ChatObserver(
            reasoning_fields=reading.reasoning_fields,
            implicit_think=(shape is not None and shape.implicit) if implicit is None else implicit,
            inline_think=reading.inline_think,
            carriers=reading.carriers,
            think_tags=shape.tags if shape is not None else TAGS,
        )

    def response_object(self, turn: Turn, variant: str, *, model: str) -> Any:
        msg = assemble(turn)
        end = next(
            (ev for ev in turn if isinstance(ev, End)), End("tool_calls" if msg.tool_calls else "stop")
        )
        usage = next((ev for ev in turn if isinstance(ev, Usage)), None)
        shape = shape_of(variant)
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
        if shape.wrapper == "azure":
            obj = azure_response(obj)
        return obj

    def read_response(self, obj: Any, *, variant: str | None, reading: Reading) -> list[Event]:
        """The events of a ``chat.completion`` body (``variant``: the upstream's, whose inline tag pair and
        implicit opener the reader then knows; ``reading``: which carriers, and whether inline tags are
        split)."""
        if not isinstance(obj, Mapping):
            return [Notice("unknown-frame", dumps_compact(obj)[:80])]
        if obj.get("error"):
            return [error_event(obj["error"])]
        shape = VARIANTS[variant].shape if variant in VARIANTS else None
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

    def error_object(self, status: int, message: str, code: str | None) -> Any:
        return openai_error(status, message, code)

    def build_request(
        self,
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
        self.require_variant(variant)

        def assistant(m: Message) -> dict[str, Any]:
            entry = _assistant_json(m, variant, request=True)
            if echo_fields is not None:
                entry = with_echo(entry, m, [f for f in echo_fields if f != CALL_SIGNATURES], carriers)
                if CALL_SIGNATURES in echo_fields:
                    entry = _google_signatures(entry, m)
            return entry

        history = chat_messages(messages, assistant)
        body: dict[str, Any] = {"model": model, "messages": history, "stream": stream}
        if stream:
            body["stream_options"] = {"include_usage": True}
        body.update(VARIANTS[variant].asks)  # the request-forms trigger a client that wants this form sends
        body.update(options)
        return RequestSpec("/v1/chat/completions", body)

    def provider_rules(self) -> Mapping[str, ProviderRules]:
        from harness.dialects.openai_chat._rules import RULES

        return RULES | declared_rules(NAME)


DIALECT = OpenAIChatDialect()
