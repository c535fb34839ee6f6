"""What every framework adapter shares, for LiteLLM, LangChain and pydantic-ai: importing the optional
framework, and the messages thinkwire added since the adapter's last turn."""

from __future__ import annotations

import importlib
from typing import Any

from harness.events import Message

__all__ = ["new_messages", "optional"]


def optional(name: str) -> Any:
    """Import an optional dependency (installed by ``nox -s ecosystem``)."""
    return importlib.import_module(name)


def new_messages(request: Any) -> list[Message]:
    """The messages thinkwire added since this adapter's last turn (the user's, the tool results):
    the assistant turns are the adapter's own, already in its history.

    A framework keeps its own history in ``request.state``. thinkwire's canonical history only tells it
    what is new, the user's messages and the tool results, never what it said itself.
    """
    seen = int(request.state.get("seen", 0))
    request.state["seen"] = len(request.messages)
    return [m for m in request.messages[seen:] if m.role != "assistant"]
