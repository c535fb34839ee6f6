"""Provider rules of the Chat Completions providers of 2026: Gemini's OpenAI-compatible endpoint,
OpenRouter (in front of Anthropic, OpenAI and Gemini), and the providers that only degrade when reasoning
is lost (MiniMax, Z.ai GLM, vLLM). They sit apart from the older chat rules because each answers by its
2026 documentation, cited in its class."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import Difference, Fidelity, LenientRules, ProviderRules, Rejection
from harness.dialects._carriers import server_tool_call
from harness.dialects._loss import NeededLoss
from harness.dialects._think import TAGS
from harness.dialects.gemini._rules import SENTINELS, missing_signature_message
from harness.dialects.openai_chat._reader import google_signature
from harness.events import Message, ReasoningBlock

# ``validate`` answers the provider's exact error where it rejects; ``fidelity`` compares what this
# upstream emitted with what came back, byte-exact where the provider says so, and reports what the
# provider would silently degrade on (these providers answer 200). docs/wire-notes-2026-b.md keeps the
# wire facts.
__all__ = ["OPENROUTER_INVALID_SIGNATURE", "RULES", "history", "openrouter_body"]

OPENROUTER_INVALID_SIGNATURE = "messages.{n}.content.0: Invalid `signature` in `thinking` block"

# Where a provider that answers 200 says lost reasoning must come back (a passback-fidelity FAIL cites it;
# a provider that calls it optional, such as Z.ai's Coding Plan cache, stays NON_STRICT).
OPENROUTER_PRESERVING = (
    "https://openrouter.ai/docs/use-cases/reasoning-tokens (preserving reasoning blocks: reasoning_details "
    "go back unmodified for reasoning to continue across tool calls)"
)
MINIMAX_HISTORY = (
    "https://platform.minimax.io/docs/api-reference/text-openai-api (Important Note: the complete "
    "assistant message, its reasoning included, must go back for interleaved thinking)"
)
VLLM_INPUT_FIELD = (
    "https://docs.vllm.ai/en/stable/features/reasoning_outputs/ and vllm-project/vllm#38488 (the chat "
    "template reads an assistant message's reasoning from 'reasoning' only)"
)


def history(
    request: Mapping[str, Any], emitted: Sequence[Message]
) -> list[tuple[int, Mapping[str, Any], Message]]:
    """Each request-history assistant entry this upstream produced, with its position in ``messages``
    and the emitted message it came from: matched by tool-call id, else by order."""
    msgs = request.get("messages")
    if not isinstance(msgs, list):
        return []
    by_call = {c.id: m for m in emitted for c in m.tool_calls}
    plain = [m for m in emitted if not m.tool_calls]
    out: list[tuple[int, Mapping[str, Any], Message]] = []
    for i, raw in enumerate(msgs):
        if not isinstance(raw, Mapping) or raw.get("role") != "assistant":
            continue
        ids = [c.get("id") for c in raw.get("tool_calls") or [] if isinstance(c, Mapping)]
        origin = next((by_call[c] for c in ids if c in by_call), None)
        if origin is None and not ids and plain:
            origin = plain.pop(0)
        if origin is not None:
            out.append((i, raw, origin))
    return out


_SYSTEM = ("system", "developer")


def _anthropic_index(msgs: Sequence[Any], i: int) -> int:
    """Where ``msgs[i]`` lands among the Anthropic messages a converter builds: system messages leave,
    consecutive tool results merge into one user message."""
    n, prev = -1, None
    for m in msgs[: i + 1]:
        role = m.get("role") if isinstance(m, Mapping) else None
        if role in _SYSTEM:
            continue
        if not (role == "tool" and prev == "tool"):
            n += 1
        prev = role
    return n


def _turn_start(msgs: Sequence[Any]) -> int:
    """Index of the last user message (a tool result does not start a turn)."""
    for i in range(len(msgs) - 1, -1, -1):
        if isinstance(msgs[i], Mapping) and msgs[i].get("role") == "user":
            return i
    return 0


@dataclass
class _Passthrough(LenientRules):
    """Streams the scripted turn as it is; validates nothing unless a subclass says so."""


# --------------------------------------------------------------------------------------------------
# Gemini's OpenAI-compatible endpoint


def _google_array(message: str) -> bytes:
    """Errors of the OpenAI-compatible endpoint: Google's error object inside a JSON array, pretty-printed
    (recorded: https://discuss.ai.google.dev/t/openai-api-compatibility-broken-due-to-thought-signature-on-gemini-3-pro-preview/109823)."""
    err = {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}
    return ("[" + json.dumps(err, indent=2, ensure_ascii=False) + "\n]").encode()


@dataclass
class GeminiOpenAIRules(_Passthrough):
    """Gemini 3 on ``/v1beta/openai/chat/completions``: the first tool call of each assistant message of
    the current turn carries ``extra_content.google.thought_signature``, unmodified
    (https://ai.google.dev/gemini-api/docs/thought-signatures, OpenAI compatibility section); parallel
    calls: only the first carries one. Missing: the real 400 (message with a lower-case "please", as
    recorded); altered: "Corrupted thought signature." (as OpenRouter relays Google's)."""

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        msgs = request.get("messages")
        if not isinstance(msgs, list):
            return None
        calls = {c.id: c.signature for m in emitted for c in m.tool_calls}
        contents = [m for m in msgs if isinstance(m, Mapping) and m.get("role") not in _SYSTEM]
        for i in range(_turn_start(msgs), len(msgs)):
            raw = msgs[i]
            if not isinstance(raw, Mapping) or raw.get("role") != "assistant" or not raw.get("tool_calls"):
                continue
            first = raw["tool_calls"][0]
            if not isinstance(first, Mapping):
                continue
            name = str((first.get("function") or {}).get("name", ""))
            sig, expected = google_signature(first), calls.get(str(first.get("id")))
            field = f"messages[{i}].tool_calls[0].extra_content.google.thought_signature"
            if sig is None:
                message = missing_signature_message(name, contents.index(raw))
                body = _google_array(message.replace("Please refer", "please refer"))
                return Rejection(400, body, "gemini-openai/missing-signature", ((field, None, expected),))
            if sig not in SENTINELS and expected is not None and sig != expected:
                diff: Difference = (field, sig, expected)
                body = _google_array("Corrupted thought signature.")
                return Rejection(400, body, "gemini-openai/signature-altered", (diff,))
        return None


# --------------------------------------------------------------------------------------------------
# OpenRouter


def openrouter_body(raw: str, provider: str = "Anthropic", status: int = 400) -> bytes:
    """OpenRouter relaying an upstream error: the upstream body as a string in ``metadata.raw``
    (recorded: https://github.com/OpenRouterTeam/ai-sdk-provider/issues/418)."""
    meta = {"raw": raw, "provider_name": provider, "is_byok": False}
    err = {"message": "Provider returned error", "code": status, "metadata": meta}
    return dumps_compact({"error": err, "user_id": "user_mock"}).encode()


def _details(raw: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    d = raw.get("reasoning_details")
    return [x for x in d if isinstance(x, Mapping)] if isinstance(d, list) else []


@dataclass
class OpenRouterRules(_Passthrough):
    """OpenRouter in front of Anthropic: an assistant message's ``reasoning_details`` go back unchanged
    (https://openrouter.ai/docs/use-cases/reasoning-tokens, preserving reasoning blocks). A signed
    ``reasoning.text`` detail (often a signature-only one) that is missing or altered, or that comes back
    without the text it signs (fragments of one ``index`` sent back unmerged), makes Anthropic answer
    "Invalid `signature` in `thinking` block", which OpenRouter relays in its own envelope; a
    ``reasoning.server_tool_call`` record that does not come back only degrades (the server tool call is
    not rehydrated into the later turn): a passback-fidelity finding."""

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        msgs = request.get("messages") or []
        for i, raw, origin in history(request, emitted):
            signed = [
                (b.signature, b.text) for b in origin.content if isinstance(b, ReasoningBlock) and b.signature
            ]
            texts = [d for d in _details(raw) if d.get("type") == "reasoning.text"]
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
        message = OPENROUTER_INVALID_SIGNATURE.format(n=_anthropic_index(msgs, i))
        error = {"type": "invalid_request_error", "message": message}
        upstream = dumps_compact({"type": "error", "error": error, "request_id": "req_mock_openrouter"})
        return Rejection(400, openrouter_body(upstream), rule, (diff,))

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        diffs: list[Difference] = []
        for i, raw, origin in history(request, emitted):
            blocks = [b for b in origin.content if isinstance(b, ReasoningBlock)]
            records = [r for r in (server_tool_call(b.redacted) for b in blocks) if r is not None]
            came = [server_tool_call(dumps_compact(d)) for d in _details(raw)]
            for rec in records:
                if rec not in came:
                    diffs.append((f"messages[{i}].reasoning_details[reasoning.server_tool_call]", None, rec))
        return Fidelity("openrouter/server-tool-call", tuple(diffs))


def _openai_body(message: str) -> bytes:
    """OpenAI's 400 for encrypted reasoning it cannot verify, as OpenRouter relays it (raw: OpenAI's
    pretty-printed error; recorded: pydantic/pydantic-ai#7185, maximhq/bifrost#5186)."""
    err = {"message": message, "type": "invalid_request_error", "param": None, "code": INVALID_ENCRYPTED}
    return openrouter_body(json.dumps({"error": err}, indent=2), "OpenAI")


INVALID_ENCRYPTED = "invalid_encrypted_content"
_ITEM_MISMATCH = (
    "The encrypted content for item {item} could not be verified. "
    "Reason: Encrypted content item_id did not match the target item id."
)
_UNDECRYPTABLE = (
    "The encrypted content for item {item} could not be verified. "
    "Reason: Encrypted content could not be decrypted or parsed."
)


@dataclass
class OpenRouterOpenAIRules(_Passthrough):
    """OpenRouter in front of an OpenAI reasoning model: a reasoning item streams as a
    ``reasoning.summary`` detail and a ``reasoning.encrypted`` detail sharing the item's ``rs_`` id
    (format ``openai-responses-v1``: docs/wire-formats.md 2.3, the openrouter SDK's detail types), and
    goes back unchanged (https://openrouter.ai/docs/use-cases/reasoning-tokens, preserving reasoning
    blocks). OpenRouter rebuilds the Responses item from that id: encrypted content under another id is
    OpenAI's 400 ``invalid_encrypted_content`` "item_id did not match the target item id"
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
            encrypted = [d for d in _details(raw) if d.get("type") == "reasoning.encrypted"]
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
        for d in _details(raw):
            if d.get("type") != "reasoning.summary" or d.get("id") in ids:
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
            came = {d.get("data") for d in _details(raw) if d.get("type") == "reasoning.encrypted"}
            for b in origin.content:
                if isinstance(b, ReasoningBlock) and b.signature is not None and b.signature not in came:
                    diffs.append((f"messages[{i}].reasoning_details[reasoning.encrypted]", None, b.signature))
        return NeededLoss("openrouter-openai/encrypted-dropped", tuple(diffs), source=OPENROUTER_PRESERVING)


def _google_raw(message: str) -> str:
    """Google's error as OpenRouter relays it in ``metadata.raw``: pretty-printed, a newline at the end
    (recorded: massgen/MassGen#665, provider "Google AI Studio")."""
    err = {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}
    return json.dumps(err, indent=2, ensure_ascii=False) + "\n"


@dataclass
class OpenRouterGeminiRules(_Passthrough):
    """OpenRouter in front of Gemini 3: each tool call's thought signature streams as a
    ``reasoning.encrypted`` detail whose ``id`` is the call id (format ``google-gemini-v1``:
    docs/wire-formats.md 2.3; pi matches the detail to the call by that id) and must come back
    unchanged; OpenRouter puts it back on the call's part. Gemini validates the current turn's calls
    (https://ai.google.dev/gemini-api/docs/thought-signatures): a detail missing, or named by another
    id, leaves the call without its signature (Gemini's 400 "missing a thought_signature"); altered
    data is Google's "Corrupted thought signature." (OpenRouterTeam/ai-sdk-provider#273,
    massgen/MassGen#665), both relayed in OpenRouter's envelope."""

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        msgs = request.get("messages")
        if not isinstance(msgs, list):
            return None
        start = _turn_start(msgs)
        contents = [m for m in msgs if isinstance(m, Mapping) and m.get("role") not in _SYSTEM]
        for i, raw, origin in history(request, emitted):
            if i < start:
                continue
            encrypted = [d for d in _details(raw) if d.get("type") == "reasoning.encrypted"]
            by_id = {str(d.get("id")): d for d in encrypted if d.get("id")}
            for call in origin.tool_calls:
                if call.signature is None:
                    continue
                field = f"messages[{i}].reasoning_details[id={call.id}].data"
                came = by_id.get(call.id)
                if came is None:
                    message = missing_signature_message(call.name, contents.index(raw))
                    body = openrouter_body(_google_raw(message), "Google AI Studio")
                    diff: Difference = (field, None, call.signature)
                    return Rejection(400, body, "openrouter-gemini/missing-signature", (diff,))
                if came.get("data") != call.signature and came.get("data") not in SENTINELS:
                    body = openrouter_body(_google_raw("Corrupted thought signature."), "Google AI Studio")
                    diff = (field, came.get("data"), call.signature)
                    return Rejection(400, body, "openrouter-gemini/signature-altered", (diff,))
        return None


# --------------------------------------------------------------------------------------------------
# Providers that degrade silently


def _reasoning_text(m: Message) -> str:
    return "".join(b.text for b in m.content if isinstance(b, ReasoningBlock) and b.redacted is None)


@dataclass
class MiniMaxRules(_Passthrough):
    """MiniMax-M2.x on its OpenAI-compatible API: the complete assistant message goes back; with the
    native format its ``content`` keeps the ``<think>…</think>`` block byte for byte, with
    ``reasoning_split`` its ``reasoning_details`` text must be preserved completely
    (https://platform.minimax.io/docs/api-reference/text-openai-api, "Important Note"). Losing it
    answers 200 and degrades interleaved thinking."""

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        diffs: list[Difference] = []
        for i, raw, origin in history(request, emitted):
            reasoning = _reasoning_text(origin)
            if not reasoning:
                continue
            details = [d for d in _details(raw) if d.get("type") == "reasoning.text"]
            if details:
                got = "".join(str(d.get("text") or "") for d in details)
                if got != reasoning:
                    diffs.append((f"messages[{i}].reasoning_details[].text", got, reasoning))
                continue
            want = f"{TAGS[0]}{reasoning}{TAGS[1]}{origin.text}"
            if raw.get("content") != want:
                diffs.append((f"messages[{i}].content", raw.get("content"), want))
        return NeededLoss("minimax/interleaved-thinking", tuple(diffs), source=MINIMAX_HISTORY)


@dataclass
class ZaiRules(_Passthrough):
    """Z.ai GLM preserved thinking: on the Coding Plan endpoint (on by default; ``thinking.clear_thinking:
    true`` turns it off) earlier assistant turns keep their ``reasoning_content``, complete and
    unmodified (https://docs.z.ai/guides/capabilities/thinking-mode, Preserved thinking). Lost or
    altered reasoning answers 200: the model re-derives it and the cache misses."""

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        thinking = request.get("thinking")
        if isinstance(thinking, Mapping) and thinking.get("clear_thinking") is True:
            return None
        diffs: list[Difference] = []
        for i, raw, origin in history(request, emitted):
            reasoning = _reasoning_text(origin)
            if reasoning and raw.get("reasoning_content") != reasoning:
                diffs.append((f"messages[{i}].reasoning_content", raw.get("reasoning_content"), reasoning))
        return Fidelity("zai/preserved-thinking", tuple(diffs))


@dataclass
class VllmRules(_Passthrough):
    """A vLLM server (>= 0.20, RFC vllm-project/vllm#27755): the chat template reads an assistant
    message's reasoning from the input field ``reasoning`` only; ``reasoning_content`` is silently
    dropped before the template runs (vllm-project/vllm#38488; docs:
    https://docs.vllm.ai/en/stable/features/reasoning_outputs/). Models whose templates keep the
    reasoning of the current tool loop (Qwen3, MiniMax-M2, GLM) then think without it: 200, degraded."""

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        msgs = request.get("messages")
        start = _turn_start(msgs) if isinstance(msgs, list) else 0
        diffs: list[Difference] = []
        for i, raw, origin in history(request, emitted):
            reasoning = _reasoning_text(origin)
            if i > start and reasoning and raw.get("reasoning") != reasoning:
                diffs.append((f"messages[{i}].reasoning", raw.get("reasoning"), reasoning))
        return NeededLoss("vllm/reasoning-input-field", tuple(diffs), source=VLLM_INPUT_FIELD)


_DESCRIPTIONS = {
    "gemini-3-openai": "Gemini 3 via its OpenAI-compatible endpoint: thought signatures on the first tool "
    "call of each step, Google's 400 in a JSON array",
    "openrouter": "OpenRouter over Anthropic: signed reasoning_details back unchanged (the upstream 400 "
    "relayed), server-tool records back (else degraded)",
    "openrouter-openai": "OpenRouter over OpenAI: encrypted details back under their item's rs_ id "
    "(invalid_encrypted_content relayed), dropped ones degrade",
    "openrouter-gemini": "OpenRouter over Gemini 3: each call's google-gemini-v1 encrypted detail back "
    "under the call id (Google's 400 relayed)",
    "minimax": "MiniMax-M2: <think> kept in history content (or reasoning_details with reasoning_split), "
    "else silently degraded",
    "zai-coding": "Z.ai GLM Coding Plan: preserved thinking; reasoning_content back as given, else degraded",
    "vllm": "vLLM >= 0.20: reasoning read from the input field 'reasoning' only; reasoning_content dropped",
}
RULES: dict[str, ProviderRules] = {
    name: cls("openai-chat", name=name, description=_DESCRIPTIONS[name])
    for name, cls in (
        ("gemini-3-openai", GeminiOpenAIRules),
        ("openrouter", OpenRouterRules),
        ("openrouter-openai", OpenRouterOpenAIRules),
        ("openrouter-gemini", OpenRouterGeminiRules),
        ("minimax", MiniMaxRules),
        ("zai-coding", ZaiRules),
        ("vllm", VllmRules),
    )
}
