"""Gemini Interactions provider rules: lenient, and ``gemini-interactions``, where a stateless conversation,
``store: false`` without ``previous_interaction_id``, replays the model's steps in ``input`` and every
thought step must come back with the ``signature`` it was given. They judge what a client sends back, so
they sit apart from the wire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import LENIENT, Difference, LenientRules, ProviderRules, Rejection
from harness.dialects.gemini_interactions._wire import error_code
from harness.events import Message, ReasoningBlock, ReasoningDelta, Turn

__all__ = ["MODEL_STEPS", "RULES", "summaries_on"]

NAME = "gemini-interactions"
MODEL_STEPS = frozenset({"thought", "model_output", "function_call"})
"""The step types the model produces (what a stateless client replays as the model's turn)."""


def summaries_on(request: Mapping[str, Any], model: str = "") -> bool:
    """``generation_config.thinking_summaries: "auto"`` asks for thought summaries; absent or ``none``:
    thought steps carry only their signature (docs: "By default, only the final output is returned")."""
    cfg = request.get("generation_config")
    return isinstance(cfg, Mapping) and cfg.get("thinking_summaries") == "auto"


# The error body is the SDK's ``CreateInteractionClientErrorData``:
# ``{"error": {"code": <str>, "message": ...}}``. Its ``code`` is a string: Google's numeric ``code`` of
# generateContent fails the SDK's validation. A missing signature is 400 INVALID_ARGUMENT.
def error_body(status: int, message: str) -> bytes:
    return dumps_compact({"error": {"code": error_code(status), "message": message}}).encode()


def model_runs(steps: Sequence[Any]) -> list[list[tuple[int, Mapping[str, Any]]]]:
    """The replayed model turns of an ``input``: maximal runs of model steps, with their positions."""
    runs: list[list[tuple[int, Mapping[str, Any]]]] = []
    open_run = False
    for n, step in enumerate(steps):
        if isinstance(step, Mapping) and step.get("type") in MODEL_STEPS:
            if not open_run:
                runs.append([])
                open_run = True
            runs[-1].append((n, step))
        else:
            open_run = False
    return runs


def _current_turn_start(steps: Sequence[Any]) -> int:
    for n in range(len(steps) - 1, -1, -1):
        step = steps[n]
        if isinstance(step, Mapping) and step.get("type") == "user_input":
            return n
    return 0


@dataclass(slots=True)
class _Interactions(ProviderRules):
    """Each rejection cites its source. A thought step's ``signature`` is required: "Always present" in the
    thought step's field table of https://ai.google.dev/gemini-api/docs/interactions/thinking, and
    google-genai 3.6.1 ``ThoughtStep.signature``, "A signature hash for backend validation". The wording of
    the messages, and which break Google answers with which one, are a guess modelled on generateContent's
    thought-signature errors in gemini/_rules.py."""

    name: str = NAME
    description: str = (
        "Gemini Interactions, stateless: every replayed thought step carries its signature, unmodified, "
        "and a thought step before a function call of the current turn comes back (400 otherwise)"
    )
    dialect: str = "gemini-interactions"

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        if summaries_on(request):
            return turn
        return tuple(ev for ev in turn if not isinstance(ev, ReasoningDelta))

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        steps = request.get("input")
        if (
            request.get("previous_interaction_id")
            or not isinstance(steps, Sequence)
            or isinstance(steps, str)
        ):
            return None  # server-side state: the history is Google's own
        current = _current_turn_start(steps)
        for run, message in zip(model_runs(steps), emitted, strict=False):
            rejection = self._run(run, message, current)
            if rejection is not None:
                return rejection
        for run in model_runs(steps)[len(emitted) :]:  # history this upstream did not produce
            for n, step in run:
                if step.get("type") == "thought" and not _signature(step):
                    return _missing(n, None)
        return None

    def _run(
        self, run: Sequence[tuple[int, Mapping[str, Any]]], message: Message, current: int
    ) -> Rejection | None:
        given = [b.signature for b in message.content if isinstance(b, ReasoningBlock) and b.signature]
        thoughts = [(n, s) for n, s in run if s.get("type") == "thought"]
        for k, (n, step) in enumerate(thoughts):
            sig = _signature(step)
            expected = given[k] if k < len(given) else None
            if sig is None:
                return _missing(n, expected)
            if expected is not None and sig != expected:
                field = f"input[{n}].signature"
                return Rejection(400, error_body(400, "Corrupted thought signature."),
                                 f"{NAME}/signature-altered", ((field, sig, expected),))  # fmt: skip
        calls = [n for n, s in run if s.get("type") == "function_call" and n >= current]
        if calls and len(thoughts) < len(given):
            n = calls[0]
            diff: Difference = (
                f"input[{n - 1}]",
                None,
                {"type": "thought", "signature": given[len(thoughts)]},
            )
            message_text = (
                f"Function call at input[{n}] is missing the thought step that preceded it: replay every "
                "step of the model's turn, thought steps with their signature. Please refer to "
                "https://ai.google.dev/gemini-api/docs/interactions/thinking for more details."
            )
            return Rejection(400, error_body(400, message_text), f"{NAME}/thought-step-dropped", (diff,))
        return None


def _signature(step: Mapping[str, Any]) -> str | None:
    sig = step.get("signature")
    return sig if isinstance(sig, str) and sig else None


def _missing(n: int, expected: str | None) -> Rejection:
    message = (
        f"Thought step at input[{n}] is missing its signature. Thought steps must be passed back with "
        "the signature they were returned with. Please refer to "
        "https://ai.google.dev/gemini-api/docs/interactions/thinking for more details."
    )
    diff: Difference = (f"input[{n}].signature", None, expected)
    return Rejection(400, error_body(400, message), f"{NAME}/missing-signature", (diff,))


RULES: dict[str, ProviderRules] = {LENIENT: LenientRules("gemini-interactions"), NAME: _Interactions()}
