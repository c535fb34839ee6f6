"""The detection matrix's rows: every fault switch of the reference SUTs, the SUT that takes it, the check
designed to catch it and the cases that show it. They are data only; ``tools._matrix`` runs them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from harness.runner._builtin import builtin_profile

__all__ = ["DOORS", "MATRIX", "Mutant"]


@dataclass(frozen=True, slots=True)
class Mutant:
    fault: str
    sut: str  # built-in reference SUT
    check: str  # the check designed for this bug class
    cases: tuple[str, ...]
    also: frozenset[str] = frozenset()  # other checks the same bug legitimately trips
    strict: bool = False  # the designed verdict is NON_STRICT (a provider that only degrades): run --strict
    label: str = ""  # tells apart two rows of one switch on one SUT
    door: str = ""  # the gateway's front door when not its default (openai-chat): a key of DOORS

    @property
    def id(self) -> str:
        sut = f"{self.sut}[{self.door}]" if self.door else self.sut
        return f"{sut}+{self.fault}" + (f"[{self.label}]" if self.label else "")

    def run_sut(self, faulted: bool = True) -> Any:
        """What ``run`` takes as the SUT: the built-in's name, or its profile behind another front door
        (the fault switches then ride on its command line)."""
        if not self.door:
            return self.sut
        variant, path = DOORS[self.door]
        profile = builtin_profile(self.sut, (self.fault,) if faulted else ())
        return replace(profile, front_door=self.door, front_variant=variant, path=path)

    def run_faults(self) -> list[str]:
        return [] if self.door else [self.fault]

    def unrelated(self, failing: set[str]) -> set[str]:
        """The failing checks that are neither the designed one nor one it legitimately trips."""
        return failing - {self.check} - self.also

    def caught(self, failing: set[str]) -> bool:
        """Caught by the designed check, and by no unrelated one."""
        return self.check in failing and not self.unrelated(failing)


DOORS: dict[str, tuple[str, str]] = {
    "anthropic-messages": ("thinking", "/v1/messages"),
    "gemini-interactions": ("summaries", "/v1/interactions"),
    "openai-responses": ("summary", "/v1/responses"),
}
"""The reference gateway's other front doors: dialect -> (the variant it answers in, its path)."""


def _c(*ids: str) -> tuple[str, ...]:
    return ids


CHAT = "openai-chat:reasoning_content/frames"

# -- Responses bridges (issue 40): the gateway behind its Responses front door over chat and Anthropic
# upstreams, and a Responses upstream's raw reasoning_text read by every reference SUT.
_BRIDGE = _c(
    f"ordering-duplication/responses-bridge[{CHAT}]",
    "ordering-duplication/responses-bridge[anthropic-messages:thinking/frames]",
)
_BRIDGE_SIGNED = _c(
    "tools-passback/responses-bridge-tool-turn[anthropic-messages:thinking/frames]",
    "tools-passback/responses-bridge-tool-turn[openai-chat:reasoning_details/frames]",
)
_RAW_TEXT = _c(
    "wire-variants/responses-reasoning-text[openai-responses:reasoning_text/frames]",
    "wire-variants/responses-reasoning-text[openai-responses:vllm-parts/frames/nonstream]",
)
_BRIDGE_ROWS: tuple[Mutant, ...] = (
    *(
        Mutant(fault, "reference", "front-door-grammar", _BRIDGE, door="openai-responses")
        for fault in (
            "bridge-no-summary",
            "bridge-done-last-delta",
            "bridge-unannounced-reasoning",
            "bridge-completed-drops-reasoning",
        )
    ),
    Mutant(
        "bridge-completed-drops-signature",
        "reference",
        "front-door-grammar",
        _BRIDGE_SIGNED,
        door="openai-responses",
    ),
    Mutant("drop-reasoning-text", "reference", "delivery", _RAW_TEXT),
    Mutant("drop-reasoning-text", "reference-sdk", "delivery", _RAW_TEXT),
    Mutant("drop-reasoning-text", "reference-cli", "delivery", _RAW_TEXT),
)

# A row is caught when its designed check fails and no check outside ``also`` does.
MATRIX: tuple[Mutant, ...] = (
    Mutant(
        "drop-reasoning",
        "reference",
        "delivery",
        _c(
            f"wire-variants/reasoning-then-answer[{CHAT}]",
            "wire-variants/reasoning-then-answer[anthropic-messages:thinking/frames]",
            "wire-variants/cohere-thinking[cohere:thinking/frames]",
            "wire-variants/ollama-generate[ollama:generate/frames]",
        ),
    ),
    Mutant(
        "buffer-reasoning",
        "reference",
        "incremental",
        _c(
            f"incrementality/gated-reasoning[{CHAT}]",
            "incrementality/gated-reasoning[openai-responses:summary/frames]",
            "wire-variants/responses-websocket[openai-responses-ws:summary/frames]",
        ),
    ),
    Mutant(
        "replay-done",
        "reference",
        "no-duplication",
        _c("ordering-duplication/done-event-repeats[openai-responses:summary/frames]"),
    ),
    Mutant(  # a mirror of two fields read twice; tests/variants shows it on a file-declared flat mirror too
        "read-both-fields",
        "reference",
        "no-duplication",
        _c("wire-variants/reasoning-then-answer[openai-chat:reasoning_details/frames]"),
    ),
    Mutant(
        "reasoning-into-content",
        "reference",
        "channel-separation",
        _c(f"wire-variants/reasoning-then-answer[{CHAT}]"),
    ),
    Mutant(
        "non-leading-think",
        "reference",
        "channel-separation",
        _c(f"wire-variants/inline-think-not-leading[{CHAT}]"),
    ),
    Mutant(
        "ignore-alias",
        "reference",
        "incremental",
        _c(
            "incrementality/reasoning-delta-alias[openai-responses:alias-string/frames]",
            "incrementality/reasoning-delta-alias[openai-responses:alias-object/frames]",
        ),
    ),
    Mutant(
        "lose-passback",
        "reference",
        "passback",
        _c(
            f"tools-passback/deepseek-reasoning-content[{CHAT}]",
            "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]",
            "tools-passback/responses-reasoning-item[openai-responses:summary/frames]",
            "tools-passback/gemini-thought-signature[gemini:signature/frames]",
        ),
    ),
    Mutant(
        "hide-upstream-error",
        "reference",
        "error-propagation",
        _c(f"errors-cancellation/upstream-http-error[{CHAT}]"),
    ),
    Mutant(
        "swallow-stream-error",
        "reference",
        "error-propagation",
        _c(
            f"errors-cancellation/mid-stream-error[{CHAT}]",
            "errors-cancellation/mid-stream-error[anthropic-messages:thinking/frames]",
        ),
    ),
    Mutant(
        "terminate-broken-stream",
        "reference",
        "error-propagation",
        _c(
            "sse-framing/unterminated[openai-chat:reasoning_content/frames/unterminated]",
            "sse-framing/unterminated[anthropic-messages:thinking/frames/unterminated]",
            f"errors-cancellation/upstream-disconnect[{CHAT}]",
        ),
    ),
    Mutant(
        "keep-upstream-open", "reference", "cancellation", _c(f"errors-cancellation/client-cancel[{CHAT}]")
    ),
    Mutant(
        "keep-upstream-open",
        "reference",
        "cancellation",
        _c("errors-cancellation/websocket-cancel[openai-responses-ws:summary/frames]"),
        label="websocket",
    ),
    Mutant(
        "tools-before-reasoning",
        "reference",
        "ordering",
        _c(f"ordering-duplication/reasoning-before-tool-call[{CHAT}]"),
        frozenset({"incremental"}),
    ),
    Mutant("drop-reasoning-tokens", "reference", "usage", _c(f"wire-variants/reasoning-tokens[{CHAT}]")),
    Mutant(
        "add-start-output",
        "reference",
        "usage",
        _c("wire-variants/reasoning-tokens[anthropic-messages:thinking/frames]"),
    ),
    Mutant(
        "thinking-as-text-block",
        "reference",
        "front-door-grammar",
        _c(
            "wire-variants/reasoning-then-answer[anthropic-messages:thinking/frames]",
            "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]",
        ),
        door="anthropic-messages",
    ),
    Mutant(  # the BOM hides Anthropic's message_start: a relaying front door opens without one
        "bom-unnamed-start",
        "reference",
        "front-door-grammar",
        _c(
            "sse-framing/bom[anthropic-messages:thinking/frames/bom]",
            "sse-framing/bom[anthropic-messages:thinking/bytes/bom-split]",
        ),
        door="anthropic-messages",
    ),
    Mutant(
        "stream-events-as-items",
        "reference",
        "request-contract",
        _c(
            "tools-passback/responses-reasoning-item[openai-responses:summary/frames]",
            "tools-passback/xai-encrypted-reasoning[openai-responses:summary/frames]",
        ),
    ),
    Mutant(
        "duplicate-reasoning-items",
        "reference",
        "passback",
        _c(
            "tools-passback/responses-reasoning-item[openai-responses:summary/frames]",
            "tools-passback/xai-encrypted-reasoning[openai-responses:summary/frames]",
        ),
    ),
    Mutant(
        "drop-thinking-key",
        "reference",
        "passback",
        _c("tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]"),
    ),
    Mutant(  # Google: "Please use a valid role: user, model."
        "gemini-tool-role",
        "reference",
        "request-contract",
        _c(
            "tools-passback/gemini-thought-signature[gemini:signature/frames]",
            "tools-passback/gemini-parallel-calls[gemini:signature/frames]",
        ),
    ),
    Mutant(  # DeepSeek: "insufficient tool messages following tool_calls message"
        "note-between-tool-results",
        "reference",
        "request-contract",
        _c(
            f"tools-passback/deepseek-reasoning-content[{CHAT}]",
            f"tools-passback/deepseek-three-turns[{CHAT}]",
        ),
    ),
    Mutant(
        "mint-tool-ids",
        "reference",
        "tool-ids",
        _c(
            f"tools-passback/deepseek-reasoning-content[{CHAT}]",
            "tools-passback/responses-reasoning-item[openai-responses:summary/frames]",
            "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]",
            "tools-passback/anthropic-thinking-blocks[bedrock-converse:converse/frames]",
            "tools-passback/gemini-thought-signature[gemini:signature/frames]",
        ),
    ),
    Mutant(
        "thinking-enabled",
        "reference",
        "request-contract",
        _c(
            "tools-passback/anthropic-adaptive[anthropic-messages:adaptive/frames]",
            "tools-passback/anthropic-adaptive[anthropic-messages:adaptive/frames/nonstream]",
        ),
    ),
    Mutant(
        "no-display-summarized",
        "reference",
        "request-contract",  # the SUT did not ask for the summarized text its client wanted
        _c("tools-passback/anthropic-adaptive[anthropic-messages:adaptive/frames]"),
        frozenset({"delivery"}),
    ),
    Mutant(
        "no-form-triggers",
        "reference",
        "request-contract",
        _c(
            "wire-variants/reasoning-then-answer[openai-chat:minimax-details/frames]",
            "wire-variants/reasoning-then-answer[openai-chat:gemini-openai/frames]",
            "wire-variants/reasoning-then-answer[gemini:thought/frames]",
            "wire-variants/reasoning-then-answer[openai-responses:summary/frames]",
        ),
        frozenset({"delivery"}),  # no reasoning reached the client: the real API sent none
    ),
    Mutant(
        "drop-empty-thinking",
        "reference",
        "passback",
        _c("tools-passback/anthropic-omitted-thinking[anthropic-messages:omitted/frames]"),
    ),
    Mutant(
        "drop-empty-thinking",
        "reference-sdk",
        "passback",
        _c("tools-passback/anthropic-omitted-thinking[anthropic-messages:omitted/frames/nonstream]"),
    ),
    Mutant(
        "replay-unsigned-thinking",
        "reference",
        "passback",
        _c("errors-cancellation/cancel-then-continue[anthropic-messages:thinking/frames]"),
    ),
    Mutant(
        "replay-unsigned-thinking",
        "reference-sdk",
        "passback",
        _c("errors-cancellation/cancel-then-continue[anthropic-messages:interleaved/frames]"),
    ),
    Mutant(
        "drop-signature-bad-args",
        "reference",
        "passback",
        _c(
            "tools-passback/invalid-tool-input[anthropic-messages:thinking/frames]",
            "tools-passback/invalid-tool-input[openai-responses:summary/frames]",
        ),
    ),
    Mutant(
        "buffer-structured",
        "reference",
        "incremental",
        _c(
            f"incrementality/structured-output[{CHAT}]",
            "incrementality/forced-tool-choice[openai-responses:summary/frames]",
        ),
    ),
    Mutant(
        "buffer-structured",
        "reference-sdk",
        "incremental",
        _c("incrementality/json-object-output[openai-responses:summary/frames]"),
    ),
    Mutant(
        "retry-too-soon",
        "reference",
        "retry",
        _c(f"errors-cancellation/retry-after-429[{CHAT}]"),
    ),
    Mutant(
        "retry-too-soon",
        "reference-sdk",
        "retry",
        _c("errors-cancellation/retry-after-429[anthropic-messages:thinking/frames]"),
    ),
    Mutant(
        "retry-after-partial",
        "reference-sdk",
        "retry",
        _c(
            f"errors-cancellation/no-replay-after-partial[{CHAT}]",
            "errors-cancellation/no-replay-after-partial[anthropic-messages:thinking/frames]",
        ),
    ),
    Mutant(
        "ws-new-socket-per-turn",
        "reference-sdk",
        "passback",
        _c("tools-passback/responses-websocket-chain[openai-responses-ws:summary/frames]"),
    ),
    Mutant(
        "ws-new-socket-per-turn",
        "reference",
        "passback",
        _c("tools-passback/responses-websocket-chain[openai-responses-ws:summary/frames]"),
    ),
    Mutant(
        "buffer-reasoning",
        "reference-sdk",
        "incremental",
        _c("wire-variants/responses-websocket[openai-responses-ws:summary/frames]"),
    ),
    Mutant(
        "redacted-as-reasoning",
        "reference",
        "channel-separation",
        _c(
            "wire-variants/thinking-signature[anthropic-messages:redacted/frames]",
            "wire-variants/thinking-signature[bedrock-converse:converse/frames/nonstream]",
        ),
    ),
    Mutant(
        "break-utf8",
        "reference",
        "utf8-integrity",
        _c("sse-framing/split-utf8[openai-chat:reasoning_content/bytes]"),
    ),
    Mutant("double-done", "reference", "termination", _c(f"wire-variants/reasoning-then-answer[{CHAT}]")),
    Mutant(
        "nonstream-inline-think",
        "reference",
        "parity",
        _c(
            f"ordering-duplication/stream-nonstream-parity[{CHAT}]",
            f"ordering-duplication/stream-nonstream-parity[{CHAT}/nonstream]",
        ),
        frozenset({"channel-separation", "delivery"}),
    ),
    # The 2026 catalog: Gemini's signatures, the providers that only degrade (passback-fidelity:
    # NON_STRICT where they answer 200, FAIL where they reject), the new wire shapes.
    Mutant(
        "drop-call-signatures",
        "reference",
        "passback",
        _c(
            "tools-passback/gemini-openai-thought-signature[openai-chat:gemini-openai/frames]",
            "tools-passback/gemini-parallel-calls[gemini:signature/frames]",
        ),
    ),
    Mutant(
        "signature-to-last-call",
        "reference",
        "passback",
        _c(
            "tools-passback/gemini-parallel-calls[gemini:signature/frames]",
            "tools-passback/gemini-parallel-calls[openai-chat:gemini-openai/frames]",
        ),
    ),
    Mutant(
        "lose-passback",
        "reference",
        "passback",
        _c("tools-passback/openrouter-signature-only[openai-chat:reasoning_details/frames]"),
        label="openrouter",
    ),
    Mutant(
        "lose-passback",
        "reference",
        "passback-fidelity",
        _c("tools-passback/xai-encrypted-reasoning[openai-responses:summary/frames]"),
        strict=True,
        label="xai-degrades",
    ),
    Mutant(
        "alter-encrypted",
        "reference",
        "passback-fidelity",
        _c(
            "tools-passback/xai-encrypted-reasoning[openai-responses:summary/frames]",
            "tools-passback/responses-encrypted-content[openai-responses:summary/frames]",
        ),
    ),
    Mutant(
        "trim-passback",
        "reference",
        "passback-fidelity",
        _c(
            "tools-passback/minimax-interleaved-thinking[openai-chat:think-tags/frames]",
            "tools-passback/zai-preserved-thinking[openai-chat:reasoning_content/frames]",
        ),
        strict=True,
    ),
    Mutant(
        "reasoning-content-passback",
        "reference",
        "passback-fidelity",
        _c(
            "tools-passback/vllm-reasoning-field[openai-chat:reasoning/frames]",
            "tools-passback/minimax-interleaved-thinking[openai-chat:think-tags/frames]",
        ),  # a FAIL without --strict: both providers' docs say the reasoning must come back (issue 46)
    ),
    Mutant(
        "drop-text-signatures",
        "reference",
        "passback",
        _c(
            "tools-passback/gemini-signature-last-chunk[gemini:signature-empty/frames]",
            "tools-passback/gemini-signature-last-chunk[gemini:signature-empty/frames/nonstream]",
        ),
    ),
    Mutant(
        "output-without-thoughts",
        "reference",
        "usage",
        _c(
            "wire-variants/reasoning-tokens[gemini:thought/frames]",
            "wire-variants/reasoning-tokens[gemini:thought/frames/nonstream]",
        ),
    ),
    Mutant(
        "unmerged-details",
        "reference",
        "passback",
        _c(
            "tools-passback/openrouter-detail-fragments[openai-chat:reasoning_details/frames]",
            "tools-passback/openrouter-signature-only[openai-chat:reasoning_details/frames]",
        ),
    ),
    Mutant(
        "validate-signatures",
        "reference",
        "passback",
        _c(
            "tools-passback/signature-envelopes[anthropic-messages:thinking/frames]",
            "tools-passback/openrouter-signature-only[openai-chat:reasoning_details/frames]",
        ),
    ),
    Mutant(
        "think-replay",
        "reference",
        "no-think-replay",
        _c(
            f"tools-passback/no-think-replay[{CHAT}]",
            "tools-passback/no-think-replay-anthropic[anthropic-messages:thinking/frames]",
        ),
    ),
    Mutant(
        "omit-empty-reasoning-content",
        "reference",
        "passback",
        _c(f"tools-passback/deepseek-empty-reasoning[{CHAT}]"),
    ),
    Mutant(
        "mint-detail-ids",
        "reference",
        "passback",
        _c(
            "tools-passback/openrouter-openai-encrypted[openai-chat:openrouter-openai/frames]",
            "tools-passback/openrouter-gemini-signature[openai-chat:openrouter-gemini/frames]",
        ),
    ),
    Mutant(
        "drop-encrypted-details",
        "reference",
        "passback",
        _c("tools-passback/openrouter-gemini-signature[openai-chat:openrouter-gemini/frames]"),
        label="gemini",
    ),
    Mutant(
        "drop-summary-detail-id",
        "reference",
        "passback",
        _c("tools-passback/openrouter-openai-encrypted[openai-chat:openrouter-openai/frames]"),
    ),
    Mutant(
        "drop-encrypted-details",
        "reference",
        "passback-fidelity",
        _c("tools-passback/openrouter-openai-encrypted[openai-chat:openrouter-openai/frames]"),
        label="openai-needed",  # a FAIL without --strict: OpenRouter's docs say the details come back
    ),
    Mutant(
        "hide-unasked-reasoning",
        "reference",
        "delivery",
        _c(
            f"wire-variants/thinking-by-default[{CHAT}]",
            "wire-variants/thinking-by-default[openai-chat:reasoning/frames/nonstream]",
        ),
    ),
    Mutant(
        "drop-unasked-thinking",  # a wrapper that never asks for thinking and keeps none in its history
        "reference",
        "passback",  # Anthropic answers the tool turn with a 400 (anthropic/missing-thinking)
        _c(
            "tools-passback/anthropic-unasked-thinking[anthropic-messages:unasked/frames]",
            "tools-passback/anthropic-unasked-thinking[anthropic-messages:unasked/frames/nonstream]",
        ),
    ),
    Mutant(
        "think-off-by-default",
        "reference",
        "request-contract",
        _c(
            f"wire-variants/thinking-by-default[{CHAT}]",
            "wire-variants/thinking-by-default[openai-chat:reasoning/frames]",
        ),
        frozenset({"delivery"}),  # no reasoning reached the client: the real API sent none
    ),
    Mutant(
        "drop-phase",
        "reference",
        "passback-fidelity",
        _c("tools-passback/responses-phase[openai-responses:phase/frames]"),
        strict=True,
    ),
    Mutant(
        "drop-server-tool-records",
        "reference",
        "passback-fidelity",
        _c("tools-passback/openrouter-server-tool-call[openai-chat:reasoning_details/frames]"),
        strict=True,
    ),
    Mutant(
        "drop-vertex-version",
        "reference",
        "request-contract",
        _c("wire-variants/vertex-claude[anthropic-messages:vertex/frames]"),
    ),
    Mutant(
        "first-choice-only",
        "reference",
        "sut-error",
        _c("wire-variants/azure-content-filter[openai-chat:azure/frames]"),
    ),
    Mutant(
        "raw-inline-tags",
        "reference",
        "channel-separation",
        _c(
            "wire-variants/raw-reasoning-markup[openai-chat:harmony/frames]",
            "wire-variants/raw-reasoning-markup[openai-chat:mm-think/frames]",
        ),
    ),
    Mutant("drop-reasoning", "reference-sdk", "delivery", _c(f"wire-variants/reasoning-then-answer[{CHAT}]")),
    Mutant(
        "lose-passback", "reference-sdk", "passback", _c(f"tools-passback/deepseek-reasoning-content[{CHAT}]")
    ),
    Mutant("leak-child", "reference-cli", "cleanup", _c(f"cleanup/tool-round-trip[{CHAT}]")),
    Mutant("early-rmdir", "reference-cli", "cleanup", _c(f"cleanup/tool-round-trip[{CHAT}]")),
    Mutant("leave-dir", "reference-cli", "cleanup", _c(f"cleanup/tool-round-trip[{CHAT}]")),
    Mutant("pi-thinking-at-end", "reference-cli", "incremental", _c(f"timing/pi-thinking-delta[{CHAT}]")),
    Mutant(
        "unsaved-reasoning",  # CLI turns: reasoning goes back in a prompt's tool loop, not on the next prompt
        "reference-cli",
        "passback",  # turn 2, the next prompt: DeepSeek V3.2 wants the tool-call turn's reasoning in it (400)
        _c(f"tools-passback/deepseek-three-turns[{CHAT}]"),
    ),
    Mutant("drop-reasoning", "reference-cli", "delivery", _c(f"cleanup/tool-round-trip[{CHAT}]")),
    Mutant(
        "keep-upstream-open",
        "reference-cli",
        "cancellation",
        _c("errors-cancellation/cancel-then-continue[anthropic-messages:thinking/frames]"),
    ),
    Mutant(
        "replay-unsigned-thinking",
        "reference-cli",
        "passback",
        _c("errors-cancellation/cancel-then-continue[anthropic-messages:interleaved/frames]"),
    ),
    Mutant(
        "buffer-structured",
        "reference-cli",
        "incremental",
        _c(
            f"incrementality/json-object-output[{CHAT}]",
            "incrementality/structured-output[openai-responses:summary/frames]",
        ),
    ),
    # Parser mutants: real SSE / NDJSON decoder deviations (wire-formats.md 1.3), each caught where the
    # perturbation placed for it makes the deviating parser lose something a check compares. A parser
    # that fails on a stream the upstream served correctly makes the SUT fail the turn: sut-error owns
    # that cause (the error is the evidence; its consequences are not judged again).
    Mutant(
        "sse-bom-drop-first",
        "reference",
        "delivery",
        _c(
            f"sse-framing/bom[{CHAT}/bom]",
            "sse-framing/bom[gemini:thought/frames/bom-split]",
        ),
    ),
    Mutant(
        "sse-data-space-only", "reference", "sut-error", _c(f"sse-framing/perturbations[{CHAT}/no-space]")
    ),
    Mutant(
        "sse-chunk-local",
        "reference",
        "sut-error",
        _c("sse-framing/split-crlf[openai-chat:reasoning_content/crlf-split/crlf]"),
    ),
    Mutant(
        "sse-lflf-only",
        "reference",
        "sut-error",
        _c(f"sse-framing/perturbations[{CHAT}/cr]", f"sse-framing/perturbations[{CHAT}/crlf]"),
    ),
    Mutant(
        "sse-comments-as-data",
        "reference",
        "sut-error",
        _c("sse-framing/perturbations[anthropic-messages:thinking/frames/comments]"),
    ),
    Mutant(
        "sse-dispatch-empty",
        "reference",
        "sut-error",
        _c("sse-framing/perturbations[openai-responses:summary/frames/event-only]"),
    ),
    Mutant("sse-line-per-event", "reference", "delivery", _c(f"sse-framing/perturbations[{CHAT}/multiline]")),
    Mutant(
        "sse-dispatch-unterminated",
        "reference",
        "error-propagation",
        _c(
            f"sse-framing/unterminated[{CHAT}/unterminated]",
            "sse-framing/unterminated[gemini:thought/frames/unterminated]",
        ),
    ),
    Mutant(
        "jsonl-drop-unterminated",
        "reference",
        "sut-error",
        _c("sse-framing/jsonl-separators[ollama:native/frames/unterminated]"),
    ),
    Mutant("sse-bom-drop-first", "reference-sdk", "delivery", _c(f"sse-framing/bom[{CHAT}/bom-split]")),
    Mutant(
        "sse-dispatch-unterminated",
        "reference-cli",
        "error-propagation",
        _c("sse-framing/unterminated[anthropic-messages:thinking/frames/unterminated]"),
    ),
    Mutant(
        "thought-signature-on-call",
        "reference",
        "passback",
        _c(
            "tools-passback/gemini-interactions-thought-signature[gemini-interactions:summaries/frames]",
            "tools-passback/gemini-interactions-signature-only[gemini-interactions:signature-only/frames]",
        ),
    ),
    Mutant(
        "thought-signature-on-call",
        "reference-sdk",
        "passback",
        _c(
            "tools-passback/gemini-interactions-thought-signature[gemini-interactions:summaries/frames/nonstream]"
        ),
    ),
    Mutant(
        "drop-reasoning",
        "reference",
        "delivery",
        _c(
            "wire-variants/gemini-interactions-summaries[gemini-interactions:summaries/frames]",
            "wire-variants/reasoning-then-answer[anthropic-messages:thinking/frames]",
        ),
        door="gemini-interactions",
    ),
    Mutant(
        "signature-after-step-stop",
        "reference",
        "front-door-grammar",
        _c(
            "wire-variants/gemini-interactions-summaries[gemini-interactions:summaries/frames]",
            "wire-variants/gemini-interactions-signature-only[gemini-interactions:signature-only/frames]",
            "tools-passback/gemini-interactions-thought-signature[gemini-interactions:summaries/frames]",
        ),
        door="gemini-interactions",
    ),
    *_BRIDGE_ROWS,
)

# -- keeping a silent client stream alive (issue 40): an SSE comment on the chat door, ping on Anthropic's
_SILENT = "keepalive/silent-reasoning"
MATRIX += (
    Mutant(
        "no-keepalive",
        "reference",
        "keepalive",
        _c(
            f"{_SILENT}[openai-responses:summary/frames]",
            f"{_SILENT}[anthropic-messages:thinking/frames]",
            f"{_SILENT}[{CHAT}]",
            "keepalive/silent-start[openai-responses:summary/frames]",
        ),
    ),
    Mutant(
        "no-keepalive",
        "reference",
        "keepalive",
        _c(f"{_SILENT}[anthropic-messages:thinking/frames]", f"keepalive/silent-start[{CHAT}]"),
        door="anthropic-messages",
    ),
)
