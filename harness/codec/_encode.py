"""Frames to bytes for each transport, with a named perturbation applied. Emitters produce frames and
never pick a framing; this module applies the transport's framing and the perturbation."""

from __future__ import annotations

from collections.abc import Sequence

from harness.codec._frame import Frame
from harness.codec._perturb import Piece, perturb

__all__ = ["encode_frames", "encode_pieces"]


def encode_pieces(
    frames: Sequence[Frame], transport: str, perturbation: str = "none", *, start: bool = True,
    end: bool = True,
) -> list[Piece]:
    """``(frame index or None, bytes)`` per piece. ``start=False`` / ``end=False`` say these frames
    are not the first / last batch of the stream (no BOM, no unterminated last frame)."""
    return perturb(frames, transport, perturbation, start=start, end=end)


def encode_frames(
    frames: Sequence[Frame], transport: str, perturbation: str = "none", *, start: bool = True,
    end: bool = True,
) -> list[bytes]:
    """One byte string per frame (plus any piece a perturbation adds), in the transport's framing.

    Raises ``ValueError`` for an unknown transport or perturbation, or one that makes no sense for the
    transport (``eventstream`` takes only ``none``).

    The result is one byte string per frame, in frame order. A perturbation may add pieces of its own, such
    as the first byte of a split BOM; :func:`encode_pieces` says which frame each piece carries.
    """
    return [data for _, data in perturb(frames, transport, perturbation, start=start, end=end)]
