"""Scenario steps that become canonical events: the event steps by key and the ``usage`` table."""

from __future__ import annotations

from typing import Any

from harness._errors import closest
from harness.events import ReasoningDelta, ReasoningSignature, RedactedReasoning, TextDelta, Usage

__all__ = ["EVENT_STEPS", "usage_step"]


EVENT_STEPS: dict[str, Any] = {
    "reasoning": lambda v, item: ReasoningDelta(v, item=item),
    "text": lambda v, item: TextDelta(v, item=item),
    "signature": lambda v, item: ReasoningSignature(v, item=item),
    "redacted": lambda v, item: RedactedReasoning(v, item=item),
}


def usage_step(val: Any, sw: str, err: Any, number: Any) -> Usage:
    """A ``usage`` step's table of token counts (``number``: the loader's integer check)."""
    if not isinstance(val, dict):
        raise err(f"{sw}.usage", "expected a table of token counts")
    allowed = {"input_tokens", "output_tokens", "reasoning_tokens", "total_tokens"}
    for k in val:
        if k not in allowed:
            raise err(f"{sw}.usage.{k}", "unknown token count", closest(k, allowed))
    counts = {k: number(v, f"{sw}.usage.{k}", err, low=0) for k, v in val.items()}
    return Usage(
        counts.get("input_tokens"),
        counts.get("output_tokens"),
        counts.get("reasoning_tokens"),
        counts.get("total_tokens"),
    )
