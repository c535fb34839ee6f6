"""The Google Gemini dialect object for ``:streamGenerateContent?alt=sse`` and ``:generateContent``: its
variants, its request codec and ``DIALECT``. The codec writes ``contents`` with each thoughtSignature on
the exact part it came on, so a replay is what a careful client sends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness._json import JSONDecodeError, dumps_compact, loads
from harness.dialects._base import (
    READ_ALL,
    Caps,
    Dialect,
    Reading,
    RequestSpec,
    Senders,
    Transport,
    Variant,
)
from harness.dialects._gemini_names import camel_request
from harness.dialects._provider_errors import google_error
from harness.dialects._values import opt_str
from harness.dialects._variant import DOCS, by_name
from harness.dialects.gemini._rules import RULES
from harness.dialects.gemini._wire import GeminiEmitter, GeminiObserver, parts_of, whole_body
from harness.events import (
    Block,
    Event,
    Message,
    ReasoningBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    Turn,
)

__all__ = ["DIALECT", "GeminiDialect"]

_BASE = frozenset(
    {Caps.REASONING, Caps.MULTI_REASONING, Caps.INTERLEAVED, Caps.TOOLS, Caps.USAGE, Caps.ERRORS}
)


def _variant(
    name: str, catalog_id: str, description: str, signature: bool, trigger: str = "", **row: Any
) -> Variant:
    caps = _BASE | {Caps.SIGNATURE, Caps.CALL_SIGNATURE} if signature else _BASE
    senders = Senders(("gemini",), (), trigger, DOCS["gemini"])
    return Variant(name, catalog_id, "gemini", description, frozenset(caps), senders=senders, **row)


VARIANTS: dict[str, Variant] = by_name(
    (
        _variant(
            "thought",
            "GEM-THOUGHT",
            "parts with thought: true; usageMetadata.thoughtsTokenCount",
            False,
            "thinkingConfig.includeThoughts",
            forms=("gemini/include-thoughts", "gemini/thinking-budget"),
        ),
        _variant(
            "signature",
            "GEM-SIG-FC",
            "thoughtSignature on the first functionCall part of each step",
            True,
            forms=("gemini/thinking-budget",),
        ),
        _variant(
            "signature-text",
            "GEM-SIG-TEXT",
            "thoughtSignature on the last (non-thought) text part",
            True,
            forms=("gemini/include-thoughts", "gemini/thinking-budget"),
        ),
        _variant(
            "signature-empty",
            "GEM-SIG-EMPTY",
            'a final part {"text": ""} carrying only the signature',
            True,
            forms=("gemini/thinking-budget",),
        ),
    )
)


class GeminiDialect(Dialect):
    name = "gemini"
    json_content_type = "application/json; charset=UTF-8"
    """Of ``:generateContent`` bodies and of streams without ``?alt=sse`` (recorded)."""
    sse_eol = "\r\n"
    """Gemini separates frames with CRLF CRLF (the codec's ``crlf`` SSE framing)."""
    path_suffixes = (":streamGenerateContent", ":generateContent")
    stream_paths = (":streamGenerateContent",)  # the body has no flag
    stream_in_body = False
    variants = VARIANTS
    default_variant = "thought"
    emitter_type, observer_type = GeminiEmitter, GeminiObserver
    indent = 2
    """Whole bodies pretty-printed as Google does (2-space indent: **(guess)** for success bodies, seen on
    error bodies)."""
    rules = RULES

    def stream_framing(self, target: str, request: Mapping[str, Any]) -> tuple[str, str]:
        """``?alt=sse``: SSE; without it the real API streams a JSON array (``[{...}\\n,\\r\\n{...}\\n]``,
        ``application/json; charset=UTF-8``; recordings/corpus/gemini-*-array.jsonl)."""
        path, _, query = target.partition("?")
        if any(p == "alt=sse" for p in query.split("&")) or not path.endswith(":streamGenerateContent"):
            return str(Transport.SSE), self.content_type  # (no path known: a plan built outside a request)
        return str(Transport.JSON_ARRAY), self.json_content_type

    def response_object(self, turn: Turn, variant: str, *, model: str) -> Any:
        return whole_body(turn, variant, model=model)

    def observe_response(
        self, body: bytes, *, variant: str | None = None, reading: Reading = READ_ALL
    ) -> list[Event]:
        """One carrier: ``variant`` and ``reading`` leave nothing to choose."""
        obs = GeminiObserver()
        out: list[Event] = []
        try:
            obj = loads(body)
        except JSONDecodeError:
            obs._data(body.decode(errors="replace"), out)
            return out
        obs._object(obj, out)
        return out + obs.finish()

    def keepalive(self) -> None:
        """None: Google sends no keepalive, and google-genai (3.6.1, ``_RawJsonLineBuffer`` in
        ``_api_client.py``) hands a comment line to its JSON parser, which fails the stream."""
        return None

    error_object = staticmethod(google_error)

    def request_spec(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        contents: list[dict[str, Any]] = []
        system: list[dict[str, Any]] = []
        names: dict[str, str] = {}
        for msg in messages:
            texts = [{"text": b.text} for b in msg.content if isinstance(b, TextBlock)]
            if msg.role == "system":
                system += texts
            elif msg.role == "assistant":
                names.update({b.id: b.name for b in msg.content if isinstance(b, ToolCallBlock)})
                contents.append({"role": "model", "parts": parts_of(msg.content, variant, request=True)})
            elif msg.role == "tool":
                parts = [_function_response(b, names) for b in msg.content if isinstance(b, ToolResultBlock)]
                prev: dict[str, Any] = contents[-1] if contents else {"role": "none"}
                if prev["role"] == "user" and all("functionResponse" in p for p in prev["parts"]):
                    prev["parts"] += parts
                else:
                    contents.append({"role": "user", "parts": parts})
            else:
                contents.append({"role": "user", "parts": texts})
        body: dict[str, Any] = {"contents": contents}
        if system:
            body["systemInstruction"] = {"parts": system}
        include = bool(options.get("include_thoughts", True))
        body["generationConfig"] = {"thinkingConfig": {"includeThoughts": include}}
        if "tools" in options:
            body["tools"] = options["tools"]
        suffix = ":streamGenerateContent?alt=sse" if stream else ":generateContent"
        return RequestSpec(f"/v1beta/models/{model}{suffix}", body, {"content-type": "application/json"})

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        body = camel_request(body)
        out: list[Message] = []
        sys_parts = (body.get("systemInstruction") or {}).get("parts") or []
        sys_text = "".join(p.get("text", "") for p in sys_parts if isinstance(p, Mapping))
        if sys_parts:
            out.append(Message("system", (TextBlock(sys_text),)))
        for c in body.get("contents") or []:
            if not isinstance(c, Mapping):
                continue
            parts = [p for p in c.get("parts") or [] if isinstance(p, Mapping)]
            if c.get("role") == "model":
                out.append(Message("assistant", tuple(_block(p) for p in parts)))
                continue
            texts = tuple(TextBlock(p["text"]) for p in parts if isinstance(p.get("text"), str))
            if texts:
                out.append(Message("user", texts))
            answers = [p["functionResponse"] for p in parts if isinstance(p.get("functionResponse"), Mapping)]
            out += [Message("tool", (_tool_result(fr),)) for fr in answers]
        return out


def _function_response(b: ToolResultBlock, names: Mapping[str, str]) -> dict[str, Any]:
    fr = {"name": b.name or names.get(b.call_id, ""), "response": {"result": b.content}}
    return {"functionResponse": ({"id": b.call_id} if b.call_id else {}) | fr}


def _tool_result(fr: Mapping[str, Any]) -> ToolResultBlock:
    resp: Any = fr.get("response")
    plain = isinstance(resp, Mapping) and set(resp) == {"result"} and isinstance(resp["result"], str)
    content = resp["result"] if plain else dumps_compact(resp)
    return ToolResultBlock(str(fr.get("id", "")), content, str(fr.get("name", "")))


def _block(p: Mapping[str, Any]) -> Block:
    sig = opt_str(p.get("thoughtSignature"))
    fc = p.get("functionCall")
    if isinstance(fc, Mapping):
        args = dumps_compact(fc.get("args", {}))
        return ToolCallBlock(str(fc.get("id", "")), str(fc.get("name", "")), args, sig)
    text, thought = p.get("text"), p.get("thought") is True
    if isinstance(text, str) and (text or thought):
        return ReasoningBlock(text, signature=sig) if thought else TextBlock(text, signature=sig)
    return ReasoningBlock("", signature=sig)


DIALECT = GeminiDialect()
