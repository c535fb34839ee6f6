"""Per dialect: what kind each wire frame is, and the typed field paths it carries. Kinds and paths are what
``_compare`` compares, so they are defined here, once per dialect."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tools.fidelity._wire import Wire, WireFrame

__all__ = ["OPAQUE", "Unit", "json_type", "paths", "units"]

Unit = tuple[str, Any]
"""``(kind, JSON object)``: one comparable piece of a response."""

OPAQUE: dict[str, frozenset[str]] = {
    "anthropic-messages": frozenset({"content_block.input", "input", "content_block.content"}),
    "openai-chat": frozenset(),
    "openai-responses": frozenset(
        {
            "response.tools",
            "response.metadata",
            "response.text",
            "response.output",
            "tools",
            "metadata",
            "text",
            "response.prompt",
            "prompt",
            "item.action",
            "action",
        }
    ),
    "gemini": frozenset({"functionCall.args", "candidates[].content.parts[].functionCall.args"}),
    "bedrock-converse": frozenset({"start.toolUse.input", "toolUse.input", "input"}),
    "ollama": frozenset({"message.tool_calls[].function.arguments"}),
}
"""Per dialect, paths whose value is user data or an echo of the request: typed, never descended."""


def json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def paths(obj: Any, opaque: frozenset[str] = frozenset()) -> dict[str, set[str]]:
    """Every field path of ``obj`` with the JSON types seen there (array elements merged as ``[]``).

    A field path is ``a.b[].c`` with the set of JSON types seen there. Subtrees that hold user data or
    request echoes, such as tool arguments and schemas, are one opaque ``object``.
    """
    out: dict[str, set[str]] = {}

    def walk(v: Any, path: str) -> None:
        if path:
            out.setdefault(path, set()).add(json_type(v))
        if path in opaque:
            return
        if isinstance(v, Mapping):
            for k, sub in v.items():
                walk(sub, f"{path}.{k}" if path else str(k))
        elif isinstance(v, list):
            for sub in v:
                walk(sub, f"{path}[]")

    walk(obj, "")
    return out


# -- kinds ----------------------------------------------------------------------------------------
def _without(obj: Mapping[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k != key}


def _anthropic(frame: WireFrame, whole: bool) -> Iterator[Unit]:
    obj = frame.data
    if not isinstance(obj, Mapping):
        yield ("non-json", {})
        return
    if whole:
        yield ("message", _without(obj, "content"))
        for block in obj.get("content") or []:
            if isinstance(block, Mapping):
                yield (f"block:{block.get('type')}", block)
        return
    kind = str(obj.get("type"))
    if kind == "content_block_start":
        kind += ":" + str((obj.get("content_block") or {}).get("type"))
    elif kind == "content_block_delta":
        kind += ":" + str((obj.get("delta") or {}).get("type"))
    yield (kind, obj)


_CARRIERS = ("role", "reasoning_content", "reasoning", "reasoning_details", "content", "tool_calls")


def _present(v: Any) -> bool:
    return v not in (None, "", [])


def _chat_kind(choice: Mapping[str, Any], usage: Any) -> str:
    raw = choice.get("delta")
    delta: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    parts = []
    for key in _CARRIERS:
        v = delta.get(key)
        if _present(v):
            parts.append(f"{key}[]" if key == "content" and isinstance(v, list) else key)
    if choice.get("finish_reason") is not None:
        parts.append("finish")
    if _present(usage):
        parts.append("usage")
    return "+".join(parts) or "empty"


def _chat(frame: WireFrame, whole: bool) -> Iterator[Unit]:
    obj = frame.data
    if not isinstance(obj, Mapping):
        yield (frame.text.strip() if frame.text.strip() == "[DONE]" else "non-json", {})
        return
    if "error" in obj:
        yield ("error", obj)
        return
    choices = obj.get("choices")
    if whole:
        yield ("chat.completion", _without(obj, "choices"))
        for c in choices or []:
            if isinstance(c, Mapping):
                yield ("choice", _without(c, "message"))
                if isinstance(c.get("message"), Mapping):
                    yield ("message", c["message"])
        return
    if not choices:
        yield ("choices[]+usage" if _present(obj.get("usage")) else "choices[]", obj)
        return
    first = choices[0] if isinstance(choices[0], Mapping) else {}
    yield ("chunk:" + _chat_kind(first, obj.get("usage")), obj)


def _responses(frame: WireFrame, whole: bool) -> Iterator[Unit]:
    obj = frame.data
    if not isinstance(obj, Mapping):
        yield ("non-json", {})
        return
    if whole:
        yield ("response", _without(obj, "output"))
        for item in obj.get("output") or []:
            if isinstance(item, Mapping):
                yield (f"item:{item.get('type')}", item)
        return
    kind = str(obj.get("type"))
    item = obj.get("item")
    if isinstance(item, Mapping):
        kind += ":" + str(item.get("type"))
    part = obj.get("part")
    if isinstance(part, Mapping):
        kind += ":" + str(part.get("type"))
    yield (kind, obj)


def _part_kind(part: Mapping[str, Any]) -> str:
    if isinstance(part.get("functionCall"), Mapping):
        kind = "functionCall"
    elif part.get("thought") is True:
        kind = "thought"
    elif part.get("text") == "":
        kind = "empty-text"
    elif isinstance(part.get("text"), str):
        kind = "text"
    elif "thoughtSignature" in part:
        kind = "bare"
    else:
        kind = "other"
    return kind + ("+sig" if "thoughtSignature" in part else "")


def _gemini_parts(obj: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    for cand in obj.get("candidates") or []:
        content = cand.get("content") if isinstance(cand, Mapping) else None
        for part in (content or {}).get("parts") or [] if isinstance(content, Mapping) else []:
            if isinstance(part, Mapping):
                out.append(part)
    return out


def _gemini(frame: WireFrame, whole: bool) -> Iterator[Unit]:
    obj = frame.data
    if not isinstance(obj, Mapping):
        yield ("non-json", {})
        return
    if "error" in obj:
        yield ("error", obj)
        return
    parts = _gemini_parts(obj)
    cands = obj.get("candidates") or []
    finished = any(isinstance(c, Mapping) and "finishReason" in c for c in cands)
    if whole:
        yield ("response", obj)
        for part in parts:
            yield (f"part:{_part_kind(part)}", part)
        return
    kind = ",".join(_part_kind(p) for p in parts) or "no-parts"
    yield (kind + ("|finish" if finished else ""), obj)


def _bedrock(frame: WireFrame, whole: bool) -> Iterator[Unit]:
    obj = frame.data
    if not isinstance(obj, Mapping):
        yield ("non-json", {})
        return
    if whole:
        msg = (obj.get("output") or {}).get("message") if isinstance(obj.get("output"), Mapping) else None
        yield ("converse", _without(obj, "output"))
        for block in (msg or {}).get("content") or [] if isinstance(msg, Mapping) else []:
            if isinstance(block, Mapping):
                yield ("content:" + "+".join(sorted(block)), block)
        return
    kind = frame.event or "?"
    inner = obj.get("delta") if kind == "contentBlockDelta" else obj.get("start")
    if isinstance(inner, Mapping):
        for key, v in inner.items():
            sub = "+".join(sorted(v)) if isinstance(v, Mapping) else ""
            kind += f":{key}" + (f".{sub}" if sub and key == "reasoningContent" else "")
    yield (kind, obj)


def _ollama(frame: WireFrame, whole: bool) -> Iterator[Unit]:
    obj = frame.data
    if not isinstance(obj, Mapping):
        yield ("non-json", {})
        return
    raw = obj.get("message")
    msg: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    parts = [k for k in ("thinking", "content", "tool_calls") if _present(msg.get(k))]
    yield ("+".join(parts + (["done"] if obj.get("done") else [])) or "empty", obj)


_KINDS: dict[str, Callable[[WireFrame, bool], Iterator[Unit]]] = {
    "anthropic-messages": _anthropic,
    "openai-chat": _chat,
    "openai-responses": _responses,
    "gemini": _gemini,
    "bedrock-converse": _bedrock,
    "ollama": _ollama,
}


def units(dialect: str, wire: Wire) -> list[Unit]:
    """The comparable units of a response, in wire order.

    A kind names what a client branches on: Anthropic ``content_block_delta:thinking_delta``, a chat
    chunk's non-empty carriers ``reasoning_content``, ``content`` or ``finish+usage``, a Gemini frame's
    parts ``thought`` or ``functionCall+sig``. A whole JSON body is split into its envelope and one unit
    per content block, output item or part, so that a block's fields are compared with blocks of the same
    type.
    """
    kinds = _KINDS.get(dialect)
    if kinds is None:
        return []
    whole = wire.framing == "json"
    return [u for f in wire.frames for u in kinds(f, whole)]
