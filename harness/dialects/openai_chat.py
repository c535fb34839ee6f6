"""OpenAI Chat Completions dialect: every place reasoning rides in a ``chat.completion.chunk`` stream.

Rule 1: sans-IO. The emitter turns canonical events into SSE frames, the observer turns raw bytes into
canonical events (plus :class:`Notice` for anything odd). Rule 2: the observer reads ONE reasoning field
per delta (``reasoning_fields`` priority), never concatenates mirrors, and splits inline ``<think>`` only
when it leads the content and no structured reasoning was seen.

Frame tags: ``start`` (role chunk), ``reasoning``, ``reasoning-done`` (on the *first frame after* the
last reasoning delta: the emitter is streaming and cannot know a delta is the last one; for the think
variants that is the frame carrying ``</think>``), ``text``, ``tool``, ``usage``, ``error``, ``terminal``
(``[DONE]``).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness._json import JSONDecodeError, dumps_compact, loads
from harness.codec import SSEDecoder
from harness.dialects._base import (
    Caps,
    Frame,
    ProviderProfile,
    RequestSpec,
    Transport,
    Variant,
    check_variant,
)
from harness.dialects._think import CLOSE, OPEN, ThinkSplitter, split_think
from harness.events import (
    End,
    Event,
    Message,
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
    ToolResultBlock,
    Turn,
    Usage,
    assemble,
)

__all__ = [
    "DEFAULT_REASONING_FIELDS",
    "DIALECT",
    "VARIANTS",
    "ChatEmitter",
    "ChatObserver",
    "OpenAIChatDialect",
    "observe_response",
]

NAME = "openai-chat"
DEFAULT_REASONING_FIELDS: tuple[str, ...] = (
    "reasoning_content",
    "reasoning",
    "reasoning_text",
    "reasoning_details",
)
"""Observer priority: the first non-empty field of a delta is its reasoning; the others are mirrors."""
_RD_FORMAT = "unknown"
_GEMINI_FORMAT = "google-gemini-v1"  # OpenRouter: a tool call's thoughtSignature
_CREATED = 1760000000
_ids = itertools.count(1)

_C = Caps
_BASE = frozenset({_C.REASONING, _C.TOOLS, _C.USAGE, _C.ERRORS})


def _v(name: str, catalog_id: str, description: str, caps: frozenset[Caps]) -> Variant:
    return Variant(name, catalog_id, NAME, description, caps)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        _v(
            "reasoning_content",
            "CC-RC",
            "DeepSeek/Kimi delta.reasoning_content, usage on the finish chunk",
            _BASE,
        ),
        _v("reasoning", "CC-R", "vLLM/OpenRouter/Groq delta.reasoning, usage chunk with choices:[]", _BASE),
        _v(
            "reasoning_details",
            "CC-RD",
            "OpenRouter delta.reasoning mirrored in delta.reasoning_details[] (signature, encrypted)",
            _BASE | {_C.SIGNATURE, _C.REDACTED},
        ),
        _v("think-tags", "CC-THINK", "leading <think>...</think> inside delta.content", _BASE),
        _v("think-split", "CC-THINK", "leading <think> tags split across deltas (<th | ink>)", _BASE),
        _v("think-implicit", "CC-THINK", "template-primed: no <think> opener, only </think>", _BASE),
        _v(
            "mistral",
            "CC-MISTRAL",
            "Magistral delta.content list of thinking chunks, then string content",
            _BASE,
        ),
        _v(
            "usage-only",
            "CC-USAGE",
            "OpenAI's own endpoint: no reasoning text, only completion_tokens_details.reasoning_tokens",
            frozenset({_C.TOOLS, _C.USAGE, _C.ERRORS}),
        ),
    )
}
_THINK = ("think-tags", "think-split", "think-implicit")


_check_variant = functools.partial(check_variant, NAME, VARIANTS)


def _usage_json(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if u.input_tokens is not None:
        out["prompt_tokens"] = u.input_tokens
    if u.output_tokens is not None:
        out["completion_tokens"] = u.output_tokens
    if u.total_tokens is not None:
        out["total_tokens"] = u.total_tokens
    if u.reasoning_tokens is not None:
        out["completion_tokens_details"] = {"reasoning_tokens": u.reasoning_tokens}
    return out


def _usage_event(raw: Any) -> Usage | None:
    if not isinstance(raw, Mapping):
        return None
    details = raw.get("completion_tokens_details")
    rt = details.get("reasoning_tokens") if isinstance(details, Mapping) else None
    return Usage(raw.get("prompt_tokens"), raw.get("completion_tokens"), rt, raw.get("total_tokens"))


def _error_json(ev: StreamError) -> dict[str, Any]:
    err: dict[str, Any] = {}
    if ev.status is not None:
        err["code"] = ev.status
    err["message"] = ev.message
    if ev.code is not None:
        err["metadata"] = {"error_type": ev.code}
    return err


def _error_event(raw: Any) -> StreamError:
    if not isinstance(raw, Mapping):
        return StreamError(str(raw))
    code = raw.get("code")
    status = code if isinstance(code, int) and not isinstance(code, bool) else None
    name = code if isinstance(code, str) else None
    meta = raw.get("metadata")
    if name is None and isinstance(meta, Mapping) and isinstance(meta.get("error_type"), str):
        name = meta["error_type"]
    if name is None and isinstance(raw.get("type"), str):
        name = raw["type"]
    msg = raw.get("message")
    return StreamError(msg if isinstance(msg, str) else dumps_compact(raw), name, status)


# --------------------------------------------------------------------------------------------------
# Emitter


class ChatEmitter:
    """Canonical events -> ``chat.completion.chunk`` SSE frames in one variant's shape.

    Usage is held until :class:`End` (DeepSeek/Mistral put it on the finish chunk, the others in a
    ``choices:[]`` chunk after it). A :class:`StreamError` writes an OpenRouter-style error chunk and
    ends the stream without ``[DONE]``.
    """

    def __init__(self, variant: str, *, model: str = "mock-model", id: str | None = None) -> None:
        _check_variant(variant)
        self.variant = variant
        self.model = model
        self.id = id or f"chatcmpl-mock{next(_ids)}"
        self._started = False
        self._closed = False
        self._in_reasoning = False
        self._think_state = "none"  # none | open | closed (think variants)
        self._pending_prefix = ""  # think-split: "ink>" owed after "</th"
        self._usage: Usage | None = None
        self._tools_seen: set[int] = set()
        self._rd_index = -1
        self._rd_block_open = False

    # -- envelope
    def _chunk(
        self, delta: Mapping[str, Any] | None, finish: str | None = None, **top: Any
    ) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": _CREATED,
            "model": self.model,
        }
        if self.variant == "reasoning_content":
            obj["system_fingerprint"] = "fp_mock"
        if "error" in top:
            obj["error"] = top.pop("error")
        if delta is None:
            obj["choices"] = []
        else:
            choice: dict[str, Any] = {"index": 0, "delta": dict(delta)}
            if self.variant in ("reasoning_content", "reasoning"):
                choice["logprobs"] = None
            choice["finish_reason"] = finish
            obj["choices"] = [choice]
        obj.update(top)
        return obj

    def _frame(self, obj: Mapping[str, Any], *tags: str) -> Frame:
        return Frame(dumps_compact(obj), tags=frozenset(tags))

    def _delta_frame(self, delta: Mapping[str, Any], *tags: str) -> Frame:
        if self._in_reasoning and "reasoning" not in tags:
            self._in_reasoning = False
            tags = (*tags, "reasoning-done")
        return self._frame(self._chunk(delta), *tags)

    def _start(self) -> list[Frame]:
        if self._started:
            return []
        self._started = True
        if self.variant == "reasoning_content":
            delta: dict[str, Any] = {"role": "assistant", "content": None, "reasoning_content": ""}
        else:
            delta = {"role": "assistant", "content": ""}
        return [self._frame(self._chunk(delta), "start")]

    # -- per event
    def feed(self, events: Sequence[Event]) -> list[Frame]:
        out = self._start()
        for ev in events:
            if self._closed:
                break
            out += self._event(ev)
        return out

    def close(self) -> list[Frame]:
        if self._closed:
            return []
        return self._start() + self._end(End())

    def _close_think(self) -> list[Frame]:
        """Close an open inline block before anything that is not reasoning."""
        out: list[Frame] = []
        if self._think_state == "open":
            self._think_state = "closed"
            close = "</th" if self.variant == "think-split" else CLOSE
            if self.variant == "think-split":
                self._pending_prefix = "ink>"
            self._in_reasoning = False
            out.append(self._frame(self._chunk({"content": close}), "reasoning-done"))
        return out

    def _flush_prefix(self) -> list[Frame]:
        if not self._pending_prefix:
            return []
        prefix, self._pending_prefix = self._pending_prefix, ""
        return [self._delta_frame({"content": prefix}, "text")]

    def _event(self, ev: Event) -> list[Frame]:
        v = self.variant
        if isinstance(ev, ReasoningDelta):
            return self._reasoning(ev)
        if isinstance(ev, ReasoningSignature | RedactedReasoning):
            if v != "reasoning_details":
                return []  # the variant cannot carry it (not in its caps)
            return self._rd_opaque(ev)
        out: list[Frame] = []
        if isinstance(ev, TextDelta):
            out += self._close_think()
            text = self._pending_prefix + ev.text
            self._pending_prefix = ""
            if not text:
                return out
            if v == "reasoning_content":
                delta: dict[str, Any] = {"content": text, "reasoning_content": None}
            else:
                delta = {"content": text}
            out.append(self._delta_frame(delta, "text"))
            return out
        if isinstance(ev, ToolCallDelta):
            out += self._close_think() + self._flush_prefix()
            call: dict[str, Any] = {"index": ev.index}
            first = ev.index not in self._tools_seen
            if first:
                self._tools_seen.add(ev.index)
                call["id"] = ev.id or f"call_mock_{ev.index}"
                call["type"] = "function"
                call["function"] = {"name": ev.name or "", "arguments": ""}
                out.append(self._delta_frame({"tool_calls": [call]}, "tool"))
                if ev.arguments:
                    args = {"index": ev.index, "function": {"arguments": ev.arguments}}
                    out.append(self._delta_frame({"tool_calls": [args]}, "tool"))
            elif ev.arguments:
                args = {"index": ev.index, "function": {"arguments": ev.arguments}}
                out.append(self._delta_frame({"tool_calls": [args]}, "tool"))
            return out
        if isinstance(ev, Usage):
            self._usage = ev
            return out
        if isinstance(ev, StreamError):
            out += self._close_think() + self._flush_prefix()
            self._closed = True
            obj = self._chunk({"content": ""}, "error", error=_error_json(ev))
            return [*out, self._frame(obj, "error", *(("reasoning-done",) if self._in_reasoning else ()))]
        if isinstance(ev, End):
            return self._end(ev)
        return out  # Notice: not part of the wire

    def _reasoning(self, ev: ReasoningDelta) -> list[Frame]:
        v = self.variant
        if not ev.text or v == "usage-only":
            return []
        if v in _THINK:
            return self._think_reasoning(ev.text)
        self._in_reasoning = True
        if v == "reasoning_content":
            delta: dict[str, Any] = {"content": None, "reasoning_content": ev.text}
        elif v == "reasoning":
            delta = {"reasoning": ev.text}
        elif v == "mistral":
            delta = {"content": [{"type": "thinking", "thinking": [{"type": "text", "text": ev.text}]}]}
        else:  # reasoning_details: mirrored, as OpenRouter sends it
            if not self._rd_block_open:
                self._rd_index += 1
                self._rd_block_open = True
            detail = {
                "type": "reasoning.text",
                "text": ev.text,
                "format": _RD_FORMAT,
                "index": self._rd_index,
            }
            delta = {"role": "assistant", "content": "", "reasoning": ev.text, "reasoning_details": [detail]}
        return [self._frame(self._chunk(delta), "reasoning")]

    def _think_reasoning(self, text: str) -> list[Frame]:
        out: list[Frame] = []
        if self._think_state == "closed":
            # The variant carries one leading block only: later reasoning can only be content.
            return self._event(TextDelta(text))
        if self._think_state == "none":
            self._think_state = "open"
            if self.variant == "think-tags":
                text = OPEN + text
            elif self.variant == "think-split":
                out.append(self._frame(self._chunk({"content": "<th"}), "reasoning"))
                text = "ink>" + text
        self._in_reasoning = True
        out.append(self._frame(self._chunk({"content": text}), "reasoning"))
        return out

    def _rd_opaque(self, ev: ReasoningSignature | RedactedReasoning) -> list[Frame]:
        self._in_reasoning = True
        if isinstance(ev, ReasoningSignature):
            if not self._rd_block_open:
                self._rd_index += 1
            detail: dict[str, Any] = {
                "type": "reasoning.text",
                "signature": ev.value,
                "format": _RD_FORMAT,
                "index": self._rd_index,
            }
            self._rd_block_open = False  # a signature closes its block
        else:
            self._rd_index += 1
            self._rd_block_open = False
            detail = {
                "type": "reasoning.encrypted",
                "data": ev.data,
                "format": _RD_FORMAT,
                "index": self._rd_index,
            }
        delta = {"role": "assistant", "content": "", "reasoning_details": [detail]}
        return [self._frame(self._chunk(delta), "reasoning")]

    def _end(self, ev: End) -> list[Frame]:
        out = self._close_think() + self._flush_prefix()
        self._closed = True
        v = self.variant
        tags = ("reasoning-done",) if self._in_reasoning else ()
        self._in_reasoning = False
        usage = self._usage
        if v == "reasoning_content":
            delta: dict[str, Any] = (
                {} if ev.reason == "tool_calls" else {"content": "", "reasoning_content": None}
            )
        elif v in ("mistral", "reasoning", "reasoning_details", "usage-only"):
            delta = {"content": ""}
        else:
            delta = {}
        on_finish = v in ("reasoning_content", "mistral") and usage is not None
        extra = {"usage": _usage_json(usage)} if on_finish and usage is not None else {}
        finish_tags = tags + (("usage",) if on_finish else ())
        out.append(self._frame(self._chunk(delta, ev.reason, **extra), *finish_tags))
        if usage is not None and not on_finish:
            out.append(self._frame(self._chunk(None, usage=_usage_json(usage)), "usage"))
        out.append(Frame("[DONE]", tags=frozenset({"terminal"})))
        return out


# --------------------------------------------------------------------------------------------------
# Observer


@dataclass
class _Reader:
    """Per-stream state shared by the streaming and the non-streaming readers."""

    fields: tuple[str, ...]
    implicit: bool
    inline: bool = True  # False: never split inline <think> (a front door that claims structured reasoning)
    splitter: ThinkSplitter = field(init=False)
    structured: bool = False
    mirrored_noted: bool = False
    finish: str | None = None
    tool_ids: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.splitter = ThinkSplitter(implicit=self.implicit)

    def reasoning(self, obj: Mapping[str, Any]) -> list[Event]:
        """The reasoning of one delta/message: one text field, plus reasoning_details' opaque parts."""
        out: list[Event] = []
        texts: list[tuple[str, str]] = []
        details = obj.get("reasoning_details") if "reasoning_details" in self.fields else None
        for name in self.fields:
            if name == "reasoning_details":
                if isinstance(details, list):
                    t = "".join(
                        d.get("text") or d.get("summary") or ""
                        for d in details
                        if isinstance(d, Mapping) and d.get("type") in ("reasoning.text", "reasoning.summary")
                    )
                    if t:
                        texts.append((name, t))
                continue
            val = obj.get(name)
            if isinstance(val, str) and val:
                texts.append((name, val))
        chosen = texts[0] if texts else None
        details_text = ""
        if isinstance(details, list):
            details_text = "".join(
                str(d.get("text") or d.get("summary") or "")
                for d in details
                if isinstance(d, Mapping) and d.get("type") in ("reasoning.text", "reasoning.summary")
            )
        if chosen is not None or (isinstance(details, list) and details):
            self.structured = True
            out += self.splitter.release()
        if len(texts) > 1 and not self.mirrored_noted:
            self.mirrored_noted = True
            same = all(t == texts[0][1] for _, t in texts)
            names = ",".join(n for n, _ in texts)
            out.append(Notice("mirrored", names if same else names + " (texts differ)"))
        # Read reasoning_details in order when it carries the chosen text (keeps redacted/text order).
        from_details = chosen is None or chosen[0] == "reasoning_details" or chosen[1] == details_text
        if chosen is not None and not from_details:
            out.append(ReasoningDelta(chosen[1]))
        if isinstance(details, list):
            for d in details:
                if not isinstance(d, Mapping):
                    continue
                kind = d.get("type")
                if kind in ("reasoning.text", "reasoning.summary"):
                    piece = d.get("text") or d.get("summary")
                    if from_details and isinstance(piece, str) and piece:
                        out.append(ReasoningDelta(piece))
                    sig = d.get("signature")
                    if kind == "reasoning.text" and isinstance(sig, str) and sig:
                        out.append(ReasoningSignature(sig))
                elif kind == "reasoning.encrypted" and isinstance(d.get("data"), str):
                    if d.get("format") == _GEMINI_FORMAT and d.get("id"):
                        out.append(ReasoningSignature(d["data"], item=str(d["id"])))
                    else:
                        out.append(RedactedReasoning(d["data"]))
        return out

    def content(self, content: Any) -> list[Event]:
        if content is None or content == "":
            return []
        if isinstance(content, str):
            if self.structured or not self.inline:
                return [*self.splitter.release(), TextDelta(content)]
            return list(self.splitter.feed(content))
        out: list[Event] = []
        if isinstance(content, list):  # Mistral chunks
            for part in content:
                if not isinstance(part, Mapping):
                    continue
                if part.get("type") == "thinking":
                    inner = part.get("thinking")
                    text = (
                        "".join(p.get("text", "") for p in inner if isinstance(p, Mapping))
                        if isinstance(inner, list)
                        else (inner if isinstance(inner, str) else "")
                    )
                    self.structured = True
                    out += self.splitter.release()
                    if text:
                        out.append(ReasoningDelta(text))
                    if isinstance(part.get("signature"), str) and part["signature"]:
                        out.append(ReasoningSignature(part["signature"]))
                elif part.get("type") == "text" and isinstance(part.get("text"), str):
                    out += self.content(part["text"])
            return out
        return [Notice("unknown-content", dumps_compact(content)[:80])]

    def tool_calls(self, calls: Any) -> list[Event]:
        out: list[Event] = []
        if not isinstance(calls, list):
            return out
        for n, call in enumerate(calls):
            if not isinstance(call, Mapping):
                continue
            index = call.get("index", n)
            fn = call.get("function") if isinstance(call.get("function"), Mapping) else {}
            assert isinstance(fn, Mapping)
            args = fn.get("arguments")
            cid = call.get("id")
            name = fn.get("name")
            out.append(
                ToolCallDelta(
                    int(index) if isinstance(index, int) else n,
                    cid if isinstance(cid, str) else None,
                    name if isinstance(name, str) else None,
                    args if isinstance(args, str) else (dumps_compact(args) if args is not None else ""),
                )
            )
        return out

    def end_text(self) -> list[Event]:
        out: list[Event] = list(self.splitter.end())
        if self.splitter.unclosed:
            out.append(Notice("think-unclosed", "a <think> block was never closed"))
        return out


class ChatObserver:
    """Raw SSE bytes (any split) -> canonical events. Options: ``reasoning_fields`` (priority order),
    ``implicit_think`` (content before the first ``</think>`` is reasoning; default on for the
    ``think-implicit`` variant), ``inline_think=False`` (never split inline tags: for reading a SUT
    whose front door claims structured reasoning, so tags it leaks into content are seen as such)."""

    def __init__(
        self,
        *,
        reasoning_fields: Sequence[str] = DEFAULT_REASONING_FIELDS,
        implicit_think: bool = False,
        inline_think: bool = True,
    ) -> None:
        self._sse = SSEDecoder()
        self._r = _Reader(tuple(reasoning_fields), implicit_think, inline_think)
        self._anomalies = 0
        self._done = False
        self._errored = False
        self._after_noted = False

    def feed(self, data: bytes) -> list[Event]:
        out: list[Event] = []
        for sse in self._sse.feed(data):
            out += self._frame(sse.data)
        out += self._notices()
        return out

    def end(self) -> list[Event]:
        self._sse.end()  # returns nothing: an incomplete event is not dispatched (WHATWG)
        out: list[Event] = self._notices()
        if not self._done:
            out += self._r.end_text()
            if not self._errored:
                out.append(Notice("no-terminator", "EOF without data: [DONE]"))
        return out

    def _notices(self) -> list[Event]:
        new = self._sse.anomalies[self._anomalies :]
        self._anomalies = len(self._sse.anomalies)
        return [Notice(f"sse-{a}") for a in new]

    def _frame(self, data: str) -> list[Event]:
        if self._done or self._errored:
            if self._after_noted:
                return []
            self._after_noted = True
            return [Notice("data-after-end", data[:80])]
        if data.strip() == "[DONE]":
            self._done = True
            return [*self._r.end_text(), End(_finish(self._r.finish))]
        try:
            obj = loads(data)
        except (JSONDecodeError, ValueError):
            return [Notice("malformed-json", data[:80])]
        if not isinstance(obj, Mapping):
            return [Notice("unknown-frame", data[:80])]
        out: list[Event] = []
        choices = obj.get("choices")
        if isinstance(choices, list):
            for choice in choices:
                if not isinstance(choice, Mapping):
                    continue
                delta = choice.get("delta")
                if isinstance(delta, Mapping):
                    out += self._r.reasoning(delta)
                    out += self._r.content(delta.get("content"))
                    out += self._r.tool_calls(delta.get("tool_calls"))
                fr = choice.get("finish_reason")
                if isinstance(fr, str) and fr and fr != "error":
                    self._r.finish = fr
        elif "error" not in obj and "usage" not in obj:
            out.append(Notice("unknown-frame", data[:80]))
        usage = _usage_event(obj.get("usage"))
        if usage is not None:
            out.append(usage)
        if obj.get("error"):
            out += self._r.end_text()
            self._errored = True
            out.append(_error_event(obj["error"]))
        return out


def _finish(reason: str | None) -> str:
    return reason or "stop"


def observe_response(
    body: bytes,
    *,
    reasoning_fields: Sequence[str] = DEFAULT_REASONING_FIELDS,
    implicit_think: bool = False,
    inline_think: bool = True,
    **_: Any,
) -> list[Event]:
    """Canonical events from a non-streaming ``chat.completion`` body."""
    try:
        obj = loads(body.strip() or b"null")
    except (JSONDecodeError, ValueError):
        return [Notice("malformed-json", body[:80].decode(errors="replace"))]
    if not isinstance(obj, Mapping):
        return [Notice("unknown-frame", body[:80].decode(errors="replace"))]
    if obj.get("error"):
        return [_error_event(obj["error"])]
    r = _Reader(tuple(reasoning_fields), implicit_think, inline_think)
    out: list[Event] = []
    finish: str | None = None
    for choice in obj.get("choices") or []:
        if not isinstance(choice, Mapping):
            continue
        msg = choice.get("message")
        if isinstance(msg, Mapping):
            out += r.reasoning(msg)
            out += r.content(msg.get("content"))
            out += r.end_text()
            out += r.tool_calls(msg.get("tool_calls"))
        if isinstance(choice.get("finish_reason"), str):
            finish = choice["finish_reason"]
    usage = _usage_event(obj.get("usage"))
    if usage is not None:
        out.append(usage)
    out.append(End(_finish(finish)))
    return out


# --------------------------------------------------------------------------------------------------
# Non-streaming emitter and the request codec


def _rd_details(
    blocks: Sequence[ReasoningBlock], calls: Sequence[ToolCallBlock] = ()
) -> list[dict[str, Any]]:
    """reasoning_details entries; a tool call's own signature (Gemini's thoughtSignature) travels as a
    ``reasoning.encrypted`` detail whose ``id`` is the tool call id, as OpenRouter sends it."""
    out: list[dict[str, Any]] = []
    for n, b in enumerate(blocks):
        if b.redacted is not None:
            out.append({"type": "reasoning.encrypted", "data": b.redacted, "format": _RD_FORMAT, "index": n})
            continue
        d: dict[str, Any] = {"type": "reasoning.text", "text": b.text}
        if b.signature is not None:
            d["signature"] = b.signature
        d["format"] = _RD_FORMAT
        d["index"] = n
        out.append(d)
    for c in calls:
        if c.signature is not None:
            out.append({"type": "reasoning.encrypted", "data": c.signature, "id": c.id,
                        "format": _GEMINI_FORMAT, "index": len(out)})
    return out


def _assistant_json(msg: Message, variant: str, *, request: bool) -> dict[str, Any]:
    """An assistant message in ``variant``'s form (response ``message`` or request history entry)."""
    rblocks = [b for b in msg.content if isinstance(b, ReasoningBlock)]
    reasoning = "".join(b.text for b in rblocks if b.redacted is None)
    text = msg.text
    calls = msg.tool_calls
    out: dict[str, Any] = {"role": "assistant"}
    content: Any = text if (text or not calls) else None
    if variant in _THINK and reasoning:
        content = f"{OPEN}{reasoning}{CLOSE}{text}"
    elif variant == "mistral" and reasoning:
        think: dict[str, Any] = {"type": "thinking", "thinking": [{"type": "text", "text": reasoning}]}
        if request:
            think["closed"] = True
        content = [think] + ([{"type": "text", "text": text}] if text else [])
    out["content"] = content
    if variant == "reasoning_content" and (reasoning or calls or not request):
        out["reasoning_content"] = reasoning
    elif variant == "reasoning" and reasoning:
        out["reasoning"] = reasoning
    elif variant == "reasoning_details" and (rblocks or any(c.signature for c in calls)):
        if reasoning and not request:
            out["reasoning"] = reasoning
        out["reasoning_details"] = _rd_details(rblocks, calls)
    if calls:
        out["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ]
    return out


def emit_response(turn: Turn, variant: str, *, model: str = "mock-model") -> bytes:
    _check_variant(variant)
    for ev in turn:
        if isinstance(ev, StreamError):
            return error_body(ev.status or 500, ev.message, ev.code)
    msg = assemble(turn)
    end = next((ev for ev in turn if isinstance(ev, End)), End("tool_calls" if msg.tool_calls else "stop"))
    usage = next((ev for ev in turn if isinstance(ev, Usage)), None)
    message = _assistant_json(msg, variant, request=False)
    if variant == "usage-only":
        message.pop("reasoning_content", None)
    choice: dict[str, Any] = {"index": 0, "message": message, "logprobs": None, "finish_reason": end.reason}
    obj: dict[str, Any] = {
        "id": f"chatcmpl-mock{next(_ids)}",
        "object": "chat.completion",
        "created": _CREATED,
        "model": model,
        "choices": [choice],
    }
    if usage is not None:
        obj["usage"] = _usage_json(usage)
    return dumps_compact(obj).encode()


def error_body(status: int, message: str, code: str | None = None) -> bytes:
    kind = "invalid_request_error" if 400 <= status < 500 else "server_error"
    return dumps_compact({"error": {"message": message, "type": kind, "param": None, "code": code}}).encode()


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p.get("text", "") for p in content if isinstance(p, Mapping) and p.get("type") == "text"
        )
    return ""


def build_request(
    messages: Sequence[Message],
    *,
    model: str,
    stream: bool,
    variant: str = "reasoning_content",
    **options: Any,
) -> RequestSpec:
    _check_variant(variant)
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "assistant":
            out.append(_assistant_json(m, variant, request=True))
        elif m.role == "tool":
            for b in m.content:
                if isinstance(b, ToolResultBlock):
                    out.append({"role": "tool", "tool_call_id": b.call_id, "content": b.content})
        else:
            out.append({"role": m.role, "content": m.text})
    body: dict[str, Any] = {"model": model, "messages": out, "stream": stream}
    if stream:
        body["stream_options"] = {"include_usage": True}
    body.update(options)
    return RequestSpec("/v1/chat/completions", body)


def parse_assistant(raw: Mapping[str, Any]) -> Message:
    """One request-history assistant entry -> canonical message (every passback form accepted)."""
    blocks: list[ReasoningBlock | TextBlock | ToolCallBlock] = []
    call_ids = {c.get("id") for c in raw.get("tool_calls") or [] if isinstance(c, Mapping)}
    call_sigs: dict[str, str] = {}
    details = raw.get("reasoning_details")
    content = raw.get("content")
    if isinstance(details, list) and details:
        for d in details:
            if not isinstance(d, Mapping):
                continue
            if d.get("type") == "reasoning.encrypted":
                if d.get("format") == _GEMINI_FORMAT and d.get("id") in call_ids:
                    call_sigs[str(d["id"])] = str(d.get("data", ""))
                    continue
                blocks.append(ReasoningBlock("", redacted=str(d.get("data", "")), id=str(d.get("id", ""))))
            elif d.get("type") in ("reasoning.text", "reasoning.summary"):
                sig = d.get("signature")
                blocks.append(
                    ReasoningBlock(
                        str(d.get("text") or d.get("summary") or ""),
                        signature=sig if isinstance(sig, str) else None,
                        id=str(d.get("id", "")),
                    )
                )
    else:
        for name in ("reasoning_content", "reasoning", "reasoning_text"):
            val = raw.get(name)
            if isinstance(val, str) and val:
                blocks.append(ReasoningBlock(val))
                break
    text = ""
    if isinstance(content, list):
        for part in content:
            if isinstance(part, Mapping) and part.get("type") == "thinking":
                inner = part.get("thinking")
                t = (
                    "".join(p.get("text", "") for p in inner if isinstance(p, Mapping))
                    if isinstance(inner, list)
                    else str(inner or "")
                )
                if not blocks and t:
                    blocks.append(ReasoningBlock(t))
        text = _text_of(content)
    elif isinstance(content, str):
        if not blocks:
            r, c, found = split_think(content)
            if found:
                if r:
                    blocks.append(ReasoningBlock(r))
                content = c
        text = content
    if text:
        blocks.append(TextBlock(text))
    for call in raw.get("tool_calls") or []:
        if isinstance(call, Mapping):
            fn = call.get("function") if isinstance(call.get("function"), Mapping) else {}
            assert isinstance(fn, Mapping)
            cid = str(call.get("id", ""))
            blocks.append(ToolCallBlock(cid, str(fn.get("name", "")), str(fn.get("arguments", "")),
                                        signature=call_sigs.get(cid)))
    return Message("assistant", tuple(blocks))


def parse_request(body: Mapping[str, Any]) -> list[Message]:
    out: list[Message] = []
    for raw in body.get("messages") or []:
        if not isinstance(raw, Mapping):
            continue
        role = raw.get("role")
        if role == "assistant":
            out.append(parse_assistant(raw))
        elif role == "tool":
            out.append(
                Message.tool(
                    str(raw.get("tool_call_id", "")), _text_of(raw.get("content")), str(raw.get("name", ""))
                )
            )
        elif role in ("system", "developer"):
            out.append(Message("system", (TextBlock(_text_of(raw.get("content"))),)))
        else:
            out.append(Message.user(_text_of(raw.get("content"))))
    return out


# --------------------------------------------------------------------------------------------------
# The dialect object


class OpenAIChatDialect:
    name = NAME
    transport = Transport.SSE
    content_type = "text/event-stream"
    path_suffixes: tuple[str, ...] = ("/chat/completions",)
    variants: Mapping[str, Variant] = VARIANTS
    default_variant = "reasoning_content"

    def emitter(self, variant: str, *, model: str = "mock-model") -> ChatEmitter:
        return ChatEmitter(variant, model=model)

    emit_response = staticmethod(emit_response)

    def observer(self, variant: str | None = None, **options: Any) -> ChatObserver:
        if variant is not None:
            _check_variant(variant)
        options.setdefault("implicit_think", variant == "think-implicit")
        return ChatObserver(**options)

    observe_response = staticmethod(observe_response)
    error_body = staticmethod(error_body)
    build_request = staticmethod(build_request)
    parse_request = staticmethod(parse_request)

    def profiles(self) -> Mapping[str, ProviderProfile]:
        from harness.dialects._chat_profiles import PROFILES

        return PROFILES


DIALECT = OpenAIChatDialect()
