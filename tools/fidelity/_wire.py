"""A response body as wire frames, whatever its framing, and the framing facts a client can tell. It is
sans-IO and dialect-blind."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from harness.codec import SSEDecoder
from harness.codec._jsonarray import JSON_ARRAY_SEPARATOR, JSONArrayDecoder

__all__ = ["Wire", "WireFrame", "media_type", "read_wire"]

_PADDED = re.compile(r"\s+\}\s*$")
_EOL = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class WireFrame:
    event: str | None
    """The SSE ``event:`` name (None when the frame had none) or the eventstream ``:event-type``."""
    data: Any
    """The frame's JSON, parsed (None when it is not JSON: ``[DONE]``)."""
    text: str


@dataclass(frozen=True, slots=True)
class Wire:
    framing: str  # sse | ndjson | json-array | eventstream | json | empty | text
    frames: tuple[WireFrame, ...]
    facts: frozenset[str]


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _sse(body: bytes) -> Wire:
    dec = SSEDecoder()
    events = dec.feed(body) + dec.end()
    facts: set[str] = set()
    eol = _EOL.search(body)
    if eol is not None:
        facts.add({b"\r\n": "eol-crlf", b"\r": "eol-cr", b"\n": "eol-lf"}[eol.group()])
    lines = _EOL.split(body)
    if any(line.startswith(b"event:") for line in lines):
        facts.add("event-lines")
    if any(line.startswith(b":") for line in lines):
        facts.add("comments")
    if any(line.startswith(b"data:") and not line.startswith(b"data: ") for line in lines):
        facts.add("data-no-space")
    named = "event-lines" in facts
    frames = []
    for ev in events:
        if _PADDED.search(ev.data):
            facts.add("padded")
        frames.append(WireFrame(ev.event if named else None, _json(ev.data), ev.data))
    return Wire("sse", tuple(frames), frozenset(facts))


def _ndjson(body: bytes) -> Wire:
    texts = [line.decode("utf-8", "replace") for line in body.split(b"\n") if line.strip()]
    facts = {"eol-crlf"} if b"\r\n" in body else {"eol-lf"}
    return Wire("ndjson", tuple(WireFrame(None, _json(t), t) for t in texts), frozenset(facts))


def _array(body: bytes) -> Wire:
    dec = JSONArrayDecoder()
    texts = dec.feed(body) + dec.end()
    facts = {f"array-{a}" for a in dec.anomalies}
    if JSON_ARRAY_SEPARATOR in body:
        facts.add("array-separator-lf-comma-crlf")
    if b"\n  " in body:
        facts.add("pretty-printed")
    return Wire("json-array", tuple(WireFrame(None, _json(t), t) for t in texts), frozenset(facts))


def _eventstream(body: bytes) -> Wire:
    from harness.codec._eventstream import EventStreamDecoder

    dec = EventStreamDecoder()
    frames = []
    for msg in dec.feed(body):
        text = msg.payload.decode("utf-8", "replace")
        frames.append(WireFrame(msg.event_type, _json(text), text))
    return Wire("eventstream", tuple(frames), frozenset())


def read_wire(body: bytes, content_type: str) -> Wire:
    """The framing, SSE, NDJSON, a streamed JSON array, AWS eventstream or one JSON document, is chosen by the
    content type and the body's first byte. Each frame's data is parsed as JSON where it is JSON. Facts are
    what a parser can trip on: the line end, ``event:`` lines, comments, ``data:`` without its space,
    padding inside the JSON text, the array separator."""
    media = media_type(content_type)
    head = body.lstrip()[:1]
    if not body:
        return Wire("empty", (), frozenset())
    if media == "text/event-stream":
        return _sse(body)
    if media == "application/vnd.amazon.eventstream":
        return _eventstream(body)
    if media in ("application/x-ndjson", "application/jsonl"):
        return _ndjson(body)
    if head == b"[":
        return _array(body)
    text = body.decode("utf-8", "replace")
    facts = {"pretty-printed"} if "\n  " in text else set()
    return Wire("json" if head == b"{" else "text", (WireFrame(None, _json(text), text),), frozenset(facts))
