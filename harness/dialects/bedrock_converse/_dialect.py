"""The AWS Bedrock dialect object: ConverseStream on ``/converse-stream`` and, for Anthropic models,
InvokeModelWithResponseStream on ``/invoke-with-response-stream``, over the binary eventstream. The message
codec is ``_request``, which the strict rules read requests with too, and the wire is ``_wire``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness._json import JSONDecodeError, loads
from harness.dialects._base import READ_ALL, Caps, Dialect, Emitter, Reading, Transport, Variant
from harness.dialects._variant import DOCS, Senders, by_name
from harness.dialects.anthropic_messages._wire import (
    end_reason,
    message_object,
    observe_message_object,
    stop_reason,
)
from harness.dialects.bedrock_converse._request import (
    anthropic_content,
    build_request,
    converse_content,
    from_converse,
    parse_request,
)
from harness.dialects.bedrock_converse._rules import RULES
from harness.dialects.bedrock_converse._wire import (
    BedrockObserver,
    ConverseEmitter,
    InvokeEmitter,
    converse_usage,
    usage_event,
)
from harness.events import End, Event, Message, Notice, StreamError, Turn, Usage, assemble, turn_events

__all__ = ["DIALECT", "BedrockDialect"]

_CAPS = frozenset(
    {
        Caps.REASONING,
        Caps.SIGNATURE,
        Caps.REDACTED,
        Caps.MULTI_REASONING,
        Caps.INTERLEAVED,
        Caps.TOOLS,
        Caps.ERRORS,
    }
)
VARIANTS: dict[str, Variant] = by_name(
    (
        Variant(
            "converse",
            "BR-CONVERSE",
            "bedrock-converse",
            "ConverseStream contentBlockDelta.delta.reasoningContent {text | signature | redactedContent}",
            _CAPS,
            paths=("/converse-stream", "/converse"),
            senders=Senders(("bedrock",), (), "additionalModelRequestFields.thinking", DOCS["bedrock"]),
            forms=("bedrock/thinking",),
        ),
        Variant(
            "invoke",
            "BR-INVOKE",
            "bedrock-converse",
            'InvokeModelWithResponseStream chunk{"bytes": base64(Anthropic event JSON), "p": ...}',
            _CAPS,
            paths=("/invoke-with-response-stream", "/invoke"),
            senders=Senders(
                ("bedrock",),
                (),
                "",
                "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html",
            ),
            forms=("bedrock/thinking",),
        ),
        Variant(
            "adaptive",
            "BR-ADAPTIVE",
            "bedrock-converse",
            "ConverseStream under an adaptive-only Claude (Opus 4.7+): additionalModelRequestFields."
            'thinking {type:"adaptive",display:"summarized"}; without display: a signature, no text',
            _CAPS,
            model="anthropic.claude-opus-4-7",
            paths=("/converse-stream", "/converse"),
            senders=Senders(
                ("bedrock",),
                (),
                "additionalModelRequestFields.thinking.type adaptive",
                "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html",
            ),
            forms=("bedrock/thinking", "bedrock/display-summarized"),
        ),
    )
)
"""No ``usage`` cap: Bedrock's TokenUsage carries no reasoning-token figure (botocore service-2.json)."""


EXCEPTIONS: dict[int, str] = {
    400: "ValidationException",
    403: "AccessDeniedException",
    404: "ResourceNotFoundException",
    408: "ModelTimeoutException",
    424: "ModelErrorException",
    429: "ThrottlingException",
    500: "InternalServerException",
    503: "ServiceUnavailableException",
}
"""Status -> exception of the Converse operation (botocore ``data/bedrock-runtime/*/service-2.json``:
each error shape's ``httpStatusCode``; 429 is also ``ModelNotReadyException``). A test compares."""


class BedrockDialect(Dialect):
    name = "bedrock-converse"
    transport = Transport.EVENTSTREAM
    content_type = "application/vnd.amazon.eventstream"
    id_header = "x-amzn-RequestId"
    """Read by botocore (``parsers.py``: ``ResponseMetadata.RequestId``)."""
    path_suffixes = ("/converse-stream", "/invoke-with-response-stream", "/converse", "/invoke")
    stream_paths = ("-stream",)  # /converse-stream, /invoke-with-response-stream
    stream_in_body = False
    variants = VARIANTS
    default_variant = "converse"
    observer_type = BedrockObserver
    rules = RULES

    def emitter(self, variant: str, *, model: str = "mock-model") -> Emitter:
        self.require_variant(variant)
        return InvokeEmitter(model=model) if variant == "invoke" else ConverseEmitter(model=model)

    def response_object(self, turn: Turn, variant: str, *, model: str) -> Any:
        """``Converse`` JSON (``output.message.content``), or the Anthropic message for ``invoke``."""
        if variant == "invoke":
            return message_object(
                turn, model=model, message_id="msg_bdrk_mock1", content_of=anthropic_content
            )
        end = next((ev for ev in turn if isinstance(ev, End)), End())
        usage = next((ev for ev in reversed(turn) if isinstance(ev, Usage)), None)
        out: dict[str, Any] = {
            "output": {"message": {"role": "assistant", "content": converse_content(assemble(turn).content)}},
            "stopReason": stop_reason(end.reason),
        }
        if usage is not None:
            out["usage"] = {  # Converse reports the cache counts too (recorded: bedrock-tool-thinking)
                "cacheReadInputTokenCount": 0, "cacheReadInputTokens": 0, "cacheWriteInputTokenCount": 0,
                "cacheWriteInputTokens": 0,
            }  # fmt: skip
            out["usage"] |= converse_usage(usage)
        out["metrics"] = {"latencyMs": 900}
        return out

    def observe_response(
        self, body: bytes, *, variant: str | None = None, reading: Reading = READ_ALL
    ) -> list[Event]:
        """One carrier: ``variant`` and ``reading`` leave nothing to choose."""
        try:
            obj = loads(body)
        except JSONDecodeError:
            return [Notice("malformed-json", body[:200].decode(errors="replace"))]
        if not isinstance(obj, dict):
            return []
        if "content" in obj:  # InvokeModel: the Anthropic message
            return observe_message_object(obj)
        if "output" not in obj:
            return [StreamError(str(obj.get("message", obj.get("Message", ""))), None, None)]
        content = (obj.get("output") or {}).get("message", {}).get("content") or []
        msg = Message("assistant", tuple(from_converse(c) for c in content if isinstance(c, Mapping)))
        reason = str(obj.get("stopReason", "end_turn"))
        return [*turn_events(msg), *usage_event(obj.get("usage")), End(end_reason(reason))]

    def error_object(self, status: int, message: str, code: str | None) -> Any:
        """Bedrock error JSON: ``{"message": ...}`` (the type travels in ``x-amzn-ErrorType``)."""
        return {"message": message}

    def error_headers(self, status: int, code: str | None = None) -> tuple[tuple[str, str], ...]:
        """``x-amzn-ErrorType``: the exception botocore's service model (``bedrock-runtime``, the Converse
        operation's errors) gives ``status``, or the scenario's code when it is one of them."""
        name = code if code in EXCEPTIONS.values() or code == "ModelNotReadyException" else None
        name = name or EXCEPTIONS.get(
            status, "InternalServerException" if status >= 500 else "ValidationException"
        )
        return (("x-amzn-ErrorType", name),)

    request_spec = staticmethod(build_request)
    parse_request = staticmethod(parse_request)


DIALECT = BedrockDialect()
