"""Usage in and out of the Chat Completions wire, shaped by the provider's own usage fields. The variant's
:class:`Shape` (where reasoning rides) is defined in ``dialects._chat_shape`` and re-exported here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.dialects._chat_shape import Shape
from harness.events import Usage

__all__ = ["Shape", "usage_event", "usage_json"]


def usage_json(u: Usage, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``extra``: the provider's own usage fields, merged in (nested objects key by key; the value
    ``"prompt"`` stands for the prompt token count, as DeepSeek's ``prompt_cache_miss_tokens``)."""
    out: dict[str, Any] = {}
    if u.input_tokens is not None:
        out["prompt_tokens"] = u.input_tokens
    if u.output_tokens is not None:
        out["completion_tokens"] = u.output_tokens
    total = u.total_tokens
    if total is None and u.input_tokens is not None and u.output_tokens is not None:
        total = u.input_tokens + u.output_tokens  # every provider's usage has it (corpus deepseek-*, groq-*)
    if total is not None:
        out["total_tokens"] = total
    if u.reasoning_tokens is not None:
        out["completion_tokens_details"] = {"reasoning_tokens": u.reasoning_tokens}
    for key, value in (extra or {}).items():
        if isinstance(value, Mapping):  # the known counts first, as recorded (reasoning_tokens leads)
            out[key] = {**out.get(key, {}), **value}
        else:
            out[key] = (u.input_tokens or 0) if value == "prompt" else value
    return out


def usage_event(raw: Any) -> Usage | None:
    if not isinstance(raw, Mapping):
        return None
    details = raw.get("completion_tokens_details")
    rt = details.get("reasoning_tokens") if isinstance(details, Mapping) else None
    return Usage(raw.get("prompt_tokens"), raw.get("completion_tokens"), rt, raw.get("total_tokens"))
