"""Anthropic Messages provider rules: lenient, ``anthropic`` with its Vertex versions, and
``deepseek-anthropic``. They sit apart from the wire because they judge what a client sends back, with each
provider's own 400 messages."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from harness._json import dumps_compact
from harness.dialects._base import LENIENT, Difference, LenientRules, ProviderRules, Rejection
from harness.dialects._provider_errors import anthropic_error, openai_error
from harness.dialects._request_forms import no_reasoning, no_reasoning_text
from harness.dialects.anthropic_messages._wire import content_json
from harness.events import Message, ReasoningBlock, ToolCallBlock, Turn

__all__ = ["INVALID_SIGNATURE", "MISSING_THINKING", "MODIFIED", "RULES"]

MISSING_THINKING = (
    "messages.{n}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When "
    "`thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the "
    "lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from "
    "previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
)
INVALID_SIGNATURE = "messages.{n}.content.{m}: Invalid `signature` in `thinking` block"
MODIFIED = (
    "messages.{n}.content.{m}: `thinking` or `redacted_thinking` blocks in the latest assistant message "
    "cannot be modified. These blocks must remain as they were in the original response."
)
NOT_FIRST = (
    "messages.{n}.content.0: If an assistant message contains any thinking blocks, the first block must "
    "be thinking or redacted_thinking. Found {found}."
)
FINAL_THINKING = "messages.{n}: The final block in an assistant message cannot be `thinking`."
DISABLED = (
    "messages.{n}.content.{m}: When thinking is disabled, an `assistant` message in the final position "
    "cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request."
)
DEEPSEEK_MESSAGE = "The `content[].thinking` in the thinking mode must be passed back to the API."
ENABLED_UNSUPPORTED = (
    '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and '
    '"output_config.effort" to control thinking behavior.'
)
SIGNATURE_REQUIRED = "messages.{n}.content.{m}.thinking.signature: Field required"
THINKING_REQUIRED = "messages.{n}.content.{m}.thinking.thinking: Field required"
"""The request schema's answer to a thinking block without its ``thinking`` text (anthropic SDK
``ThinkingBlockParam``: ``thinking: Required[str]``, ``signature: Required[str]``); the same words as
for a missing signature, one field over."""
_THINKING = ("thinking", "redacted_thinking")


def _reject(
    message: str,
    rule: str,
    differences: tuple[Difference, ...] = (),
    *,
    family: str = "passback",
    request_id: str = "",
) -> Rejection:
    """Anthropic's 400 ``invalid_request_error`` (its request id, unless given, a hash of the message)."""
    request_id = request_id or "req_mock" + hashlib.sha256(message.encode()).hexdigest()[:20]
    body = dumps_compact(anthropic_error(400, message, None, request_id)).encode()
    return Rejection(400, body, rule, differences, family=family)


def _thinking_type(request: Mapping[str, Any]) -> str | None:
    cfg = request.get("thinking")
    return str(cfg.get("type")) if isinstance(cfg, Mapping) else None


def _blocks(msg: Any) -> list[Mapping[str, Any]]:
    content = msg.get("content") if isinstance(msg, Mapping) else None
    if not isinstance(content, list):
        return []
    return [b if isinstance(b, Mapping) else {} for b in content]


def _counterpart(blocks: Sequence[Mapping[str, Any]], emitted: Sequence[Message]) -> Message | None:
    """The emitted message a request assistant message stands for: by tool_use id, then by signature."""
    ids = {b.get("id") for b in blocks if b.get("type") == "tool_use"}
    sigs = {b.get("signature") for b in blocks if b.get("type") == "thinking" and b.get("signature")}
    datas = {b.get("data") for b in blocks if b.get("type") == "redacted_thinking"}
    for msg in reversed(emitted):
        for b in msg.content:
            if isinstance(b, ToolCallBlock) and b.id in ids:
                return msg
    for msg in reversed(emitted):
        for b in msg.content:
            if isinstance(b, ReasoningBlock) and (
                (b.signature is not None and b.signature in sigs)
                or (b.redacted is not None and b.redacted in datas)
            ):
                return msg
    return None


def _unsigned_texts(other: Message | None) -> set[str]:
    """The texts of the emitted thinking blocks that never got a signature (a script without one)."""
    return {
        b.text
        for b in (other.content if other is not None else ())
        if isinstance(b, ReasoningBlock) and b.signature is None and b.redacted is None
    }


def _unsigned(blocks: Sequence[Mapping[str, Any]], other: Message | None) -> int | None:
    """The first thinking block without a ``signature`` field (a truncated or client-made block: the API
    never sends one), unless the emitted message had that very block unsigned."""
    allowed = _unsigned_texts(other)
    for m, b in enumerate(blocks):
        if b.get("type") == "thinking" and b.get("signature") is None and b.get("thinking") not in allowed:
            return m
    return None


def _textless(blocks: Sequence[Mapping[str, Any]]) -> int | None:
    """The first thinking block without a ``thinking`` key (an empty string is a text: display omitted)."""
    found = (m for m, b in enumerate(blocks) if b.get("type") == "thinking" and "thinking" not in b)
    return next(found, None)


def _req(b: Mapping[str, Any]) -> tuple[str, str, str]:
    """A thinking or redacted block as what must come back unchanged: type, text or data, signature."""
    if b.get("type") == "redacted_thinking":
        return ("redacted_thinking", str(b.get("data", "")), "")
    return ("thinking", str(b.get("thinking", "")), str(b.get("signature") or ""))


@dataclass(slots=True)
class _Anthropic(ProviderRules):
    name: str = "anthropic"
    dialect: str = "anthropic-messages"
    description: str = (
        "Anthropic: thinking blocks come back complete, unmodified, signed and first; the final assistant "
        "message of a tool loop starts with one; none when thinking is disabled (400 invalid_request_error)"
    )

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return turn if _thinking_type(request) in ("enabled", "adaptive") else no_reasoning(turn)

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        msgs = request.get("messages")
        if not isinstance(msgs, list):
            return None
        enabled = _thinking_type(request) in ("enabled", "adaptive")
        assistants = [
            n for n, m in enumerate(msgs) if isinstance(m, Mapping) and m.get("role") == "assistant"
        ]
        final = assistants[-1] if assistants else -1
        signatures = {
            b.signature for m in emitted for b in m.content if isinstance(b, ReasoningBlock) and b.signature
        }
        for n in assistants:
            blocks = _blocks(msgs[n])
            kinds = [str(b.get("type")) for b in blocks]
            textless = _textless(blocks)
            if textless is not None:  # schema validation, whatever the thinking mode: the field is required
                return _reject(
                    THINKING_REQUIRED.format(n=n, m=textless),
                    "anthropic/thinking-required",
                    ((f"messages.{n}.content.{textless}.thinking", None, "the block's thinking text"),),
                )
            if not enabled:
                if n == len(msgs) - 1 and "thinking" in kinds:
                    return _reject(
                        DISABLED.format(n=n, m=kinds.index("thinking")), "anthropic/thinking-disabled"
                    )
                continue
            other = _counterpart(blocks, emitted)
            missing = _unsigned(blocks, other)
            if missing is not None:  # schema validation comes first: the field is required
                return _reject(
                    SIGNATURE_REQUIRED.format(n=n, m=missing),
                    "anthropic/signature-required",
                    ((f"messages.{n}.content.{missing}.signature", None, "a signature"),),
                )
            if n == final and "tool_use" in kinds and kinds and kinds[0] not in _THINKING:
                needs = other is None or (
                    bool(other.content) and isinstance(other.content[0], ReasoningBlock)
                )
                if needs and _in_tool_loop(msgs, n):
                    return _reject(MISSING_THINKING.format(n=n, found=kinds[0]), "anthropic/missing-thinking")
            if any(k in _THINKING for k in kinds):
                if kinds[0] not in _THINKING:
                    return _reject(NOT_FIRST.format(n=n, found=kinds[0]), "anthropic/thinking-not-first")
                if kinds[-1] == "thinking":
                    return _reject(FINAL_THINKING.format(n=n), "anthropic/final-thinking")
            rejection = self._signatures(n, blocks, other, signatures, latest=n == final)
            if rejection is None and n == final and other is not None:
                rejection = self._modified(n, blocks, other)
            if rejection is not None:
                return rejection
        return None

    def _signatures(
        self,
        n: int,
        blocks: Sequence[Mapping[str, Any]],
        other: Message | None,
        signatures: set[str],
        *,
        latest: bool,
    ) -> Rejection | None:
        unsigned = _unsigned_texts(other)
        known = {b.signature: b.text for b in other.content if isinstance(b, ReasoningBlock)} if other else {}
        for m, b in enumerate(blocks):
            if b.get("type") != "thinking":
                continue
            sig = b.get("signature")
            text = b.get("thinking")
            if not sig and text in unsigned:
                continue
            valid = isinstance(sig, str) and bool(sig) and sig in signatures
            if valid and not latest and sig in known and known[sig] != text:
                valid = False  # the signature does not cover the edited text
            if not valid:
                diff = ((f"messages.{n}.content.{m}.signature", sig, None),)
                return _reject(INVALID_SIGNATURE.format(n=n, m=m), "anthropic/invalid-signature", diff)
        return None

    def _modified(self, n: int, blocks: Sequence[Mapping[str, Any]], other: Message) -> Rejection | None:
        expected = [
            _req(c) for c in content_json([b for b in other.content if isinstance(b, ReasoningBlock)])
        ]
        got = [(m, _req(b)) for m, b in enumerate(blocks) if b.get("type") in _THINKING]
        for k in range(max(len(expected), len(got))):
            want = expected[k] if k < len(expected) else None  # None: a block the message never had
            if k >= len(got) or got[k][1] != want:
                m = got[k][0] if k < len(got) else (got[-1][0] + 1 if got else 0)
                actual = got[k][1] if k < len(got) else None
                diff = ((f"messages.{n}.content.{m}", actual, want),)
                return _reject(MODIFIED.format(n=n, m=m), "anthropic/thinking-modified", diff)
        return None


@dataclass(slots=True)
class _AnthropicAdaptive(_Anthropic):
    """Claude Opus 4.7 and later (https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-7,
    https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking): ``thinking.type: enabled``
    is a 400; thinking text is omitted unless ``display: "summarized"`` is asked for (the signature still
    comes); interleaved thinking needs no beta header. Passback rules as ``anthropic``."""

    name: str = "anthropic-adaptive"
    description: str = (
        "Anthropic Opus 4.7+: only adaptive thinking (type enabled -> 400); display defaults to omitted "
        "(empty thinking text, signature kept) unless summarized is requested; passback as anthropic"
    )
    request_rules: ClassVar[tuple[str, ...]] = ("anthropic/thinking-enabled-unsupported",)
    """The rules of ``family="request"`` it enforces (the request-contract check reads them)."""

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        turn = _Anthropic.shape(self, request, turn)
        cfg = request.get("thinking")
        display = cfg.get("display") if isinstance(cfg, Mapping) else None
        if display == "summarized":
            return turn
        return no_reasoning_text(turn)

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        if _thinking_type(request) == "enabled":
            diff = ("thinking.type", "enabled", "adaptive")
            return _reject(
                ENABLED_UNSUPPORTED, "anthropic/thinking-enabled-unsupported", (diff,), family="request"
            )
        return _Anthropic.validate(self, request, emitted)


def _in_tool_loop(msgs: Sequence[Any], n: int) -> bool:
    """The assistant message ``n`` is followed by a user message carrying tool_result blocks."""
    return any(
        b.get("type") == "tool_result" for m in msgs[n + 1 :] if isinstance(m, Mapping) for b in _blocks(m)
    )


@dataclass(slots=True)
class _DeepSeek(ProviderRules):
    name: str = "deepseek-anthropic"
    dialect: str = "anthropic-messages"
    description: str = (
        "DeepSeek's Anthropic endpoint: in thinking mode (on unless disabled) every assistant message with "
        "tool_use must carry its thinking block in all later requests"
    )

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return no_reasoning(turn) if _thinking_type(request) == "disabled" else turn

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        if _thinking_type(request) == "disabled":
            return None
        msgs = request.get("messages")
        for n, msg in enumerate(msgs if isinstance(msgs, list) else []):
            if not isinstance(msg, Mapping) or msg.get("role") != "assistant":
                continue
            blocks = _blocks(msg)
            kinds = [b.get("type") for b in blocks]
            if "tool_use" not in kinds or "thinking" in kinds:
                continue
            other = _counterpart(blocks, emitted)
            if other is None or any(
                isinstance(b, ReasoningBlock) and b.redacted is None for b in other.content
            ):
                body = dumps_compact(openai_error(400, DEEPSEEK_MESSAGE, "invalid_request_error")).encode()
                diff = (f"messages.{n}.content", None, "thinking")
                return Rejection(400, body, "deepseek-anthropic/missing-thinking", (diff,))
        return None


VERTEX_VERSIONS = frozenset({"vertex-2023-10-16", "2026-10-21"})
"""Google's documented value, and what the anthropic SDK 2.16.0's Vertex client sends (SDK wins)."""


@dataclass(slots=True)
class _Vertex(_Anthropic):
    """Claude on Vertex AI: Anthropic's thinking rules, and the body carries ``anthropic_version``
    (recorded 400 "anthropic_version: Field required", request id ``req_vrtx_…``, quoted in
    https://github.com/jordigilh/kubernaut/issues/686): a request-contract rejection."""

    name: str = "vertex"
    description: str = "Claude on Vertex AI: anthropic_version in the body (400 otherwise), Anthropic's rules"
    request_rules: ClassVar[tuple[str, ...]] = ("vertex/anthropic-version",)

    def on_path(self, path: str) -> ProviderRules:
        """Vertex's contract holds on Vertex's paths only: ``POST /v1/messages``, which Vertex does not
        serve, is Anthropic's API and gets Anthropic's rules (no ``anthropic_version`` there)."""
        return self if path.split("?")[0].endswith(VERTEX_PATHS) else _ANTHROPIC

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        version = request.get("anthropic_version")
        if version not in VERTEX_VERSIONS:
            message = "anthropic_version: Field required" if version is None else "anthropic_version: invalid"
            diff = ("anthropic_version", version, "vertex-2023-10-16")
            return _reject(
                message, "vertex/anthropic-version", (diff,), family="request", request_id="req_vrtx_mock"
            )
        return _Anthropic.validate(self, request, emitted)


VERTEX_PATHS = (":rawPredict", ":streamRawPredict")
"""Vertex's Claude paths (``…/publishers/anthropic/models/{model}:streamRawPredict``)."""
_ANTHROPIC = _Anthropic()

RULES: dict[str, ProviderRules] = {
    LENIENT: LenientRules("anthropic-messages"),
    "anthropic": _ANTHROPIC,
    "anthropic-adaptive": _AnthropicAdaptive(),
    "deepseek-anthropic": _DeepSeek(),
    "vertex": _Vertex(),
}
