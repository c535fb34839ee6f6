"""The detection matrix: every fault switch of the reference SUTs, the check designed to catch it, and
the cases that show it; and the mutation score of the framing perturbations: per perturbation x
dialect, which parser mutants (``sse-*`` / ``jsonl-*`` switches) it kills. The test suite asserts each
mutant is caught by its check and by no unrelated one, and that no perturbation kills nothing;
``nox -s matrix`` writes both tables to docs/detection-matrix.md (``harness.docs._matrix``).

A perturbed case *kills* a mutant when it fails against the mutant while the same case without the
perturbation fails against the mutant no more than against the reference: the kill is the
perturbation's, not the mutant's general brokenness.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from harness.reference._parser_mutants import PARSER_FAULTS
from harness.suite._case import Case
from harness.suite._runner import RunResult, load_cases, run
from harness.suite._verdict import CaseResult, Status

__all__ = [
    "MATRIX",
    "Mutant",
    "MutationScore",
    "detect",
    "failing_checks",
    "mutation_cases",
    "mutation_score",
]


@dataclass(frozen=True, slots=True)
class Mutant:
    fault: str
    sut: str  # built-in reference SUT
    check: str  # the check designed for this bug class
    cases: tuple[str, ...]
    also: frozenset[str] = frozenset()  # other checks the same bug legitimately trips
    strict: bool = False  # the designed verdict is NON_STRICT (a provider that only degrades): run --strict
    label: str = ""  # tells apart two rows of one switch on one SUT

    @property
    def id(self) -> str:
        return f"{self.sut}+{self.fault}" + (f"[{self.label}]" if self.label else "")

    def unrelated(self, failing: set[str]) -> set[str]:
        """The failing checks that are neither the designed one nor one it legitimately trips."""
        return failing - {self.check} - self.also

    def caught(self, failing: set[str]) -> bool:
        """Caught by the designed check, and by no unrelated one."""
        return self.check in failing and not self.unrelated(failing)


def _c(*ids: str) -> tuple[str, ...]:
    return ids


CHAT = "openai-chat:reasoning_content/frames"
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
        ),
        strict=True,
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
)


def failing_checks(result: RunResult) -> set[str]:
    out: set[str] = set()
    for r in result.results:
        out |= _failing(r)
    return out


def _failing(r: CaseResult) -> set[str]:
    out = {f"status:{r.status.value}"} if r.status != Status.OK else set()
    return out | {f.check for f in r.failing()}


# --------------------------------------------------------------------------------------------------
# Mutation score of the perturbations.


@dataclass(slots=True)
class MutationScore:
    """Per (perturbation, dialect): mutant -> the checks that failed on the cases that killed it."""

    kills: dict[tuple[str, str], dict[str, set[str]]] = field(default_factory=dict)
    cases: dict[tuple[str, str], int] = field(default_factory=dict)
    mutants: tuple[str, ...] = ()
    reference_failures: dict[str, set[str]] = field(default_factory=dict)
    """Perturbed cases the correct reference fails (a kill there would mean nothing): must be empty."""

    def zeros(self) -> list[tuple[str, str]]:
        return [k for k in sorted(self.cases) if not self.kills.get(k) and k not in FOR_ACCUMULATORS]


FOR_ACCUMULATORS: dict[tuple[str, str], str] = {
    (p, "anthropic-messages"): "the BOM hides message_start (the message id, the model): the reference "
    "SUTs keep nothing of it that reaches their client (their observer reads each event's type from its "
    "data), so no parser mutant of theirs dies here; clients that accumulate from message_start do (the "
    "anthropic SDK's accumulator raises 'Unexpected event order ... before message_start')"
    for p in ("bom", "bom-split")
}
"""Placements kept for real clients' sake although they kill no mutant of the reference SUTs, each
with its reason (a placement that kills nothing is otherwise misplaced or redundant)."""


def mutation_cases(patterns: Sequence[str] | None = None) -> list[Case]:
    """The catalog's perturbed streaming cases (every perturbation but ``none``)."""
    return [c for c in load_cases(patterns) if c.perturbation != "none" and c.stream]


def _baseline(case: Case) -> Case:
    return replace(case, perturbation="none")


def mutation_score(
    cases: Sequence[Case] | None = None, mutants: Sequence[str] | None = None, sut: str = "reference"
) -> MutationScore:
    """Run the perturbed cases and their unperturbed twins against each parser mutant."""
    cases = list(cases if cases is not None else mutation_cases())
    mutants = tuple(sorted(mutants if mutants is not None else PARSER_FAULTS))
    base = {c.id: _baseline(c) for c in cases}
    twins = list({b.id: b for b in base.values()}.values())
    ref_run = run([*cases, *twins], sut=sut, expectations=None, keep_timelines=False)
    ref = {r.case_id: _failing(r) for r in ref_run.results}
    score = MutationScore(mutants=mutants)
    score.reference_failures = {c.id: ref[c.id] for c in cases if ref.get(c.id, {"status:missing"})}
    for c in cases:
        score.cases[(c.perturbation, c.dialect)] = score.cases.get((c.perturbation, c.dialect), 0) + 1
    for m in mutants:
        result = run([*cases, *twins], sut=sut, faults=[m], expectations=None, keep_timelines=False)
        got = {r.case_id: _failing(r) for r in result.results}
        for c in cases:
            failing = got.get(c.id, {"status:missing"})
            twin = base[c.id].id
            if failing and c.id not in score.reference_failures and not (got.get(twin, set()) - ref[twin]):
                score.kills.setdefault((c.perturbation, c.dialect), {}).setdefault(m, set()).update(failing)
        rows = sum(m in k for k in score.kills.values())
        sys.stderr.write(f"mutation score: {m:28} killed on {rows} perturbation x dialect rows\n")
    return score


def detect(m: Mutant) -> tuple[RunResult, set[str]]:
    result = run(
        list(m.cases), sut=m.sut, faults=[m.fault], expectations=None, keep_timelines="failures",
        strict=m.strict,
    )  # fmt: skip
    return result, failing_checks(result)
