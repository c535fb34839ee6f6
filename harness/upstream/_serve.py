"""``thinkwire serve``: a canned conversation and a blocking serve loop for manual poking.

Rule: printing and waiting only; the serving is :class:`~harness.upstream.MockUpstream`'s.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from harness.events import End, ReasoningDelta, TextDelta
from harness.upstream._script import Conversation, Emit, Script
from harness.upstream._server import MockUpstream

__all__ = ["demo_conversation", "serve_forever"]

SERVE_KEEP = 20
"""Requests ``serve`` / ``replay`` remember (and x 100 timeline entries): what a strict profile
checks a passback against, and enough to look at the last exchanges from a debugger."""


def demo_conversation(dialect: str, variant: str, profile: str = "lenient") -> Conversation:
    """A reasoning -> text turn, answered to every request (overflow)."""
    turn = (
        ReasoningDelta("The user says hello. "),
        ReasoningDelta("I should greet them back."),
        TextDelta("Hello! "),
        TextDelta("How can I help?"),
        End("stop"),
    )
    script = Script(dialect, (Emit(turn),), variant=variant, profile=profile)
    return Conversation((), name=f"demo {dialect}:{variant}", overflow=script)


def serve_forever(
    conversation: Conversation,
    *,
    port: int = 0,
    out: Callable[[str], object] = print,
    stop: threading.Event | None = None,
) -> None:
    """Serve ``conversation`` on 127.0.0.1 until KeyboardInterrupt (or ``stop`` is set)."""
    up = MockUpstream(port=port)
    up.start()
    try:
        up.load(conversation, keep=SERVE_KEEP)  # flat for hours: nobody reads an old request
        out(f"thinkwire mock upstream serving {conversation.name or 'a conversation'} at {up.base_url}")
        (stop or threading.Event()).wait()
    except KeyboardInterrupt:
        pass
    finally:
        up.stop()
