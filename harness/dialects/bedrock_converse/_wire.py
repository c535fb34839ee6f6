"""Bedrock streaming wires: ConverseStream events, and InvokeModelWithResponseStream ``chunk`` events
whose base64 JSON is an Anthropic Messages event. The invoke side wraps the Anthropic emitter and
observer, so only the eventstream framing and Bedrock's own additions live here."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from harness._errors import DecodeError
from harness._json import JSONDecodeError, dumps_compact, loads
from harness.codec import EventStreamDecoder, EventStreamMessage, Frame
from harness.dialects._base import EmitterLoop
from harness.dialects._values import mapping, string, unknown_fields
from harness.dialects.anthropic_messages._wire import (
    AnthropicEmitter,
    AnthropicObserver,
    end_reason,
    stop_reason,
)
from harness.events import (
    End,
    Event,
    Notice,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)

__all__ = [
    "BedrockObserver",
    "ConverseEmitter",
    "InvokeEmitter",
    "converse_usage",
    "exception_type",
    "usage_event",
]

_PAD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_EXC_BY_STATUS = {
    400: "validationException",
    424: "modelStreamErrorException",
    429: "throttlingException",
    500: "internalServerException",
    503: "serviceUnavailableException",
}
_STATUS_BY_EXC = {v: k for k, v in _EXC_BY_STATUS.items()} | {"modelTimeoutException": 408}
_CONVERSE_EVENTS: dict[str, frozenset[str]] = {
    "messageStart": frozenset({"role", "p"}),
    "contentBlockStart": frozenset({"contentBlockIndex", "start", "p"}),
    "contentBlockDelta": frozenset({"contentBlockIndex", "delta", "p"}),
    "contentBlockStop": frozenset({"contentBlockIndex", "p"}),
    "messageStop": frozenset({"stopReason", "additionalModelResponseFields", "p"}),
    "metadata": frozenset({"usage", "metrics", "trace", "performanceConfig", "serviceTier", "p"}),
}
"""The ConverseStream events and the fields each may carry (anything else is an ``unknown-field``)."""


def exception_type(err: StreamError) -> str:
    if err.code and err.code.endswith("Exception"):
        return err.code
    return _EXC_BY_STATUS.get(err.status or 0, "modelStreamErrorException")


def _pad(n: int) -> str:
    """Deterministic ``"p"`` padding whose length varies per frame, as Bedrock's does."""
    return _PAD[: (n * 7) % 37 + 1]


class ConverseEmitter(EmitterLoop):
    """ConverseStream: messageStart, contentBlockDelta (no start for reasoning/text blocks),
    contentBlockStart for toolUse, contentBlockStop, messageStop, metadata; ``"p"`` on every payload."""

    def __init__(self, *, model: str = "mock-model") -> None:
        self._model = model
        self._block: str | None = None  # the open content block's: reasoning, redacted, text or tool
        self._index = -1
        self._tool: int | None = None  # canonical tool index of the open tool block
        self._n = 0
        self._started = False
        self._usage: Usage | None = None

    def _frame(self, event: str, payload: dict[str, Any], *tags: str) -> Frame:
        self._n += 1
        payload["p"] = _pad(self._n)
        return Frame(dumps_compact(payload), event=event, tags=frozenset(tags))

    def _begin(self, out: list[Frame]) -> None:
        if not self._started:
            self._started = True
            out.append(self._frame("messageStart", {"role": "assistant"}, "start"))

    def _stop_block(self, out: list[Frame]) -> None:
        if self._block is not None:
            tag = "reasoning-done" if self._block in ("reasoning", "redacted") else self._block
            out.append(self._frame("contentBlockStop", {"contentBlockIndex": self._index}, tag))
            self._block = None

    def _open(self, out: list[Frame], kind: str, tool: int | None = None) -> None:
        self._stop_block(out)
        self._index += 1
        self._block, self._tool = kind, tool

    def _delta(self, out: list[Frame], kind: str, delta: dict[str, Any], tag: str) -> None:
        if kind != "tool" and (self._block != kind or kind == "redacted"):
            self._open(out, kind)
        out.append(self._frame("contentBlockDelta", {"contentBlockIndex": self._index, "delta": delta}, tag))

    def _start(self) -> list[Frame]:
        return []  # messageStart comes with the first event: an empty feed writes nothing

    def _event(self, ev: Event) -> list[Frame]:
        out: list[Frame] = []
        self._begin(out)
        if isinstance(ev, ReasoningDelta):
            if ev.text:
                self._delta(out, "reasoning", {"reasoningContent": {"text": ev.text}}, "reasoning")
        elif isinstance(ev, ReasoningSignature):
            self._delta(out, "reasoning", {"reasoningContent": {"signature": ev.value}}, "reasoning")
        elif isinstance(ev, RedactedReasoning):
            self._delta(out, "redacted", {"reasoningContent": {"redactedContent": ev.data}}, "reasoning")
        elif isinstance(ev, TextDelta):
            if ev.text:
                self._delta(out, "text", {"text": ev.text}, "text")
        elif isinstance(ev, ToolCallDelta):
            if self._block != "tool" or self._tool != ev.index:
                self._open(out, "tool", ev.index)
                tool = {"toolUseId": ev.id or "", "name": ev.name or ""}
                start = {"contentBlockIndex": self._index, "start": {"toolUse": tool}}
                out.append(self._frame("contentBlockStart", start, "tool"))
            if ev.arguments:
                self._delta(out, "tool", {"toolUse": {"input": ev.arguments}}, "tool")
        elif isinstance(ev, Usage):
            self._usage = ev
        elif isinstance(ev, StreamError):
            self._stop_block(out)
            out.append(_exception(ev))
            self.ended = True
        elif isinstance(ev, End):
            out += self._end(ev)
        return out

    def _end(self, ev: End) -> list[Frame]:
        out: list[Frame] = []
        self._begin(out)
        self._stop_block(out)
        out.append(self._frame("messageStop", {"stopReason": stop_reason(ev.reason)}, "terminal"))
        meta: dict[str, Any] = {}
        if self._usage is not None:
            meta["usage"] = converse_usage(self._usage)
        meta["metrics"] = {"latencyMs": 900}
        out.append(self._frame("metadata", meta, "terminal", *(("usage",) if self._usage else ())))
        self.ended = True
        return out


def converse_usage(u: Usage) -> dict[str, int]:
    counts = {"inputTokens": u.input_tokens, "outputTokens": u.output_tokens, "totalTokens": u.total_tokens}
    return {k: v for k, v in counts.items() if v is not None}


def usage_event(u: Any) -> list[Event]:
    """A Converse ``usage`` object read back (TokenUsage has no reasoning-token count)."""
    if not isinstance(u, dict):
        return []
    return [Usage(u.get("inputTokens"), u.get("outputTokens"), None, u.get("totalTokens"))]


def _exception(err: StreamError) -> Frame:
    kind = exception_type(err)
    payload: dict[str, Any] = {"message": err.message}
    if kind == "modelStreamErrorException" and err.status is not None:
        payload["originalStatusCode"] = err.status
    return Frame(dumps_compact(payload), event=kind, message_type="exception", tags=frozenset({"error"}))


class InvokeEmitter(AnthropicEmitter):
    """InvokeModelWithResponseStream for Anthropic models: the Anthropic emitter's events, each as
    ``chunk{"bytes": base64(event JSON), "p": …}``. Bedrock's differences are these overrides:
    ``message_stop`` carries ``amazon-bedrock-invocationMetrics``, an error is an eventstream exception
    frame, and the ids say ``msg_bdrk_``; no InvokeModel stream is recorded yet, so the chunks keep the
    earlier emitter's compact JSON with no ``ping`` and no space padding."""

    ping = False

    def __init__(self, *, model: str = "mock-model") -> None:
        super().__init__("thinking", model=model)
        self.message_id = self.message_id.replace("msg_", "msg_bdrk_", 1)
        self._chunks = 0

    def _frame(self, obj: dict[str, Any], *tags: str) -> Frame:
        if obj["type"] == "message_stop":
            obj = {**obj, "amazon-bedrock-invocationMetrics": self._metrics()}
        self._chunks += 1
        raw = base64.b64encode(dumps_compact(obj).encode()).decode()
        return Frame(
            dumps_compact({"bytes": raw, "p": _pad(self._chunks)}), event="chunk", tags=frozenset(tags)
        )

    def _event(self, ev: Event) -> list[Frame]:
        if isinstance(ev, StreamError):
            self.ended = True
            return [_exception(ev)]
        return super()._event(ev)

    def _metrics(self) -> dict[str, int]:
        u, start = self._usage, self._start_usage
        inp = (u.input_tokens if u is not None else None) or (start.input_tokens if start else None)
        return {
            "inputTokenCount": inp or 0,
            "outputTokenCount": (u.output_tokens if u is not None else None) or 0,
            "invocationLatency": 900,
            "firstByteLatency": 300,
        }


class BedrockObserver:
    """Reads a Bedrock event stream (Converse events and/or invoke ``chunk`` events). A corrupt frame
    is a :class:`Notice` (``eventstream-crc``...) and ends the reading: the framing cannot recover."""

    def __init__(self) -> None:
        self._decoder = EventStreamDecoder()
        self._broken = False
        self._tools: dict[int, int] = {}  # block index -> canonical tool index
        self._anthropic = AnthropicObserver()  # reads the Anthropic events inside invoke chunks
        self._invoke = False  # a chunk was seen
        self._stop: str | None = None
        self._ended = False
        self._errored = False

    def feed(self, data: bytes) -> list[Event]:
        if self._broken:
            return []
        try:
            messages = self._decoder.feed(data)
        except DecodeError as exc:
            return self._break(exc)
        out: list[Event] = []
        for m in messages:
            self._message(m, out)
        if self._decoder.error is not None:
            out += self._break(self._decoder.error)
        return out

    def end(self) -> list[Event]:
        out: list[Event] = []
        if not self._broken:
            try:
                self._decoder.end()
            except DecodeError as exc:
                out += self._break(exc)
        if self._ended or self._errored:
            return out
        if self._invoke:
            return out + self._anthropic.end()  # its no-terminator: EOF before message_stop
        detail = "messageStop without metadata" if self._stop is not None else "the stream closed early"
        return [*out, Notice("no-terminator", detail)]

    def _break(self, exc: DecodeError) -> list[Event]:
        self._broken = True
        text = str(exc)
        kind = next(
            (k for word, k in (("CRC", "crc"), ("truncated", "truncated")) if word in text), "corrupt"
        )
        return [Notice(f"eventstream-{kind}", text)]

    def _message(self, m: EventStreamMessage, out: list[Event]) -> None:
        if m.message_type == "exception":  # a modeled exception: its message in the JSON payload
            self._errored = True
            message = str(mapping(self._json(m.payload, out)).get("message", ""))
            out.append(StreamError(message, m.event_type, _STATUS_BY_EXC.get(m.event_type)))
            return
        if m.message_type == "error":  # an unmodeled error: its message in a header
            self._errored = True
            out.append(StreamError(string(m.headers.get(":error-message", "")), m.event_type or None))
            return
        payload = self._json(m.payload, out)
        if not isinstance(payload, dict):
            return
        kind = m.event_type
        if kind == "chunk":
            self._chunk(payload, out)  # the Anthropic observer notes what comes after its end
        else:
            if self._ended:
                out.append(Notice("data-after-end", kind))
            if kind in _CONVERSE_EVENTS:
                out += unknown_fields(payload, _CONVERSE_EVENTS[kind], kind + ".")
                self._converse(kind, payload, out)
            else:
                out.append(Notice("unknown-event", kind))

    def _json(self, raw: bytes, out: list[Event]) -> Any:
        try:
            return loads(raw)
        except JSONDecodeError:
            out.append(Notice("malformed-json", raw[:200].decode(errors="replace")))
            return None

    def _tool_index(self, block: int) -> int:
        if block not in self._tools:
            self._tools[block] = len(self._tools)
        return self._tools[block]

    # -- ConverseStream ------------------------------------------------------------------------------
    def _converse(self, kind: str, p: dict[str, Any], out: list[Event]) -> None:
        idx = p.get("contentBlockIndex")
        item = str(idx) if isinstance(idx, int) else ""
        if kind == "contentBlockStart":
            tool = (p.get("start") or {}).get("toolUse")
            if isinstance(tool, dict) and isinstance(idx, int):
                out.append(
                    ToolCallDelta(self._tool_index(idx), tool.get("toolUseId"), tool.get("name"), "", item)
                )
        elif kind == "contentBlockDelta":
            raw_delta = p.get("delta")
            delta: dict[str, Any] = raw_delta if isinstance(raw_delta, dict) else {}
            rc = delta.get("reasoningContent")
            if isinstance(rc, dict):
                out += unknown_fields(rc, {"text", "signature", "redactedContent"}, "reasoningContent.")
                if isinstance(rc.get("text"), str):
                    out.append(ReasoningDelta(rc["text"], item))
                if isinstance(rc.get("signature"), str):
                    out.append(ReasoningSignature(rc["signature"], item))
                if isinstance(rc.get("redactedContent"), str):
                    out.append(RedactedReasoning(rc["redactedContent"], item))
            elif isinstance(delta.get("text"), str):
                out.append(TextDelta(delta["text"], item))
            elif isinstance(delta.get("toolUse"), dict) and isinstance(idx, int):
                args = delta["toolUse"].get("input", "")
                out.append(ToolCallDelta(self._tool_index(idx), arguments=str(args), item=item))
            else:
                out.append(Notice("unknown-field", "contentBlockDelta.delta." + ",".join(delta)))
        elif kind == "messageStop":
            self._stop = str(p.get("stopReason", "end_turn"))
        elif kind == "metadata":
            out += usage_event(p.get("usage"))
            if self._stop is not None and not self._ended:
                out.append(End(end_reason(self._stop)))
                self._ended = True

    # -- InvokeModelWithResponseStream (Anthropic JSON inside) --------------------------------------
    def _chunk(self, p: dict[str, Any], out: list[Event]) -> None:
        """A chunk's base64 JSON is one Anthropic event, read by the Anthropic observer."""
        self._invoke = True
        out += unknown_fields(p, {"bytes", "p"}, "chunk.")
        try:
            raw = base64.b64decode(str(p.get("bytes", "")), validate=True)
        except (binascii.Error, ValueError):
            out.append(Notice("malformed-base64", str(p.get("bytes", ""))[:200]))
            return
        ev = self._json(raw, out)
        if not isinstance(ev, dict):
            if ev is not None:
                out.append(Notice("unknown-frame", raw[:80].decode(errors="replace")))
            return
        kind = ev.get("type")
        self._anthropic.read_event(ev, kind if isinstance(kind, str) else "", out)
