"""Strict Chat Completions providers: the DeepSeek passback rules of three generations and Kimi's, with exact
400s, and OpenAI's and DeepSeek's answers to a malformed ``messages[]``, each in its own words. A
provider's rules validate the raw request body against what this upstream emitted earlier and answer the
provider's exact status and body bytes, wire-formats.md §7; ``lenient`` accepts everything."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from harness._json import dumps_compact
from harness.dialects._base import Difference, LenientRules, ProviderRules, Rejection
from harness.dialects.openai_chat._audit import DEEPSEEK_WORDS, OPENAI_WORDS, Wording, messages_problem
from harness.events import (
    Message,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    Turn,
)

__all__ = [
    "DS1_MESSAGE",
    "DS2_MESSAGE",
    "KIMI_MESSAGE",
    "R1_MESSAGE",
    "RULES",
    "DeepSeekRules",
    "KimiRules",
    "OpenAIChatRules",
    "deepseek_body",
    "kimi_body",
]

DS1_MESSAGE = (
    "Missing `reasoning_content` field in the assistant message at message index {index}. For more "
    "information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls"
)
DS2_MESSAGE = "The `reasoning_content` in the thinking mode must be passed back to the API."
KIMI_MESSAGE = (
    "thinking is enabled but reasoning_content is missing in assistant tool call message at index {index}"
)
R1_MESSAGE = "The `reasoning_content` field is not supported in input messages of deepseek-reasoner."
"""(guess) The R1-era docs say sending ``reasoning_content`` back is a 400 but quote no body; this
wording is reconstructed in DeepSeek's usual error envelope."""


def deepseek_body(message: str) -> bytes:
    return dumps_compact(
        {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": None,
                "code": "invalid_request_error",
            }
        }
    ).encode()


def kimi_body(message: str) -> bytes:
    return dumps_compact({"error": {"message": message, "type": "invalid_request_error"}}).encode()


def _audit(request: Mapping[str, Any], words: Mapping[str, Wording]) -> Rejection | None:
    """The provider's 400 for the first problem of ``messages`` it is documented to reject (``_audit``),
    as a request-contract rule; None when there is none or its wording is unknown (accepted)."""
    msgs = request.get("messages")
    problem = messages_problem(msgs) if isinstance(msgs, list) else None
    wording = words.get(problem.rule) if problem is not None else None
    if problem is None or wording is None:
        return None
    message, param = wording.render(problem)
    error = {"message": message, "type": "invalid_request_error", "param": param, "code": wording.code}
    body = dumps_compact({"error": error}).encode()
    return Rejection(400, body, problem.rule, (problem.difference,), kind="request")


def _thinking_disabled(request: Mapping[str, Any]) -> bool:
    thinking = request.get("thinking")
    return isinstance(thinking, Mapping) and thinking.get("type") == "disabled"


def _strip_reasoning(turn: Turn) -> Turn:
    return tuple(
        ev for ev in turn if not isinstance(ev, ReasoningDelta | ReasoningSignature | RedactedReasoning)
    )


def _assistants(request: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    msgs = request.get("messages")
    if not isinstance(msgs, list):
        return []
    return [(i, m) for i, m in enumerate(msgs) if isinstance(m, Mapping) and m.get("role") == "assistant"]


def _call_ids(raw: Mapping[str, Any]) -> set[str]:
    calls = raw.get("tool_calls")
    if not isinstance(calls, list):
        return set()
    return {str(c.get("id")) for c in calls if isinstance(c, Mapping) and c.get("id")}


@dataclass
class DeepSeekRules(ProviderRules):
    """DeepSeek thinking mode (V3.2 wording DS-1, V4 wording DS-2), or the R1-era opposite rule.

    Rule ``missing``: every assistant message with ``tool_calls`` needs a ``reasoning_content`` key
    (null counts as missing), in every later request — what the real API enforces. Rule ``altered``
    (harness strictness, documented choice): the docs say the reasoning must be "fully passed back", so
    when the request carries an assistant tool-call message this upstream emitted (matched by tool
    call id), its ``reasoning_content`` must equal the emitted text; the real API cannot see that and
    would accept it, so set ``exact=False`` to model only the real check. With
    ``thinking: {"type": "disabled"}`` nothing is enforced and no reasoning is streamed.
    """

    name: str
    description: str
    wording: str  # "ds1" | "ds2" | "r1"
    exact: bool = True
    dialect: str = "openai-chat"
    request_rules: ClassVar[tuple[str, ...]] = tuple(DEEPSEEK_WORDS)

    def _reject(self, index: int, diffs: tuple[Difference, ...], rule: str) -> Rejection:
        msg = DS1_MESSAGE.format(index=index) if self.wording == "ds1" else DS2_MESSAGE
        return Rejection(400, deepseek_body(msg), rule, diffs)

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        malformed = _audit(request, DEEPSEEK_WORDS)
        if malformed is not None:
            return malformed
        if self.wording == "r1":
            for i, raw in _assistants(request):
                if raw.get("reasoning_content") is not None:
                    diff: Difference = (f"messages[{i}].reasoning_content", raw["reasoning_content"], None)
                    return Rejection(
                        400, deepseek_body(R1_MESSAGE), "deepseek-r1-no-reasoning-input", (diff,)
                    )
            return None
        if _thinking_disabled(request):
            return None
        by_call: dict[str, Message] = {}
        for m in emitted:
            for c in m.tool_calls:
                by_call[c.id] = m
        for i, raw in _assistants(request):
            ids = _call_ids(raw)
            if not ids and not raw.get("tool_calls"):
                continue
            actual = raw.get("reasoning_content")
            if not isinstance(actual, str):
                origin = next((by_call[c] for c in ids if c in by_call), None)
                expected = origin.reasoning if origin is not None else ""
                diff = (f"messages[{i}].reasoning_content", actual, expected)
                return self._reject(i, (diff,), "deepseek-reasoning-content-missing")
            if self.exact:
                origin = next((by_call[c] for c in ids if c in by_call), None)
                if origin is not None and actual != origin.reasoning:
                    diff = (f"messages[{i}].reasoning_content", actual, origin.reasoning)
                    return self._reject(i, (diff,), "deepseek-reasoning-content-altered")
        return None

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        if self.wording != "r1" and _thinking_disabled(request):
            return _strip_reasoning(turn)
        return turn


@dataclass
class KimiRules(ProviderRules):
    """Moonshot Kimi thinking: every assistant tool-call message carries ``reasoning_content`` (an empty
    string satisfies it; null or absent does not). Presence only: Kimi never compares the text."""

    name: str = "kimi"
    dialect: str = "openai-chat"
    description: str = "Kimi K2 thinking: reasoning_content key on every assistant tool-call message"

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        if _thinking_disabled(request):
            return None
        for i, raw in _assistants(request):
            if raw.get("tool_calls") and not isinstance(raw.get("reasoning_content"), str):
                diff = (f"messages[{i}].reasoning_content", raw.get("reasoning_content"), "")
                return Rejection(
                    400, kimi_body(KIMI_MESSAGE.format(index=i)), "kimi-reasoning-content-missing", (diff,)
                )
        return None

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return _strip_reasoning(turn) if _thinking_disabled(request) else turn


@dataclass
class OpenAIChatRules(ProviderRules):
    """OpenAI's Chat Completions: a malformed ``messages[]`` is a 400 in OpenAI's words (``_audit``);
    the turn streams as scripted (Chat Completions passes no reasoning back)."""

    name: str = "openai"
    dialect: str = "openai-chat"
    description: str = (
        "OpenAI Chat Completions: tool messages answer the tool_calls right before them, every call is "
        "answered, assistant content or tool_calls, string arguments (400 otherwise)"
    )
    request_rules: ClassVar[tuple[str, ...]] = tuple(OPENAI_WORDS)

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        return _audit(request, OPENAI_WORDS)

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return turn


RULES: dict[str, ProviderRules] = {
    p.name: p
    for p in (
        LenientRules("openai-chat"),
        DeepSeekRules(
            "deepseek-v3.2",
            "DeepSeek V3.2 thinking mode: tool-call turns keep reasoning_content (DS-1)",
            "ds1",
        ),
        DeepSeekRules(
            "deepseek-v4", "DeepSeek V4 thinking mode: tool-call turns keep reasoning_content (DS-2)", "ds2"
        ),
        DeepSeekRules("deepseek-r1", "deepseek-reasoner (R1 era): reasoning_content in input is a 400", "r1"),
        KimiRules(),
        OpenAIChatRules(),
    )
}
