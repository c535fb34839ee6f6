"""The streamed JSON array codec, sans-IO: what Gemini's ``streamGenerateContent`` answers without
``?alt=sse``. It has its own module because array framing is neither SSE nor JSON lines."""

from __future__ import annotations

import json

__all__ = ["JSON_ARRAY_END", "JSON_ARRAY_SEPARATOR", "JSONArrayDecoder", "encode_json_array_element"]

JSON_ARRAY_SEPARATOR = b"\n,\r\n"
"""Between two elements, as recorded from the real API (recordings/corpus/gemini-*-array.jsonl)."""
JSON_ARRAY_END = b"\n]"
_WS = frozenset(b" \t\r\n")


def encode_json_array_element(data: str, *, first: bool) -> bytes:
    """One element as the real API writes it: ``[`` before the first, the separator before the
    others, the JSON pretty-printed with a 2-space indent."""
    pretty = json.dumps(json.loads(data), indent=2, ensure_ascii=False).encode()
    return (b"[" if first else JSON_ARRAY_SEPARATOR) + pretty


class JSONArrayDecoder:
    """Feed bytes; get the texts of the array's elements completed so far.

    The real API sends ``[{...}\\n,\\r\\n{...}\\n]``, each element pretty-printed with a 2-space indent.
    Bytes may arrive in any split, and an element's text comes out as soon as its closing brace arrives;
    the structural characters are ASCII, so a split UTF-8 sequence never matters.

    The decoder never raises. A stream that is not an array, bytes after its ``]`` and an array cut before
    its ``]`` are recorded in :attr:`anomalies` as ``not-an-array``, ``data-after-end`` and
    ``unterminated``.
    """

    __slots__ = ("_buf", "_depth", "_escape", "_in_string", "_start", "_state", "anomalies")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._state = "before"  # before | between | element | after
        self._depth = 0
        self._in_string = False
        self._escape = False
        self._start = 0
        self.anomalies: list[str] = []

    def feed(self, data: bytes) -> list[str]:
        out: list[str] = []
        base = len(self._buf)
        self._buf += data
        buf = self._buf
        i = base
        while i < len(buf):
            c = buf[i]
            state = self._state
            if state == "element":
                self._scan(c)
                if self._depth == 0:
                    out.append(bytes(buf[self._start : i + 1]).decode("utf-8", "replace"))
                    self._state = "between"
            elif c in _WS:
                pass
            elif state == "before":
                if c == ord("["):
                    self._state = "between"
                else:
                    self._note("not-an-array")
                    self._state = "after"
            elif state == "between":
                if c == ord("]"):
                    self._state = "after"
                elif c != ord(","):
                    self._state, self._start, self._depth = "element", i, 0
                    self._in_string = self._escape = False
                    self._scan(c)
                    if self._depth == 0:  # a scalar element: up to the next comma or bracket
                        self._state = "scalar"
            elif state == "scalar":
                if c in (ord(","), ord("]")):
                    out.append(bytes(buf[self._start : i]).decode("utf-8", "replace").strip())
                    self._state = "after" if c == ord("]") else "between"
            else:  # after
                self._note("data-after-end")
            i += 1
        if self._state in ("before", "between", "after"):
            del buf[:]
        elif self._start:
            del buf[: self._start]
            self._start = 0
        return out

    def end(self) -> list[str]:
        """EOF: an array cut before its ``]`` is ``unterminated`` (a partial element is dropped)."""
        if self._state not in ("after", "before"):
            self._note("unterminated")
        self._buf.clear()
        return []

    def _scan(self, c: int) -> None:
        if self._in_string:
            if self._escape:
                self._escape = False
            elif c == ord("\\"):
                self._escape = True
            elif c == ord('"'):
                self._in_string = False
        elif c == ord('"'):
            self._in_string = True
        elif c in (ord("{"), ord("[")):
            self._depth += 1
        elif c in (ord("}"), ord("]")):
            self._depth -= 1

    def _note(self, anomaly: str) -> None:
        if anomaly not in self.anomalies:
            self.anomalies.append(anomaly)
