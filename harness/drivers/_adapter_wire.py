"""The language-neutral adapter protocol, version 1, as data: the lines thinkwire writes and the lines it
accepts, sans-IO. Every line an adapter writes is parsed here and nowhere else; the protocol is described
in docs/adapter-protocol.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness._json import JSONDecodeError, dumps_compact, loads
from harness.drivers._contract import contract_violation
from harness.drivers._layer import Frame, js_frames
from harness.drivers._raised import read_fields
from harness.events import (
    End,
    Event,
    Message,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    ToolResultBlock,
    Usage,
)

__all__ = [
    "EVENT_TYPES",
    "PROTOCOL",
    "Done",
    "Failed",
    "Hello",
    "Line",
    "Observed",
    "ProtocolViolation",
    "ToolRun",
    "cancel_line",
    "end_line",
    "messages_json",
    "parse_line",
    "tool_result_line",
    "turn_line",
]

PROTOCOL = 1
"""The protocol version this thinkwire speaks (an adapter's ``hello`` names the one it speaks)."""

EVENT_TYPES: dict[str, type] = {
    "reasoning": ReasoningDelta,
    "signature": ReasoningSignature,
    "redacted": RedactedReasoning,
    "text": TextDelta,
    "tool_call": ToolCallDelta,
    "usage": Usage,
    "error": StreamError,
    "end": End,
}
"""Event ``type`` on the wire -> canonical event class (its fields are the class's own)."""


class ProtocolViolation(Exception):
    """An adapter line thinkwire cannot accept (the message names the line and why)."""


@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    name: str


@dataclass(frozen=True, slots=True)
class Observed:
    id: str
    event: Event


@dataclass(frozen=True, slots=True)
class Failed:
    """The SUT raised: what its users would see (type, message, HTTP status, provider code, traceback)."""

    id: str
    type: str
    message: str
    status: int | None
    traceback: str
    code: str | None = None
    frames: tuple[Frame, ...] = ()  # the error's stack frames, innermost first (from its stack or frames)


@dataclass(frozen=True, slots=True)
class Done:
    id: str


@dataclass(frozen=True, slots=True)
class ToolRun:
    """The SUT runs a tool itself, mid-turn: thinkwire answers with :func:`tool_result_line`."""

    id: str
    call_id: str
    name: str
    arguments: str


Line = Hello | Observed | Failed | Done | ToolRun


def _violation(n: int, raw: str, problem: str) -> ProtocolViolation:
    shown = raw if len(raw) <= 200 else raw[:197] + "..."
    return ProtocolViolation(f"adapter line {n}: {problem}: {shown}")


def parse_line(n: int, raw: str) -> Line:
    """One line the adapter wrote (``n``: its number on stdout, from 1).

    A line that is not one JSON object of a known shape, or an event that is not canonical by
    ``_contract``, is a :class:`ProtocolViolation` naming the line number, the line and what is wrong.
    """
    try:
        obj = loads(raw)
    except (JSONDecodeError, ValueError) as exc:
        raise _violation(n, raw, f"not JSON ({exc})") from None
    if not isinstance(obj, Mapping):
        raise _violation(n, raw, "not a JSON object")
    if obj.get("type") == "hello":
        if not isinstance(obj.get("protocol"), int) or isinstance(obj.get("protocol"), bool):
            raise _violation(n, raw, "hello without an integer protocol version")
        return Hello(obj["protocol"], str(obj.get("name", "")))
    tid = obj.get("id")
    if not isinstance(tid, str) or not tid:
        raise _violation(n, raw, 'no "id" (every line but hello names the turn it belongs to)')
    if "event" in obj:
        return Observed(tid, _event(n, raw, obj["event"]))
    if "error" in obj:
        err = obj["error"]
        if not isinstance(err, Mapping) or not isinstance(err.get("message"), str):
            raise _violation(n, raw, 'an "error" needs a "message" string')
        status, code = read_fields(err)  # as a Python exception's: int or word status, string code
        if code is None and isinstance(err.get("code"), int) and not isinstance(err.get("code"), bool):
            code = str(err["code"])  # a numeric code that is no HTTP status (a gRPC or JSON-RPC code)
        error_type, trace = str(err.get("type") or "Error"), str(err.get("traceback") or "")
        frames = tuple(js_frames(trace, err.get("frames")))
        return Failed(tid, error_type, err["message"], status, trace, code, frames)
    if obj.get("done") is True:
        return Done(tid)
    if "tool_call" in obj:
        call = obj["tool_call"]
        if not isinstance(call, Mapping) or not all(
            isinstance(call.get(k), str) for k in ("id", "name", "arguments")
        ):
            raise _violation(n, raw, 'a "tool_call" needs "id", "name" and "arguments" strings')
        return ToolRun(tid, call["id"], call["name"], call["arguments"])
    raise _violation(n, raw, 'expected "event", "error", "tool_call" or "done": true')


def _event(n: int, raw: str, ev: Any) -> Event:
    if not isinstance(ev, Mapping):
        raise _violation(n, raw, '"event" is not an object')
    cls = EVENT_TYPES.get(str(ev.get("type")))
    if cls is None:
        raise _violation(n, raw, f"unknown event type {ev.get('type')!r} (one of {', '.join(EVENT_TYPES)})")
    fields = {k: v for k, v in ev.items() if k != "type"}
    try:
        event = cls(**fields)
    except TypeError as exc:
        raise _violation(n, raw, f"bad fields for {ev['type']!r}: {exc}") from None
    problem = contract_violation(event)
    if problem is not None:
        raise _violation(n, raw, problem)
    out: Event = event
    return out


def _block(b: Any) -> dict[str, Any]:
    if isinstance(b, ReasoningBlock):
        d: dict[str, Any] = {"type": "reasoning", "text": b.text}
        if b.signature is not None:
            d["signature"] = b.signature
        if b.redacted is not None:
            d["redacted"] = b.redacted
        if b.id:
            d["id"] = b.id
        return d
    if isinstance(b, TextBlock):
        return {"type": "text", "text": b.text}
    if isinstance(b, ToolCallBlock):
        d = {"type": "tool_call", "id": b.id, "name": b.name, "arguments": b.arguments}
        if b.signature is not None:
            d["signature"] = b.signature
        return d
    assert isinstance(b, ToolResultBlock)
    return {"type": "tool_result", "call_id": b.call_id, "content": b.content, "name": b.name}


def messages_json(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The conversation so far, each message a role and its blocks."""
    return [{"role": m.role, "content": [_block(b) for b in m.content]} for m in messages]


def turn_line(
    tid: str, conversation: str, turn: int, fields: Mapping[str, Any], messages: Sequence[Message]
) -> bytes:
    """The request line of one turn: the ``SUTRequest`` fields, the conversation, the turn."""
    obj = {"type": "turn", "id": tid, "conversation": conversation, "turn": turn, **fields}
    obj["messages"] = messages_json(messages)
    return dumps_compact(obj).encode() + b"\n"


def tool_result_line(tid: str, call_id: str, content: str) -> bytes:
    """thinkwire's answer to a mid-turn ``tool_call``: the tool's scripted result."""
    obj = {"type": "tool_result", "id": tid, "call_id": call_id, "content": content}
    return dumps_compact(obj).encode() + b"\n"


def cancel_line(tid: str) -> bytes:
    return dumps_compact({"type": "cancel", "id": tid}).encode() + b"\n"


def end_line(conversation: str) -> bytes:
    return dumps_compact({"type": "end", "conversation": conversation}).encode() + b"\n"
