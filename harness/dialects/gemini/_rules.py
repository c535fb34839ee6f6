"""Gemini provider rules: lenient, ``gemini-2.5`` with optional signatures, ``gemini-3`` with thought
signatures enforced on the first functionCall part of each step of the current turn, and
``gemini-3-signatures``, which also checks the signature of a text answer. They judge what a client sends
back, with Google's exact 400s, so they sit apart from the wire."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from harness.dialects._base import LENIENT, Difference, LenientRules, ProviderRules, Rejection
from harness.dialects._gemini_names import camel_request
from harness.dialects._values import mapping
from harness.dialects.gemini._parts import contents_problem
from harness.events import End, Message, ReasoningDelta, TextBlock, ToolCallBlock, Turn

__all__ = ["RULES", "missing_signature_message"]

SENTINELS = frozenset({"skip_thought_signature_validator", "context_engineering_is_the_way_to_go"})
"""Signatures Google documents for history the model did not produce (accepted: **(guess)**)."""

_B64 = re.compile(r"^[A-Za-z0-9+/_-]*={0,2}$")


def _pretty(obj: Any) -> bytes:
    """Google pretty-prints error JSON with a 2-space indent and a final newline."""
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode()


def _error(message: str, violations: Sequence[tuple[str, str]] = ()) -> bytes:
    """Google's 400 ``INVALID_ARGUMENT``, with a ``google.rpc.BadRequest`` detail holding the field
    violations (``(field, description)``) when there are any."""
    err: dict[str, Any] = {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}
    if violations:
        found = [{"field": f, "description": d} for f, d in violations]
        err["details"] = [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": found}]
    return _pretty({"error": err})


def missing_signature_message(name: str, position: int) -> str:
    return (
        "Function call is missing a thought_signature in functionCall parts. This is required for tools "
        "to work correctly, and missing thought_signature may lead to degraded model performance. "
        f"Additional data, function call `default_api:{name}` , position {position}. Please refer to "
        "https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
    )


def _is_base64(value: str) -> bool:
    return bool(_B64.match(value)) and len(value.rstrip("=")) % 4 != 1


def _current_turn_start(contents: Sequence[Any]) -> int:
    """Index of the last user content with a text part (a function response does not start a turn)."""
    for i in range(len(contents) - 1, -1, -1):
        c = contents[i]
        if isinstance(c, Mapping) and c.get("role", "user") == "user":
            parts = c.get("parts") or []
            if any(isinstance(p, Mapping) and "text" in p for p in parts):
                return i
    return 0


# A lost text signature is no 400: the next answer is a 200 that finishes with this reason.
MISSING_THOUGHT_SIGNATURE = "MISSING_THOUGHT_SIGNATURE"
"""google-genai ``types.FinishReason.MISSING_THOUGHT_SIGNATURE``: "Request has at least one thought
signature missing. This enum value is not supported in Vertex AI." """


def _missing_text_signature(contents: Sequence[Any], emitted: Sequence[Message]) -> tuple[int, str] | None:
    """The first model content of the request that lost the signature of the text answer this upstream
    gave it (model contents and emitted messages matched in order): its index and the signature. The
    signature may come back on any part of that content (the empty text part it arrived on, or the
    text part before it)."""
    models = [(n, c) for n, c in enumerate(contents) if isinstance(c, Mapping) and c.get("role") == "model"]
    for (n, c), m in zip(models, emitted, strict=False):
        back = {p.get("thoughtSignature") for p in c.get("parts") or [] if isinstance(p, Mapping)}
        for b in m.content:
            if isinstance(b, TextBlock) and b.signature and b.signature not in back:
                return n, b.signature
    return None


PART_RULES = (
    "gemini/unknown-field", "gemini/two-data-fields", "gemini/part-without-data", "gemini/invalid-role",
    "gemini/call-turn-first", "gemini/response-without-call", "gemini/response-count",
)  # fmt: skip
"""The ``contents`` rules (``_parts``) every strict Gemini model enforces: the request-contract check's."""


@dataclass(slots=True)
class _Gemini(ProviderRules):
    name: str
    description: str
    strict: bool
    text_signatures: bool = False
    """Also check the signature of a text answer (the last part of a non-function-call response)."""
    dialect: str = "gemini"
    request_rules: ClassVar[tuple[str, ...]] = PART_RULES

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        """No thought parts unless ``generationConfig.thinkingConfig.includeThoughts`` is true (in
        either field-name casing)."""
        config = mapping(mapping(camel_request(request).get("generationConfig")).get("thinkingConfig"))
        if config.get("includeThoughts") is True:
            return turn
        return tuple(ev for ev in turn if not isinstance(ev, ReasoningDelta))

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        raw = request.get("contents")
        problem = contents_problem(raw) if isinstance(raw, list) else None
        if problem is not None:  # the request's own fault
            body = _error(problem.message, problem.violations)
            return Rejection(400, body, problem.rule, (problem.difference,), family="request")
        contents = camel_request(request).get("contents")
        if not self.strict or not isinstance(contents, Sequence):
            return None
        lost = _missing_text_signature(contents, emitted) if self.text_signatures else None
        if lost is not None:
            n, sig = lost
            answer = (End(MISSING_THOUGHT_SIGNATURE),)
            body = _pretty({"candidates": [{"finishReason": MISSING_THOUGHT_SIGNATURE, "index": 0}]})
            diff: Difference = (f"contents[{n}].parts[-1].thoughtSignature", None, sig)
            return Rejection(200, body, "gemini-3/missing-thought-signature", (diff,), answer=answer)
        calls = [b for m in emitted for b in m.content if isinstance(b, ToolCallBlock)]
        for n in range(_current_turn_start(contents), len(contents)):
            c = contents[n]
            if not isinstance(c, Mapping) or c.get("role") != "model":
                continue
            for m, part in enumerate(c.get("parts") or []):  # the first functionCall part of the step
                if isinstance(part, Mapping) and isinstance(part.get("functionCall"), Mapping):
                    rejection = self._check(n, m, part, calls)
                    if rejection is not None:
                        return rejection
                    break
        return None

    def _check(
        self, n: int, m: int, part: Mapping[str, Any], calls: Sequence[ToolCallBlock]
    ) -> Rejection | None:
        fc = part["functionCall"]
        field = f"contents[{n}].parts[{m}].thoughtSignature"
        sig = part.get("thoughtSignature")
        expected = self._expected(fc, calls)
        if not isinstance(sig, str) or not sig:
            message = missing_signature_message(str(fc.get("name", "")), n)
            return Rejection(400, _error(message), "gemini-3/missing-signature", ((field, None, expected),))
        if sig in SENTINELS:
            return None
        if not _is_base64(sig):
            # (guess) wording and details beyond the message prefix quoted in wire-formats.md §5.1
            where = f"contents[{n}].parts[{m}].thought_signature"
            message = f"Invalid value at '{where}' (TYPE_BYTES), Base64 decoding failed for \"{sig}\""
            body = _error(message, ((where, message),))
            return Rejection(400, body, "gemini-3/signature-not-base64", ((field, sig, expected),))
        if expected is not None and sig != expected:
            # Real wording (public issue reports); when exactly Google answers it is (guess).
            body = _error("Corrupted thought signature.")
            return Rejection(400, body, "gemini-3/signature-altered", ((field, sig, expected),))
        return None

    @staticmethod
    def _expected(fc: Mapping[str, Any], calls: Sequence[ToolCallBlock]) -> str | None:
        call_id, name = fc.get("id"), fc.get("name")
        return next((b.signature for b in calls if (b.id == call_id if call_id else b.name == name)), None)


RULES: dict[str, ProviderRules] = {
    LENIENT: LenientRules("gemini"),
    "gemini-2.5": _Gemini(
        "gemini-2.5", "Gemini 2.5: thought signatures optional; thoughts only with includeThoughts", False
    ),
    "gemini-3": _Gemini(
        "gemini-3",
        "Gemini 3: the first functionCall part of each step of the current turn must carry its "
        "thoughtSignature, unmodified (400 INVALID_ARGUMENT otherwise)",
        True,
    ),
    "gemini-3-signatures": _Gemini(
        "gemini-3-signatures",
        "Gemini 3 (Developer API) checking every signature it gave: function calls as gemini-3; a text "
        "answer's signature lost -> 200, no content, finishReason MISSING_THOUGHT_SIGNATURE",
        True,
        text_signatures=True,
    ),
}
