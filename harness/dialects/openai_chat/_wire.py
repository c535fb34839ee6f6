"""The OpenAI Chat Completions stream both ways: the emitter, events to ``chat.completion.chunk`` SSE frames,
and the streaming observer, bytes to events (and the usage object, streamed or whole). What differs between
variants is data, a :class:`Shape` picked once per stream as h11 picks a reader from
``READERS[(role, state)]``, so code branches on the :class:`Carrier` only where the delta's structure
differs."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from harness._json import dumps_compact
from harness.codec import Frame, SSEDecoder, SSEEvent
from harness.dialects._base import EmitterLoop
from harness.dialects._carriers import (
    CARRIERS,
    GEMINI_FORMAT,
    OPENAI_FORMAT,
    RD_FORMAT,
    Carrier,
    Specs,
    encrypted_detail,
    server_tool_call,
    summary_detail,
    text_detail,
)
from harness.dialects._chat_shape import Shape
from harness.dialects._framed import FramedObserver, json_frame
from harness.dialects._think import TAGS
from harness.dialects.openai_chat._reader import INLINE_THINK, Reader
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

# ``Reader`` is re-exported: ``harness.dialects`` lends it to the SDK drivers.
__all__ = [
    "CREATED",
    "ChatEmitter",
    "ChatObserver",
    "Reader",
    "completion_id",
    "error_event",
    "reading_order",
    "usage_event",
    "usage_json",
]

CREATED = 1760000000


def reading_order(fields: Sequence[str] | None, carriers: Specs = ()) -> tuple[str, ...]:
    """The text priority: ``fields`` as given, else every built-in carrier then the declared ones (the
    first non-empty field of a delta is its reasoning; the others are mirrors)."""
    if fields is not None:
        return tuple(fields)
    return (*CARRIERS, *(c.name for c in carriers))


_ids = itertools.count(1)


def completion_id() -> str:
    return f"chatcmpl-mock{next(_ids)}"


def usage_json(u: Usage, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``extra``: the provider's own usage fields, merged in (nested objects key by key; the value
    ``"prompt"`` stands for the prompt token count, as DeepSeek's ``prompt_cache_miss_tokens``)."""
    out: dict[str, Any] = {}
    if u.input_tokens is not None:
        out["prompt_tokens"] = u.input_tokens
    if u.output_tokens is not None:
        out["completion_tokens"] = u.output_tokens
    total = u.total_tokens
    if total is None and u.input_tokens is not None and u.output_tokens is not None:
        total = u.input_tokens + u.output_tokens  # every provider's usage has it (corpus deepseek-*, groq-*)
    if total is not None:
        out["total_tokens"] = total
    if u.reasoning_tokens is not None:
        out["completion_tokens_details"] = {"reasoning_tokens": u.reasoning_tokens}
    for key, value in (extra or {}).items():
        if isinstance(value, Mapping):  # the known counts first, as recorded (reasoning_tokens leads)
            out[key] = {**out.get(key, {}), **value}
        else:
            out[key] = (u.input_tokens or 0) if value == "prompt" else value
    return out


def usage_event(raw: Any) -> Usage | None:
    if not isinstance(raw, Mapping):
        return None
    details = raw.get("completion_tokens_details")
    rt = details.get("reasoning_tokens") if isinstance(details, Mapping) else None
    return Usage(raw.get("prompt_tokens"), raw.get("completion_tokens"), rt, raw.get("total_tokens"))


def _error_json(ev: StreamError) -> dict[str, Any]:
    meta = None if ev.code is None else {"error_type": ev.code}
    fields = {"code": ev.status, "message": ev.message, "metadata": meta}
    return {k: v for k, v in fields.items() if v is not None}


def error_event(raw: Any) -> StreamError:
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


class ChatEmitter(EmitterLoop):
    """Canonical events -> ``chat.completion.chunk`` SSE frames in one variant's :class:`Shape`.

    Usage is held until :class:`End` (DeepSeek/Mistral put it on the finish chunk, the others in a
    usage chunk after it, ``choices:[]`` or OpenRouter's one role choice, only when the request asked
    with ``stream_options.include_usage``). A :class:`StreamError` writes an OpenRouter-style error
    chunk and ends the stream without ``[DONE]``.

    Frame tags: ``start`` for the role chunk, ``reasoning``, ``reasoning-done``, ``text``, ``tool``,
    ``usage``, ``error``, and ``terminal`` for ``[DONE]``. ``reasoning-done`` is on the first frame after
    the last reasoning delta, which a streaming emitter cannot know is the last; for the think variants it
    is the frame carrying ``</think>``.
    """

    def __init__(self, shape: Shape, *, model: str = "mock-model", id: str | None = None) -> None:
        self.shape = shape
        self.model = model
        self.id = id or completion_id()
        self.include_usage = True
        """Whether the request asked for usage (``stream_options.include_usage``: :meth:`bind_request`)."""
        self._chunks = 0
        self._started = False
        self._in_reasoning = False
        self._think: Literal["none", "open", "closed"] = "none"  # the variant's one leading inline block
        self._pending_prefix = ""  # think-split: "ink>" owed after "</th"
        self._usage: Usage | None = None
        self._tools_seen: set[int] = set()
        self._rd_index = -1
        self._rd_block_open = False
        self._rd_item = ""  # OPENAI_FORMAT: the open block's Responses item id
        self._rd_items = 0
        self._items = shape.detail.get("format") == OPENAI_FORMAT  # OpenRouter in front of OpenAI
        self._role_pending = False
        self._call_ids: dict[str, None] = {}  # the tool call ids streamed, in order
        self._after_call: str | None = None  # the call a signature right after it belongs to

    def bind_request(self, request: Mapping[str, Any]) -> None:
        """What the stream depends on in the request: ``stream_options.include_usage`` (OpenAI sends
        ``"usage": null`` on every chunk and the ``choices:[]`` usage chunk only when it is set)."""
        opts = request.get("stream_options")
        self.include_usage = isinstance(opts, Mapping) and opts.get("include_usage") is True

    # -- envelope
    def _choice(self, delta: Mapping[str, Any], finish: str | None, *, base: bool = True) -> dict[str, Any]:
        s = self.shape
        choice: dict[str, Any] = {"index": 0, "delta": {**(s.base_delta if base else {}), **delta}}
        if s.native_finish:
            choice |= {"finish_reason": finish, "native_finish_reason": finish, "logprobs": None}
            return choice
        if s.logprobs:
            choice["logprobs"] = None
        choice["finish_reason"] = finish
        return choice

    def _chunk(
        self, delta: Mapping[str, Any] | None, finish: str | None = None, **top: Any
    ) -> dict[str, Any]:
        s = self.shape
        obj: dict[str, Any] = {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": self.model,
            **s.envelope,
        }
        if "error" in top:
            obj["error"] = top.pop("error")
        if delta is None:
            usage_choice = s.usage_choice
            obj["choices"] = [] if usage_choice is None else [self._choice(usage_choice, None, base=False)]
        else:
            obj["choices"] = [self._choice(delta, finish)]
        if s.null_usage and self.include_usage:
            obj["usage"] = None
        obj.update(top)
        if s.obfuscation:
            self._chunks += 1
            obj["obfuscation"] = "mockPadding01"[: 3 + self._chunks % 10]
        return obj

    def _frame(self, obj: Mapping[str, Any], *tags: str) -> Frame:
        return Frame(dumps_compact(obj), tags=frozenset(tags))

    def _content(self, content: Any, *tags: str) -> Frame:
        return self._frame(self._chunk({"content": content}), *tags)

    def _delta_frame(self, delta: Mapping[str, Any], *tags: str) -> Frame:
        if self._in_reasoning and "reasoning" not in tags:
            self._in_reasoning = False
            tags = (*tags, "reasoning-done")
        return self._frame(self._chunk(delta), *tags)

    def _start(self) -> list[Frame]:
        if self._started:
            return []
        self._started = True
        return [self._frame(self._chunk(self.shape.role), "start")]

    def feed(self, events: Sequence[Event]) -> list[Frame]:
        """A stream opening with a tool call (no reasoning or text before it) folds the role chunk
        into the tool call's first chunk where the variant does (``role_with_tools``)."""
        if not self._started and self.shape.role_with_tools:
            first = next((e for e in events if not isinstance(e, Usage | Notice)), None)
            if isinstance(first, ToolCallDelta):
                self._started = True
                self._role_pending = True
        return super().feed(events)

    # -- per event (feed and close: EmitterLoop)
    def _close_think(self) -> list[Frame]:
        """Close an open inline block before anything that is not reasoning."""
        if self._think != "open":
            return []
        self._think = "closed"
        close, *owed = self.shape.closer
        self._pending_prefix = "".join(owed)
        self._in_reasoning = False
        return [self._content(close, "reasoning-done")]

    def _flush_prefix(self) -> list[Frame]:
        if not self._pending_prefix:
            return []
        prefix, self._pending_prefix = self._pending_prefix, ""
        return [self._delta_frame({"content": prefix}, "text")]

    def _event(self, ev: Event) -> list[Frame]:
        if not isinstance(ev, ToolCallDelta | ReasoningSignature):
            self._after_call = None
        if isinstance(ev, ReasoningDelta):
            return self._reasoning(ev)
        if isinstance(ev, ReasoningSignature | RedactedReasoning):
            if self.shape.carrier is not Carrier.DETAILS:
                return []  # the variant cannot carry it (not in its caps)
            return self._rd_opaque(ev)
        out: list[Frame] = []
        if isinstance(ev, TextDelta):
            out += self._close_think()
            text = self._pending_prefix + ev.text
            self._pending_prefix = ""
            if text:
                out.append(self._delta_frame({"content": text, **self.shape.text}, "text"))
            return out
        if isinstance(ev, ToolCallDelta):
            out += self._close_think() + self._flush_prefix()
            if ev.index not in self._tools_seen:
                self._tools_seen.add(ev.index)
                cid = self._after_call = ev.id or f"call_mock_{ev.index}"
                self._call_ids[cid] = None
                fn = {"name": ev.name or "", "arguments": ""}
                delta: dict[str, Any] = {
                    "tool_calls": [{"index": ev.index, "id": cid, "type": "function", "function": fn}]
                }
                if self._role_pending:  # recorded (OpenAI): the role rides on the first tool call chunk
                    self._role_pending = False
                    role = {k: v for k, v in self.shape.role.items() if k != "content"}
                    delta = {**role, "content": None, **delta}
                out.append(self._delta_frame(delta, "tool"))
            if ev.arguments:
                args = {"index": ev.index, "function": {"arguments": ev.arguments}}
                out.append(self._delta_frame({"tool_calls": [args]}, "tool"))
            return out
        if isinstance(ev, Usage):
            self._usage = ev
            return out
        if isinstance(ev, StreamError):
            out += self._close_think() + self._flush_prefix()
            self.ended = True
            obj = self._chunk({"content": ""}, "error", error=_error_json(ev))
            return [*out, self._frame(obj, "error", *(("reasoning-done",) if self._in_reasoning else ()))]
        if isinstance(ev, End):
            return self._end(ev)
        return out  # Notice: not part of the wire

    def _reasoning(self, ev: ReasoningDelta) -> list[Frame]:
        carrier, text = self.shape.carrier, ev.text
        if not text or carrier is Carrier.NONE:
            return []
        if carrier is Carrier.INLINE:
            return self._think_reasoning(text)
        self._in_reasoning = True
        delta: dict[str, Any]
        if carrier is Carrier.REASONING_CONTENT:
            delta = {"content": None, "reasoning_content": text}
        elif carrier is Carrier.REASONING:
            delta = {"reasoning": text}
        elif carrier is Carrier.MISTRAL:
            delta = {"content": [{"type": "thinking", "thinking": [{"type": "text", "text": text}]}]}
        else:  # DETAILS: mirrored in delta.reasoning as OpenRouter sends it, or alone as MiniMax does
            items = self._items
            if items and ev.item and ev.item != self._rd_item:
                self._rd_block_open = False  # another Responses item begins
            if not self._rd_block_open:
                self._rd_index += 1
                self._rd_block_open = True
                self._rd_item = ev.item or f"rs_mock{self._rd_items}"
                self._rd_items += 1
            index = self._rd_index
            detail = (
                summary_detail(text, self._rd_item, index)
                if items
                else text_detail(text, index, self.shape.detail)
            )
            mirror = {"reasoning": text} if self.shape.mirror else {}
            delta = {"role": "assistant", "content": "", **mirror, "reasoning_details": [detail]}
        delta |= dict.fromkeys(self.shape.also, text)  # a flat mirror: the same text in another field
        return [self._frame(self._chunk(delta), "reasoning")]

    def _think_reasoning(self, text: str) -> list[Frame]:
        if self._think == "closed":
            # The variant carries one leading block only: later reasoning can only be content.
            return self._event(TextDelta(text))
        out: list[Frame] = []
        if self._think == "none":
            self._think = "open"
            *before, prefix = self.shape.opener or ("",)
            out += [self._content(piece, "reasoning") for piece in before]
            text = prefix + text
        self._in_reasoning = True
        out.append(self._content(text, "reasoning"))
        return out

    def _rd_opaque(self, ev: ReasoningSignature | RedactedReasoning) -> list[Frame]:
        self._in_reasoning = True
        detail: dict[str, Any]
        call = ev.item if ev.item in self._call_ids else self._after_call
        if isinstance(ev, ReasoningSignature) and call is not None:
            # a tool call's own signature (Gemini's thoughtSignature): an encrypted detail naming the
            # call, as OpenRouter sends it and as a whole body carries it (``details``)
            self._rd_index += 1
            return self._details_frame(encrypted_detail(ev.value, self._rd_index, call, GEMINI_FORMAT))
        if isinstance(ev, ReasoningSignature) and (self._items or ev.item.startswith("rs_")):
            # a Responses item's encrypted content, a detail of its own under the summary's item id: the
            # variant's form (OpenRouter in front of OpenAI), or an item read from such details (the
            # readable text before it streams in the variant's own form; a reader gives that id-less
            # block the item's id when the signature names it)
            self._rd_index += 1
            item = ev.item or (self._rd_item if self._rd_block_open else "") or f"rs_mock{self._rd_items}"
            if not self._rd_block_open:
                self._rd_items += 1
            detail = encrypted_detail(ev.value, self._rd_index, item, OPENAI_FORMAT)
        elif isinstance(ev, ReasoningSignature):
            if not self._rd_block_open:
                self._rd_index += 1
            detail = {"type": "reasoning.text", "signature": ev.value}
        else:  # a redacted block; an OpenRouter server-tool record keeps its own fields
            self._rd_index += 1
            detail = server_tool_call(ev.data) or encrypted_detail(ev.data, self._rd_index)
        self._rd_block_open = False  # a signature closes its block; a redacted one is a block
        return self._details_frame(
            detail | {"format": detail.get("format", RD_FORMAT), "index": self._rd_index}
        )

    def _details_frame(self, detail: Mapping[str, Any]) -> list[Frame]:
        delta = {"role": "assistant", "content": "", "reasoning_details": [detail]}
        return [self._frame(self._chunk(delta), "reasoning")]

    def _end(self, ev: End) -> list[Frame]:
        out = self._close_think() + self._flush_prefix()
        self.ended = True
        s, usage = self.shape, self._usage
        tags = ("reasoning-done",) if self._in_reasoning else ()
        self._in_reasoning = False
        delta = s.finish_on_tools if ev.reason == "tool_calls" and s.finish_on_tools is not None else s.finish
        on_finish = s.usage_on_finish and usage is not None
        extra = {"usage": usage_json(usage, s.usage_extra)} if on_finish and usage is not None else {}
        finish_tags = tags + (("usage",) if on_finish else ())
        out.append(self._frame(self._chunk(delta, ev.reason, **extra), *finish_tags))
        if usage is not None and not on_finish and self.include_usage:
            out.append(self._frame(self._chunk(None, usage=usage_json(usage, s.usage_extra)), "usage"))
        out.append(Frame("[DONE]", tags=frozenset({"terminal"})))
        return out


# --------------------------------------------------------------------------------------------------
# Observer (one delta's reading: ``_reader.Reader``)


class ChatObserver(FramedObserver[SSEEvent]):
    """Raw SSE bytes (any split) -> canonical events. Options: ``reasoning_fields`` (priority order;
    default every carrier, the declared ``carriers`` last),
    ``implicit_think`` (content before the first ``</think>`` is reasoning; default on for the
    ``think-implicit`` variant), ``inline_think`` (default :data:`INLINE_THINK`; False never splits
    inline tags: for reading a SUT whose front door claims structured reasoning, so tags it leaks into
    content are seen as such), ``think_tags`` (the inline tag pair; ``<think>`` unless the upstream
    variant names another).

    It reads one reasoning field per delta, in ``reasoning_fields`` priority, never concatenates mirrors,
    and splits inline ``<think>`` only when it leads the content and no structured reasoning was seen.
    """

    def __init__(
        self,
        *,
        reasoning_fields: Sequence[str] | None = None,
        implicit_think: bool = False,
        inline_think: bool = INLINE_THINK,
        carriers: Specs = (),
        think_tags: tuple[str, str] = TAGS,
    ) -> None:
        super().__init__(SSEDecoder(), "sse")
        fields = reading_order(reasoning_fields, carriers)
        self._r = Reader(fields, implicit_think, inline_think, carriers, think_tags)
        self._done = False
        self._errored = False

    def _eof(self) -> list[Event]:
        if self._done:
            return []
        out = self._r.end_text()
        if not self._errored:
            out.append(Notice("no-terminator", "EOF without data: [DONE]"))
        return out

    def _take(self, sse: SSEEvent, out: list[Event]) -> None:
        data = sse.data
        if self._done or self._errored:
            self._after_end(data, out)
            return
        if data.strip() == "[DONE]":
            self._done = True
            out += [*self._r.end_text(), End(self._r.finish or "stop")]
            return
        obj = json_frame(data, out)
        if obj is None:
            return
        choices = obj.get("choices")
        if isinstance(choices, list):
            for choice in (c for c in choices if isinstance(c, Mapping)):
                delta = choice.get("delta")
                if isinstance(delta, Mapping):
                    out += self._r.reasoning(delta)
                    out += self._r.content(delta.get("content"))
                    out += self._r.tool_calls(delta.get("tool_calls"))
                    out += self._r.extras(delta)
                fr = choice.get("finish_reason")
                if isinstance(fr, str) and fr and fr != "error":
                    self._r.finish = fr
                    out += self._r.end_text()
        elif "error" not in obj and "usage" not in obj:
            out.append(Notice("unknown-frame", data[:80]))
        usage = usage_event(obj.get("usage"))
        if usage is not None:
            out.append(usage)
        if obj.get("error"):
            out += self._r.end_text()
            self._errored = True
            out.append(error_event(obj["error"]))
