"""The mock upstream: scripts, gates, faults, the loopback server, respx mode and the request log."""

from harness.upstream._script import (
    Conversation,
    Disconnect,
    Emit,
    EmitFrames,
    Gate,
    HttpError,
    MalformedFrame,
    MidStreamError,
    Pause,
    Raw,
    Script,
    Stall,
    Step,
    UnknownEvent,
)

__all__ = [
    "Conversation",
    "Disconnect",
    "Emit",
    "EmitFrames",
    "Gate",
    "HttpError",
    "MalformedFrame",
    "MidStreamError",
    "Pause",
    "Raw",
    "Script",
    "Stall",
    "Step",
    "UnknownEvent",
]
