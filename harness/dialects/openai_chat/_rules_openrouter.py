"""OpenRouter's provider rules, one per upstream it fronts (Anthropic, OpenAI, Gemini 3): what must come back
in ``reasoning_details`` for the upstream to accept the history, that upstream's 400 relayed in OpenRouter's
envelope, and the records whose loss only degrades (https://openrouter.ai/docs/use-cases/reasoning-tokens,
preserving reasoning blocks)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import Difference, Fidelity, LenientRules, Rejection
from harness.dialects._carriers import server_tool_call
from harness.dialects._loss import NeededLoss
from harness.dialects._provider_errors import google_pretty, openai_error
from harness.dialects.gemini._rules import SENTINELS, missing_signature_message
from harness.dialects.openai_chat._history import (
    SYSTEM,
    anthropic_index,
    history,
    returned_details,
    turn_start,
)
from harness.events import Message, ReasoningBlock

__all__ = ["OpenRouterGeminiRules", "OpenRouterOpenAIRules", "OpenRouterRules"]

OPENROUTER_INVALID_SIGNATURE = "messages.{n}.content.0: Invalid `signature` in `thinking` block"
OPENROUTER_PRESERVING = (
    "https://openrouter.ai/docs/use-cases/reasoning-tokens (preserving reasoning blocks: reasoning_details "
    "go back unmodified for reasoning to continue across tool calls)"
)
"""Where OpenRouter says lost reasoning must come back (a passback-fidelity FAIL cites it)."""
INVALID_ENCRYPTED = "invalid_encrypted_content"
_ITEM_MISMATCH = (
    "The encrypted content for item {item} could not be verified. "
    "Reason: Encrypted content item_id did not match the target item id."
)
_UNDECRYPTABLE = (
    "The encrypted content for item {item} could not be verified. "
    "Reason: Encrypted content could not be decrypted or parsed."
)


def openrouter_body(raw: str, provider: str = "Anthropic", status: int = 400) -> bytes:
    """OpenRouter relaying an upstream error: the upstream body as a string in ``metadata.raw``
    (recorded: https://github.com/OpenRouterTeam/ai-sdk-provider/issues/418)."""
    meta = {"raw": raw, "provider_name": provider, "is_byok": False}
    err = {"message": "Provider returned error", "code": status, "metadata": meta}
    return dumps_compact({"error": err, "user_id": "user_mock"}).encode()


@dataclass
class OpenRouterRules(LenientRules):
    """OpenRouter in front of Anthropic: an assistant message's ``reasoning_details`` go back unchanged.
    A signed ``reasoning.text`` detail (often a signature-only one) that is missing or altered, or that
    comes back without the text it signs (fragments of one ``index`` sent back unmerged), makes Anthropic
    answer "Invalid `signature` in `thinking` block", which OpenRouter relays in its own envelope; a
    ``reasoning.server_tool_call`` record that does not come back only degrades (the server tool call is
    not rehydrated into the later turn): a passback-fidelity finding."""

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        msgs = request.get("messages") or []
        for i, raw, origin in history(request, emitted):
            signed = [
                (b.signature, b.text) for b in origin.content if isinstance(b, ReasoningBlock) and b.signature
            ]
            texts = returned_details(raw, "reasoning.text")
            got = [d.get("signature") for d in texts]
            missing = next((s for s, _ in signed if s not in got), None)
            if missing is not None:
                field = f"messages[{i}].reasoning_details[].signature"
                diff: Difference = (field, next((g for g in got if g), None), missing)
                return self._invalid(msgs, i, diff, "openrouter/invalid-signature")
            # Each detail becomes one Anthropic thinking block, which Anthropic checks against its
            # signature: fragments of one index sent back unmerged leave the signed one without its text.
            for sig, text in signed:
                came = next(d for d in texts if d.get("signature") == sig)
                if str(came.get("text") or "") != text:
                    field = f"messages[{i}].reasoning_details[index={came.get('index')}].text"
                    return self._invalid(
                        msgs, i, (field, came.get("text"), text), "openrouter/signed-text-lost"
                    )
        return None

    @staticmethod
    def _invalid(msgs: Sequence[Any], i: int, diff: Difference, rule: str) -> Rejection:
        message = OPENROUTER_INVALID_SIGNATURE.format(n=anthropic_index(msgs, i))
        error = {"type": "invalid_request_error", "message": message}
        upstream = dumps_compact({"type": "error", "error": error, "request_id": "req_mock_openrouter"})
        return Rejection(400, openrouter_body(upstream), rule, (diff,))

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        diffs: list[Difference] = []
        for i, raw, origin in history(request, emitted):
            blocks = [b for b in origin.content if isinstance(b, ReasoningBlock)]
            records = [r for r in (server_tool_call(b.redacted) for b in blocks) if r is not None]
            came = [server_tool_call(dumps_compact(d)) for d in returned_details(raw)]
            for rec in records:
                if rec not in came:
                    diffs.append((f"messages[{i}].reasoning_details[reasoning.server_tool_call]", None, rec))
        return Fidelity("openrouter/server-tool-call", tuple(diffs))


def _openai_body(message: str) -> bytes:
    """OpenAI's 400 for encrypted reasoning it cannot verify, as OpenRouter relays it (raw: OpenAI's
    pretty-printed error; recorded: pydantic/pydantic-ai#7185, maximhq/bifrost#5186)."""
    return openrouter_body(json.dumps(openai_error(400, message, INVALID_ENCRYPTED), indent=2), "OpenAI")


@dataclass
class OpenRouterOpenAIRules(LenientRules):
    """OpenRouter in front of an OpenAI reasoning model: a reasoning item streams as a
    ``reasoning.summary`` detail and a ``reasoning.encrypted`` detail sharing the item's ``rs_`` id
    (format ``openai-responses-v1``: docs/wire-formats.md 2.3, the openrouter SDK's detail types), and
    goes back unchanged. OpenRouter rebuilds the Responses item from that id: encrypted content under
    another id is OpenAI's 400 ``invalid_encrypted_content`` "item_id did not match the target item id"
    (pydantic/pydantic-ai#7185 through OpenRouter; maximhq/bifrost#5186 with a minted id); altered
    content is the same code, "could not be decrypted or parsed" (Wei-Shaw/sub2api#2863); relayed in
    OpenRouter's envelope. A dropped encrypted detail answers 200 without the item (the model loses its
    reasoning): a passback-fidelity finding.

    The identity fields compared, each with its source: the encrypted detail's ``id`` (the item id
    OpenAI checks the blob against: pydantic/pydantic-ai#7185, maximhq/bifrost#5186), its ``data``
    (byte-exact: Wei-Shaw/sub2api#2863) and the summary detail's ``id`` (the same item: a summary detail
    under another id, or none, splits the item OpenRouter rebuilds from the blob it was encrypted with;
    the real API answers ``invalid_encrypted_content``, measured in issue 46; the wording is the
    item-id one, guessed for this path). The summary text itself is not compared: OpenAI reads the
    reasoning from the encrypted content."""

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        for i, raw, origin in history(request, emitted):
            encrypted = returned_details(raw, "reasoning.encrypted")
            items = [b for b in origin.content if isinstance(b, ReasoningBlock) and b.signature and b.id]
            for b in items:
                same = next((d for d in encrypted if d.get("data") == b.signature), None)
                if same is not None and same.get("id") != b.id:
                    diff: Difference = (f"messages[{i}].reasoning_details[].id", same.get("id"), b.id)
                    body = _openai_body(_ITEM_MISMATCH.format(item=same.get("id")))
                    return Rejection(400, body, "openrouter-openai/item-id-mismatch", (diff,))
                other = next((d for d in encrypted if d.get("id") == b.id), None)
                if same is None and other is not None:
                    field = f"messages[{i}].reasoning_details[id={b.id}].data"
                    diff = (field, other.get("data"), b.signature)
                    body = _openai_body(_UNDECRYPTABLE.format(item=b.id))
                    return Rejection(400, body, "openrouter-openai/encrypted-altered", (diff,))
            rejection = self._summary_ids(i, raw, items)
            if rejection is not None:
                return rejection
        return None

    @staticmethod
    def _summary_ids(i: int, raw: Mapping[str, Any], items: Sequence[ReasoningBlock]) -> Rejection | None:
        """A summary detail of an encrypted item that came back under no id or another one: the item
        OpenRouter rebuilds for it is not the one the blob names."""
        ids = {b.id for b in items}
        for d in returned_details(raw, "reasoning.summary"):
            if d.get("id") in ids:
                continue
            want = next((b.id for b in items if d.get("summary") and str(d.get("summary")) in b.text), None)
            if want is None and len(items) == 1:
                want = items[0].id
            if want is None:
                continue
            field = f"messages[{i}].reasoning_details[reasoning.summary,index={d.get('index')}].id"
            body = _openai_body(_ITEM_MISMATCH.format(item=want))
            diff: Difference = (field, d.get("id"), want)
            return Rejection(400, body, "openrouter-openai/summary-id-mismatch", (diff,))
        return None

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        diffs: list[Difference] = []
        for i, raw, origin in history(request, emitted):
            came = {d.get("data") for d in returned_details(raw, "reasoning.encrypted")}
            for b in origin.content:
                if isinstance(b, ReasoningBlock) and b.signature is not None and b.signature not in came:
                    diffs.append((f"messages[{i}].reasoning_details[reasoning.encrypted]", None, b.signature))
        return NeededLoss("openrouter-openai/encrypted-dropped", tuple(diffs), source=OPENROUTER_PRESERVING)


@dataclass
class OpenRouterGeminiRules(LenientRules):
    """OpenRouter in front of Gemini 3: each tool call's thought signature streams as a
    ``reasoning.encrypted`` detail whose ``id`` is the call id (format ``google-gemini-v1``:
    docs/wire-formats.md 2.3; pi matches the detail to the call by that id) and must come back
    unchanged; OpenRouter puts it back on the call's part. Gemini validates the current turn's calls
    (https://ai.google.dev/gemini-api/docs/thought-signatures): a detail missing, or named by another
    id, leaves the call without its signature (Gemini's 400 "missing a thought_signature"); altered
    data is Google's "Corrupted thought signature." (OpenRouterTeam/ai-sdk-provider#273,
    massgen/MassGen#665), both relayed in OpenRouter's envelope (provider "Google AI Studio")."""

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        msgs = request.get("messages")
        if not isinstance(msgs, list):
            return None
        start = turn_start(msgs)
        contents = [m for m in msgs if isinstance(m, Mapping) and m.get("role") not in SYSTEM]
        for i, raw, origin in history(request, emitted):
            if i < start:
                continue
            by_id = {str(d.get("id")): d for d in returned_details(raw, "reasoning.encrypted") if d.get("id")}
            for call in origin.tool_calls:
                if call.signature is None:
                    continue
                field = f"messages[{i}].reasoning_details[id={call.id}].data"
                came = by_id.get(call.id)
                if came is None:
                    message = missing_signature_message(call.name, contents.index(raw))
                    body = openrouter_body(google_pretty(message), "Google AI Studio")
                    diff: Difference = (field, None, call.signature)
                    return Rejection(400, body, "openrouter-gemini/missing-signature", (diff,))
                if came.get("data") != call.signature and came.get("data") not in SENTINELS:
                    body = openrouter_body(google_pretty("Corrupted thought signature."), "Google AI Studio")
                    diff = (field, came.get("data"), call.signature)
                    return Rejection(400, body, "openrouter-gemini/signature-altered", (diff,))
        return None
