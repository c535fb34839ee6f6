"""The Gemini ``streamGenerateContent`` stream both ways: the emitter, events to frames that the transport
encodes as ``?alt=sse`` frames or a streamed JSON array, and the observer, bytes to events. Parts map one
to one onto events, and Gemini ends a stream by closing the connection."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from harness._json import JSONDecodeError, dumps_compact, dumps_spaced, loads
from harness.codec import Frame, JSONArrayDecoder, SSEDecoder
from harness.dialects._base import Emitter, call_arguments
from harness.dialects._provider_errors import google_error
from harness.dialects._values import mapping, opt_str, unknown_fields
from harness.events import (
    Block,
    End,
    Event,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    Turn,
    Usage,
    assemble,
)

__all__ = ["GeminiEmitter", "GeminiObserver", "google_counts", "parts_of", "whole_body"]

_RESPONSE_ID = "mockResp1"
_FINISH = {"stop": "STOP", "tool_calls": "STOP", "length": "MAX_TOKENS"}
_TOP_KEYS = frozenset(
    {"candidates", "usageMetadata", "modelVersion", "responseId", "promptFeedback", "createTime", "nonce"}
)
_CANDIDATE_KEYS = frozenset(
    {
        "content", "finishReason", "index", "safetyRatings", "citationMetadata", "groundingMetadata",
        "avgLogprobs", "logprobsResult", "finishMessage", "tokenCount", "urlContextMetadata",
    }
)  # fmt: skip
_PART_KEYS = frozenset(
    {
        "text", "thought", "thoughtSignature", "functionCall", "functionResponse", "inlineData", "fileData",
        "executableCode", "codeExecutionResult", "videoMetadata", "partMetadata",
    }
)  # fmt: skip
_UNSUPPORTED_PARTS = ("functionResponse", "inlineData", "fileData", "executableCode", "codeExecutionResult")
_USAGE_KEYS = frozenset(
    {
        "promptTokenCount", "candidatesTokenCount", "totalTokenCount", "thoughtsTokenCount",
        "promptTokensDetails", "candidatesTokensDetails", "cachedContentTokenCount", "cacheTokensDetails",
        "toolUsePromptTokenCount", "toolUsePromptTokensDetails", "trafficType",
    }
)  # fmt: skip
_LINE_END = re.compile(rb"\r\n|\r|\n")
_SSE_FIELDS = (b"data", b"event", b"id", b"retry")


def finish_reason(reason: str) -> str:
    return _FINISH.get(reason, reason.upper())


def google_counts(u: Usage) -> tuple[int | None, int | None]:
    """The output and total counts as Google gives them: canonical output tokens include reasoning, Google's
    output count does not; Google always counts the total (input + output when the usage has none)."""
    output = None if u.output_tokens is None else max(0, u.output_tokens - (u.reasoning_tokens or 0))
    total = u.total_tokens
    if total is None and u.input_tokens is not None and u.output_tokens is not None:
        total = u.input_tokens + u.output_tokens
    return output, total


def usage_metadata(u: Usage) -> dict[str, Any]:
    """Gemini's ``usageMetadata`` (:func:`google_counts`), in its order."""
    output, total = google_counts(u)
    details = None if u.input_tokens is None else [{"modality": "TEXT", "tokenCount": u.input_tokens}]
    fields = {"promptTokenCount": u.input_tokens, "candidatesTokenCount": output, "totalTokenCount": total,
              "promptTokensDetails": details, "thoughtsTokenCount": u.reasoning_tokens}  # fmt: skip
    return {k: v for k, v in fields.items() if v is not None}


def _function_call(call_id: str | None, name: str, args: Any) -> dict[str, Any]:
    return ({"id": call_id} if call_id else {}) | {"name": name, "args": args}


def _object_args(arguments: str) -> dict[str, Any]:
    """A response's functionCall ``args``: the arguments must be a JSON object (or blank)."""
    try:
        args = loads(arguments) if arguments.strip() else {}
    except JSONDecodeError:
        args = None
    if not isinstance(args, dict):
        raise ValueError(f"gemini functionCall args must be a JSON object, got {arguments!r}")
    return args


def parts_of(blocks: Sequence[Block], variant: str, *, request: bool = False) -> list[dict[str, Any]]:
    """Blocks as parts, every signature on the exact part it came on: a whole body's, or with ``request``
    a replayed assistant message's (redacted reasoning left out, arguments that are no JSON kept)."""
    parts: list[dict[str, Any]] = []
    for b in blocks:
        part: dict[str, Any]
        if isinstance(b, ReasoningBlock):
            if b.redacted is not None and not request:
                raise ValueError("gemini cannot carry redacted reasoning")
            if b.redacted is not None or not (b.text or b.signature is not None):
                continue
            empty = {"text": ""} if request or variant == "signature-empty" else {}
            part = {"text": b.text, "thought": True} if b.text else empty
        elif isinstance(b, TextBlock):
            part = {"text": b.text}
        elif isinstance(b, ToolCallBlock):
            args = call_arguments(b.arguments, keep_bad=True) if request else _object_args(b.arguments)
            part = {"functionCall": _function_call(b.id, b.name, args)}
        else:  # tool results
            continue
        if b.signature is not None:
            part["thoughtSignature"] = b.signature
        parts.append(part)
    return parts


def response_object(
    parts: list[dict[str, Any]], *, model: str, finish: str | None = None, usage: dict[str, Any] | None = None
) -> dict[str, Any]:
    cand = {"content": {"parts": parts, "role": "model"}, "finishReason": finish, "index": 0}
    obj: dict[str, Any] = {"candidates": [{k: v for k, v in cand.items() if v is not None}]}
    obj |= {"usageMetadata": usage, "modelVersion": model, "responseId": _RESPONSE_ID}
    return {k: v for k, v in obj.items() if v is not None}


def _counted(turn: Turn) -> Usage:
    """A whole body always carries ``usageMetadata`` (every recorded Gemini response has it; a client
    may answer 500 without it): a turn scripted without usage gets counts of its own (four characters
    a token, at least one; 12 prompt tokens, as the other mock counts)."""
    reasoning = sum(len(ev.text) for ev in turn if isinstance(ev, ReasoningDelta))
    text = sum(len(ev.text) for ev in turn if isinstance(ev, TextDelta))
    thoughts = -(-reasoning // 4)
    return Usage(12, max(1, -(-text // 4)) + thoughts, thoughts or None)


def whole_body(turn: Turn, variant: str, *, model: str) -> dict[str, Any]:
    """The ``:generateContent`` body: one candidate with one part per block."""
    end = next((ev for ev in turn if isinstance(ev, End)), End())
    usage = next((ev for ev in reversed(turn) if isinstance(ev, Usage)), None) or _counted(turn)
    parts = parts_of(assemble(turn).content, variant)
    return response_object(parts, model=model, finish=finish_reason(end.reason), usage=usage_metadata(usage))


class GeminiEmitter(Emitter):
    """One frame per part. A signature rides on the part of the block it follows when both arrive in
    the same :meth:`feed` (``signature-empty`` always sends its own ``{"text": ""}`` part); the finish
    reason comes in a final frame of its own, so a dropped terminator leaves the content intact."""

    def __init__(self, variant: str, *, model: str = "mock-model") -> None:
        self._variant = variant
        self._model = model
        self._usage: dict[str, Any] | None = None
        self._done = False

    def feed(self, events: Sequence[Event]) -> list[Frame]:
        out: list[Frame] = []
        parts: list[tuple[dict[str, Any], str, list[ToolCallDelta]]] = []  # (part, tag, a call's deltas)

        def flush() -> None:
            for part, tag, call in parts:
                if call:  # the call is whole now (its signature, if any, stays after it)
                    args = _object_args("".join(d.arguments for d in call))
                    part["functionCall"] = _function_call(call[0].id, call[0].name or "", args)
                out.append(self._frame([part], {tag}))
            parts.clear()

        for ev in events:
            if self._done:
                break
            if isinstance(ev, ReasoningDelta) and ev.text:
                parts.append(({"text": ev.text, "thought": True}, "reasoning", []))
            elif isinstance(ev, TextDelta) and ev.text:
                parts.append(({"text": ev.text}, "text", []))
            elif isinstance(ev, ToolCallDelta):
                if parts and parts[-1][2] and parts[-1][2][0].index == ev.index:
                    parts[-1][2].append(ev)
                else:
                    parts.append(({"functionCall": {}}, "tool", [ev]))
            elif isinstance(ev, ReasoningSignature):
                if self._variant != "signature-empty" and parts and "thoughtSignature" not in parts[-1][0]:
                    parts[-1][0]["thoughtSignature"] = ev.value
                else:
                    carrier: dict[str, Any] = {"text": ""} if self._variant == "signature-empty" else {}
                    parts.append((carrier | {"thoughtSignature": ev.value}, "reasoning", []))
            elif isinstance(ev, RedactedReasoning):
                raise ValueError("gemini cannot carry redacted reasoning (RedactedReasoning)")
            elif isinstance(ev, Usage):
                self._usage = usage_metadata(ev)
            elif isinstance(ev, StreamError):
                flush()
                err = google_error(ev.status, ev.message, ev.code)
                out.append(Frame(dumps_spaced(err), tags=frozenset({"error"})))
                self._done = True
            elif isinstance(ev, End):
                tail = parts[-1][0] if parts else {}
                # recorded (recordings/corpus/gemini-thoughts-array.jsonl): the bare signature part
                # rides on the frame that carries the finishReason
                bare = self._variant == "signature-empty" and tail.keys() == {"text", "thoughtSignature"}
                if bare:
                    parts.pop()
                flush()
                out.append(self._terminal(ev.reason, tail if bare else None))
        flush()
        return out

    def close(self) -> list[Frame]:
        return [] if self._done else [self._terminal("stop")]

    def _terminal(self, reason: str, bare: dict[str, Any] | None = None) -> Frame:
        self._done = True
        tags = {"terminal"} if bare is None else {"terminal", "reasoning"}
        return self._frame([bare or {"text": ""}], tags, finish=finish_reason(reason))

    def _frame(self, parts: list[dict[str, Any]], tags: set[str], finish: str | None = None) -> Frame:
        if self._usage is not None:
            tags = tags | {"usage"}
        obj = response_object(parts, model=self._model, finish=finish, usage=self._usage)
        return Frame(dumps_spaced(obj), tags=frozenset(tags))


class GeminiObserver:
    """Reads what Gemini (or a SUT speaking Gemini) streams: ``data:`` JSON frames, raw pretty-printed
    JSON lines (errors), SSE oddities, or (a stream whose first byte is ``[``: no ``?alt=sse``) a
    streamed JSON array, element by element. Everything it cannot use becomes a :class:`Notice`."""

    def __init__(self) -> None:
        self._array: JSONArrayDecoder | None = None
        self._sniffed = False
        self._buf = b""
        self._first = True
        self._sse = SSEDecoder()
        self._anomalies = 0
        self._raw: list[str] = []
        self._tool_index = 0
        self._usage: Usage | None = None
        self._finish: str | None = None  # finishReason of the last frame with candidates
        self._finished_once = False
        self._errored = False
        self._no_space_noted = False

    # -- bytes -> lines ----------------------------------------------------------------------------
    def feed(self, data: bytes) -> list[Event]:
        if not self._sniffed:
            head = (self._buf + data).lstrip(b" \t\r\n\xef\xbb\xbf")
            if not head:
                self._buf += data
                return []
            self._sniffed = True
            if head.startswith(b"["):
                self._array = JSONArrayDecoder()
                data, self._buf = self._buf + data, b""
        out: list[Event] = []
        if self._array is not None:
            for text in self._array.feed(data):
                self._data(text, out)
            return out
        buf = self._buf + data
        pos = 0
        for m in _LINE_END.finditer(buf):
            if m.group() == b"\r" and m.end() == len(buf):
                break  # a CR at the end may be half of a CRLF: wait for the next byte
            self._line(buf[pos : m.start()], buf[m.start() : m.end()], out)
            pos = m.end()
        self._buf = buf[pos:]
        self._anomaly_notices(out)
        return out

    def end(self) -> list[Event]:
        if self._array is not None:
            self._array.end()
            return [*(Notice("json-array-" + a) for a in self._array.anomalies), *self.finish()]
        out: list[Event] = []
        if self._buf:
            # a CR held back in feed() (it might have been half of a CRLF) is a line end at EOF
            eol = b"\r" if self._buf.endswith(b"\r") else b""
            self._line(self._buf.removesuffix(eol), eol, out)
            self._buf = b""
        self._sse.end()
        if self._raw:
            self._raw_garbage(out)
        self._anomaly_notices(out)
        return out + self.finish()

    def finish(self) -> list[Event]:
        """The closing events: the last usage, then End if the last frame had a finishReason."""
        out: list[Event] = [] if self._usage is None else [self._usage]
        self._usage = None
        if self._errored:
            return out
        if self._finish is None:
            return [*out, Notice("no-terminator", "the stream closed without a finishReason")]
        ends = {"STOP": "tool_calls" if self._tool_index else "stop", "MAX_TOKENS": "length"}
        return [*out, End(ends.get(self._finish, self._finish.lower()))]

    def _anomaly_notices(self, out: list[Event]) -> None:
        out += [Notice("sse-" + a) for a in self._sse.anomalies[self._anomalies :]]
        self._anomalies = len(self._sse.anomalies)

    def _line(self, content: bytes, eol: bytes, out: list[Event]) -> None:
        probe = content.removeprefix(b"\xef\xbb\xbf") if self._first else content
        self._first = False
        name = probe.split(b":", 1)[0]
        if probe and not probe.startswith(b":") and name not in _SSE_FIELDS:
            self._raw_line(probe, out)
            return
        if self._raw:
            self._raw_garbage(out)
        events = self._sse.feed(content + eol)
        self._anomaly_notices(out)
        if probe.startswith(b":"):
            out.append(Notice("sse-comment", probe.decode(errors="replace")))
        elif probe.startswith(b"data:") and probe[5:6] not in (b" ", b"") and not self._no_space_noted:
            self._no_space_noted = True
            out.append(Notice("sse-data-no-space", "google-genai only reads 'data: ' with a space"))
        for sse in events:
            self._data(sse.data, out)

    def _raw_line(self, line: bytes, out: list[Event]) -> None:
        self._raw.append(line.decode(errors="replace"))
        text = "\n".join(self._raw)
        if not text.rstrip().endswith(("}", "]")):
            return
        try:
            obj = json.loads(text)
        except json.JSONDecodeError:
            return
        self._raw = []
        out.append(Notice("raw-json-line", text[:200]))
        self._object(obj, out)

    def _raw_garbage(self, out: list[Event]) -> None:
        out.append(Notice("malformed-json", "\n".join(self._raw)[:200]))
        self._raw = []

    # -- frames -> events --------------------------------------------------------------------------
    def _data(self, data: str, out: list[Event]) -> None:
        try:
            obj = loads(data)
        except JSONDecodeError:
            out.append(Notice("malformed-json", data[:200]))
            return
        self._object(obj, out)

    def _object(self, obj: Any, out: list[Event]) -> None:
        if not isinstance(obj, dict):
            out.append(Notice("unexpected-json", dumps_compact(obj)[:200]))
            return
        if "error" in obj:
            err = obj["error"] if isinstance(obj["error"], dict) else {"message": str(obj["error"])}
            code = err.get("code")
            status = code if isinstance(code, int) else None
            out.append(
                StreamError(str(err.get("message", "")), code=opt_str(err.get("status")), status=status)
            )
            self._errored = True
            return
        out += unknown_fields(obj, _TOP_KEYS)
        cands = obj.get("candidates")
        if isinstance(cands, list) and cands:
            if self._finished_once:
                out.append(Notice("data-after-finish", "a frame with candidates followed a finishReason"))
            self._finish = None
            for cand in cands:
                if isinstance(cand, dict):
                    self._candidate(cand, out)
        usage = obj.get("usageMetadata")
        if isinstance(usage, dict):
            self._usage_of(usage, out)

    def _candidate(self, cand: dict[str, Any], out: list[Event]) -> None:
        out += unknown_fields(cand, _CANDIDATE_KEYS, "candidates[].")
        parts = mapping(cand.get("content")).get("parts")
        for part in parts if isinstance(parts, list) else ():
            if isinstance(part, dict):
                self._part(part, out)
        reason = cand.get("finishReason")
        if isinstance(reason, str):
            self._finish = reason
            self._finished_once = True

    def _part(self, part: dict[str, Any], out: list[Event]) -> None:
        out += unknown_fields(part, _PART_KEYS, "parts[].")
        text = part.get("text")
        fc = part.get("functionCall")
        if isinstance(fc, dict):
            args = dumps_compact(fc.get("args", {}))
            out.append(ToolCallDelta(self._tool_index, opt_str(fc.get("id")), str(fc.get("name", "")), args))
            self._tool_index += 1
        elif isinstance(text, str):
            if text:
                out.append(ReasoningDelta(text) if part.get("thought") is True else TextDelta(text))
        else:
            out += [Notice("unsupported-part", kind) for kind in _UNSUPPORTED_PARTS if kind in part]
        sig = part.get("thoughtSignature")
        if isinstance(sig, str):
            out.append(ReasoningSignature(sig))

    def _usage_of(self, u: dict[str, Any], out: list[Event]) -> None:
        out += unknown_fields(u, _USAGE_KEYS, "usageMetadata.")

        def num(key: str) -> int | None:
            v = u.get(key)
            return v if isinstance(v, int) else None

        cands, thoughts = num("candidatesTokenCount"), num("thoughtsTokenCount")
        output = None if cands is None else cands + (thoughts or 0)
        self._usage = Usage(num("promptTokenCount"), output, thoughts, num("totalTokenCount"))
