"""Fault switches of a SUT that treats a provider's defaults as opt-in: it turns off a thinking mode the model
has on by default, or hides or drops the reasoning such a model sent although its client named no thinking
setting. The correct path leaves the provider's defaults alone; each switch is one marked branch."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["DEFAULT_FAULTS", "asked_thinking", "thinking_off", "unasked_faults"]

DEFAULT_FAULTS: dict[str, str] = {
    "hide-unasked-reasoning": "gateway: drop the upstream's reasoning when the client's request named no "
    "thinking setting (thinking, reasoning_effort, reasoning, enable_thinking, think ...), although the "
    "model thinks by default and sent it",
    "think-off-by-default": "ask the upstream with thinking off wherever the request names no thinking "
    "setting (DeepSeek thinking.type disabled, Qwen3 enable_thinking false, Gemini thinkingBudget 0): a "
    "gateway that treats thinking as opt-in on models that think by default",
    "drop-unasked-thinking": "gateway: when the client's request named no thinking setting, drop from the "
    "history it passes back the thinking blocks the model sent unasked (a Claude model that thinks by "
    "default: Anthropic answers the tool turn with a 400)",
}
"""The switches, and what each does (the switch table of ``_faults`` lists them too)."""

_THINKING_FIELDS = ("thinking", "reasoning_effort", "reasoning", "include_reasoning", "enable_thinking",
                    "chat_template_kwargs", "think", "generationConfig", "extra_body")  # fmt: skip


def asked_thinking(client_request: Mapping[str, Any]) -> bool:
    """The client's request names a thinking setting (any provider's field for it)."""
    return any(k in client_request for k in _THINKING_FIELDS)


def unasked_faults(faults: frozenset[str], client_request: Mapping[str, Any]) -> frozenset[str]:
    """The gateway's faults for one client request: ``hide-unasked-reasoning`` drops the reasoning and
    ``drop-unasked-thinking`` the passed-back thinking when the request names no thinking setting (the
    correct path forwards what the upstream sent and passes it back)."""
    if asked_thinking(client_request):
        return faults
    if "hide-unasked-reasoning" in faults:
        faults |= {"drop-reasoning"}  # FAULT: reasoning treated as opt-in
    if "drop-unasked-thinking" in faults:
        faults |= {"lose-passback"}  # FAULT: thinking kept in the history only when asked for
    return faults


def thinking_off(body: dict[str, Any]) -> dict[str, Any]:
    """FAULT ``think-off-by-default``: the provider's off switch where the request names none (a chat
    body: DeepSeek's ``thinking`` and Qwen3's ``chat_template_kwargs.enable_thinking``; a Gemini body:
    ``thinkingBudget: 0``)."""
    if isinstance(body.get("messages"), list) and "thinking" not in body:
        kwargs = body.get("chat_template_kwargs")
        kwargs = dict(kwargs) if isinstance(kwargs, dict) else {}
        kwargs.setdefault("enable_thinking", False)
        return {**body, "thinking": {"type": "disabled"}, "chat_template_kwargs": kwargs}
    if isinstance(body.get("contents"), list):
        gen = dict(body.get("generationConfig") or {})
        config = dict(gen.get("thinkingConfig") or {})
        config.setdefault("thinkingBudget", 0)
        return {**body, "generationConfig": {**gen, "thinkingConfig": config}}
    return body
