"""The Ollama native dialect: ``/api/chat`` NDJSON lines with ``message.thinking``, and ``/api/generate``
lines with top-level ``thinking`` and ``response`` as variant ``generate``, each stream ending in a
``done:true`` line. It is a single module because one emitter and one reader serve both endpoints."""

from __future__ import annotations

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
    json_body,
)
from harness.dialects._framed import FramedObserver, json_frame
from harness.dialects._request_forms import no_reasoning, ollama_thinks
from harness.dialects._values import object_args, opt_str, string
from harness.dialects._variant import DOCS, Senders, by_name
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextBlock,
    TextDelta,
    ToolCallDelta,
    ToolResultBlock,
    Turn,
    Usage,
    assemble,
)

__all__ = ["DIALECT", "VARIANTS", "OllamaDialect", "OllamaEmitter", "OllamaObserver"]

NAME = "ollama"
_CREATED_AT = "2026-03-09T20:20:30.224Z"
VARIANTS: dict[str, Variant] = by_name(
    (
        Variant(
            "native",
            "OLL-NATIVE",
            NAME,
            "Ollama /api/chat NDJSON: message.thinking, object tool arguments, final done:true line",
            frozenset({Caps.REASONING, Caps.TOOLS, Caps.ERRORS}),
            paths=("/api/chat",),
            senders=Senders(("ollama",), (), "think: true", DOCS["ollama"]),
            forms=("ollama/think",),
        ),
        Variant(
            "generate",
            "OLL-GENERATE",
            NAME,
            "Ollama /api/generate NDJSON: top-level thinking and response, prompt in, no tools, no history",
            frozenset({Caps.REASONING, Caps.ERRORS}),
            paths=("/api/generate",),
            senders=Senders(("ollama",), (), "think: true", DOCS["ollama"]),
            forms=("ollama/think",),
        ),
    )
)

_TIMINGS = {"total_duration": 812000000, "load_duration": 1000000, "prompt_eval_duration": 5000000,
            "eval_duration": 80000000}  # fmt: skip
_DONE_ORDER = ("context", "total_duration", "load_duration", "prompt_eval_count", "prompt_eval_duration",
               "eval_count", "eval_duration")  # fmt: skip


def _line(model: str, message: Mapping[str, Any], generate: bool) -> dict[str, Any]:
    """A line's head: the model, the time and the message (lifted to the top for /api/generate: ollama
    ``GenerateResponse``, https://docs.ollama.com/api/generate, ``content`` becoming ``response``)."""
    obj: dict[str, Any] = {"model": model, "created_at": _CREATED_AT}
    if not generate:
        return obj | {"message": dict(message)}
    obj["response"] = message.get("content", "")
    return obj | ({"thinking": message["thinking"]} if message.get("thinking") else {})


def _done(obj: dict[str, Any], reason: str, u: Usage | None, timings: Mapping[str, Any] = {}) -> None:
    """The ``done:true`` fields in Ollama's order; a streamed line has ``timings`` around its counts."""
    counts = {"prompt_eval_count": u and u.input_tokens, "eval_count": u and u.output_tokens}
    obj |= {"done": True, "done_reason": "stop" if reason == "tool_calls" else reason}
    obj |= {k: v for k in _DONE_ORDER if (v := timings.get(k, counts.get(k))) is not None}


class OllamaEmitter(EmitterLoop):
    """Canonical events -> NDJSON lines. Usage goes on the ``done`` line (``prompt_eval_count`` /
    ``eval_count``); Ollama reports ``done_reason:"stop"`` for a tool-call turn.

    Tool calls arrive whole, with ``arguments`` a JSON object and no call id in the SDK types, so the
    emitter buffers a call until it is complete.
    """

    def __init__(self, variant: str = "native", *, model: str = "mock-model") -> None:
        self.model = model
        self.generate = variant == "generate"
        self._tools: dict[int, list[str]] = {}  # index -> [name, arguments]
        self._usage: Usage | None = None
        self._in_reasoning = False

    def _frame(self, obj: dict[str, Any], *tags: str) -> Frame:
        if self._in_reasoning and "reasoning" not in tags:
            self._in_reasoning = False
            tags = (*tags, "reasoning-done")
        return Frame(dumps_compact(obj), tags=frozenset(tags))

    def _line(self, message: Mapping[str, Any], *tags: str) -> Frame:
        return self._frame(_line(self.model, message, self.generate) | {"done": False}, *tags)

    def _flush_tools(self) -> list[Frame]:
        calls = [{"function": {"name": n, "arguments": object_args(a)}} for n, a in self._tools.values()]
        self._tools = {}
        return (
            [self._line({"role": "assistant", "content": "", "tool_calls": calls}, "tool")] if calls else []
        )

    def _start(self) -> list[Frame]:
        return []  # no opening line: the first content line opens the stream

    def _event(self, ev: Event) -> list[Frame]:
        if isinstance(ev, ToolCallDelta):
            entry = self._tools.setdefault(ev.index, [ev.name or "", ""])
            entry[0] = entry[0] or (ev.name or "")
            entry[1] += ev.arguments
            return []
        if isinstance(ev, ReasoningSignature | RedactedReasoning | Notice):
            return []  # not carried by this wire
        out = self._flush_tools()
        if isinstance(ev, ReasoningDelta) and ev.text:
            self._in_reasoning = True
            out.append(self._line({"role": "assistant", "content": "", "thinking": ev.text}, "reasoning"))
        elif isinstance(ev, TextDelta) and ev.text:
            out.append(self._line({"role": "assistant", "content": ev.text}, "text"))
        elif isinstance(ev, Usage):
            self._usage = ev
        elif isinstance(ev, StreamError):
            self.ended = True
            out.append(Frame(dumps_compact({"error": ev.message}), tags=frozenset({"error"})))
        elif isinstance(ev, End):
            out += self._end(ev)
        return out

    def _end(self, ev: End) -> list[Frame]:
        self.ended = True
        out = self._flush_tools()  # (closing without an End: the calls still held)
        obj = _line(self.model, {"role": "assistant", "content": ""}, self.generate)
        # a generate line carries the tokenized history (GenerateResponse.context)
        timings = _TIMINGS | ({"context": [151644, 872, 198]} if self.generate else {})
        _done(obj, ev.reason, self._usage, timings)
        return [*out, self._frame(obj, "terminal", *(("usage",) if self._usage is not None else ()))]


def _error(obj: Mapping[str, Any]) -> StreamError:
    """An ``{"error": …}`` line's or body's error (a non-string one as its JSON)."""
    err = obj["error"]
    return StreamError(err if isinstance(err, str) else dumps_compact(err))


def _message_of(obj: Mapping[str, Any]) -> Any:
    """The message of a chat line, or a generate line's top-level fields as one."""
    if "response" in obj and "message" not in obj:
        return {"content": obj.get("response"), "thinking": obj.get("thinking")}
    return obj.get("message")


class _Reader:
    def __init__(self) -> None:
        self.tool_index = 0

    def message(self, msg: Any) -> list[Event]:
        """A message's events: its thinking, its content, its tool calls (also a history entry's)."""
        if not isinstance(msg, Mapping):
            return []
        out: list[Event] = []
        for key, make in (("thinking", ReasoningDelta), ("content", TextDelta)):
            if isinstance(msg.get(key), str) and msg[key]:
                out.append(make(msg[key]))
        for call in msg.get("tool_calls") or []:
            fn = call.get("function") if isinstance(call, Mapping) else None
            if isinstance(fn, Mapping):
                args = fn.get("arguments")
                args = args if isinstance(args, str) else dumps_compact(args if args is not None else {})
                name = str(fn.get("name") or "")
                out.append(ToolCallDelta(self.tool_index, opt_str(call.get("id")), name, args))
                self.tool_index += 1
        return out

    def done(self, obj: Mapping[str, Any]) -> list[Event]:
        pin, pout = (obj.get(k) for k in ("prompt_eval_count", "eval_count"))
        usage = Usage(pin if isinstance(pin, int) else None, pout if isinstance(pout, int) else None)
        reason = string(obj.get("done_reason")) or "stop"
        end = End("tool_calls" if reason == "stop" and self.tool_index else reason)
        return [end] if usage == Usage() else [usage, end]


class OllamaObserver(FramedObserver[str]):
    """NDJSON bytes (any split) -> canonical events; ``done:true`` -> :class:`End`.

    ``{"error": …}`` lines are stream errors.
    """

    def __init__(self) -> None:
        super().__init__(JSONLDecoder(), "jsonl")
        self._r = _Reader()
        self._ended = False

    def _eof(self) -> list[Event]:
        return [] if self._ended else [Notice("no-terminator", "EOF without a done:true line")]

    def _take(self, line: str, out: list[Event]) -> None:
        if not line.strip():
            return
        if self._ended:
            self._after_end(line, out)
            return
        obj = json_frame(line, out)
        if obj is None:
            return
        if "error" in obj:
            self._ended = True
            out.append(_error(obj))
        elif "message" not in obj and "response" not in obj and "done" not in obj:
            out.append(Notice("unknown-frame", line[:80]))
        else:
            out += self._r.message(_message_of(obj))
            if obj.get("done") is True:
                self._ended = True
                out += self._r.done(obj)


def _assistant_json(msg: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "assistant", "content": msg.text}
    if msg.reasoning:
        out["thinking"] = msg.reasoning
    if msg.tool_calls:
        out["tool_calls"] = [
            {"function": {"name": c.name, "arguments": object_args(c.arguments)}} for c in msg.tool_calls
        ]
    return out


class _OllamaRules(LenientRules):
    """No passback rule, as the lenient provider; the reasoning goes unless the request asks to think."""

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return turn if ollama_thinks(request) else no_reasoning(turn)  # the request-forms row ollama/think


RULES: dict[str, ProviderRules] = {
    LENIENT: LenientRules(NAME),
    "ollama": _OllamaRules(
        NAME,
        "Ollama: no passback rule; a thinking model thinks unless the request sets think false",
        "ollama",
    ),
}


class OllamaDialect(Dialect):
    name = NAME
    transport = Transport.JSONL
    content_type = "application/x-ndjson"
    path_suffixes: tuple[str, ...] = ("/api/chat", "/api/generate")
    stream_default = True
    """Ollama streams unless the body says ``"stream": false``."""
    variants = VARIANTS
    default_variant = "native"
    emitter_type, observer_type = OllamaEmitter, OllamaObserver
    rules = RULES

    def response_object(self, turn: Turn, variant: str, *, model: str) -> Any:
        msg = assemble(turn)
        end = next(
            (ev for ev in turn if isinstance(ev, End)), End("tool_calls" if msg.tool_calls else "stop")
        )
        obj = _line(model, _assistant_json(msg), variant == "generate")
        _done(obj, end.reason, next((ev for ev in turn if isinstance(ev, Usage)), None))
        return obj

    def observe_response(
        self, body: bytes, *, variant: str | None = None, reading: Reading = READ_ALL
    ) -> list[Event]:
        """One carrier: ``variant`` and ``reading`` leave nothing to choose."""
        obj, bad = json_body(body)
        if not isinstance(obj, Mapping):
            return [bad or Notice("unknown-frame", body[:80].decode(errors="replace"))]
        if "error" in obj:
            return [_error(obj)]
        r = _Reader()
        return r.message(_message_of(obj)) + r.done(obj)

    def error_object(self, status: int, message: str, code: str | None) -> Any:
        return {"error": message}

    def request_spec(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        if variant == "generate":  # one prompt, no history: /api/generate cannot pass anything back
            prompt = next((m.text for m in reversed(messages) if m.role == "user"), "")
            system = "".join(m.text for m in messages if m.role == "system")
            body: dict[str, Any] = {"model": model, "prompt": prompt, "stream": stream, "think": True}
            return RequestSpec("/api/generate", body | ({"system": system} if system else {}) | options)
        names = {c.id: c.name for m in messages for c in m.tool_calls}
        out: list[dict[str, Any]] = []
        for m in messages:
            if m.role == "assistant":
                out.append(_assistant_json(m))
            elif m.role == "tool":
                for b in (b for b in m.content if isinstance(b, ToolResultBlock)):
                    name = b.name or names.get(b.call_id, "")
                    out.append({"role": "tool", "content": b.content, "tool_name": name})
            else:
                out.append({"role": m.role, "content": m.text})
        body = {"model": model, "messages": out, "stream": stream, "think": options.pop("think", True)}
        return RequestSpec("/api/chat", body | options)

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        out: list[Message] = []
        if isinstance(body.get("prompt"), str):  # /api/generate
            if isinstance(body.get("system"), str):
                out.append(Message("system", (TextBlock(body["system"]),)))
            return [*out, Message.user(body["prompt"])]
        for raw in body.get("messages") or []:
            if not isinstance(raw, Mapping):
                continue
            role = raw.get("role")
            content = raw["content"] if isinstance(raw.get("content"), str) else ""
            if role == "assistant":  # read as a streamed message is
                out.append(assemble(_Reader().message(raw)))
            elif role == "tool":
                out.append(Message.tool("", content, str(raw.get("tool_name") or "")))
            elif role == "system":
                out.append(Message("system", (TextBlock(content),)))
            else:
                out.append(Message.user(content))
        return out


DIALECT = OllamaDialect()
