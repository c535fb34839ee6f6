"""The frame: one protocol message before transport encoding. Dialect emitters produce frames and the
transport encoders turn them into bytes, so neither side needs to know the other."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Frame"]


@dataclass(frozen=True, slots=True)
class Frame:
    """One protocol frame before transport encoding.

    ``data`` is the SSE data (possibly a JSON text or ``[DONE]``), the JSONL line without LF, or the
    eventstream JSON payload. ``event`` is the SSE ``event:`` line or eventstream ``:event-type``.
    ``tags`` say what the frame means, for gates, faults and checks: ``reasoning``, ``reasoning-done``
    (finishes a reasoning item/block), ``text``, ``tool``, ``usage``, ``repeat`` (repeats text already
    streamed, e.g. ``*.done``), ``terminal`` (the stream's proper end), ``error``, ``start``.

    A frame is data: what the wire says and what it means. Codecs never look inside ``data`` beyond their
    transport, and dialects never encode bytes.
    """

    data: str
    event: str | None = None
    message_type: str = "event"
    tags: frozenset[str] = field(default_factory=frozenset)
