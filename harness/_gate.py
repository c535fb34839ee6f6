"""A gate: the condition that holds a stream until the client side has observed some reasoning, some
text or a number of events. It sits below every layer because three of them read it: the mock's scripts
hold their later steps on it, the drivers cancel a turn when it is met, and the checks count it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Gate"]


@dataclass(frozen=True, slots=True)
class Gate:
    """Hold every later step until the client side has observed ``reasoning`` (resp. ``text``) text
    containing the given string, or ``events`` canonical events in all. Bounded by ``timeout``; a
    timeout is recorded (what was withheld, what the client had seen) and the script goes on.
    ``as_content``: the ``reasoning`` string may arrive as answer text too (a SUT that made no claim about
    the in-content markup carrying it, relayed verbatim, delivers it there)."""

    reasoning: str | None = None
    text: str | None = None
    events: int | None = None
    timeout: float = 5.0
    as_content: bool = False
