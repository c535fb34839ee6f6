"""Whether an HTTP request asks to switch to the WebSocket protocol. The HTTP server asks it of every
request, so it lives apart from the WebSocket sessions (``_ws``), whose wsproto a server that never
meets a WebSocket does not load."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["is_websocket_upgrade"]


def is_websocket_upgrade(headers: Sequence[tuple[str, str]]) -> bool:
    """An HTTP request asking to switch to the WebSocket protocol."""
    return any(k.lower() == "upgrade" and v.strip().lower() == "websocket" for k, v in headers)
