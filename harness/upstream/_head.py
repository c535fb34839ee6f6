"""What a mock response's head says: the framing and content type the request picks, the request-id header an
official SDK reads, and the script's own headers merged over them. These are sans-IO functions of the
dialect, the request and the script, which the planner calls once per response."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.dialects import Dialect

__all__ = ["REQUEST_ID", "framing", "merge_headers", "request_id"]

_HOP = frozenset({"content-length", "transfer-encoding", "connection"})
REQUEST_ID = "req_mock_thinkwire"
"""The value of the request-id header (one value: a plan is the same bytes however often it is built)."""


def request_id(dialect: Dialect | None) -> tuple[tuple[str, str], ...]:
    """The header an official SDK reads the request id from, when the dialect names one."""
    name = dialect.id_header if dialect is not None else None
    return ((name, REQUEST_ID),) if name is not None else ()


def framing(
    dialect: Dialect | None, target: str, request: Mapping[str, Any], perturbation: str
) -> tuple[str, str, str]:
    """``(transport, content type, perturbation)`` of a streaming answer. The request may pick the
    framing (Gemini without ``?alt=sse``: a JSON array, on which only ``unterminated`` acts, as its own
    truncation; an SSE perturbation is not played there, and the ``mode`` entry says so); a dialect
    whose provider ends SSE lines with CRLF gets them under ``none``."""
    if dialect is None:
        return "sse", "text/event-stream", perturbation
    transport, content_type = dialect.stream_framing(target, request)
    if transport == "json-array":  # only a perturbation that acts on an array is played on one
        from harness.codec import PERTURBATIONS

        entry = PERTURBATIONS.get(perturbation)
        return transport, content_type, perturbation if entry and transport in entry.transports else "none"
    if transport == "sse" and perturbation == "none" and dialect.sse_eol == "\r\n":
        return transport, content_type, "crlf"
    return transport, content_type, perturbation


def merge_headers(
    base: tuple[tuple[str, str], ...], extra: tuple[tuple[str, str], ...], *, keep_type: bool = True
) -> tuple[tuple[str, str], ...]:
    """``extra`` (the script's headers) override ``base`` by name; hop-by-hop headers are dropped.
    ``keep_type=False``: the base content type wins (an HttpError names its own)."""
    names = {k.lower() for k, _ in extra if k.lower() not in _HOP}
    if not keep_type:
        names.discard("content-type")
    out = [(k, v) for k, v in base if k.lower() not in names]
    out += [(k, v) for k, v in extra if k.lower() not in _HOP and (keep_type or k.lower() != "content-type")]
    return tuple(out)
