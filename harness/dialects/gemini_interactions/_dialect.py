"""The Gemini Interactions dialect for ``POST /v1/interactions``: its variants, non-streaming bodies, the
request codec and ``DIALECT``. The docs' REST examples still say ``/v1beta``; both end in the routed
``/interactions``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import Caps, Dialect, RequestSpec, Variant, call_arguments, content_text
from harness.dialects._values import mapping, opt_str
from harness.dialects._variant import DOCS, Senders, by_name
from harness.dialects.gemini_interactions._rules import MODEL_STEPS, RULES
from harness.dialects.gemini_interactions._wire import (
    InteractionsEmitter,
    InteractionsObserver,
    error_object,
    interaction_object,
    observe_interaction,
)
from harness.events import (
    Block,
    Message,
    ReasoningBlock,
    StreamError,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)

__all__ = ["DIALECT", "VARIANTS", "InteractionsDialect"]

NAME = "gemini-interactions"
_CAPS = frozenset({Caps.SIGNATURE, Caps.TOOLS, Caps.USAGE, Caps.ERRORS})
VARIANTS: dict[str, Variant] = by_name(
    (
        Variant(
            "summaries",
            "GI-THOUGHT-SUMMARY",
            NAME,
            "thought steps streaming thought_summary deltas, then their thought_signature delta "
            "(generation_config.thinking_summaries: auto)",
            _CAPS | {Caps.REASONING, Caps.MULTI_REASONING, Caps.INTERLEAVED},
            premise=frozenset({Caps.REASONING}),
            model="gemini-3-flash-preview",
            senders=Senders(("gemini",), (), 'generation_config.thinking_summaries "auto"', DOCS[NAME]),
            forms=("gemini-interactions/thinking-summaries",),
        ),
        Variant(
            "signature-only",
            "GI-THOUGHT-SIG",
            NAME,
            "thought steps with only a thought_signature delta (the default: no thinking_summaries)",
            _CAPS,
            premise=frozenset({Caps.SIGNATURE}),
            model="gemini-3-flash-preview",
            senders=Senders(("gemini",), (), "", DOCS[NAME]),
        ),
    )
)
_CONTENT = frozenset({"text", "image", "audio", "document", "video"})


def _text_of(content: Any) -> str:
    """One content (a mapping) or a list of them, as text."""
    return content_text([content] if isinstance(content, Mapping) else content, typed=True)


def _model_steps(msg: Message) -> list[dict[str, Any]]:
    """An assistant message as the steps the model returned: every signature on its own thought step."""
    steps: list[dict[str, Any]] = []
    for b in msg.content:
        if isinstance(b, ReasoningBlock) and b.redacted is None and (b.text or b.signature):
            summary = [{"type": "text", "text": b.text}] if b.text else None
            step = {"type": "thought", "signature": b.signature or None, "summary": summary}
            steps.append({k: v for k, v in step.items() if v is not None})
        elif isinstance(b, TextBlock) and b.text:
            steps.append({"type": "model_output", "content": [{"type": "text", "text": b.text}]})
        elif isinstance(b, ToolCallBlock):
            args = call_arguments(b.arguments, keep_bad=True)
            steps.append({"type": "function_call", "id": b.id, "name": b.name, "arguments": args})
    return steps


def _block(step: Mapping[str, Any]) -> Block:
    kind = step.get("type")
    if kind == "thought":
        return ReasoningBlock(_text_of(step.get("summary")), signature=opt_str(step.get("signature")))
    if kind == "function_call":
        args = step.get("arguments")
        return ToolCallBlock(str(step.get("id", "")), str(step.get("name", "")), dumps_compact(args or {}))
    return TextBlock(_text_of(step.get("content")))


def _result(step: Mapping[str, Any]) -> Message:
    result = step.get("result")
    content = result if isinstance(result, str) else dumps_compact(result)
    return Message.tool(str(step.get("call_id", "")), content, str(step.get("name") or ""))


class InteractionsDialect(Dialect):
    name = NAME
    path_suffixes: tuple[str, ...] = ("/interactions",)
    variants = VARIANTS
    default_variant = "summaries"
    emitter_type, observer_type = InteractionsEmitter, InteractionsObserver
    emitter_takes_variant = False
    object_writer, object_reader = staticmethod(interaction_object), staticmethod(observe_interaction)
    rules = RULES

    def read_error(self, obj: Any) -> StreamError | None:
        err = mapping(obj).get("error")
        if not isinstance(err, Mapping):
            return None
        code = err.get("code")
        return StreamError(str(err.get("message", "")), str(code) if code is not None else None)

    error_object = staticmethod(error_object)

    # A stateless request, ``store: false``, replays the conversation as ``input`` steps, google-genai
    # 3.6.1 ``InteractionsInput``, a list of ``Step``: ``user_input``, then the model's own steps as it
    # returned them (``thought`` with its ``signature`` and any ``summary``, ``model_output``,
    # ``function_call``), then ``function_result`` for each tool answer. ``system_instruction`` is a
    # string.
    def request_spec(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        steps: list[dict[str, Any]] = []
        system: list[str] = []
        names: dict[str, str] = {}
        for m in messages:
            if m.role == "system":
                system.append(m.text)
            elif m.role == "assistant":
                names.update({b.id: b.name for b in m.content if isinstance(b, ToolCallBlock)})
                steps += _model_steps(m)
            elif m.role == "tool":
                for b in m.content:
                    if isinstance(b, ToolResultBlock):
                        name = b.name or names.get(b.call_id, "")
                        result = {"call_id": b.call_id, "name": name, "result": b.content}
                        steps.append({"type": "function_result", **result})
            else:
                steps.append({"type": "user_input", "content": [{"type": "text", "text": m.text}]})
        body: dict[str, Any] = {"model": model, "input": steps, "stream": stream, "store": False}
        if system:
            body["system_instruction"] = "\n".join(system)
        body["generation_config"] = {"thinking_summaries": options.pop("thinking_summaries", "auto")}
        # google-genai 3.6.1 posts to /v1/interactions (its api_version default): the SDK's path wins
        return RequestSpec("/v1/interactions", body | options, {"content-type": "application/json"})

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        out: list[Message] = []
        system = body.get("system_instruction")
        if isinstance(system, str) and system:
            out.append(Message("system", (TextBlock(system),)))
        given = body.get("input")
        if isinstance(given, str | Mapping):
            return [*out, Message.user(_text_of(given))]
        items = [s for s in given if isinstance(s, Mapping)] if isinstance(given, list) else []
        if items and all(s.get("type") in _CONTENT for s in items):  # a list of contents: one user turn
            return [*out, Message.user(_text_of(items))]
        for model, run in groupby(items, key=lambda step: step.get("type") in MODEL_STEPS):
            if model:  # the model's steps: one assistant turn
                out.append(Message("assistant", tuple(map(_block, run))))
                continue
            for step in run:
                if step.get("type") == "function_result":
                    out.append(_result(step))
                elif step.get("type") == "user_input":
                    out.append(Message.user(_text_of(step.get("content"))))
        return out


DIALECT = InteractionsDialect()
