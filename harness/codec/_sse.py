"""Sans-IO Server-Sent Events decoder following the WHATWG event-stream interpretation.

Rule 1: bytes in, events out; no sockets, no clocks. Rule 2: never raise on input: whatever the spec
says to ignore is ignored, and whatever a check may care about (BOM, invalid UTF-8, an unterminated
final event, a CRLF split across chunks) is recorded in :attr:`SSEDecoder.anomalies`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SSEDecoder", "SSEEvent"]

_BOM = b"\xef\xbb\xbf"
_LINE_END = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class SSEEvent:
    """One dispatched event. ``id`` is the last-event-ID in force at dispatch (WHATWG semantics)."""

    data: str
    event: str = "message"
    id: str = ""
    retry: int | None = None


class SSEDecoder:
    """Feed raw bytes in any split; get the events completed so far.

    >>> d = SSEDecoder()
    >>> d.feed(b'data: {"a"') + d.feed(b':1}\\n\\n')
    [SSEEvent(data='{"a":1}', event='message', id='', retry=None)]
    """

    __slots__ = (
        "_buf",
        "_data",
        "_event",
        "_has_data",
        "_last_id",
        "_retry",
        "_skip_lf",
        "_started",
        "anomalies",
        "unterminated",
    )

    def __init__(self) -> None:
        self._buf = b""
        self._started = False  # past the optional BOM
        self._skip_lf = False  # previous chunk ended in CR: a leading LF belongs to it
        self._data: list[str] = []
        self._has_data = False
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
        if not data:
            return []
        buf = self._buf + data if self._buf else data
        if not self._started:
            if len(buf) < 3 and _BOM.startswith(buf):
                self._buf = buf
                return []
            self._started = True
            if buf.startswith(_BOM):
                self.anomalies.append("bom")
                buf = buf[3:]
        if self._skip_lf:
            self._skip_lf = False
            if buf[:1] == b"\n":
                buf = buf[1:]
        out: list[SSEEvent] = []
        if b"\r" not in buf:
            lines = buf.split(b"\n")
            self._buf = lines.pop()
        else:
            lines = []
            pos = 0
            n = len(buf)
            for m in _LINE_END.finditer(buf):
                end = m.end()
                if end == n and buf[-1:] == b"\r":
                    self._skip_lf = True
                lines.append(buf[pos : m.start()])
                pos = end
            self._buf = buf[pos:]
        process = self._line
        for raw in lines:
            process(raw, out)
        return out

    def end(self) -> list[SSEEvent]:
        """End of stream: an incomplete event is *not* dispatched (it is kept in :attr:`unterminated`)."""
        if self._buf:
            if not self._started and _BOM.startswith(self._buf):
                self._buf = b""
            else:
                self.anomalies.append("partial-line")
                tail: list[SSEEvent] = []
                self._line(self._buf, tail)  # a field line without its end still counts as pending
                self._buf = b""
        if self._has_data:
            self.anomalies.append("unterminated")
            self.unterminated = SSEEvent("\n".join(self._data), self._event or "message", self._last_id,
                                         self._retry)
        self._reset()
        return []

    def _reset(self) -> None:
        self._data = []
        self._has_data = False
        self._event = ""

    def _line(self, raw: bytes, out: list[SSEEvent]) -> None:
        if not raw:
            if self._has_data:
                out.append(SSEEvent("\n".join(self._data), self._event or "message", self._last_id,
                                    self._retry))
            self._data = []
            self._has_data = False
            self._event = ""
            return
        try:
            line = raw.decode()
        except UnicodeDecodeError:
            self.anomalies.append("invalid-utf8")
            line = raw.decode(errors="replace")
        if line[0] == ":":
            return
        name, colon, value = line.partition(":")
        if colon and value[:1] == " ":
            value = value[1:]
        if name == "data":
            self._data.append(value)
            self._has_data = True
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\x00" not in value:
                self._last_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self._retry = int(value)
