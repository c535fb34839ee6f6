"""The Cohere v2 chat dialect for ``/v2/chat``: the variant, non-streaming bodies, the request codec and
``DIALECT``. The wire, emitter and observer, is in ``_wire``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness.dialects._base import (
    LENIENT,
    Caps,
    Dialect,
    LenientRules,
    ProviderRules,
    RequestSpec,
    Variant,
    chat_messages,
    content_text,
)
from harness.dialects._values import mapping
from harness.dialects._variant import Senders, by_name
from harness.dialects.cohere._wire import CohereEmitter, CohereObserver, observe_object, response_object
from harness.events import (
    Block,
    Message,
    ReasoningBlock,
    StreamError,
    TextBlock,
    ToolCallBlock,
)

__all__ = ["DIALECT", "VARIANTS", "CohereDialect"]

NAME = "cohere"
VARIANTS: dict[str, Variant] = by_name(
    (
        Variant(
            "thinking",
            "COH-V2",
            NAME,
            "Cohere v2 chat: content-start type thinking, content-delta delta.message.content.thinking, "
            "tool-call-start/delta/end, message-end",
            frozenset({Caps.REASONING, Caps.TOOLS, Caps.ERRORS}),
            senders=Senders(
                ("cohere",), (), 'thinking.type "enabled"', "https://docs.cohere.com/docs/reasoning"
            ),
        ),
    )
)


# Cohere documents no passback rule that it enforces, so its only provider rules are lenient.
RULES: dict[str, ProviderRules] = {LENIENT: LenientRules(NAME)}


# A request carries each assistant message's reasoning back as a ``thinking`` item of its ``content`` list
# beside the ``text`` item, and its calls in ``tool_calls``; tool results are ``role: tool`` messages.
# Source: cohere SDK 7.3.1 ``AssistantMessageV2ContentOneItem``, ``text`` | ``thinking``.
def _assistant(msg: Message) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    for b in msg.content:
        if isinstance(b, ReasoningBlock | TextBlock) and b.text:
            kind = "thinking" if isinstance(b, ReasoningBlock) else "text"
            content.append({"type": kind, kind: b.text})
        elif isinstance(b, ToolCallBlock):
            fn = {"name": b.name, "arguments": b.arguments}
            calls.append({"id": b.id, "type": "function", "function": fn})
    out: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        out["tool_calls"] = calls
    return out


def _parse_assistant(raw: Mapping[str, Any]) -> Message:
    blocks: list[Block] = []
    content = raw.get("content")
    if isinstance(content, str) and content:
        blocks.append(TextBlock(content))
    for part in content if isinstance(content, list) else []:
        if isinstance(part, Mapping) and part.get("type") == "thinking":
            blocks.append(ReasoningBlock(str(part.get("thinking", ""))))
        elif isinstance(part, Mapping) and part.get("type") == "text":
            blocks.append(TextBlock(str(part.get("text", ""))))
    for call in raw.get("tool_calls") or []:
        if isinstance(call, Mapping):
            fn = mapping(call.get("function"))
            name, args = str(fn.get("name", "")), str(fn.get("arguments", ""))
            blocks.append(ToolCallBlock(str(call.get("id", "")), name, args))
    return Message("assistant", tuple(blocks))


class CohereDialect(Dialect):
    name = NAME
    path_suffixes: tuple[str, ...] = ("/v2/chat",)
    variants = VARIANTS
    default_variant = "thinking"
    emitter_type, observer_type = CohereEmitter, CohereObserver
    emitter_takes_variant = False
    object_writer, object_reader = staticmethod(response_object), staticmethod(observe_object)
    rules = RULES

    def read_error(self, obj: Any) -> StreamError | None:
        message = obj.get("message") if isinstance(obj, Mapping) else None
        return StreamError(message) if isinstance(message, str) else None

    def error_object(self, status: int, message: str, code: str | None) -> Any:
        """Cohere's error body: ``{"message": ...}`` (``id`` when the API assigned one)."""
        return {"id": "mock-error", "message": message}

    def request_spec(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        history = chat_messages(messages, _assistant)
        body: dict[str, Any] = {"model": model, "messages": history, "stream": stream}
        body["thinking"] = options.pop("thinking", {"type": "enabled"})
        return RequestSpec("/v2/chat", body | options, {"content-type": "application/json"})

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        out: list[Message] = []
        for raw in body.get("messages") or []:
            if not isinstance(raw, Mapping):
                continue
            role, text = raw.get("role"), content_text(raw.get("content"), typed=True)
            if role == "assistant":
                out.append(_parse_assistant(raw))
            elif role == "tool":
                out.append(Message.tool(str(raw.get("tool_call_id", "")), text))
            elif role == "system":
                out.append(Message("system", (TextBlock(text),)))
            else:
                out.append(Message.user(text))
        return out


DIALECT = CohereDialect()
