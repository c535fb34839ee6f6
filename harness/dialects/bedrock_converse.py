"""The AWS Bedrock dialect: ConverseStream (``/converse-stream``) and InvokeModelWithResponseStream for
Anthropic models (``/invoke-with-response-stream``), over the binary eventstream; request codecs."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from harness._json import JSONDecodeError, dumps_compact, loads
from harness.dialects._base import (
    Caps,
    Emitter,
    Observer,
    ProviderProfile,
    RequestSpec,
    Transport,
    Variant,
    check_variant,
    turn_error,
)
from harness.dialects._bedrock_profiles import PROFILES
from harness.dialects._bedrock_wire import BedrockObserver, ConverseEmitter, InvokeEmitter, stop_reason
from harness.events import (
    Block,
    End,
    Event,
    Message,
    ReasoningBlock,
    StreamError,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    Turn,
    Usage,
    assemble,
    turn_events,
)

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
VARIANTS: dict[str, Variant] = {
    "converse": Variant(
        "converse",
        "BR-CONVERSE",
        "bedrock-converse",
        "ConverseStream contentBlockDelta.delta.reasoningContent {text | signature | redactedContent}",
        _CAPS,
    ),
    "invoke": Variant(
        "invoke",
        "BR-INVOKE",
        "bedrock-converse",
        'InvokeModelWithResponseStream chunk{"bytes": base64(Anthropic event JSON), "p": ...}',
        _CAPS,
    ),
}
"""No ``usage`` cap: Bedrock's TokenUsage carries no reasoning-token figure (botocore service-2.json)."""

_check = functools.partial(check_variant, "bedrock-converse", VARIANTS)

_THINKING = {"type": "enabled", "budget_tokens": 1024}


class BedrockDialect:
    name = "bedrock-converse"
    transport = Transport.EVENTSTREAM
    content_type = "application/vnd.amazon.eventstream"
    id_header = "x-amzn-RequestId"
    """Read by botocore (``parsers.py``: ``ResponseMetadata.RequestId``)."""
    path_suffixes = ("/converse-stream", "/invoke-with-response-stream", "/converse", "/invoke")
    variants: Mapping[str, Variant] = VARIANTS
    default_variant = "converse"

    @staticmethod
    def wants_stream(path: str, body: Mapping[str, Any]) -> bool:
        """Bedrock streams on ``/converse-stream`` and ``/invoke-with-response-stream``."""
        return path.endswith("-stream")

    def emitter(self, variant: str, *, model: str = "mock-model") -> Emitter:
        _check(variant)
        return ConverseEmitter(model=model) if variant == "converse" else InvokeEmitter(model=model)

    def emit_response(self, turn: Turn, variant: str, *, model: str = "mock-model") -> bytes:
        """``Converse`` JSON (``output.message.content``), or the Anthropic message for ``invoke``."""
        _check(variant)
        err = turn_error(turn)
        if err is not None:
            return self.error_body(err.status or 500, err.message, err.code)
        end = next((ev for ev in turn if isinstance(ev, End)), End())
        usage = next((ev for ev in reversed(turn) if isinstance(ev, Usage)), None)
        msg = assemble(turn)
        if variant == "invoke":
            body: dict[str, Any] = {
                "id": "msg_bdrk_mock1",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": _anthropic_content(msg.content),
                "stop_reason": stop_reason(end.reason),
                "stop_sequence": None,
                "usage": {
                    "input_tokens": (usage.input_tokens or 0) if usage else 0,
                    "output_tokens": (usage.output_tokens or 0) if usage else 0,
                },
            }
            return dumps_compact(body).encode()
        out: dict[str, Any] = {
            "output": {"message": {"role": "assistant", "content": _converse_content(msg.content)}},
            "stopReason": stop_reason(end.reason),
        }
        if usage is not None:
            out["usage"] = {  # Converse reports the cache counts too (recorded: bedrock-tool-thinking)
                "cacheReadInputTokenCount": 0, "cacheReadInputTokens": 0, "cacheWriteInputTokenCount": 0,
                "cacheWriteInputTokens": 0,
            }  # fmt: skip
            out["usage"] |= {
                k: v
                for k, v in (
                    ("inputTokens", usage.input_tokens),
                    ("outputTokens", usage.output_tokens),
                    ("totalTokens", usage.total_tokens),
                )
                if v is not None
            }
        out["metrics"] = {"latencyMs": 900}
        return dumps_compact(out).encode()

    def observer(self, variant: str | None = None, **options: Any) -> Observer:
        return BedrockObserver()

    def observe_response(self, body: bytes, **options: Any) -> list[Event]:
        try:
            obj = loads(body)
        except JSONDecodeError:
            from harness.events import Notice

            return [Notice("malformed-json", body[:200].decode(errors="replace"))]
        if not isinstance(obj, dict):
            return []
        if "output" in obj:
            content = (obj.get("output") or {}).get("message", {}).get("content") or []
            msg = Message("assistant", tuple(_from_converse(c) for c in content if isinstance(c, Mapping)))
            reason = str(obj.get("stopReason", "end_turn"))
        elif "content" in obj:
            msg = Message(
                "assistant", tuple(_from_anthropic(c) for c in obj["content"] if isinstance(c, Mapping))
            )
            reason = str(obj.get("stop_reason") or "end_turn")
        else:
            return [StreamError(str(obj.get("message", obj.get("Message", ""))), None, None)]
        events: list[Event] = list(turn_events(msg))
        u = obj.get("usage")
        if isinstance(u, dict) and "output" in obj:
            events.append(Usage(u.get("inputTokens"), u.get("outputTokens"), None, u.get("totalTokens")))
        elif isinstance(u, dict):
            events.append(Usage(u.get("input_tokens"), u.get("output_tokens")))
        from harness.dialects._bedrock_wire import _REASON

        events.append(End(_REASON.get(reason, reason)))
        return events

    def error_body(self, status: int, message: str, code: str | None = None) -> bytes:
        """Bedrock error JSON: ``{"message": ...}`` (the type travels in ``x-amzn-ErrorType``)."""
        return dumps_compact({"message": message}).encode()

    def build_request(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        _check(variant)
        system = [
            b.text for m in messages if m.role == "system" for b in m.content if isinstance(b, TextBlock)
        ]
        convo = [m for m in messages if m.role != "system"]
        thinking = options.get("thinking", _THINKING)
        if variant == "invoke":
            body: dict[str, Any] = {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 4096}
            if system:
                body["system"] = "\n".join(system)
            body["thinking"] = thinking
            body["messages"] = _grouped(convo, _anthropic_content, _anthropic_result)
            suffix = "/invoke-with-response-stream" if stream else "/invoke"
        else:
            body = {"messages": _grouped(convo, _converse_content, _converse_result)}
            if system:
                body["system"] = [{"text": t} for t in system]
            body["inferenceConfig"] = {"maxTokens": 4096}
            body["additionalModelRequestFields"] = {"thinking": thinking}
            suffix = "/converse-stream" if stream else "/converse"
        return RequestSpec(f"/model/{model}{suffix}", body, {"content-type": "application/json"})

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        out: list[Message] = []
        system = body.get("system")
        if isinstance(system, str):
            out.append(Message("system", (TextBlock(system),)))
        elif isinstance(system, list):
            out += [
                Message("system", (TextBlock(str(s.get("text", ""))),))
                for s in system
                if isinstance(s, Mapping)
            ]
        for m in body.get("messages") or []:
            if not isinstance(m, Mapping):
                continue
            content = m.get("content")
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
            blocks = [c for c in content or [] if isinstance(c, Mapping)]
            if m.get("role") == "assistant":
                out.append(Message("assistant", tuple(_any_block(c) for c in blocks)))
                continue
            texts = tuple(TextBlock(str(c["text"])) for c in blocks if isinstance(c.get("text"), str))
            if texts:
                out.append(Message("user", texts))
            for c in blocks:
                result = _any_result(c)
                if result is not None:
                    out.append(Message("tool", (result,)))
        return out

    def profiles(self) -> Mapping[str, ProviderProfile]:
        return PROFILES



def _grouped(messages: Sequence[Message], content: Any, result: Any) -> list[dict[str, Any]]:
    """Messages in the wire's shape; consecutive tool results join one user message."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "assistant":
            out.append({"role": "assistant", "content": content(m.content)})
        elif m.role == "tool":
            blocks = [result(b) for b in m.content if isinstance(b, ToolResultBlock)]
            if out and out[-1]["role"] == "user" and out[-1].get("_tools"):
                out[-1]["content"] += blocks
            else:
                out.append({"role": "user", "content": blocks, "_tools": True})
        else:
            out.append({"role": "user", "content": content(m.content)})
    for m2 in out:
        m2.pop("_tools", None)
    return out


def _args(text: str) -> Any:
    try:
        return loads(text) if text.strip() else {}
    except JSONDecodeError:
        return {"arguments": text}


def _converse_content(blocks: Sequence[Block]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for b in blocks:
        if isinstance(b, ReasoningBlock):
            if b.redacted is not None:
                out.append({"reasoningContent": {"redactedContent": b.redacted}})
            else:
                rt: dict[str, Any] = {"text": b.text}
                if b.signature is not None:
                    rt["signature"] = b.signature
                out.append({"reasoningContent": {"reasoningText": rt}})
        elif isinstance(b, TextBlock):
            out.append({"text": b.text})
        elif isinstance(b, ToolCallBlock):
            out.append({"toolUse": {"toolUseId": b.id, "name": b.name, "input": _args(b.arguments)}})
    return out


def _converse_result(b: ToolResultBlock) -> dict[str, Any]:
    return {"toolResult": {"toolUseId": b.call_id, "content": [{"text": b.content}]}}


def _anthropic_content(blocks: Sequence[Block]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for b in blocks:
        if isinstance(b, ReasoningBlock):
            if b.redacted is not None:
                out.append({"type": "redacted_thinking", "data": b.redacted})
            else:
                out.append({"type": "thinking", "thinking": b.text, "signature": b.signature or ""})
        elif isinstance(b, TextBlock):
            out.append({"type": "text", "text": b.text})
        elif isinstance(b, ToolCallBlock):
            out.append({"type": "tool_use", "id": b.id, "name": b.name, "input": _args(b.arguments)})
    return out


def _anthropic_result(b: ToolResultBlock) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": b.call_id, "content": b.content}


def _from_converse(c: Mapping[str, Any]) -> Block:
    rc = c.get("reasoningContent")
    if isinstance(rc, Mapping):
        if "redactedContent" in rc:
            return ReasoningBlock("", redacted=str(rc["redactedContent"]))
        rt = rc.get("reasoningText") or {}
        sig = rt.get("signature")
        return ReasoningBlock(str(rt.get("text", "")), signature=sig if isinstance(sig, str) else None)
    tu = c.get("toolUse")
    if isinstance(tu, Mapping):
        return ToolCallBlock(
            str(tu.get("toolUseId", "")), str(tu.get("name", "")), dumps_compact(tu.get("input", {}))
        )
    return TextBlock(str(c.get("text", "")))


def _from_anthropic(c: Mapping[str, Any]) -> Block:
    kind = c.get("type")
    if kind == "redacted_thinking":
        return ReasoningBlock("", redacted=str(c.get("data", "")))
    if kind == "thinking":
        sig = c.get("signature")
        return ReasoningBlock(
            str(c.get("thinking", "")), signature=sig if isinstance(sig, str) and sig else None
        )
    if kind == "tool_use":
        return ToolCallBlock(str(c.get("id", "")), str(c.get("name", "")), dumps_compact(c.get("input", {})))
    return TextBlock(str(c.get("text", "")))


def _any_block(c: Mapping[str, Any]) -> Block:
    return _from_anthropic(c) if "type" in c else _from_converse(c)


def _any_result(c: Mapping[str, Any]) -> ToolResultBlock | None:
    tr = c.get("toolResult")
    if isinstance(tr, Mapping):
        parts = tr.get("content") or []
        text = "".join(str(p.get("text", "")) for p in parts if isinstance(p, Mapping) and "text" in p)
        return ToolResultBlock(str(tr.get("toolUseId", "")), text)
    if c.get("type") == "tool_result":
        content = c.get("content")
        if isinstance(content, list):
            content = "".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
        return ToolResultBlock(str(c.get("tool_use_id", "")), str(content or ""))
    return None


DIALECT = BedrockDialect()
