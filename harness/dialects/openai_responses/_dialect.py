"""The OpenAI Responses dialect object for ``/v1/responses``: its variants, its request codec and ``DIALECT``.
The codec passes reasoning items back before their function_call, as the ``openai`` rules require."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import Caps, Dialect, RequestSpec, Senders, Variant, content_text, turn_error
from harness.dialects._provider_errors import openai_error
from harness.dialects._values import string
from harness.dialects._variant import DOCS, by_name
from harness.dialects.openai_responses._observer import ResponsesObserver, observe_response_object
from harness.dialects.openai_responses._rules import RULES
from harness.dialects.openai_responses._wire import (
    CONTENT_VARIANTS,
    SUMMARY_VARIANTS,
    ResponsesEmitter,
    phase_of,
)
from harness.events import Block, Message, ReasoningBlock, TextBlock, ToolCallBlock, ToolResultBlock, Turn

__all__ = ["DIALECT", "VARIANTS", "OpenAIResponsesDialect"]

NAME = "openai-responses"
_C = Caps
_BASE = frozenset({_C.REASONING, _C.SIGNATURE, _C.INTERLEAVED, _C.TOOLS, _C.USAGE, _C.ERRORS})


def _v(name: str, catalog_id: str, description: str, caps: frozenset[Caps], **row: Any) -> Variant:
    return Variant(name, catalog_id, NAME, description, caps, **row)


VARIANTS: dict[str, Variant] = by_name(
    (
        _v(
            "summary",
            "RESP-SUM",
            "o3 capture: reasoning_summary_part/_text events, encrypted_content on output_item.done",
            _BASE | {_C.MULTI_REASONING},
            senders=Senders(("openai", "xai"), ("litellm",), "reasoning.summary", DOCS["openai"]),
            forms=("openai-responses/reasoning-summary", "openai-responses/encrypted-content"),
        ),
        _v(
            "empty",
            "RESP-EMPTY",
            "reasoning item with no deltas (summary off), carrying only encrypted_content",
            frozenset({_C.SIGNATURE, _C.TOOLS, _C.USAGE, _C.ERRORS}),
            senders=Senders(
                ("openai",), (), "no reasoning.summary; include encrypted_content", DOCS["openai"]
            ),
            forms=("openai-responses/encrypted-content",),
        ),
        _v(
            "reasoning_text",
            "RESP-TEXT",
            "raw reasoning: content_part.added reasoning_text, response.reasoning_text.delta/.done",
            _BASE | {_C.MULTI_REASONING},
            senders=Senders(("openai", "vllm"), (), "", DOCS["openai"]),
        ),
        _v(
            "alias-string",
            "RESP-ALIAS",
            "Open Responses response.reasoning.delta (string delta)",
            _BASE,
            senders=Senders((), ("open-responses servers",), "", "https://www.openresponses.org"),
        ),
        _v(
            "alias-object",
            "RESP-ALIAS",
            'older spec response.reasoning.delta with {"text": ...} delta',
            _BASE,
            senders=Senders((), ("older Responses servers",), "", ""),
        ),
        _v(
            "alias-summary",
            "RESP-ALIAS",
            "older spec response.reasoning_summary.delta/.done",
            _BASE | {_C.MULTI_REASONING},
            senders=Senders((), ("older Responses servers",), "", ""),
        ),
        _v(
            "vllm-parts",
            "RESP-ALIAS",
            "vLLM response.reasoning_part.added/.done + reasoning_text deltas",
            _BASE,
            provider="vllm",
            senders=Senders(("vllm",), (), "", DOCS["vllm"]),
        ),
        _v(
            "phase",
            "RESP-PHASE",
            "gpt-5.3-codex and later: as summary, assistant message items labelled phase "
            "commentary/final_answer (resend it: dropping it degrades)",
            _BASE | {_C.MULTI_REASONING},
            senders=Senders(("openai",), (), "gpt-5.3-codex and later", DOCS["openai"]),
            forms=("openai-responses/reasoning-summary", "openai-responses/encrypted-content"),
        ),
        _v(
            "failed",
            "RESP-ERR",
            "as summary, but errors end the stream as response.failed",
            _BASE | {_C.MULTI_REASONING},
            senders=Senders(("openai",), (), "", DOCS["openai"]),
            forms=("openai-responses/reasoning-summary", "openai-responses/encrypted-content"),
        ),
    )
)


class OpenAIResponsesDialect(Dialect):
    name = NAME
    content_type = "text/event-stream; charset=utf-8"
    id_header = "x-request-id"
    """Read by the official SDK (``openai/_response.py``: ``_request_id``)."""
    path_suffixes = ("/responses",)
    variants = VARIANTS
    default_variant = "summary"
    emitter_type, observer_type = ResponsesEmitter, ResponsesObserver
    object_reader = staticmethod(observe_response_object)
    rules = RULES

    def emit_response(self, turn: Turn, variant: str, *, model: str = "mock-model") -> bytes:
        return self.emit_response_for(turn, variant, model=model, request={})

    def emit_response_for(
        self, turn: Turn, variant: str, *, model: str = "mock-model", request: Mapping[str, Any]
    ) -> bytes:
        """The whole body answering ``request`` (its settings echoed: ``store``, ``reasoning``...)."""
        self.require_variant(variant)
        err = turn_error(turn)
        if err is not None:
            return self.error_body(err.status or 500, err.message, err.code)
        em = ResponsesEmitter(variant, model=model)
        em.bind_request(request)
        em.feed(turn)
        em.close()
        assert em.snapshot is not None
        return self.dump(em.snapshot)

    def error_object(self, status: int, message: str, code: str | None) -> Any:
        return openai_error(status, message, code)

    # -- request codec
    def request_spec(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        items: list[dict[str, Any]] = []
        for msg in messages:
            if msg.role in ("system", "user"):
                items.append({"type": "message", "role": msg.role, "content": msg.text})
            elif msg.role == "tool":
                for b in msg.content:
                    if isinstance(b, ToolResultBlock):
                        items.append(
                            {"type": "function_call_output", "call_id": b.call_id, "output": b.content}
                        )
            else:
                items += _assistant_items(msg.content, variant, len(items))
        body: dict[str, Any] = {"model": model, "input": items, "stream": stream}
        if "reasoning" in options:
            body["reasoning"] = options["reasoning"]
        elif variant in SUMMARY_VARIANTS and variant != "empty":
            body["reasoning"] = {"summary": "auto"}
        body["include"] = ["reasoning.encrypted_content"]
        body["store"] = bool(options.get("store", False))
        if "tools" in options:
            body["tools"] = options["tools"]
        return RequestSpec("/v1/responses", body, {"content-type": "application/json"})

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        raw = body.get("input")
        if isinstance(raw, str):
            return [Message.user(raw)]
        out: list[Message] = []
        instructions = body.get("instructions")
        if isinstance(instructions, str):
            out.append(Message("system", (TextBlock(instructions),)))
        pending: list[Block] = []

        def flush() -> None:
            if pending:
                out.append(Message("assistant", tuple(pending)))
                pending.clear()

        for item in raw if isinstance(raw, list) else []:
            if not isinstance(item, Mapping):
                continue
            kind = item.get("type", "message")
            role = item.get("role")
            if kind == "reasoning":
                pending += _reasoning_blocks(item)
            elif kind == "function_call":
                pending.append(
                    ToolCallBlock(*(str(item.get(k, "")) for k in ("call_id", "name", "arguments")))
                )
            elif kind == "message" and role == "assistant":
                pending.append(TextBlock(content_text(item.get("content")), id=str(item.get("id", ""))))
            elif kind == "function_call_output":
                flush()
                output = item.get("output")
                text = output if isinstance(output, str) else dumps_compact(output)
                out.append(Message.tool(str(item.get("call_id", "")), text))
            elif kind == "message" and role in ("user", "system", "developer"):
                flush()
                block = TextBlock(content_text(item.get("content")))
                out.append(Message("system" if role != "user" else "user", (block,)))
        flush()
        return out


def _assistant_items(blocks: Sequence[Block], variant: str, start: int) -> list[dict[str, Any]]:
    """Assistant blocks as input items: consecutive reasoning blocks of one item (``rs_x:s0``,
    ``rs_x:s1``) merge back into that item; a signature is its ``encrypted_content``."""
    items: list[dict[str, Any]] = []
    open_id: str | None = None
    for n, b in enumerate(blocks):
        if isinstance(b, ReasoningBlock):
            base = b.id.partition(":")[0]
            if not base or base != open_id:  # (while open_id is set, the last item is its reasoning)
                rid = base if base.startswith("rs_") else f"rs_input_{start + len(items)}"
                items.append({"type": "reasoning", "id": rid, "summary": []})
                if variant in CONTENT_VARIANTS:
                    items[-1]["content"] = []
                open_id = base or None
            item = items[-1]
            text = b.redacted if b.redacted is not None else b.text
            if b.text:
                key = "content" if variant in CONTENT_VARIANTS else "summary"
                part = "reasoning_text" if key == "content" else "summary_text"
                item[key].append({"type": part, "text": text})
            blob = b.signature if b.signature is not None else b.redacted
            if blob is not None:
                item["encrypted_content"] = blob
                open_id = None
            continue
        open_id = None
        if isinstance(b, TextBlock):
            content = [{"type": "output_text", "text": b.text}]
            item = {"type": "message", "role": "assistant", "content": content}
            if variant == "phase":
                item["phase"] = phase_of(blocks[n + 1 :])
            items.append(item)
        elif isinstance(b, ToolCallBlock):
            items.append({"type": "function_call", "call_id": b.id, "name": b.name, "arguments": b.arguments})
    return items


def _reasoning_blocks(item: Mapping[str, Any]) -> list[ReasoningBlock]:
    """A reasoning item's summary parts (``rs_x:s0``...), then its content parts (``rs_x:c0``...), as
    blocks; its ``encrypted_content`` is the last one's signature."""
    rid = str(item.get("id", ""))
    blocks = [
        ReasoningBlock(string(p.get("text")), id=f"{rid}:{field[0]}{i}")
        for field in ("summary", "content")
        for i, p in enumerate(item.get(field) or [])
        if isinstance(p, Mapping)
    ]
    enc = item.get("encrypted_content")
    if isinstance(enc, str):
        last = blocks.pop() if blocks else ReasoningBlock(id=rid)
        blocks.append(ReasoningBlock(last.text, signature=enc, id=last.id))
    return blocks


DIALECT = OpenAIResponsesDialect()
