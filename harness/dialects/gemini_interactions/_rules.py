"""Gemini Interactions provider rules: lenient, and ``gemini-interactions``, where a stateless conversation,
``store: false`` without ``previous_interaction_id``, replays the model's steps in ``input`` and every
thought step must come back with the ``signature`` it was given. They judge what a client sends back, so
they sit apart from the wire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from harness._json import dumps_compact
from harness.dialects._base import LENIENT, Difference, LenientRules, ProviderRules, Rejection
from harness.dialects._values import mapping
from harness.dialects.gemini_interactions._wire import error_object
from harness.events import Message, ReasoningBlock, ReasoningDelta, Turn

__all__ = ["MODEL_STEPS", "RULES"]

NAME = "gemini-interactions"
MODEL_STEPS = frozenset({"thought", "model_output", "function_call"})
"""The step types the model produces (what a stateless client replays as the model's turn)."""
_NOTHING = Message("assistant", ())


def _reject(rule: str, message: str, difference: Difference) -> Rejection:
    """A 400 INVALID_ARGUMENT, its body the SDK's ``CreateInteractionClientErrorData`` (``error_object``)."""
    body = dumps_compact(error_object(400, message)).encode()
    return Rejection(400, body, f"{NAME}/{rule}", (difference,))


def model_runs(steps: Sequence[Any]) -> list[list[tuple[int, Mapping[str, Any]]]]:
    """The replayed model turns of an ``input``: maximal runs of model steps, with their positions."""
    runs = groupby(enumerate(steps), key=lambda step: mapping(step[1]).get("type") in MODEL_STEPS)
    return [list(run) for model, run in runs if model]


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
        """``generation_config.thinking_summaries: "auto"`` asks for thought summaries; absent or ``none``:
        thought steps carry only their signature (docs: "By default, only the final output is returned")."""
        if mapping(request.get("generation_config")).get("thinking_summaries") == "auto":
            return turn
        return tuple(ev for ev in turn if not isinstance(ev, ReasoningDelta))

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        steps, stateful = request.get("input"), request.get("previous_interaction_id")
        if stateful or not isinstance(steps, Sequence) or isinstance(steps, str):
            return None  # server-side state: the history is Google's own
        current = max((n for n, s in enumerate(steps) if mapping(s).get("type") == "user_input"), default=0)
        for k, run in enumerate(model_runs(steps)):  # history this upstream did not produce: no signatures
            rejection = self._run(run, emitted[k] if k < len(emitted) else _NOTHING, current)
            if rejection is not None:
                return rejection
        return None

    def _run(
        self, run: Sequence[tuple[int, Mapping[str, Any]]], message: Message, current: int
    ) -> Rejection | None:
        given = [b.signature for b in message.content if isinstance(b, ReasoningBlock) and b.signature]
        thoughts = [(n, s) for n, s in run if s.get("type") == "thought"]
        for k, (n, step) in enumerate(thoughts):
            sig, field = step.get("signature"), f"input[{n}].signature"
            expected = given[k] if k < len(given) else None
            if not isinstance(sig, str) or not sig:
                text = (
                    f"Thought step at input[{n}] is missing its signature. Thought steps must be passed back "
                    "with the signature they were returned with. Please refer to "
                    "https://ai.google.dev/gemini-api/docs/interactions/thinking for more details."
                )
                return _reject("missing-signature", text, (field, None, expected))
            if expected is not None and sig != expected:
                return _reject("signature-altered", "Corrupted thought signature.", (field, sig, expected))
        calls = [n for n, s in run if s.get("type") == "function_call" and n >= current]
        if calls and len(thoughts) < len(given):
            n = calls[0]
            dropped = {"type": "thought", "signature": given[len(thoughts)]}
            text = (
                f"Function call at input[{n}] is missing the thought step that preceded it: replay every "
                "step of the model's turn, thought steps with their signature. Please refer to "
                "https://ai.google.dev/gemini-api/docs/interactions/thinking for more details."
            )
            return _reject("thought-step-dropped", text, (f"input[{n - 1}]", None, dropped))
        return None


RULES: dict[str, ProviderRules] = {LENIENT: LenientRules("gemini-interactions"), NAME: _Interactions()}
