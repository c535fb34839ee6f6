"""The Server-Sent Events decoder, sans-IO, following the WHATWG event-stream interpretation. Every
dialect observer reads SSE through it, so streams are parsed one way."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

__all__ = ["SSEDecoder", "SSEEvent"]

_BOM = b"\xef\xbb\xbf"
_LINE_END = re.compile(rb"\r\n|\r|\n")


class SSEEvent(NamedTuple):
    """One dispatched event. ``id`` is the last-event-ID in force at dispatch (WHATWG semantics).

    Immutable and hashable; a named tuple because it is built once per event on the hot path (a frozen
    dataclass costs ~3x more to construct)."""

    data: str
    event: str = "message"
    id: str = ""
    retry: int | None = None


def _event(data: str, event: str, id: str, retry: int | None) -> SSEEvent:
    ev: SSEEvent = _new(SSEEvent, (data, event, id, retry))
    return ev


_new: Any = tuple.__new__
_utf8 = bytes.decode


class SSEDecoder:
    """Feed raw bytes in any split; get the events completed so far.

    >>> d = SSEDecoder()
    >>> d.feed(b'data: {"a"') + d.feed(b':1}\\n\\n')
    [SSEEvent(data='{"a":1}', event='message', id='', retry=None)]

    Cost is linear in the input however it is split: a partial line is kept as a list of pieces and
    only new bytes are scanned; ``data`` values are kept as bytes and decoded once per event.

    The decoder never raises on input. Whatever the spec says to ignore is ignored, and whatever a check
    may care about is recorded in :attr:`anomalies`: a BOM, invalid UTF-8, an unterminated final event, a
    partial last line.
    """

    __slots__ = (
        "_block",
        "_data",
        "_event",
        "_fast",
        "_head",
        "_last_id",
        "_retry",
        "_skip_lf",
        "_started",
        "_tail",
        "anomalies",
        "unterminated",
    )

    def __init__(self) -> None:
        self._head = b""  # the first bytes, while they may still be a (split) BOM
        self._started = False  # past the optional BOM
        self._fast = False  # started, no CR pending, no partial line, no open event: feed's fast path
        self._skip_lf = False  # previous chunk ended in CR: a leading LF belongs to it
        self._block: list[bytes] = []  # the open block's bytes, in pieces (LF-only fast path)
        self._tail: list[bytes] = []  # the current partial line, in pieces (line-by-line path)
        self._data: list[bytes] = []  # data values of the open event
        self._event = ""
        self._last_id = ""
        self._retry: int | None = None
        self.anomalies: list[str] = []
        """Things the spec tolerates but a check may want to see: ``bom``, ``invalid-utf8``,
        ``unterminated`` (data pending at EOF, not dispatched), ``partial-line`` (bytes after the
        last line end at EOF)."""
        self.unterminated: SSEEvent | None = None
        """The event that was still open at :meth:`end` (not dispatched, per spec)."""

    def feed(self, data: bytes) -> list[SSEEvent]:
        if not self._fast or not data or b"\r" in data:
            return self._general(data)
        # LF only, between events: whole blocks. ``_block`` holds the open block's bytes, unparsed
        # (a block has no blank line, so nothing in it can dispatch before its end).
        pend = self._block
        last = data.rfind(b"\n\n")
        if pend:
            if last < 0 and not (data[:1] == b"\n" and pend[-1][-1] == 10):
                pend.append(data)  # the block is still open: no join, so a long event stays linear
                return []
            pend.append(data)
            data = b"".join(pend)  # each pending byte is joined once, when its block ends
            pend.clear()
            last = data.rfind(b"\n\n")
        elif last < 0:
            pend.append(data)
            return []
        if last + 2 < len(data):
            pend.append(data[last + 2 :])
        if data[:6] == b"data: ":
            # The common case: every block is exactly one "data: " line. Then one split gives every
            # data value, and no newline left in them proves the case (joined, one memchr: 4x
            # cheaper than counting the chunk's newlines). C-level scans, no per-line Python. Each
            # value is decoded on its own, straight to its narrowest string (decoding the chunk
            # whole made one wide string whenever it held one emoji, then every piece was narrowed).
            raws = data[6:last].split(b"\n\ndata: ")
            if b"\n" not in b"".join(raws):
                last_id, retry, new = self._last_id, self._retry, _new
                try:
                    return [new(SSEEvent, (t, "message", last_id, retry)) for t in map(_utf8, raws)]
                except UnicodeDecodeError:
                    pass  # invalid UTF-8: the block by block path replaces and reports it
        out: list[SSEEvent] = []
        for blk in data[:last].split(b"\n\n"):
            self._one(blk, out)
        return out

    def _general(self, data: bytes) -> list[SSEEvent]:
        """Everything but the LF-only fast path: the BOM, CR line ends, a line or event left open."""
        if not data:
            return []
        if not self._started:
            head = self._head + data
            if len(head) < 3 and _BOM.startswith(head):
                self._head = head
                return []
            self._started = True
            self._head = b""
            if head.startswith(_BOM):
                self.anomalies.append("bom")
                head = head[3:]
            data = head
        if self._skip_lf:
            self._skip_lf = False
            if data[:1] == b"\n":
                data = data[1:]
        if not data:
            out: list[SSEEvent] = []
        elif b"\r" in data or self._tail or self._data or self._event:
            out = self._slow(data)
        else:
            self._fast = True
            return self.feed(data)
        self._fast = not (self._skip_lf or self._tail or self._data or self._event)
        return out

    def _one(self, blk: bytes, out: list[SSEEvent]) -> None:
        """One whole block (without its blank line), from a clean state."""
        if blk[:6] == b"data: " and b"\n" not in blk:
            out.append(_new(SSEEvent, (self._text(blk[6:]), "message", self._last_id, self._retry)))
        else:
            self._lines(blk + b"\n\n", out)

    def _slow(self, data: bytes) -> list[SSEEvent]:
        """Line by line (CR line ends, or an event left open by them); back to blocks once clean."""
        out: list[SSEEvent] = []
        if self._block:
            data = b"".join(self._block) + data
            self._block = []
        if b"\r" in data:
            return self._lines(data, out)
        if data[0] == 10 and not self._tail:
            k = 1  # the blank line that ends the open event
        else:
            k = data.find(b"\n\n") + 2
            if k < 2:
                return self._lines(data, out)
        self._lines(data[:k], out)
        return out + self.feed(data[k:]) if k < len(data) else out

    def _lines(self, data: bytes, out: list[SSEEvent]) -> list[SSEEvent]:
        """The general path: split ``data`` (after BOM and CR-skip handling) into lines, run each."""
        if b"\r" in data:
            lines = _LINE_END.split(data)
            if data[-1] == 13:  # a CR at the end: an LF at the start of the next chunk is part of it
                self._skip_lf = True
        else:
            lines = data.split(b"\n")
        rest = lines.pop()
        tail = self._tail
        if not lines:
            tail.append(rest)
            return out
        if tail:
            tail.append(lines[0])
            lines[0] = b"".join(tail)
            tail.clear()
        if rest:
            tail.append(rest)
        parts = self._data
        for raw in lines:
            if raw[:6] == b"data: ":
                parts.append(raw[6:])
            elif not raw:
                if parts:
                    out.append(self._dispatch())
                    parts = self._data
                else:
                    self._event = ""
            else:
                self._field(raw)
        return out

    def end(self) -> list[SSEEvent]:
        """End of stream: an incomplete event is *not* dispatched (it is kept in :attr:`unterminated`)."""
        self._head = b""  # only ever a partial BOM: nothing to decode
        if self._block:
            self._lines(b"".join(self._block), [])  # no blank line in it: dispatches nothing
            self._block = []
        if self._tail:
            self.anomalies.append("partial-line")
            raw = b"".join(self._tail)
            self._tail = []
            if raw[:6] == b"data: ":  # a field line without its end still counts as pending
                self._data.append(raw[6:])
            else:
                self._field(raw)
        if self._data:
            self.anomalies.append("unterminated")
            self.unterminated = _event(self._text(b"\n".join(self._data)), self._event or "message",
                                       self._last_id, self._retry)
        self._data = []
        self._event = ""
        return []

    def _dispatch(self) -> SSEEvent:
        ev = _event(self._text(b"\n".join(self._data)), self._event or "message", self._last_id,
                    self._retry)
        self._data = []
        self._event = ""
        return ev

    def _text(self, raw: bytes) -> str:
        try:
            return raw.decode()
        except UnicodeDecodeError:
            self.anomalies.append("invalid-utf8")
            return raw.decode(errors="replace")

    def _field(self, raw: bytes) -> None:
        if raw[:1] == b":":
            return
        name, colon, value = raw.partition(b":")
        if colon and value[:1] == b" ":
            value = value[1:]
        if name == b"data":
            self._data.append(value)
        elif name == b"event":
            self._event = self._text(value)
        elif name == b"id":
            if b"\x00" not in value:
                self._last_id = self._text(value)
        elif name == b"retry" and value.isdigit():  # bytes.isdigit: ASCII digits only
            self._retry = int(value)
