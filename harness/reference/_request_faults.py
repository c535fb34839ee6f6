"""Request-side fault switches of the reference SUTs: what they pass back upstream and the request options
they send, the correct path first and each fault one marked branch. It is sans-IO, on canonical messages
and parsed JSON bodies; the switches' names live in ``_faults.FAULTS``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from harness.dialects import server_tool_call
from harness.events import Block, Message, ReasoningBlock, TextBlock, ToolCallBlock
from harness.reference._default_faults import thinking_off

__all__ = ["PASSBACK_FAULTS", "SIGNED_PASSBACK", "mutate_body", "passback_messages", "strip_passback"]

PASSBACK_FAULTS: dict[str, str] = {
    "signature-to-last-call": "put a message's tool-call signature on its last call, not the first "
    "(parallel calls)",
    "trim-passback": "pass reasoning back whitespace-stripped (a normalising store)",
    "reasoning-content-passback": "carry chat reasoning back in reasoning_content whatever the upstream "
    "reads (vLLM reads 'reasoning'; MiniMax needs <think> in content)",
    "alter-encrypted": "re-encode opaque blobs as URL-safe base64 without padding on the way back",
    "drop-phase": "drop the phase of assistant message items on the way back (Responses)",
    "drop-server-tool-records": "drop OpenRouter reasoning.server_tool_call records on the way back",
    "drop-vertex-version": "send Claude-on-Vertex requests without anthropic_version",
    "stream-events-as-items": "pass Responses reasoning back with the stream event that opened its summary "
    "(an input item of type response.reasoning_summary_part.added before each reasoning item)",
    "duplicate-reasoning-items": "pass each Responses reasoning item back twice (a store that keeps it from "
    "output_item.done and again from response.completed)",
    "drop-thinking-key": "pass Anthropic thinking blocks back with their signature but without the "
    "thinking key (a store that keeps only what it thinks is opaque)",
    "think-replay": "pass earlier reasoning back also as <think>...</think> text at the head of the "
    "assistant message's content (a history store that renders reasoning into the transcript)",
    "validate-signatures": "on passback, strip a reasoning signature whose envelope the SUT does not know "
    "(it recognises only the Claude 4 one, base64 starting EqQB): a proxy that 'validates' opaque data",
    "unmerged-details": "pass OpenRouter reasoning_details back as the stream's fragments: a signed "
    "detail split into its text fragment and a signature-only fragment sharing its index",
    "omit-empty-reasoning-content": "pass a chat tool-call turn back without reasoning_content when its "
    "reasoning was empty (an 'if reasoning:' guard; DeepSeek V4 wants the key, even empty)",
    "mint-detail-ids": "pass OpenRouter reasoning_details back under ids of the SUT's own (rs_gw_N): an "
    "encrypted detail no longer names its Responses item or its tool call",
    "drop-encrypted-details": "pass OpenRouter reasoning_details back without their reasoning.encrypted "
    "entries (a store that keeps only the readable ones)",
    "drop-summary-detail-id": "pass OpenRouter reasoning.summary details back without their id (the "
    "encrypted detail keeps it: a store that keys only the opaque entry)",
    "gemini-tool-role": "send Gemini function responses under the role 'tool' (a converter that keeps the "
    "chat role; Google accepts only user and model)",
    "note-between-tool-results": "put a system note between a chat assistant's tool_calls and its tool "
    "messages (an agent that logs tool warnings into the history; DeepSeek answers 400)",
    "reasoning-last": "pass an assistant message back with its reasoning blocks after its text and tool "
    "calls (a store that writes the content first and appends the reasoning; Anthropic wants thinking first)",
    "thought-signature-on-call": "Gemini Interactions: pass a thought step's signature back on the "
    "function_call step after it (where generateContent keeps it, on the functionCall part), the thought "
    "step without it (dropped when nothing else is left in it)",
}
"""The request faults of the 2026 wires: how a SUT alters what it was given on the way back."""


KNOWN_ENVELOPE = "EqQB"
"""The one signature envelope the ``validate-signatures`` mutant accepts (Claude 4's, as base64)."""


def strip_passback(messages: Sequence[Message]) -> list[Message]:
    """Fault ``lose-passback``: the continuation loses every reasoning block and signature."""
    out: list[Message] = []
    for m in messages:
        if m.role != "assistant":
            out.append(m)
            continue
        blocks = []
        for b in m.content:
            if isinstance(b, ReasoningBlock):
                continue
            if isinstance(b, TextBlock | ToolCallBlock) and b.signature is not None:
                b = replace(b, signature=None)
            blocks.append(b)
        out.append(Message("assistant", tuple(blocks)))
    return out


def _drop_blocks(messages: Sequence[Message], drop: Callable[[Message, Block], bool]) -> list[Message]:
    out: list[Message] = []
    for m in messages:
        if m.role != "assistant":
            out.append(m)
            continue
        out.append(Message("assistant", tuple(b for b in m.content if not drop(m, b))))
    return [m for m in out if m.role != "assistant" or m.content]


def _empty_thinking(m: Message, b: Block) -> bool:
    return isinstance(b, ReasoningBlock) and not b.text and b.redacted is None


def _bad_args(m: Message) -> bool:
    import json

    for call in m.tool_calls:
        try:
            json.loads(call.arguments or "{}")
        except ValueError:
            return True
    return False


SIGNED_PASSBACK = frozenset({"anthropic-messages", "bedrock-converse", "gemini-interactions"})
"""Upstream dialects whose thinking blocks are valid only with their signature (Anthropic: a block
without one is a 400, ``thinking.signature: Field required``; a Gemini Interactions thought step's
``signature`` is required too)."""


def passback_messages(messages: Sequence[Message], dialect: str, faults: frozenset[str]) -> list[Message]:
    """The conversation as the reference SUTs pass it back to ``dialect``: the correct path drops a
    thinking block that never got its signature (a turn cancelled mid-thinking) where the provider
    requires signatures; each request fault is one marked branch."""
    out = list(messages)
    if "lose-passback" in faults:
        out = strip_passback(out)
    if dialect in SIGNED_PASSBACK and "replay-unsigned-thinking" not in faults:
        from harness.dialects.anthropic_messages import signed_only

        out = signed_only(out)
    if "drop-empty-thinking" in faults:  # FAULT: a signature-only block looks empty and goes
        out = _drop_blocks(out, _empty_thinking)
    if "drop-signature-bad-args" in faults:  # FAULT: an unparsable tool call costs its message its signatures
        out = [strip_passback([m])[0] if m.role == "assistant" and _bad_args(m) else m for m in out]
    if faults & PASSBACK_FAULTS.keys():
        out = [_rebuilt(m, faults) if m.role == "assistant" else m for m in out]
    return out


def _urlsafe(blob: str) -> str:
    return blob.replace("+", "-").replace("/", "_").rstrip("=")


def _server_record(b: Block) -> bool:
    return isinstance(b, ReasoningBlock) and server_tool_call(b.redacted) is not None


def _reasoning(b: Block, faults: frozenset[str]) -> Block:
    if not isinstance(b, ReasoningBlock):
        return b
    if "trim-passback" in faults and b.redacted is None:  # FAULT: a normalising store
        b = replace(b, text=b.text.strip())
    if "validate-signatures" in faults and b.signature and not b.signature.startswith(KNOWN_ENVELOPE):
        b = replace(b, signature=None)  # FAULT: an envelope it does not recognise is dropped as invalid
    if "alter-encrypted" in faults:  # FAULT: blobs re-encoded on the way back
        b = replace(
            b,
            signature=None if b.signature is None else _urlsafe(b.signature),
            redacted=b.redacted if b.redacted is None or _server_record(b) else _urlsafe(b.redacted),
        )
    return b


def _calls_signed_last(blocks: Sequence[Block]) -> list[Block]:
    """FAULT ``signature-to-last-call``: the signatures of a message's calls all go to its last call."""
    calls = [i for i, b in enumerate(blocks) if isinstance(b, ToolCallBlock)]
    sigs = [b.signature for b in blocks if isinstance(b, ToolCallBlock) and b.signature]
    if len(calls) < 2 or not sigs:
        return list(blocks)
    out = [replace(b, signature=None) if isinstance(b, ToolCallBlock) else b for b in blocks]
    last = out[calls[-1]]
    assert isinstance(last, ToolCallBlock)
    out[calls[-1]] = replace(last, signature=sigs[0])
    return out


def _think_replayed(blocks: Sequence[Block]) -> list[Block]:
    """FAULT ``think-replay``: the message's reasoning text also rides in its content as a leading
    ``<think>`` block, right after the reasoning blocks (which stay, signed, where they were)."""
    text = "".join(b.text for b in blocks if isinstance(b, ReasoningBlock) and b.redacted is None)
    if not text:
        return list(blocks)
    tagged = f"<think>{text}</think>"
    at = next((i for i, b in enumerate(blocks) if not isinstance(b, ReasoningBlock)), len(blocks))
    first = blocks[at] if at < len(blocks) else None
    if isinstance(first, TextBlock):
        return [*blocks[:at], replace(first, text=tagged + first.text), *blocks[at + 1 :]]
    return [*blocks[:at], TextBlock(tagged), *blocks[at:]]


def _rebuilt(m: Message, faults: frozenset[str]) -> Message:
    """An assistant message as a SUT with the 2026 passback faults sends it back.

    These faults are how a buggy SUT rebuilds a 2026 continuation: reasoning trimmed, blobs re-encoded, a
    signature on the wrong call, a phase or a Vertex version dropped, server-tool records lost, the
    reasoning moved after the content.
    """
    blocks = [_reasoning(b, faults) for b in m.content]
    if "think-replay" in faults:
        blocks = _think_replayed(blocks)
    if "drop-server-tool-records" in faults:  # FAULT: OpenRouter's server-tool records lost
        blocks = [b for b in blocks if not _server_record(b)]
    if "signature-to-last-call" in faults:
        blocks = _calls_signed_last(blocks)
    if "reasoning-last" in faults:  # FAULT: the order of the blocks lost, reasoning appended
        blocks = [b for b in blocks if not isinstance(b, ReasoningBlock)] + [
            b for b in blocks if isinstance(b, ReasoningBlock)
        ]
    return Message("assistant", tuple(blocks))


def _reasoning_items(items: list[Any], faults: frozenset[str]) -> list[Any]:
    """Faults ``stream-events-as-items`` and ``duplicate-reasoning-items`` on a Responses input list."""
    out: list[Any] = []
    for item in items:
        if isinstance(item, dict) and item.get("type") == "reasoning":
            if "stream-events-as-items" in faults:  # FAULT: a stream event is no input item
                part = {"type": "summary_text", "text": ""}
                kind = "response.reasoning_summary_part.added"
                out.append({"type": kind, "item_id": item.get("id"), "summary_index": 0, "part": part})
            if "duplicate-reasoning-items" in faults:  # FAULT: the same item twice
                out.append(item)
        out.append(item)
    return out


def _without_thinking_key(message: Any) -> Any:
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return message

    def keyless(b: Any) -> Any:
        if isinstance(b, dict) and b.get("type") == "thinking":
            return {k: v for k, v in b.items() if k != "thinking"}
        return b

    return {**message, "content": [keyless(b) for b in content]}


def _unmerged(message: Any) -> Any:
    """A chat history entry whose signed ``reasoning_details`` are split back into the stream's
    fragments: the text, then the signature alone, under one ``index``."""
    details = message.get("reasoning_details") if isinstance(message, dict) else None
    if not isinstance(details, list):
        return message
    out: list[Any] = []
    for d in details:
        if isinstance(d, dict) and d.get("type") == "reasoning.text" and d.get("signature") and d.get("text"):
            out.append({k: v for k, v in d.items() if k != "signature"})
            out.append({k: v for k, v in d.items() if k != "text"})
        else:
            out.append(d)
    return {**message, "reasoning_details": out}


def _without_empty_reasoning(message: Any) -> Any:
    """A chat history entry without ``reasoning_content`` when it is the empty string."""
    if isinstance(message, dict) and message.get("reasoning_content") == "":
        return {k: v for k, v in message.items() if k != "reasoning_content"}
    return message


def _minted_ids(message: Any) -> Any:
    """A chat history entry whose ``reasoning_details`` ids are the SUT's own: each distinct id becomes
    ``rs_gw_N`` (a store that mints ids, as maximhq/bifrost#5186 did for Responses items)."""
    details = message.get("reasoning_details") if isinstance(message, dict) else None
    if not isinstance(details, list):
        return message
    minted: dict[str, str] = {}

    def mint(d: Any) -> Any:
        if not isinstance(d, dict) or not isinstance(d.get("id"), str):
            return d
        return {**d, "id": minted.setdefault(d["id"], f"rs_gw_{len(minted)}")}

    return {**message, "reasoning_details": [mint(d) for d in details]}


def _without_encrypted(message: Any) -> Any:
    details = message.get("reasoning_details") if isinstance(message, dict) else None
    if not isinstance(details, list):
        return message
    kept = [d for d in details if not (isinstance(d, dict) and d.get("type") == "reasoning.encrypted")]
    return {**message, "reasoning_details": kept}


def _summary_without_id(message: Any) -> Any:
    details = message.get("reasoning_details") if isinstance(message, dict) else None
    if not isinstance(details, list):
        return message

    def strip(d: Any) -> Any:
        if isinstance(d, dict) and d.get("type") == "reasoning.summary":
            return {k: v for k, v in d.items() if k != "id"}
        return d

    return {**message, "reasoning_details": [strip(d) for d in details]}


def _tool_role(content: Any) -> Any:
    """A Gemini content holding function responses, under the chat role ``tool``."""
    parts = content.get("parts") if isinstance(content, dict) else None
    if isinstance(parts, list) and any(isinstance(p, dict) and "functionResponse" in p for p in parts):
        return {**content, "role": "tool"}
    return content


def _note_between(messages: list[Any]) -> list[Any]:
    """A system note right after every assistant message with tool calls."""
    out: list[Any] = []
    for m in messages:
        out.append(m)
        if isinstance(m, dict) and m.get("role") == "assistant" and m.get("tool_calls"):
            out.append({"role": "system", "content": "note: tool output follows"})
    return out


def mutate_body(body: dict[str, Any], faults: frozenset[str]) -> dict[str, Any]:
    """Request-option faults on an upstream request body (the correct path: unchanged)."""
    if "gemini-tool-role" in faults and isinstance(body.get("contents"), list):  # FAULT
        body = {**body, "contents": [_tool_role(c) for c in body["contents"]]}
    if "note-between-tool-results" in faults and isinstance(body.get("messages"), list):  # FAULT
        body = {**body, "messages": _note_between(body["messages"])}
    if "drop-vertex-version" in faults and "anthropic_version" in body:  # FAULT
        body = {k: v for k, v in body.items() if k != "anthropic_version"}
    if "drop-phase" in faults and isinstance(body.get("input"), list):  # FAULT
        body = {**body, "input": [{k: v for k, v in i.items() if k != "phase"} for i in body["input"]]}
    if "drop-thinking-key" in faults and isinstance(body.get("messages"), list):  # FAULT
        body = {**body, "messages": [_without_thinking_key(m) for m in body["messages"]]}
    if "unmerged-details" in faults and isinstance(body.get("messages"), list):  # FAULT
        body = {**body, "messages": [_unmerged(m) for m in body["messages"]]}
    if "omit-empty-reasoning-content" in faults and isinstance(body.get("messages"), list):  # FAULT
        body = {**body, "messages": [_without_empty_reasoning(m) for m in body["messages"]]}
    if "mint-detail-ids" in faults and isinstance(body.get("messages"), list):  # FAULT
        body = {**body, "messages": [_minted_ids(m) for m in body["messages"]]}
    if "drop-encrypted-details" in faults and isinstance(body.get("messages"), list):  # FAULT
        body = {**body, "messages": [_without_encrypted(m) for m in body["messages"]]}
    if "drop-summary-detail-id" in faults and isinstance(body.get("messages"), list):  # FAULT
        body = {**body, "messages": [_summary_without_id(m) for m in body["messages"]]}
    if "think-off-by-default" in faults:  # FAULT: thinking treated as opt-in
        body = thinking_off(body)
    items = body.get("input")
    if faults & {"stream-events-as-items", "duplicate-reasoning-items"} and isinstance(items, list):
        body = {**body, "input": _reasoning_items(items, faults)}
    if "thought-signature-on-call" in faults and isinstance(body.get("input"), list):  # FAULT
        body = {**body, "input": _signature_on_call(body["input"])}
    if "no-form-triggers" in faults:  # FAULT: the provider's default form comes back, not the variant's
        body = _without_form_triggers(body)
    if "no-display-summarized" in faults:  # FAULT on Bedrock Converse too: Anthropic's thinking, nested
        body = _converse_without_display(body)
    thinking = body.get("thinking")
    if not isinstance(thinking, dict) or thinking.get("type") != "adaptive":
        return body
    if "thinking-enabled" in faults:  # FAULT: the fixed-budget form every model used to accept
        body = {**body, "thinking": {"type": "enabled", "budget_tokens": 2048}}
        body.pop("output_config", None)
    elif "no-display-summarized" in faults:  # FAULT: the model's default display (omitted) applies
        body = {**body, "thinking": {k: v for k, v in thinking.items() if k != "display"}}
    return body


def _converse_without_display(body: dict[str, Any]) -> dict[str, Any]:
    """Fault ``no-display-summarized`` on a Converse body: adaptive thinking asked for in
    ``additionalModelRequestFields`` without its ``display`` (the model's default, omitted, applies)."""
    extra = body.get("additionalModelRequestFields")
    if not isinstance(extra, dict):
        return body
    thinking = extra.get("thinking")
    if not isinstance(thinking, dict) or thinking.get("type") != "adaptive":
        return body
    kept = {k: v for k, v in thinking.items() if k != "display"}
    return {**body, "additionalModelRequestFields": {**extra, "thinking": kept}}


def _without_form_triggers(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` without MiniMax's ``reasoning_split``, Gemini's ``include_thoughts`` (OpenAI endpoint:
    ``extra_body``; native: ``generationConfig``; Interactions: ``generation_config.thinking_summaries``)
    and the Responses ``reasoning`` settings."""
    out = {k: v for k, v in body.items() if k not in ("reasoning_split", "extra_body", "reasoning")}
    gen = out.get("generationConfig")
    if isinstance(gen, dict):
        out["generationConfig"] = {k: v for k, v in gen.items() if k != "thinkingConfig"}
    config = out.get("generation_config")
    if isinstance(config, dict):
        out["generation_config"] = {k: v for k, v in config.items() if k != "thinking_summaries"}
    return out


def _signature_on_call(steps: list[Any]) -> list[Any]:
    """Fault ``thought-signature-on-call``: each thought step's signature moves to the next function_call
    step of the same model turn; a thought step left with nothing in it goes."""
    out: list[Any] = []
    pending: str | None = None
    for step in steps:
        if not isinstance(step, dict):
            out.append(step)
            continue
        kind = step.get("type")
        if kind == "thought" and isinstance(step.get("signature"), str):
            pending = step["signature"]
            step = {k: v for k, v in step.items() if k != "signature"}
            if not step.get("summary"):
                continue
        elif kind == "function_call" and pending is not None:
            step = {**step, "signature": pending}
            pending = None
        elif kind not in ("thought", "model_output"):
            pending = None
        out.append(step)
    return out
