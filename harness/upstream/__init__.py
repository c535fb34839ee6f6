"""The mock upstream: scripts, gates, faults, the loopback server, respx mode and the request log."""

from harness.upstream._gates import ClientSide
from harness.upstream._plan import Plan, build_plan, dialect_for_path, wants_stream
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
from harness.upstream._server import MockUpstream, RecordedRequest

__all__ = [
    "ClientSide",
    "Conversation",
    "Disconnect",
    "Emit",
    "EmitFrames",
    "Gate",
    "HttpError",
    "MalformedFrame",
    "MidStreamError",
    "MockUpstream",
    "Pause",
    "Plan",
    "Raw",
    "RecordedRequest",
    "Script",
    "Stall",
    "Step",
    "UnknownEvent",
    "build_plan",
    "dialect_for_path",
    "wants_stream",
]
