"""The Server-Sent Events encoder, sans-IO: one event to the bytes of one block, in a chosen framing. It lives
beside the decoder's module, not in it, because the mock writes SSE and the observer reads it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["SSEEncoder", "SSEFraming", "encode_sse", "split_json_lines"]

_LINE_SPLIT = re.compile(r"\r\n|\r|\n")
_EOLS = {"lf": "\n", "crlf": "\r\n", "cr": "\r", "mixed": "\r\n"}


@dataclass(frozen=True, slots=True)
class SSEFraming:
    """How an event block is spelled.

    ``eol``: ``lf``, ``crlf``, ``cr`` or ``mixed`` (CRLF after field lines, a lone LF as the blank line).
    ``space``: one space after the colon (``data: x``); without it ``data:x`` (a value that itself
    starts with a space keeps the separator space, or the decoder would strip the value's own).
    ``multiline``: JSON data is split over several ``data:`` lines at points outside strings.
    ``terminated``: the blank line that dispatches the event is written.
    """

    eol: str = "lf"
    space: bool = True
    multiline: bool = False
    terminated: bool = True

    def __post_init__(self) -> None:
        if self.eol not in _EOLS:
            raise ValueError(f"unknown eol {self.eol!r}: valid: {', '.join(map(repr, _EOLS))}")


def split_json_lines(text: str) -> list[str]:
    """Cut ``text`` after every ``,``, ``{`` or ``[`` outside a JSON string (no cut at the very end).

    ``"\\n".join(split_json_lines(t))`` parses to the same value as ``t`` whenever ``t`` is JSON;
    text that is not a JSON object or array (``[DONE]``) is returned whole.
    """
    if not text or text[0] not in "{[":
        return [text]
    try:
        json.loads(text)
    except ValueError:
        return [text]
    out: list[str] = []
    start = 0
    in_str = False
    escaped = False
    n = len(text)
    for i, ch in enumerate(text):
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in ",{[" and i + 1 < n:
            out.append(text[start : i + 1])
            start = i + 1
    out.append(text[start:])
    return out


class SSEEncoder:
    """Encode events one block at a time.

    >>> SSEEncoder().encode('{"a":1}')
    b'data: {"a":1}\\n\\n'
    >>> SSEEncoder(SSEFraming(eol="mixed", space=False)).encode("x", event="ping")
    b'event:ping\\r\\ndata:x\\r\\n\\n'

    Every framing it produces decodes, by WHATWG rules, to the same event. The one exception is
    ``multiline`` JSON, which rejoins to equivalent JSON: LFs are inserted between tokens, never inside a
    string.
    """

    __slots__ = ("_blank", "_eol", "_plain", "framing")

    def __init__(self, framing: SSEFraming | None = None) -> None:
        self.framing = framing or SSEFraming()
        self._eol = _EOLS[self.framing.eol]
        self._blank = "\n" if self.framing.eol == "mixed" else self._eol
        self._plain = self.framing == SSEFraming()
        """The default framing: a one-line event is one f-string (the mock upstream encodes every
        frame of every stream through here)."""

    def _field(self, name: str, value: str) -> str:
        sep = ": " if self.framing.space or value[:1] == " " else ":"
        return f"{name}{sep}{value}{self._eol}"

    def encode(
        self, data: str, *, event: str | None = None, id: str | None = None, retry: int | None = None
    ) -> bytes:
        """One event block. ``data`` lines are split on CRLF/CR/LF (SSE data cannot carry a CR)."""
        if self._plain and id is None and retry is None and "\n" not in data and "\r" not in data:
            if event is None:
                return f"data: {data}\n\n".encode()
            if "\n" not in event and "\r" not in event:
                return f"event: {event}\ndata: {data}\n\n".encode()
        for name, value in (("event", event), ("id", id)):
            if value is not None and _LINE_SPLIT.search(value):
                raise ValueError(f"SSE {name} cannot contain a line break: {value!r}")
        if id is not None and "\x00" in id:
            raise ValueError(f"SSE id cannot contain NUL (the decoder would ignore it): {id!r}")
        if retry is not None and retry < 0:
            raise ValueError(f"SSE retry must be >= 0, got {retry!r}")
        out: list[str] = []
        if event is not None:
            out.append(self._field("event", event))
        if id is not None:
            out.append(self._field("id", id))
        if retry is not None:
            out.append(self._field("retry", str(retry)))
        lines = _LINE_SPLIT.split(data)
        if self.framing.multiline:
            lines = [part for line in lines for part in split_json_lines(line)]
        out.extend(self._field("data", line) for line in lines)
        if self.framing.terminated:
            out.append(self._blank)
        return "".join(out).encode()

    def comment(self, text: str) -> bytes:
        """A comment line (ignored by decoders) followed by a blank line (dispatches nothing)."""
        if _LINE_SPLIT.search(text):
            raise ValueError(f"SSE comment cannot contain a line break: {text!r}")
        return f":{' ' if text else ''}{text}{self._eol}{self._blank}".encode()

    def event_only(self, event: str) -> bytes:
        """An ``event:`` line and a blank line with no data: per spec this is *not* dispatched."""
        return f"{self._field('event', event)}{self._blank}".encode()


def encode_sse(
    events: Iterable[str | tuple[str, str | None]], framing: SSEFraming | None = None
) -> list[bytes]:
    """One block per event; an event is its data, or ``(data, event_name)``."""
    enc = SSEEncoder(framing)
    out = []
    for ev in events:
        if isinstance(ev, str):
            out.append(enc.encode(ev))
        else:
            out.append(enc.encode(ev[0], event=ev[1]))
    return out
