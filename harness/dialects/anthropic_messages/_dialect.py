"""The Anthropic Messages dialect object for ``/v1/messages``: its variants, its request codec and
``DIALECT``. It is apart from the wire and the rules because it only says what the dialect is and how a
request reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import Caps, Dialect, RequestSpec, Senders, Variant, content_text
from harness.dialects._provider_errors import anthropic_error
from harness.dialects._values import opt_str
from harness.dialects._variant import DOCS, by_name
from harness.dialects.anthropic_messages._rules import RULES
from harness.dialects.anthropic_messages._wire import (
    PING,
    AnthropicEmitter,
    AnthropicObserver,
    content_json,
    message_object,
    observe_message_object,
)
from harness.events import Block, Message, ReasoningBlock, TextBlock, ToolCallBlock, ToolResultBlock

__all__ = [
    "DIALECT",
    "VARIANTS",
    "AnthropicMessagesDialect",
    "grouped",
    "signed_only",
    "thinking_config",
    "tool_result",
]

NAME = "anthropic-messages"
INTERLEAVED_BETA = "interleaved-thinking-2025-05-14"
_C = Caps
_BASE = frozenset({_C.SIGNATURE, _C.TOOLS, _C.USAGE, _C.ERRORS})


def _v(
    name: str,
    catalog_id: str,
    description: str,
    caps: frozenset[Caps],
    premise: frozenset[Caps] = frozenset(),
    **row: Any,
) -> Variant:
    return Variant(name, catalog_id, NAME, description, caps, premise, **row)


VARIANTS: dict[str, Variant] = by_name(
    (
        _v(
            "thinking",
            "ANT-THINK",
            "thinking block (thinking_delta, signature_delta before content_block_stop), ping, tool_use",
            _BASE | {_C.REASONING, _C.MULTI_REASONING},
            senders=Senders(
                ("anthropic", "deepseek"), ("litellm",), "thinking.type enabled", DOCS["anthropic"]
            ),
            forms=("anthropic/thinking", "anthropic/display-summarized"),
        ),
        _v(
            "redacted",
            "ANT-REDACTED",
            "redacted_thinking block complete at content_block_start, no deltas (beside thinking blocks)",
            _BASE | {_C.REASONING, _C.REDACTED, _C.MULTI_REASONING},
            frozenset({_C.REDACTED}),
            senders=Senders(
                ("anthropic",), (), "thinking enabled (safety-redacted blocks)", DOCS["anthropic"]
            ),
            forms=("anthropic/thinking",),
        ),
        _v(
            "omitted",
            "ANT-OMITTED",
            'display:"omitted": thinking block with empty text, signature only',
            _BASE,
            model="claude-opus-4-7",
            senders=Senders(("anthropic",), (), 'thinking.display "omitted"', DOCS["anthropic"]),
            forms=("anthropic/thinking", "anthropic/display-omitted"),
        ),
        _v(
            "unasked",
            "ANT-UNASKED",
            "a Claude model that thinks by default (claude-mythos-preview): the request names no thinking, "
            "the answer still opens with thinking blocks, display omitted (empty text, signature only)",
            _BASE,
            model="claude-mythos-preview",
            senders=Senders(  # no trigger: thinking is the model's default when the request names none
                ("anthropic",),
                (),
                "",
                "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking",
            ),
            forms=("anthropic/thinking", "anthropic/display-omitted"),
        ),
        _v(
            "adaptive",
            "ANT-ADAPTIVE",
            'thinking:{type:"adaptive",display:"summarized"} + output_config.effort (Opus 4.7+); '
            "interleaved thinking without a beta header",
            _BASE | {_C.REASONING, _C.MULTI_REASONING, _C.INTERLEAVED},
            model="claude-opus-4-7",
            senders=Senders(("anthropic",), (), 'thinking.type "adaptive"', DOCS["anthropic"]),
            forms=("anthropic/thinking", "anthropic/display-summarized"),
        ),
        _v(
            "interleaved",
            "ANT-INTERLEAVED",
            "thinking blocks after tool_use / between text blocks in one message (beta header)",
            _BASE | {_C.REASONING, _C.MULTI_REASONING, _C.INTERLEAVED},
            senders=Senders(("anthropic",), (), "interleaved-thinking beta header", DOCS["anthropic"]),
            forms=("anthropic/thinking", "anthropic/display-summarized"),
        ),
        _v(
            "vertex",
            "ANT-VERTEX",
            "Claude on Vertex AI: :streamRawPredict / :rawPredict paths, anthropic_version in the body, no "
            "model field; the stream is Anthropic's",
            _BASE | {_C.REASONING, _C.MULTI_REASONING},
            paths=(":streamRawPredict", ":rawPredict"),
            provider="vertex",
            senders=Senders(
                ("vertex",),
                (),
                "",
                "https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude",
            ),
            forms=("anthropic/thinking", "anthropic/display-summarized"),
        ),
    )
)
VERTEX_PATH = "/v1/projects/thinkwire-mock/locations/us-east5/publishers/anthropic/models"
VERTEX_VERSION = "vertex-2023-10-16"
"""Google's and Anthropic's docs (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/
claude/use-claude); the anthropic SDK 2.16.0's Vertex client sends its ANTHROPIC_API_VERSION instead
(``2026-10-21``, ``lib/vertex/_client.py``): the vertex rules accept both."""


def signed_only(messages: Sequence[Message]) -> list[Message]:
    """The conversation without the thinking blocks that never got a signature (a turn cancelled
    mid-thinking): Anthropic rejects them (``thinking.signature: Field required``); a client drops them.
    An assistant message left empty goes too."""
    out: list[Message] = []
    for m in messages:
        if m.role == "assistant":
            kept = tuple(
                b
                for b in m.content
                if not (isinstance(b, ReasoningBlock) and b.signature is None and b.redacted is None)
            )
            if not kept:
                continue
            m = Message("assistant", kept)
        out.append(m)
    return out


def thinking_config(variant: str) -> dict[str, Any] | None:
    """The ``thinking`` request field a correct client sends for the variant: ``adaptive`` on the models
    that refuse ``enabled`` (asking for ``display: "summarized"``, since their default is ``omitted``:
    https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-7), ``display:
    "omitted"`` for the omitted variant, none for the unasked one (its model thinks by default), else a
    fixed budget."""
    if variant == "unasked":
        return None
    if variant == "adaptive":
        return {"type": "adaptive", "display": "summarized"}
    if variant == "omitted":
        return {"type": "adaptive", "display": "omitted"}
    return {"type": "enabled", "budget_tokens": 2048}


class AnthropicMessagesDialect(Dialect):
    name = NAME
    content_type = "text/event-stream; charset=utf-8"
    id_header = "request-id"
    """Read by the official SDK (``anthropic/_response.py``: ``_request_id``)."""
    path_suffixes = ("/messages", ":streamRawPredict", ":rawPredict")
    stream_paths = (":streamRawPredict",)  # Vertex says it in the path; Anthropic's own API in the body
    whole_paths = (":rawPredict",)
    variants = VARIANTS
    default_variant = "thinking"
    emitter_type, observer_type = AnthropicEmitter, AnthropicObserver
    object_writer, object_reader = staticmethod(message_object), staticmethod(observe_message_object)
    rules = RULES

    def keepalive(self) -> bytes:
        """Anthropic's own keepalive, the ``ping`` event ("any number of ping events", its streaming
        docs), which the SDKs read and skip."""
        return f"event: ping\ndata: {PING}\n\n".encode()

    def error_object(self, status: int, message: str, code: str | None) -> Any:
        return anthropic_error(status, message, code, "req_mock_error")

    # -- request codec
    # The request codec keeps content blocks in their original order; tool results are user blocks.
    def request_spec(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        system = "".join(m.text for m in messages if m.role == "system")
        body: dict[str, Any] = {"model": model, "max_tokens": int(options.get("max_tokens", 4096))}
        thinking = options.get("thinking", thinking_config(variant))
        if thinking is not None:
            body["thinking"] = thinking
        if variant == "adaptive":
            body["output_config"] = {"effort": str(options.get("effort", "high"))}
        if system:
            body["system"] = system
        body["messages"] = grouped([m for m in messages if m.role != "system"], _content)
        if "tools" in options:
            body["tools"] = options["tools"]
        body["stream"] = stream
        headers = {"content-type": "application/json", "anthropic-version": "2023-06-01"}
        if variant == "interleaved":
            headers["anthropic-beta"] = INTERLEAVED_BETA
        if variant == "vertex":  # the model moves into the path, the version into the body
            body = {"anthropic_version": VERTEX_VERSION} | {k: v for k, v in body.items() if k != "model"}
            path = f"{VERTEX_PATH}/{model}:{'streamRawPredict' if stream else 'rawPredict'}"
            return RequestSpec(path, body, {"content-type": "application/json"})
        return RequestSpec("/v1/messages", body, headers)

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        out: list[Message] = []
        system = content_text(body.get("system"))
        if system:
            out.append(Message("system", (TextBlock(system),)))
        for msg in body.get("messages") or []:
            if not isinstance(msg, Mapping):
                continue
            content = msg.get("content")
            if isinstance(content, str):  # shorthand for one text block
                content = [{"type": "text", "text": content}]
            blocks = [b for b in content or [] if isinstance(b, Mapping)]
            if msg.get("role") == "assistant":
                read = (_block(b) for b in blocks)
                out.append(Message("assistant", tuple(b for b in read if b is not None)))
                continue
            texts = tuple(TextBlock(str(b.get("text", ""))) for b in blocks if b.get("type") == "text")
            if texts:
                out.append(Message("user", texts))
            for b in blocks:
                if b.get("type") == "tool_result":
                    c = b.get("content")
                    text = content_text(c) if isinstance(c, str | list) else dumps_compact(c)
                    out.append(Message.tool(str(b.get("tool_use_id", "")), text))
        return out


def _block_json(b: Block) -> dict[str, Any]:
    """A block as a request passes it back: as a response writes it, but a thinking block that never got a
    signature has no ``signature`` field."""
    if isinstance(b, ToolResultBlock):
        return tool_result(b)
    out = content_json([b])[0]
    if isinstance(b, ReasoningBlock) and b.signature is None and b.redacted is None:
        del out["signature"]
    return out


def _content(m: Message) -> Any:
    return [_block_json(b) for b in m.content] if m.role == "assistant" else m.text


def tool_result(b: ToolResultBlock) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": b.call_id, "content": b.content}


def grouped(
    messages: Sequence[Message],
    content: Callable[[Message], Any],
    result: Callable[[ToolResultBlock], dict[str, Any]] = tool_result,
) -> list[dict[str, Any]]:
    """Messages (no system one) in the wire's shape, a user or assistant message's content as ``content``
    writes it; a tool message's results are user content, and consecutive ones join one user message.

    Anthropic and Bedrock require that join.
    """
    out: list[dict[str, Any]] = []
    for n, m in enumerate(messages):
        if m.role != "tool":
            out.append({"role": "assistant" if m.role == "assistant" else "user", "content": content(m)})
            continue
        blocks = [result(b) for b in m.content if isinstance(b, ToolResultBlock)]
        if n and messages[n - 1].role == "tool":  # the previous tool message opened this user message
            out[-1]["content"] += blocks
        else:
            out.append({"role": "user", "content": blocks})
    return out


def _block(b: Mapping[str, Any]) -> Block | None:
    kind = b.get("type")
    if kind == "thinking":
        return ReasoningBlock(str(b.get("thinking", "")), signature=opt_str(b.get("signature")))
    if kind == "redacted_thinking":
        return ReasoningBlock("", redacted=str(b.get("data", "")))
    if kind == "text":
        return TextBlock(str(b.get("text", "")))
    if kind == "tool_use":
        return ToolCallBlock(str(b.get("id", "")), str(b.get("name", "")), dumps_compact(b.get("input", {})))
    return None


DIALECT = AnthropicMessagesDialect()
