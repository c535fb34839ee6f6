"""The request history a strict Chat upstream reads back: each assistant message of ``messages`` with the
emitted message it came from, the turn it belongs to, and where a converter to Anthropic's messages puts
it. Every Chat provider rule matches history to what it emitted through these, one way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness.events import Message

__all__ = ["SYSTEM", "anthropic_index", "assistants", "history", "returned_details", "turn_start"]

SYSTEM = ("system", "developer")


def _call_ids(raw: Mapping[str, Any]) -> list[Any]:
    return [c.get("id") for c in raw.get("tool_calls") or [] if isinstance(c, Mapping)]


def assistants(
    request: Mapping[str, Any], emitted: Sequence[Message] = ()
) -> list[tuple[int, Mapping[str, Any], Message | None]]:
    """Every assistant entry of ``messages``: its position, the entry, and the emitted message whose
    tool call it repeats (matched by tool-call id; None when none is)."""
    msgs = request.get("messages")
    by_call = {c.id: m for m in emitted for c in m.tool_calls}
    out: list[tuple[int, Mapping[str, Any], Message | None]] = []
    for i, raw in enumerate(msgs if isinstance(msgs, list) else []):
        if isinstance(raw, Mapping) and raw.get("role") == "assistant":
            out.append((i, raw, next((by_call[c] for c in _call_ids(raw) if c in by_call), None)))
    return out


def history(
    request: Mapping[str, Any], emitted: Sequence[Message]
) -> list[tuple[int, Mapping[str, Any], Message]]:
    """Each request-history assistant entry this upstream produced, with its position in ``messages``
    and the emitted message it came from: matched by tool-call id, else by order."""
    plain = [m for m in emitted if not m.tool_calls]
    out: list[tuple[int, Mapping[str, Any], Message]] = []
    for i, raw, origin in assistants(request, emitted):
        if origin is None and not _call_ids(raw) and plain:
            origin = plain.pop(0)
        if origin is not None:
            out.append((i, raw, origin))
    return out


def anthropic_index(msgs: Sequence[Any], i: int) -> int:
    """Where ``msgs[i]`` lands among the Anthropic messages a converter builds: system messages leave,
    consecutive tool results merge into one user message."""
    n, prev = -1, None
    for m in msgs[: i + 1]:
        role = m.get("role") if isinstance(m, Mapping) else None
        if role in SYSTEM:
            continue
        if not (role == "tool" and prev == "tool"):
            n += 1
        prev = role
    return n


def turn_start(msgs: Sequence[Any]) -> int:
    """Index of the last user message (a tool result does not start a turn)."""
    users = [i for i, m in enumerate(msgs) if isinstance(m, Mapping) and m.get("role") == "user"]
    return users[-1] if users else 0


def returned_details(raw: Mapping[str, Any], kind: str = "") -> list[Mapping[str, Any]]:
    """The ``reasoning_details`` entries of a history entry (of one ``type`` when ``kind`` is given)."""
    d = raw.get("reasoning_details")
    entries = [x for x in d if isinstance(x, Mapping)] if isinstance(d, list) else []
    return [x for x in entries if x.get("type") == kind] if kind else entries
