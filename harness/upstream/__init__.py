"""The mock upstream: scripts, gates, faults, the loopback server, respx mode and the request log. It answers
a SUT's requests exactly as the real provider would, from plain script data."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness._lazy import lazy_names
from harness.upstream._dispatch import RecordedRequest
from harness.upstream._gates import ClientSide
from harness.upstream._httpserver import ScriptHandler, respond_with_script
from harness.upstream._plan import Plan, build_plan, dialect_for_path, wants_stream
from harness.upstream._protocol import LiveUpstream, Upstream
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
    ProviderHttpError,
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
    "LiveUpstream",
    "MalformedFrame",
    "MidStreamError",
    "MockUpstream",
    "Pause",
    "Plan",
    "ProviderHttpError",
    "Raw",
    "RecordedRequest",
    "RespxUpstream",
    "Script",
    "ScriptHandler",
    "Stall",
    "Step",
    "UnknownEvent",
    "Upstream",
    "build_plan",
    "demo_conversation",
    "dialect_for_path",
    "mount_respx",
    "respond_with_script",
    "serve_forever",
    "wants_stream",
]

if TYPE_CHECKING:
    from harness.upstream._respx import RespxUpstream, mount_respx

# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.upstream._shared import SharedCase, SharedCatalog, without_gates

_SHARED = {
    "SharedCase": "_shared",
    "SharedCatalog": "_shared",
    "without_gates": "_shared",
}
__all__ += [
    "SharedCase",
    "SharedCatalog",
    "without_gates",
]
# respx mode's names load on first use, by PEP 562: importing respx and httpx took about 0.3 s of every
# ``thinkwire run``, which needs neither unless a Python SUT asks.
__getattr__ = lazy_names(__name__, {"RespxUpstream": "_respx", "mount_respx": "_respx", **_SHARED})
