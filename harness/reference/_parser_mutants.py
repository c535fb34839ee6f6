"""Byte-side fault switches of the reference SUTs: the parser mutants and ``break-utf8``. Each rewrites the
upstream bytes the way its deviating reader reads them, in front of the correct observer, so the observer
downstream sees exactly what the deviating reader would have dispatched."""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable

from harness._json import loads

__all__ = [
    "BOM_UNNAMED_START",
    "CHUNK_BOUND_FAULTS",
    "FIRST_CHOICE_ONLY",
    "PARSER_FAULTS",
    "PARSER_MUTANTS",
    "JsonlMutant",
    "ParserFailure",
    "ParserMutant",
    "Utf8Breaker",
    "parser_mutant",
]

PARSER_MUTANTS: dict[str, str] = {
    "sse-bom-drop-first": "SSE: after a leading UTF-8 BOM, lose the first event (openai SDK)",
    "sse-data-space-only": "SSE: only 'data: ' with a space is a data line (google-genai)",
    "sse-chunk-local": "SSE: decode and parse each network chunk on its own (a line, event or code point "
    "split across chunks is lost)",
    "sse-lflf-only": "SSE: lines end at LF only and events at LF LF only (CR-only and CRLF framing lost)",
    "sse-comments-as-data": "SSE: comment lines go to the JSON parser, which fails the stream (google-genai)",
    "sse-dispatch-empty": "SSE: a block with no data is dispatched with empty data, which the JSON parser "
    "rejects (openai SDK)",
    "sse-line-per-event": "SSE: every data: line is its own event (multi-line data split; google-genai reads "
    "line by line)",
    "sse-dispatch-unterminated": "SSE: at EOF, dispatch the last event although its blank line never came "
    "(sseclient-py, google-genai)",
    "jsonl-drop-unterminated": "NDJSON: drop the last record when the stream ends without a line end "
    "after it",
}
"""Parser mutant switch -> what its reader does wrong (and which real decoder does it)."""

PARSER_FAULTS = frozenset(PARSER_MUTANTS)
"""The parser mutants: each rewrites the upstream bytes the way a deviating decoder reads them."""

CHUNK_BOUND_FAULTS = PARSER_FAULTS | {"break-utf8"}
"""The switches whose bug shows at a network chunk boundary: a reference SUT with one of them on reads
its upstream one HTTP chunk at a time (as httpx does), not one socket read at a time."""

FIRST_CHOICE_ONLY = "first-choice-only"
"""Not a framing mutant (the perturbations' mutation score leaves it out): a chat chunk reader that
takes ``choices[0].delta`` for granted and fails on Azure's ``choices: []`` and annotation chunks."""


BOM_UNNAMED_START = "bom-unnamed-start"
"""A gateway fault, not a framing mutant: its reader loses the first event behind a BOM as
``sse-bom-drop-first`` does (the anthropic SDK skips the event whose name the BOM hid), and its
Anthropic front door relays the upstream's message_start, so its client gets none either."""


class Utf8Breaker:
    """Fault ``break-utf8``: decode each chunk on its own with errors='replace', as a naive gateway
    does, so a code point split across chunks becomes U+FFFD."""

    def feed(self, data: bytes) -> bytes:
        return data.decode("utf-8", errors="replace").encode("utf-8")


class ParserFailure(Exception):
    """A parser mutant hit what its decoder raises on (a comment or empty data given to ``json.loads``):
    the SUT's stream fails there, as the SDK's iterator would."""


class ParserMutant:
    """The parser mutants (``sse-*``): a deliberately deviating SSE reader in front of the reference
    observer. ``feed`` takes upstream bytes and returns what the deviating reader made of them,
    re-encoded as plain LF-framed SSE (``event:`` only when the reader kept a name), so the correct
    observer downstream sees exactly the events the deviating one would have dispatched.

    Everything it does not deviate on follows WHATWG: one leading BOM stripped, CRLF / CR / LF line
    ends (a CR at the end of a chunk waits for a possible LF), ``name:value`` with one optional space,
    data lines joined by LF, dispatch at a blank line, nothing dispatched at EOF.

    The mutants are real SSE and NDJSON decoder deviations, ``sse-*`` and ``jsonl-*``, and
    ``first-choice-only``, a chat chunk reader that assumes ``choices[0].delta``. They are sans-IO. Every
    deviation is one branch marked ``DEVIATION``; everywhere else a mutant reads like the WHATWG decoder,
    under any chunking.
    """

    def __init__(self, fault: str) -> None:
        self.fault = fault
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self._text = ""  # decoded, not yet split into lines
        self._skip_lf = False  # the last chunk ended in CR: a leading LF belongs to it
        self._first = True  # no character seen yet (the BOM position)
        self._bom = False  # the stream began with a BOM
        self._event: str | None = None
        self._data: list[str] | None = None
        self._dispatched = 0

    def feed(self, data: bytes) -> bytes:
        if self.fault == "sse-chunk-local":  # DEVIATION: each chunk decoded as a whole text
            text = data.decode("utf-8", errors="replace")
        else:
            text = self._text + self._utf8.decode(data)
        if self._first and text:
            self._first = False
            if text.startswith("\ufeff"):
                self._bom = True
                text = text[1:]
        out: list[str] = []
        for line in self._lines(text):
            self._line(line, out)
        if self.fault == "sse-chunk-local":  # DEVIATION: nothing carries over to the next chunk
            self._text, self._skip_lf, self._event, self._data = "", False, None, None
        return "".join(out).encode("utf-8")

    def end(self) -> bytes:
        text = self._text + self._utf8.decode(b"", final=True)
        self._text = ""
        out: list[str] = []
        if self.fault == "sse-dispatch-unterminated":  # DEVIATION: the open event is dispatched
            if text:
                self._line(text, out)
            self._dispatch(out)
        return "".join(out).encode("utf-8")

    def _lines(self, text: str) -> list[str]:
        if self.fault == "sse-lflf-only":  # DEVIATION: LF is the only line end
            *lines, self._text = text.split("\n")
            return lines
        if self._skip_lf and text.startswith("\n"):
            text = text[1:]
        self._skip_lf = False
        lines = re.split("\r\n|\r|\n", text)
        self._text = lines.pop()
        if text.endswith("\r"):  # a CR that closed the last line: its LF may come next
            self._skip_lf = True
        return lines

    def _line(self, line: str, out: list[str]) -> None:
        if line == "":
            self._dispatch(out)
            return
        if line.startswith(":"):
            if self.fault == "sse-comments-as-data":  # DEVIATION: json.loads(': keep-alive')
                raise ParserFailure(f"the JSON parser got the comment line {line[:40]!r}")
            return
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        elif name == "data" and self.fault == "sse-data-space-only":  # DEVIATION: 'data:x' unseen
            return
        if name == "event":
            self._event = value
        elif name == "data":
            self._data = [*(self._data or ()), value]
            if self.fault == "sse-line-per-event":  # DEVIATION: each line dispatched on its own
                self._dispatch(out, keep_event=True)

    def _dispatch(self, out: list[str], *, keep_event: bool = False) -> None:
        event, data = self._event, self._data
        if not keep_event:
            self._event = None
        self._data = None
        if data is None:
            if self.fault == "sse-dispatch-empty" and event is not None:  # DEVIATION: json.loads('')
                raise ParserFailure(f"the JSON parser got the empty data of event {event!r}")
            return
        if self.fault == FIRST_CHOICE_ONLY and _no_first_delta("\n".join(data)):  # DEVIATION
            raise ParserFailure("chunk['choices'][0]['delta'] failed on a chunk without one")
        self._dispatched += 1
        if self.fault == "sse-bom-drop-first" and self._bom and self._dispatched == 1:
            return  # DEVIATION: the first event after a BOM is lost
        # SSE cannot carry a CR in a value (sse-lflf-only keeps them): a space reads the same to JSON
        head = f"event: {event.replace(chr(13), ' ')}\n" if event else ""
        lines = "\n".join(data).replace("\r", " ").split("\n")
        out.append(head + "".join(f"data: {v}\n" for v in lines) + "\n")


class JsonlMutant:
    """``jsonl-drop-unterminated``: an NDJSON reader that drops a last record without its line end."""

    fault = "jsonl-drop-unterminated"

    def __init__(self) -> None:
        self._tail = b""

    def feed(self, data: bytes) -> bytes:
        data = self._tail + data
        cut = data.rfind(b"\n") + 1
        self._tail = data[cut:]
        return data[:cut]

    def end(self) -> bytes:
        self._tail = b""  # DEVIATION: the record after the last LF is lost
        return b""


def _no_first_delta(data: str) -> bool:
    """A chat chunk (not usage, not an error, not ``[DONE]``) with no ``choices[0].delta``."""
    try:
        obj = loads(data)
    except ValueError:
        return False
    if not isinstance(obj, dict) or "error" in obj or ("usage" in obj and not obj.get("choices")):
        return False
    first = (obj.get("choices") or [{}])[0]
    return "choices" in obj and not (isinstance(first, dict) and "delta" in first)


def parser_mutant(faults: Iterable[str], transport: str) -> ParserMutant | JsonlMutant | None:
    """The parser mutant among ``faults`` for this upstream transport (None: the correct reader)."""
    if FIRST_CHOICE_ONLY in faults and transport == "sse":
        return ParserMutant(FIRST_CHOICE_ONLY)
    if BOM_UNNAMED_START in faults and transport == "sse":
        return ParserMutant("sse-bom-drop-first")
    for fault in sorted(PARSER_FAULTS.intersection(faults)):
        if fault.startswith("sse-") and transport == "sse":
            return ParserMutant(fault)
        if fault.startswith("jsonl-") and transport == "jsonl":
            return JsonlMutant()
    return None
