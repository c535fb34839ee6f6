"""Recorded replays answer the request they get: a recording made for a request that asked for a form
loses that form when the replayed-to request does not ask (a Chat Completions usage chunk, sent only
with ``stream_options.include_usage``). Everything else stays byte for byte, chunk boundaries kept.

Rule: sans-IO, bytes in and bytes out; only whole SSE events are dropped, never rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from harness._json import loads

__all__ = ["answered_chunks"]

_EVENT_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")


def _usage_only(event: bytes) -> bool:
    """A ``choices: []`` chunk with a usage object: what only ``include_usage`` asks for."""
    data = b"".join(line[5:].lstrip(b" ") for line in event.splitlines() if line.startswith(b"data:"))
    if not data or data.strip() == b"[DONE]":
        return False
    try:
        obj = loads(data)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(obj, dict) and obj.get("choices") == [] and isinstance(obj.get("usage"), dict)


def _asked_usage(request: Mapping[str, Any]) -> bool:
    opts = request.get("stream_options")
    return isinstance(opts, Mapping) and opts.get("include_usage") is True


def answered_chunks(
    chunks: Sequence[bytes], dialect: str, request: Mapping[str, Any], *, stream: bool
) -> tuple[bytes, ...]:
    """``chunks`` as the provider would have answered ``request``: without the usage-only chunk of a
    Chat Completions stream the request did not ask usage for (recorded: corpus/openai-chat-tools-
    stream.jsonl asked for it and has one; corpus/groq-reasoning-stream.jsonl did not and has none)."""
    if dialect != "openai-chat" or not stream or _asked_usage(request):
        return tuple(chunks)
    whole = b"".join(chunks)
    drop: list[tuple[int, int]] = []
    start = 0
    for m in _EVENT_END.finditer(whole):
        if _usage_only(whole[start : m.start()]):
            drop.append((start, m.end()))
        start = m.end()
    if not drop:
        return tuple(chunks)
    out: list[bytes] = []
    pos = 0
    for c in chunks:  # each chunk keeps its bytes outside the dropped events: boundaries stay
        end = pos + len(c)
        kept = bytearray()
        cut = pos
        for a, b in drop:
            if b <= pos or a >= end:
                continue
            kept += whole[cut : max(a, pos)]
            cut = min(b, end)
        kept += whole[cut:end]
        if kept:
            out.append(bytes(kept))
        pos = end
    return tuple(out)
