"""Frames -> bytes for each transport (the codec helper extends perturbations)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.dialects._base import Frame

__all__ = ["encode_frames"]


def _sse_frame(frame: Frame) -> bytes:
    out = []
    if frame.event is not None:
        out.append(f"event: {frame.event}\n")
    for line in frame.data.split("\n"):
        out.append(f"data: {line}\n")
    out.append("\n")
    return "".join(out).encode()


def encode_frames(frames: Sequence[Frame], transport: str, perturbation: str = "none") -> list[bytes]:
    """One byte string per frame, in the transport's framing (``sse``, ``jsonl``, ``eventstream``)."""
    if transport == "sse":
        return [_sse_frame(f) for f in frames]
    if transport == "jsonl":
        return [(f.data + "\n").encode() for f in frames]
    if transport == "eventstream":
        from harness.codec._eventstream import encode_frame

        return [encode_frame(f.event or "", f.data, f.message_type) for f in frames]
    raise ValueError(f"unknown transport {transport!r}")
