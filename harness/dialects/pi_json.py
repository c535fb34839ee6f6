"""The pi ``--print --mode json`` dialect: the JSONL agent-event stream pi-style CLIs write to stdout. It is
not served over HTTP, so ``path_suffixes`` is empty and the request codec models pi's message list."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from harness._json import dumps_compact
from harness.codec import Frame, JSONLDecoder
from harness.dialects._base import (
    LENIENT,
    READ_ALL,
    Caps,
    Dialect,
    EmitterLoop,
    LenientRules,
    ProviderRules,
    Reading,
    RequestSpec,
    Transport,
    Variant,
)
from harness.dialects._framed import FramedObserver, json_frame
from harness.dialects._values import object_args, opt_str
from harness.dialects._variant import DOCS, Senders, by_name
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    ToolResultBlock,
    Turn,
    Usage,
)

__all__ = ["DIALECT", "VARIANTS", "PiDialect", "PiEmitter", "PiObserver"]

NAME = "pi-json"
_CAPS = frozenset({Caps.REASONING, Caps.TOOLS, Caps.ERRORS})
VARIANTS: dict[str, Variant] = by_name(
    (
        Variant(
            "v1",
            "PI-JSONL-V1",
            NAME,
            "pi-mono: message_update with cumulative message/partial snapshots",
            _CAPS,
            senders=Senders(("pi",), ("pi-mono",), "", DOCS["pi"]),
        ),
        Variant(
            "v2",
            "PI-JSONL-V2",
            NAME,
            "earendil pi: delta-only message_update with usage; agent_settled",
            _CAPS,
            senders=Senders(("pi",), ("earendil pi",), "", DOCS["pi"]),
        ),
    )
)
_TS = 1788220800000
_STOP = {"stop": "stop", "tool_calls": "toolUse", "length": "length"}
_STOP_BACK = {"stop": "stop", "toolUse": "tool_calls", "length": "length"}


def _usage_json(u: Usage | None) -> dict[str, Any]:
    zero = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}
    u = u or Usage()
    return {"input": u.input_tokens or 0, "output": u.output_tokens or 0, "cacheRead": 0, "cacheWrite": 0,
            "totalTokens": u.total_tokens or 0, "cost": zero}  # fmt: skip


class PiEmitter(EmitterLoop):
    """Canonical events -> the whole pi record sequence (session … agent_end [, agent_settled])."""

    def __init__(self, variant: str = "v2", *, model: str = "mock-model", prompt: str = "hi") -> None:
        self.variant = variant
        self.model = model
        self.prompt = prompt
        self._started = False
        self._content: list[dict[str, Any]] = []
        self._kind: str | None = None  # thinking | text | toolcall
        self._tool_index: int | None = None
        self._tool_args = ""
        self._usage: Usage | None = None

    def _rec(self, obj: Mapping[str, Any], *tags: str) -> Frame:
        return Frame(dumps_compact(obj), tags=frozenset(tags))

    def _assistant(self, stop: str = "stop", error: str | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"role": "assistant", "content": copy.deepcopy(self._content),
                               "api": "openai-completions", "provider": "mock", "model": self.model,
                               "usage": _usage_json(self._usage), "stopReason": stop}  # fmt: skip
        return msg | ({"errorMessage": error} if error is not None else {}) | {"timestamp": _TS + 1}

    def _update(self, ame: dict[str, Any], *tags: str) -> Frame:
        obj: dict[str, Any] = {"type": "message_update"}
        if self.variant == "v2":
            obj["usage"] = _usage_json(None)  # running usage: only message_end carries the counts (guess)
        else:
            snapshot = self._assistant()
            obj["message"] = snapshot
            ame = {**ame, "partial": snapshot}
        obj["assistantMessageEvent"] = ame
        return self._rec(obj, *tags)

    def _start(self) -> list[Frame]:
        if self._started:
            return []
        self._started = True
        user = {"role": "user", "content": self.prompt, "timestamp": _TS}
        session = {"type": "session", "version": 3, "id": "00000000-0000-4000-8000-000000000000",
                   "timestamp": "2026-09-01T00:00:00.000Z", "cwd": "/home/user/project"}  # fmt: skip
        return [
            self._rec(session, "start"),
            self._rec({"type": "agent_start"}, "start"),
            self._rec({"type": "turn_start"}, "start"),
            self._rec({"type": "message_start", "message": user}, "start"),
            self._rec({"type": "message_end", "message": user}, "start"),
            self._rec({"type": "message_start", "message": self._assistant()}, "start"),
        ]

    def _close_block(self) -> list[Frame]:
        kind, self._kind = self._kind, None
        if kind is None:
            return []
        ci = len(self._content) - 1
        block = self._content[ci]
        if kind == "toolcall":
            self._tool_index = None
            end = {"type": "toolcall_end", "contentIndex": ci, "toolCall": copy.deepcopy(block)}
            return [self._update(end, "tool")]
        end = {"type": f"{kind}_end", "contentIndex": ci, "content": block[kind]}
        return [self._update(end, "reasoning-done" if kind == "thinking" else "text")]

    def _event(self, ev: Event) -> list[Frame]:
        out: list[Frame] = []
        if isinstance(ev, ReasoningDelta | TextDelta):
            if not ev.text:
                return out
            kind, tag = ("thinking", "reasoning") if isinstance(ev, ReasoningDelta) else ("text", "text")
            if self._kind != kind:
                out += self._close_block()
                self._kind = kind
                self._content.append({"type": kind, kind: ""})
                out.append(
                    self._update({"type": f"{kind}_start", "contentIndex": len(self._content) - 1}, tag)
                )
            ci = len(self._content) - 1
            self._content[ci][kind] += ev.text
            return [*out, self._update({"type": f"{kind}_delta", "contentIndex": ci, "delta": ev.text}, tag)]
        if isinstance(ev, ToolCallDelta):
            if self._kind != "toolcall" or self._tool_index != ev.index:
                out += self._close_block()
                self._kind, self._tool_index, self._tool_args = "toolcall", ev.index, ""
                cid, name = ev.id or f"call_{ev.index}", ev.name or ""
                self._content.append({"type": "toolCall", "id": cid, "name": name, "arguments": {}})
                start: dict[str, Any] = {"type": "toolcall_start", "contentIndex": len(self._content) - 1}
                named = {"id": cid, "toolName": name} if self.variant == "v2" else {}
                out.append(self._update(start | named, "tool"))
            ci = len(self._content) - 1
            if ev.arguments:
                self._tool_args += ev.arguments
                self._content[ci]["arguments"] = object_args(self._tool_args)
                delta = {"type": "toolcall_delta", "contentIndex": ci, "delta": ev.arguments}
                out.append(self._update(delta, "tool"))
            return out
        if isinstance(ev, Usage):
            self._usage = ev
        elif isinstance(ev, StreamError):
            return self._close_block() + self._finish("error", ev.message)
        elif isinstance(ev, End):
            return self._end(ev)
        return out  # signatures/redacted/notices: not carried by pi's JSON mode

    def _end(self, ev: End) -> list[Frame]:
        return self._close_block() + self._finish(_STOP.get(ev.reason, ev.reason), None)

    def _finish(self, stop: str, error: str | None) -> list[Frame]:
        self.ended = True
        msg = self._assistant(stop, error)
        turn_msg = {"role": "assistant", "content": msg["content"], "stopReason": stop}
        agent_end: dict[str, Any] = {"type": "agent_end", "messages": []}
        if self.variant == "v2":
            agent_end["willRetry"] = False
        out = [
            self._rec({"type": "message_end", "message": msg}, "error" if error is not None else "usage"),
            self._rec({"type": "turn_end", "message": turn_msg, "toolResults": []}),
            self._rec(agent_end, *(("terminal",) if self.variant == "v1" else ())),
        ]
        if self.variant == "v2":
            out.append(self._rec({"type": "agent_settled"}, "terminal"))
        return out


_LIFECYCLE = {"session", "agent_start", "turn_start", "turn_end", "message_start"}


class PiObserver(FramedObserver[str]):
    """pi JSONL bytes (any split) -> canonical events; ``agent_end``/``agent_settled`` -> :class:`End`.

    It reads the ``assistantMessageEvent`` deltas only, never the cumulative ``message`` and ``partial``
    snapshots, so that reasoning is not counted twice; ``thinking_start`` and ``thinking_end`` are
    boundaries.
    """

    def __init__(self) -> None:
        super().__init__(JSONLDecoder(), "jsonl")
        self._tools: dict[int, int] = {}  # contentIndex -> tool ordinal
        self._tool_known: dict[int, bool] = {}  # ordinal -> id/name seen
        self._tool_args: dict[int, bool] = {}
        self._stop = "stop"
        self._ended = False
        self._errored = False

    def _eof(self) -> list[Event]:
        return [] if self._ended or self._errored else [Notice("no-terminator", "EOF without agent_end")]

    def _take(self, line: str, out: list[Event]) -> None:
        if not line.strip():
            return
        obj = json_frame(line, out)
        if obj is None:
            return
        kind = obj.get("type")
        if not isinstance(kind, str):
            out.append(Notice("unknown-frame", line[:80]))
        elif self._ended and kind != "agent_settled":
            self._after_end(line, out)
        elif kind == "message_update":
            out += self._update(obj.get("assistantMessageEvent"))
        elif kind == "message_end":
            out += self._message_end(obj.get("message"))
        elif kind in ("agent_end", "agent_settled"):
            if not self._ended and not self._errored:
                out.append(End(_STOP_BACK.get(self._stop, self._stop)))
            self._ended = True
        elif kind not in _LIFECYCLE:
            out.append(Notice("unknown-frame", line[:80]))

    def _update(self, ame: Any) -> list[Event]:
        if not isinstance(ame, Mapping):
            return [Notice("unknown-frame", "message_update without assistantMessageEvent")]
        kind = ame.get("type")
        ci = ame.get("contentIndex", 0)
        delta = ame.get("delta")
        if kind in ("thinking_delta", "text_delta") and isinstance(delta, str):
            make = ReasoningDelta if kind == "thinking_delta" else TextDelta
            return [make(delta, item=str(ci))] if delta else []
        if kind == "toolcall_start":
            n = self._tools.setdefault(ci, len(self._tools))
            cid, name = ame.get("id"), ame.get("toolName")
            self._tool_known[n] = isinstance(cid, str) and isinstance(name, str)
            return [ToolCallDelta(n, opt_str(cid), opt_str(name))]
        if kind == "toolcall_delta" and isinstance(delta, str):
            n = self._tools.setdefault(ci, len(self._tools))
            self._tool_args[n] = True
            return [ToolCallDelta(n, arguments=delta)]
        if kind == "toolcall_end":
            n = self._tools.setdefault(ci, len(self._tools))
            call = ame.get("toolCall")
            if not isinstance(call, Mapping):
                return []
            args = "" if self._tool_args.get(n) else dumps_compact(call.get("arguments") or {})
            if self._tool_known.get(n) and not args:
                return []  # the start named the call and the deltas carried its arguments
            return [ToolCallDelta(n, opt_str(call.get("id")), opt_str(call.get("name")), args)]
        if kind in ("thinking_start", "thinking_end", "text_start", "text_end", "start"):
            return []  # boundaries, not content
        return [Notice("unknown-event", str(kind))]

    def _message_end(self, msg: Any) -> list[Event]:
        if not isinstance(msg, Mapping) or msg.get("role") != "assistant":
            return []
        out: list[Event] = []
        u = msg.get("usage")
        if isinstance(u, Mapping) and (u.get("totalTokens") or u.get("input") or u.get("output")):
            out.append(Usage(u.get("input"), u.get("output"), None, u.get("totalTokens")))
        stop = msg.get("stopReason")
        if stop in ("error", "aborted"):
            self._errored = True
            err = msg.get("errorMessage")
            out.append(StreamError(err if isinstance(err, str) else str(stop), str(stop)))
        elif isinstance(stop, str):
            self._stop = stop
        return out


def _assistant_json(m: Message) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    for b in m.content:
        if isinstance(b, ReasoningBlock):
            content.append({"type": "thinking", "thinking": b.text})
        elif isinstance(b, TextBlock):
            content.append({"type": "text", "text": b.text})
        elif isinstance(b, ToolCallBlock):
            content.append(
                {"type": "toolCall", "id": b.id, "name": b.name, "arguments": object_args(b.arguments)}
            )
    return {"role": "assistant", "content": content}


RULES: dict[str, ProviderRules] = {
    LENIENT: LenientRules(NAME, "pi replays reasoning internally: nothing to enforce")
}


class PiDialect(Dialect):
    name = NAME
    transport = Transport.JSONL
    content_type = "application/x-ndjson"
    path_suffixes: tuple[str, ...] = ()
    stream_in_body = False
    stream_default = True  # pi's JSONL is always a stream
    variants = VARIANTS
    default_variant = "v2"
    observer_type = PiObserver
    rules = RULES

    def emitter(self, variant: str, *, model: str = "mock-model", prompt: str = "hi") -> PiEmitter:
        self.require_variant(variant)
        return PiEmitter(variant, model=model, prompt=prompt)

    def emit_response(self, turn: Turn, variant: str, *, model: str = "mock-model") -> bytes:
        """pi has no non-streaming form: the whole JSONL record sequence."""
        e = self.emitter(variant, model=model)
        return b"".join((f.data + "\n").encode() for f in e.feed(turn) + e.close())

    def observe_response(
        self, body: bytes, *, variant: str | None = None, reading: Reading = READ_ALL
    ) -> list[Event]:
        """One carrier: ``variant`` and ``reading`` leave nothing to choose."""
        o = PiObserver()
        return o.feed(body) + o.end()

    def error_object(self, status: int, message: str, code: str | None) -> Any:
        return {"type": "error", "error": message}

    def request_spec(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        """pi is driven by a prompt, not HTTP: ``body`` is pi's message list plus the prompt (the last
        user text)."""
        out: list[dict[str, Any]] = []
        prompt = ""
        for m in messages:
            if m.role == "assistant":
                out.append(_assistant_json(m))
            elif m.role == "tool":
                for b in (b for b in m.content if isinstance(b, ToolResultBlock)):
                    result = {"role": "toolResult", "toolCallId": b.call_id, "toolName": b.name}
                    out.append(result | {"content": [{"type": "text", "text": b.content}]})
            else:
                prompt = m.text if m.role == "user" else prompt
                out.append({"role": m.role, "content": m.text})
        return RequestSpec("", {"model": model, "prompt": prompt, "messages": out, **options})

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        out: list[Message] = []
        for raw in body.get("messages") or []:
            if not isinstance(raw, Mapping):
                continue
            role = raw.get("role")
            content = raw.get("content")
            if role == "assistant" and isinstance(content, list):
                blocks: list[ReasoningBlock | TextBlock | ToolCallBlock] = []
                for p in content:
                    if not isinstance(p, Mapping):
                        continue
                    if p.get("type") == "thinking":
                        blocks.append(ReasoningBlock(str(p.get("thinking", ""))))
                    elif p.get("type") == "text":
                        blocks.append(TextBlock(str(p.get("text", ""))))
                    elif p.get("type") == "toolCall":
                        args = dumps_compact(p.get("arguments") or {})
                        blocks.append(ToolCallBlock(str(p.get("id", "")), str(p.get("name", "")), args))
                out.append(Message("assistant", tuple(blocks)))
            elif role == "toolResult":
                parts = [p for p in content or [] if isinstance(p, Mapping) and p.get("type") == "text"]
                text = "".join(str(p.get("text", "")) for p in parts)
                out.append(Message.tool(str(raw.get("toolCallId", "")), text, str(raw.get("toolName", ""))))
            elif role == "system":
                out.append(Message("system", (TextBlock(str(content or "")),)))
            else:
                out.append(Message.user(content if isinstance(content, str) else ""))
        return out


DIALECT = PiDialect()
