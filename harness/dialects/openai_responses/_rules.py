"""OpenAI Responses provider rules: lenient; ``openai``: a reasoning item before its function_call, no
orphan reasoning, no id-only reasoning under ``store:false``, encrypted content back unaltered, summaries
only when requested; ``openai-codex``: as openai, and a lost ``phase`` degrades; ``xai``: dropped encrypted
reasoning degrades, altered is a 400 in xAI's body. They judge what a client sends back, so they sit apart
from the wire; each names its source."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from harness._json import dumps_compact, loads
from harness.dialects._base import Difference, Fidelity, LenientRules, ProviderRules, Rejection
from harness.dialects._provider_errors import openai_error
from harness.dialects._values import mapping
from harness.dialects.openai_responses._items import ItemProblem, call_problem, schema_problem
from harness.dialects.openai_responses._wire import phase_of
from harness.events import (
    Message,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    TextBlock,
    ToolCallBlock,
    Turn,
)

__all__ = ["RULES", "openai_error_body"]

MISSING_REASONING = (
    "Item '{fc}' of type 'function_call' was provided without its required 'reasoning' item: '{rs}'."
)
ORPHAN_REASONING = "Item '{rs}' of type 'reasoning' was provided without its required following item."
NOT_PERSISTED = (
    "Item with id '{rs}' not found. Items are not persisted when `store` is set to false. Try again with "
    "`store` set to true, or remove this item from your input."
)
NOT_FOUND = "Item with id '{rs}' not found."
"""A stored reference to a reasoning item the API never produced: the first sentence of the recorded
store:false answer (``NOT_PERSISTED``), without its store advice. The wording for store:true is guessed
from that recording; the status is the same 404."""
ENCRYPTED_NOT_VERIFIED = "The encrypted content {short} could not be verified."
"""Recorded (https://github.com/openai/codex/issues/8145): ``gAAA...DQ==``, ``invalid_encrypted_content``."""
XAI_NOT_DECRYPTED = (
    "Could not decrypt the provided encrypted_content. Ensure the value is the unmodified encrypted_content "
    "from a previous response."
)
"""Recorded (a 400 from api.x.ai quoted in NousResearch/hermes-agent's xAI fallback report)."""
_FC_ID = re.compile(r"^fc_(.+)_(\d+)$")


def opaque_blobs(m: Message) -> list[str]:
    """A message's reasoning blobs, in order: signatures and redacted data (each travels as a reasoning
    item's ``encrypted_content``)."""
    blocks = [b for b in m.content if isinstance(b, ReasoningBlock)]
    return [blob for b in blocks for blob in (b.signature, b.redacted) if blob]


def altered_encrypted(items: Sequence[Any], emitted: Sequence[Message]) -> list[Difference]:
    """Reasoning items whose ``encrypted_content`` this upstream never emitted: its field, its value and
    the emitted blob it most likely was (the one at the same place in emission order)."""
    given = [(n, i) for n, i in enumerate(items) if isinstance(i, Mapping) and i.get("type") == "reasoning"]
    sent = [blob for m in emitted for blob in opaque_blobs(m)]
    out: list[Difference] = []
    for k, (n, item) in enumerate(given):
        enc = item.get("encrypted_content")
        if isinstance(enc, str) and sent and enc not in sent:
            out.append((f"input[{n}].encrypted_content", enc, sent[k] if k < len(sent) else None))
    return out


def openai_error_body(
    message: str, *, status: int = 400, param: str | None = "input", code: str | None = None
) -> bytes:
    return dumps_compact(openai_error(status, message, code, param=param)).encode()


def _placeholder(text: str) -> str:
    return "gAAAAB-mock-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def _preceded_by_reasoning(emitted: Sequence[Message], call_id: str) -> tuple[bool, str]:
    """Whether the emitted call ``call_id`` followed a reasoning block (parallel calls share it), and
    that block's item id when the emitted message knows it."""
    for msg in emitted:
        blocks = msg.content
        for i, b in enumerate(blocks):
            if isinstance(b, ToolCallBlock) and b.id == call_id:
                prev = next((x for x in reversed(blocks[:i]) if not isinstance(x, ToolCallBlock)), None)
                if isinstance(prev, ReasoningBlock):
                    return True, prev.id.partition(":")[0]
                return False, ""
    return False, ""


def _produced(ref: str, emitted: Sequence[Message]) -> bool:
    """An ``rs_`` id this upstream produced earlier in the conversation: an emitted reasoning block's
    id, or any id when a block carried none (the emitter then named it on the wire, ``rs_mockN_K``)."""
    ids = [b.id.partition(":")[0] for m in emitted for b in m.content if isinstance(b, ReasoningBlock)]
    return ref in ids or any(not i for i in ids)


def _refers_to_reasoning(item: Mapping[str, Any], rs: str) -> bool:
    """An ``item_reference`` (openai SDK ``ItemReference``: ``type`` optional) to the reasoning item
    ``rs``, or to any reasoning item when the emitted message did not name it."""
    if item.get("type", "item_reference") != "item_reference" or "role" in item:
        return False
    ref = str(item.get("id", ""))
    return ref == rs if rs else ref.startswith("rs_")


def input_items(
    request: Mapping[str, Any], emitted: Sequence[Message], *, calls: bool = False
) -> Rejection | None:
    """OpenAI's answer to input items its SDK types reject (``_items``): the schema's problems,
    or with ``calls`` an output that answers no call. An unknown item type and an output for no call
    are the request's own fault (``family="request"``); a reasoning item given twice is a broken passback."""
    problem: ItemProblem | None
    if calls:
        given = {b.id for m in emitted for b in m.content if isinstance(b, ToolCallBlock)}
        problem = call_problem(request, given)
    else:
        problem = schema_problem(request)
    if problem is None:
        return None
    body = openai_error_body(problem.message, param=problem.param, code=problem.code)
    family = "passback" if problem.rule == "openai/duplicate-item" else "request"
    return Rejection(400, body, problem.rule, (problem.difference,), family=family)


@dataclass(slots=True)
class _OpenAI(ProviderRules):
    """OpenAI's Responses API, stateless (``store:false``) tool loops."""

    name: str = "openai"
    dialect: str = "openai-responses"
    description: str = (
        "OpenAI: a function_call needs its reasoning item right before it (400), a reasoning item needs "
        "its following item (400), id-only reasoning under store:false is not found (404); reasoning "
        "summaries are streamed only when reasoning.summary is requested"
    )

    request_rules: ClassVar[tuple[str, ...]] = ("openai/unknown-input-item", "openai/no-tool-call")
    """Its rules of ``family="request"`` (the request-contract check reads them)."""

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
        if mapping(request.get("reasoning")).get("summary") is not None:  # summaries requested
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

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        """Encrypted content that came back altered: OpenAI rejects it (``invalid_encrypted_content``)."""
        items = request.get("input")
        if not isinstance(items, list):
            return None
        diffs = tuple(altered_encrypted(items, emitted))
        return Fidelity("openai/encrypted-content", diffs, rejects=bool(diffs))

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        items = request.get("input")
        if not isinstance(items, list):
            return None
        rejection = input_items(request, emitted)
        if rejection is not None:
            return rejection
        bad = altered_encrypted(items, emitted)
        if bad:
            enc = bad[0][1]
            message = ENCRYPTED_NOT_VERIFIED.format(short=f"{enc[:4]}...{enc[-4:]}")
            body = openai_error_body(message, param=None, code="invalid_encrypted_content")
            return Rejection(400, body, "openai/invalid-encrypted-content", (bad[0],), family="fidelity")
        store = request.get("store", True) is not False  # the API's default is true
        for n, item in enumerate(items):
            if not isinstance(item, Mapping):
                continue
            kind = item.get("type", "message" if "role" in item else "item_reference")
            if kind == "item_reference" and str(item.get("id", "")).startswith("rs_"):
                ref = str(item["id"])
                if not store:
                    return self._not_found(ref)
                if not _produced(ref, emitted):
                    return self._not_found(ref, NOT_FOUND)
            if kind == "reasoning":
                rs = str(item.get("id", ""))
                nxt = items[n + 1] if n + 1 < len(items) else None
                follows = isinstance(nxt, Mapping) and (
                    nxt.get("type") == "function_call"
                    or (nxt.get("type", "message") == "message" and nxt.get("role") == "assistant")
                    or (store and nxt.get("type") == "item_reference")  # a stored call or message
                )
                if not follows:
                    return Rejection(
                        400, openai_error_body(ORPHAN_REASONING.format(rs=rs)), "openai/orphan-reasoning"
                    )
                if not store and not isinstance(item.get("encrypted_content"), str):
                    return self._not_found(rs)
            if kind == "function_call":
                rejection = self._function_call(items, n, item, emitted, store=store)
                if rejection is not None:
                    return rejection
        return input_items(request, emitted, calls=True)

    def _not_found(self, rs: str, message: str = NOT_PERSISTED) -> Rejection:
        body = openai_error_body(message.format(rs=rs), status=404)
        return Rejection(404, body, "openai/not-persisted", (("input", rs, None),))

    def _function_call(
        self,
        items: Sequence[Any],
        n: int,
        item: Mapping[str, Any],
        emitted: Sequence[Message],
        *,
        store: bool,
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
        if store and isinstance(prev, Mapping) and _refers_to_reasoning(prev, rs):
            return None  # the stored reasoning item, by reference: the API resolves it
        fc = str(item.get("id") or call_id)
        if not rs:
            m = _FC_ID.match(fc)
            rs = f"rs_{m.group(1)}_{int(m.group(2)) - (n - 1 - j) - 1}" if m else f"rs_{call_id}"
        message = MISSING_REASONING.format(fc=fc, rs=rs)
        return Rejection(400, openai_error_body(message), "openai/missing-reasoning", (("input", None, rs),))


# -- providers over the same wire that degrade silently


@dataclass(slots=True)
class _Codex(_OpenAI):
    """OpenAI's gpt-5.3-codex and later: every assistant message comes back with the ``phase`` it was
    given (openai ``ResponseOutputMessage.phase``: "preserve and resend phase on all assistant
    messages — dropping it can degrade performance"). A lost phase answers 200: NON_STRICT; the rest
    is the ``openai`` rules'."""

    name: str = "openai-codex"
    description: str = (
        "OpenAI gpt-5.3-codex+: as openai, and assistant messages resend their phase (dropping it degrades)"
    )

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        items = request.get("input")
        if not isinstance(items, list):
            return None
        diffs = altered_encrypted(items, emitted)  # the openai rules' finding, and its rejection
        rejects = bool(diffs)
        phases = {}
        for m in emitted:
            for k, b in enumerate(m.content):
                if isinstance(b, TextBlock) and b.text:
                    phases[b.text] = phase_of(m.content[k + 1 :])
        for n, item in enumerate(items):  # each assistant message, by its text
            if not isinstance(item, Mapping) or item.get("type", "message") != "message":
                continue
            content = item.get("content")
            parts = content if isinstance(content, list) else [{"text": content}]
            want = phases.get("".join(str(p.get("text") or "") for p in parts if isinstance(p, Mapping)))
            if item.get("role") == "assistant" and want is not None and item.get("phase") != want:
                diffs.append((f"input[{n}].phase", item.get("phase"), want))
        return Fidelity("openai/phase", tuple(diffs), rejects=rejects)


def _xai_body(message: str) -> bytes:
    """xAI's own error body: ``code`` and ``error`` strings."""
    return dumps_compact({"code": "Client specified an invalid argument", "error": message}).encode()


@dataclass(slots=True)
class _Xai(ProviderRules):
    """xAI's Responses API (https://docs.x.ai/developers/advanced-api-usage/troubleshooting-reasoning):
    reasoning items come back with their ``encrypted_content``, in place; "when an integration loses
    it, nothing fails: the API returns 200, and results can get worse". An altered blob cannot be
    decrypted: 400 with xAI's own body (``code`` / ``error`` strings). No rule about item order. Input
    items are read with OpenAI's schema (xAI's Responses API takes the OpenAI SDK's requests:
    https://docs.x.ai/docs/guides/responses-api), so what that schema rejects is a 400 here too, in
    xAI's body."""

    name: str = "xai"
    dialect: str = "openai-responses"
    description: str = "xAI Grok: encrypted reasoning back in place (lost: degraded; altered: 400)"

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return turn

    request_rules: ClassVar[tuple[str, ...]] = ("openai/unknown-input-item", "openai/no-tool-call")

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        items = request.get("input")
        # OpenAI's item schema first, then outputs that answer no call
        schema = input_items(request, emitted) or input_items(request, emitted, calls=True)
        if schema is not None:
            return replace(schema, body=_xai_body(loads(schema.body)["error"]["message"]))
        bad = altered_encrypted(items, emitted) if isinstance(items, list) else []
        if not bad:
            return None
        body = _xai_body(XAI_NOT_DECRYPTED)
        return Rejection(400, body, "xai/encrypted-content-altered", (bad[0],), family="fidelity")

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        items = request.get("input")
        if not isinstance(items, list):
            return None
        diffs = altered_encrypted(items, emitted)
        rejects = bool(diffs)
        reasoning = [i for i in items if isinstance(i, Mapping) and i.get("type") == "reasoning"]
        given = {i.get("encrypted_content") for i in reasoning}
        lost = [blob for m in emitted for blob in opaque_blobs(m) if blob not in given]
        if not rejects:
            diffs += [("input[reasoning].encrypted_content", None, blob) for blob in lost]
        return Fidelity("xai/encrypted-reasoning", tuple(diffs), rejects=rejects)


RULES: dict[str, ProviderRules] = {
    p.name: p for p in (LenientRules("openai-responses"), _OpenAI(), _Codex(), _Xai())
}
