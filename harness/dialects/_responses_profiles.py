"""OpenAI Responses provider profiles: lenient, and ``openai`` (reasoning item before its function_call,
no orphan reasoning, no id-only reasoning under ``store:false``, summaries only when requested)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import LENIENT, LenientProfile, ProviderProfile, Rejection
from harness.events import (
    Message,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    ToolCallBlock,
    Turn,
)

__all__ = [
    "MISSING_REASONING",
    "NOT_PERSISTED",
    "ORPHAN_REASONING",
    "PROFILES",
    "openai_error_body",
    "summary_requested",
]

MISSING_REASONING = (
    "Item '{fc}' of type 'function_call' was provided without its required 'reasoning' item: '{rs}'."
)
ORPHAN_REASONING = "Item '{rs}' of type 'reasoning' was provided without its required following item."
NOT_PERSISTED = (
    "Item with id '{rs}' not found. Items are not persisted when `store` is set to false. Try again with "
    "`store` set to true, or remove this item from your input."
)
_FC_ID = re.compile(r"^fc_(.+)_(\d+)$")


def openai_error_body(
    message: str, *, type_: str = "invalid_request_error", param: str | None = "input"
) -> bytes:
    return dumps_compact(
        {"error": {"message": message, "type": type_, "param": param, "code": None}}
    ).encode()


def summary_requested(request: Mapping[str, Any]) -> bool:
    reasoning = request.get("reasoning")
    return isinstance(reasoning, Mapping) and reasoning.get("summary") is not None


def _placeholder(text: str) -> str:
    return "gAAAAB-mock-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def _preceded_by_reasoning(emitted: Sequence[Message], call_id: str) -> tuple[bool, str]:
    """Whether the emitted call ``call_id`` followed a reasoning block (parallel calls share it), and
    that block's item id when the emitted message knows it."""
    for msg in emitted:
        blocks = msg.content
        for i, b in enumerate(blocks):
            if isinstance(b, ToolCallBlock) and b.id == call_id:
                j = i - 1
                while j >= 0 and isinstance(blocks[j], ToolCallBlock):
                    j -= 1
                prev = blocks[j] if j >= 0 else None
                if isinstance(prev, ReasoningBlock):
                    return True, prev.id.partition(":")[0]
                return False, ""
    return False, ""


@dataclass(slots=True)
class _OpenAI:
    """OpenAI's Responses API, stateless (``store:false``) tool loops."""

    name: str = "openai"
    dialect: str = "openai-responses"
    description: str = (
        "OpenAI: a function_call needs its reasoning item right before it (400), a reasoning item needs "
        "its following item (400), id-only reasoning under store:false is not found (404); reasoning "
        "summaries are streamed only when reasoning.summary is requested"
    )

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        """Without ``reasoning.summary`` the reasoning item arrives empty, carrying only its
        ``encrypted_content`` (a placeholder when the script gave none); without ``include:
        ["reasoning.encrypted_content"]`` it carries no encrypted content either (recorded:
        recordings/corpus/openai-responses-*: the item is ``{"id", "type", "summary": []}``)."""
        turn = self._summaries(request, turn)
        include = request.get("include")
        if isinstance(include, list) and "reasoning.encrypted_content" in include:
            return turn
        return tuple(
            ReasoningDelta("", item=ev.item) if isinstance(ev, ReasoningSignature | RedactedReasoning) else ev
            for ev in turn
        )

    def _summaries(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        if summary_requested(request):
            return turn
        out: list[Any] = []
        pending = ""
        for ev in turn:
            if isinstance(ev, ReasoningDelta):
                pending += ev.text or "\x00"
                continue
            if pending and not isinstance(ev, ReasoningSignature):
                out.append(ReasoningSignature(_placeholder(pending)))
            pending = ""
            out.append(ev)
        if pending:
            out.append(ReasoningSignature(_placeholder(pending)))
        return tuple(out)

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        items = request.get("input")
        if not isinstance(items, list):
            return None
        store = request.get("store", True) is not False  # the API's default is true
        for n, item in enumerate(items):
            if not isinstance(item, Mapping):
                continue
            kind = item.get("type")
            if kind == "item_reference" and not store and str(item.get("id", "")).startswith("rs_"):
                return self._not_found(str(item["id"]))
            if kind == "reasoning":
                rs = str(item.get("id", ""))
                nxt = items[n + 1] if n + 1 < len(items) else None
                follows = isinstance(nxt, Mapping) and (
                    nxt.get("type") == "function_call"
                    or (nxt.get("type", "message") == "message" and nxt.get("role") == "assistant")
                )
                if not follows:
                    return Rejection(
                        400, openai_error_body(ORPHAN_REASONING.format(rs=rs)), "openai/orphan-reasoning"
                    )
                if not store and not isinstance(item.get("encrypted_content"), str):
                    return self._not_found(rs)
            if kind == "function_call":
                rejection = self._function_call(items, n, item, emitted)
                if rejection is not None:
                    return rejection
        return None

    def _not_found(self, rs: str) -> Rejection:
        return Rejection(
            404,
            openai_error_body(NOT_PERSISTED.format(rs=rs)),
            "openai/not-persisted",
            (("input", rs, None),),
        )

    def _function_call(
        self, items: Sequence[Any], n: int, item: Mapping[str, Any], emitted: Sequence[Message]
    ) -> Rejection | None:
        call_id = str(item.get("call_id", ""))
        needed, rs = _preceded_by_reasoning(emitted, call_id)
        if not needed:
            return None
        j = n - 1
        while j >= 0 and isinstance(items[j], Mapping) and items[j].get("type") == "function_call":
            j -= 1
        prev = items[j] if j >= 0 else None
        if isinstance(prev, Mapping) and prev.get("type") == "reasoning":
            return None
        fc = str(item.get("id") or call_id)
        if not rs:
            m = _FC_ID.match(fc)
            rs = f"rs_{m.group(1)}_{int(m.group(2)) - (n - 1 - j) - 1}" if m else f"rs_{call_id}"
        message = MISSING_REASONING.format(fc=fc, rs=rs)
        return Rejection(400, openai_error_body(message), "openai/missing-reasoning", (("input", None, rs),))


PROFILES: dict[str, ProviderProfile] = {LENIENT: LenientProfile("openai-responses"), "openai": _OpenAI()}
