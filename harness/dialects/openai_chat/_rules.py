"""The Chat Completions provider rules: strict providers that reject lost reasoning with their exact 400
(DeepSeek's three generations, Kimi, Gemini's OpenAI-compatible endpoint, OpenRouter's three upstreams in
``_rules_openrouter``), OpenAI's and DeepSeek's answers to a malformed ``messages[]``, and the providers
that answer 200 but degrade when reasoning is lost (MiniMax, Z.ai GLM, vLLM). ``validate`` answers the
provider's exact status and body bytes (wire-formats.md §7), ``fidelity`` reports a silent loss with the
provider's source; ``lenient`` accepts everything."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from harness._json import dumps_compact
from harness.dialects._base import Difference, Fidelity, LenientRules, ProviderRules, Rejection
from harness.dialects._loss import NeededLoss
from harness.dialects._provider_errors import google_pretty, openai_error
from harness.dialects._request_forms import no_reasoning
from harness.dialects._think import TAGS
from harness.dialects.gemini._rules import SENTINELS, missing_signature_message
from harness.dialects.openai_chat._audit import DEEPSEEK_WORDS, OPENAI_WORDS, Wording, messages_problem
from harness.dialects.openai_chat._history import SYSTEM, assistants, history, returned_details, turn_start
from harness.dialects.openai_chat._reader import google_signature
from harness.dialects.openai_chat._rules_openrouter import (
    OpenRouterGeminiRules,
    OpenRouterOpenAIRules,
    OpenRouterRules,
)
from harness.events import Message, Turn

__all__ = ["DS2_MESSAGE", "MINIMAX_HISTORY", "RULES", "VLLM_INPUT_FIELD", "deepseek_body"]

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
# Where a provider that answers 200 says lost reasoning must come back (a passback-fidelity FAIL cites it;
# a provider that calls it optional, such as Z.ai's Coding Plan cache, stays NON_STRICT).
MINIMAX_HISTORY = (
    "https://platform.minimax.io/docs/api-reference/text-openai-api (Important Note: the complete "
    "assistant message, its reasoning included, must go back for interleaved thinking)"
)
VLLM_INPUT_FIELD = (
    "https://docs.vllm.ai/en/stable/features/reasoning_outputs/ and vllm-project/vllm#38488 (the chat "
    "template reads an assistant message's reasoning from 'reasoning' only)"
)


def deepseek_body(message: str) -> bytes:
    return dumps_compact(openai_error(400, message, "invalid_request_error")).encode()


def _audit(request: Mapping[str, Any], words: Mapping[str, Wording]) -> Rejection | None:
    """The provider's 400 for the first problem of ``messages`` it is documented to reject (``_audit``),
    as a request-contract rule; None when there is none or its wording is unknown (accepted)."""
    msgs = request.get("messages")
    problem = messages_problem(msgs) if isinstance(msgs, list) else None
    wording = words.get(problem.rule) if problem is not None else None
    if problem is None or wording is None:
        return None
    message, param = wording.render(problem)
    body = dumps_compact(openai_error(400, message, wording.code, param=param)).encode()
    return Rejection(400, body, problem.rule, (problem.difference,), family="request")


def _thinking_disabled(request: Mapping[str, Any]) -> bool:
    thinking = request.get("thinking")
    return isinstance(thinking, Mapping) and thinking.get("type") == "disabled"


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

    def _reject(self, index: int, actual: Any, expected: str | None, rule: str) -> Rejection:
        msg = {"ds1": DS1_MESSAGE.format(index=index), "r1": R1_MESSAGE}.get(self.wording, DS2_MESSAGE)
        diff: Difference = (f"messages[{index}].reasoning_content", actual, expected)
        return Rejection(400, deepseek_body(msg), rule, (diff,))

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        malformed = _audit(request, DEEPSEEK_WORDS)
        if malformed is not None:
            return malformed
        if self.wording == "r1":
            for i, raw, _ in assistants(request):
                if raw.get("reasoning_content") is not None:
                    return self._reject(i, raw["reasoning_content"], None, "deepseek-r1-no-reasoning-input")
            return None
        if _thinking_disabled(request):
            return None
        for i, raw, origin in assistants(request, emitted):
            if not raw.get("tool_calls"):
                continue
            actual = raw.get("reasoning_content")
            if not isinstance(actual, str):
                expected = origin.reasoning if origin is not None else ""
                return self._reject(i, actual, expected, "deepseek-reasoning-content-missing")
            if self.exact and origin is not None and actual != origin.reasoning:
                return self._reject(i, actual, origin.reasoning, "deepseek-reasoning-content-altered")
        return None

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        if self.wording != "r1" and _thinking_disabled(request):
            return no_reasoning(turn)
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
        for i, raw, _ in assistants(request):
            if raw.get("tool_calls") and not isinstance(raw.get("reasoning_content"), str):
                diff = (f"messages[{i}].reasoning_content", raw.get("reasoning_content"), "")
                error = {"message": KIMI_MESSAGE.format(index=i), "type": "invalid_request_error"}
                body = dumps_compact({"error": error}).encode()
                return Rejection(400, body, "kimi-reasoning-content-missing", (diff,))
        return None

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return no_reasoning(turn) if _thinking_disabled(request) else turn


@dataclass
class OpenAIChatRules(LenientRules):
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


def _google_array(message: str) -> bytes:
    """Errors of Gemini's OpenAI-compatible endpoint: Google's error object inside a JSON array,
    pretty-printed (recorded: https://discuss.ai.google.dev/t/openai-api-compatibility-broken-due-to-thought-signature-on-gemini-3-pro-preview/109823)."""
    return ("[" + google_pretty(message) + "]").encode()


@dataclass
class GeminiOpenAIRules(LenientRules):
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
        contents = [m for m in msgs if isinstance(m, Mapping) and m.get("role") not in SYSTEM]
        for i in range(turn_start(msgs), len(msgs)):
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


# -- providers that degrade silently ---------------------------------------------------------------


@dataclass
class MiniMaxRules(LenientRules):
    """MiniMax-M2.x on its OpenAI-compatible API: the complete assistant message goes back; with the
    native format its ``content`` keeps the ``<think>…</think>`` block byte for byte, with
    ``reasoning_split`` its ``reasoning_details`` text must be preserved completely (``MINIMAX_HISTORY``).
    Losing it answers 200 and degrades interleaved thinking."""

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        diffs: list[Difference] = []
        for i, raw, origin in history(request, emitted):
            reasoning = origin.reasoning
            if not reasoning:
                continue
            texts = returned_details(raw, "reasoning.text")
            if texts:
                got = "".join(str(d.get("text") or "") for d in texts)
                if got != reasoning:
                    diffs.append((f"messages[{i}].reasoning_details[].text", got, reasoning))
                continue
            want = f"{TAGS[0]}{reasoning}{TAGS[1]}{origin.text}"
            if raw.get("content") != want:
                diffs.append((f"messages[{i}].content", raw.get("content"), want))
        return NeededLoss("minimax/interleaved-thinking", tuple(diffs), source=MINIMAX_HISTORY)


def _compare(
    request: Mapping[str, Any], emitted: Sequence[Message], field: str, *, after: int = -1
) -> list[Difference]:
    """Each history entry past index ``after`` whose ``field`` is not the reasoning this upstream emitted."""
    diffs: list[Difference] = []
    for i, raw, origin in history(request, emitted):
        reasoning = origin.reasoning
        if i > after and reasoning and raw.get(field) != reasoning:
            diffs.append((f"messages[{i}].{field}", raw.get(field), reasoning))
    return diffs


@dataclass
class ZaiRules(LenientRules):
    """Z.ai GLM preserved thinking: on the Coding Plan endpoint (on by default; ``thinking.clear_thinking:
    true`` turns it off) earlier assistant turns keep their ``reasoning_content``, complete and
    unmodified (https://docs.z.ai/guides/capabilities/thinking-mode, Preserved thinking). Lost or
    altered reasoning answers 200: the model re-derives it and the cache misses."""

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        thinking = request.get("thinking")
        if isinstance(thinking, Mapping) and thinking.get("clear_thinking") is True:
            return None
        return Fidelity("zai/preserved-thinking", tuple(_compare(request, emitted, "reasoning_content")))


@dataclass
class VllmRules(LenientRules):
    """A vLLM server (>= 0.20, RFC vllm-project/vllm#27755): the chat template reads an assistant
    message's reasoning from the input field ``reasoning`` only; ``reasoning_content`` is silently
    dropped before the template runs (``VLLM_INPUT_FIELD``). Models whose templates keep the reasoning of
    the current tool loop (Qwen3, MiniMax-M2, GLM) then think without it: 200, degraded."""

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        msgs = request.get("messages")
        start = turn_start(msgs) if isinstance(msgs, list) else 0
        diffs = _compare(request, emitted, "reasoning", after=start)
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
        *(
            cls("openai-chat", name=name, description=_DESCRIPTIONS[name])
            for name, cls in (
                ("gemini-3-openai", GeminiOpenAIRules),
                ("openrouter", OpenRouterRules),
                ("openrouter-openai", OpenRouterOpenAIRules),
                ("openrouter-gemini", OpenRouterGeminiRules),
                ("minimax", MiniMaxRules),
                ("zai-coding", ZaiRules),
                ("vllm", VllmRules),
            )
        ),
    )
}
"""Every Chat provider's rules by name (``lenient`` first)."""
