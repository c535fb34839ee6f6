"""The mock upstream: scripts, gates, faults, the loopback server, respx mode and the request log."""

from harness.upstream._dispatch import RecordedRequest
from harness.upstream._gates import ClientSide
from harness.upstream._httpserver import ScriptHandler, respond_with_script
from harness.upstream._plan import Plan, build_plan, dialect_for_path, wants_stream
from harness.upstream._respx import RespxUpstream, mount_respx
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
from harness.upstream._server import MockUpstream
from harness.upstream._standalone import demo_conversation, serve_forever

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
    "RespxUpstream",
    "Script",
    "ScriptHandler",
    "Stall",
    "Step",
    "UnknownEvent",
    "build_plan",
    "demo_conversation",
    "dialect_for_path",
    "mount_respx",
    "respond_with_script",
    "serve_forever",
    "wants_stream",
]
