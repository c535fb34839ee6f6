"""The client side of a CLI that prints plain text (profile ``front_door = "plain-text"``): the answer on
stdout, the reasoning on stderr or between the CLI's own markers on stdout. It is sans-IO: bytes of each
stream in, canonical events out; the CLI driver owns the process and says when it exited."""

from __future__ import annotations

import codecs

from harness.events import End, Event, ReasoningDelta, StreamError, TextDelta

__all__ = ["PLAIN_TEXT", "REASONING_FROM", "TextReader", "continued"]

PLAIN_TEXT = "plain-text"
"""The front door of a CLI read as text, not as a dialect's frames."""

REASONING_FROM = ("stderr", "stdout")
"""Where a plain-text CLI prints its reasoning: stderr, or stdout between ``reasoning_start`` and
``reasoning_end``."""


def continued(command: list[str], words: tuple[str, ...]) -> list[str]:
    """The command of a later user turn of the same conversation: the profile's ``continue`` words go
    right before the first word that holds ``{prompt}`` (``my-cli -c "{prompt}"``), else at the end."""
    at = next((i for i, word in enumerate(command) if "{prompt}" in word), len(command))
    return [*command[:at], *words, *command[at:]]


class _Text:
    """One output stream decoded as UTF-8 as it arrives: a character cut across two reads is held
    back, and bytes that are not UTF-8 become U+FFFD, as a terminal shows them (utf8-integrity's)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, data: bytes, *, final: bool = False) -> str:
        return self._decoder.decode(data, final)


class TextReader:
    """One run of a plain-text CLI read as its user reads it. With ``reasoning_from = "stderr"``
    everything on stderr is reasoning and everything on stdout is the answer. With ``"stdout"``, text
    between ``start`` and ``end`` is reasoning and the rest is the answer; a marker cut across two reads
    is held back until it is whole, and nothing is repaired. One newline at the very end of stdout is
    the line end a terminal needs, not answer text. The run ends when the CLI exits: code 0 is the
    stream's end, any other code an error the client saw."""

    def __init__(self, reasoning_from: str, start: str = "", end: str = "") -> None:
        if reasoning_from not in REASONING_FROM:
            raise ValueError(f"reasoning_from must be one of {REASONING_FROM}, not {reasoning_from!r}")
        if reasoning_from == "stdout" and not (start and end):
            raise ValueError("reasoning on stdout needs both markers (reasoning_start, reasoning_end)")
        self.reasoning_from = reasoning_from
        self.markers = (start, end)
        self._out, self._err = _Text(), _Text()
        self._inside = False  # between the markers (stdout reasoning)
        self._held = ""  # the end of stdout that may be the start of a marker
        self._newline = False  # stdout's last read ended with a newline, not yet shown

    def stdout(self, data: bytes) -> list[Event]:
        text = self._out.feed(data)
        if not text:
            return []
        text, self._newline = ("\n" if self._newline else "") + text, False
        if text.endswith("\n"):  # shown once more output follows it: the terminal's line end else
            text, self._newline = text[:-1], True
        if self.reasoning_from == "stderr":
            return [TextDelta(text)] if text else []
        return self._split(self._held + text, final=False)

    def stderr(self, data: bytes) -> list[Event]:
        if self.reasoning_from != "stderr":
            return []
        text = self._err.feed(data)
        return [ReasoningDelta(text)] if text else []

    def end(self, code: int | None) -> list[Event]:
        """The CLI exited with ``code`` (None: it was stopped before it exited)."""
        out: list[Event] = []
        if self.reasoning_from == "stderr":
            for piece, delta_type in ((self._err.feed(b"", final=True), ReasoningDelta),
                                (self._out.feed(b"", final=True), TextDelta)):  # fmt: skip
                if piece:
                    out.append(delta_type(piece))
        else:
            rest = self._held + self._out.feed(b"", final=True)
            if self._newline and (rest or self._inside):  # a marker or reasoning cut there: not a line end
                rest += "\n"
            out += self._split(rest, final=True)
        if code == 0:
            out.append(End("stop"))
        elif code is not None:
            out.append(StreamError(f"the CLI exited with code {code}", code=str(code)))
        return out

    def _split(self, text: str, *, final: bool) -> list[Event]:
        out: list[Event] = []
        while text:
            marker = self.markers[1] if self._inside else self.markers[0]
            at = text.find(marker)
            if at < 0:
                keep = 0 if final else _partial(text, marker)
                piece, self._held = text[: len(text) - keep], text[len(text) - keep :]
                self._put(out, piece)
                return out
            self._put(out, text[:at])
            self._inside = not self._inside
            text = text[at + len(marker) :]
        self._held = ""
        return out

    def _put(self, out: list[Event], piece: str) -> None:
        if piece:
            out.append(ReasoningDelta(piece) if self._inside else TextDelta(piece))


def _partial(text: str, marker: str) -> int:
    """The length of the longest end of ``text`` that begins ``marker`` (it may continue next read)."""
    for n in range(min(len(text), len(marker) - 1), 0, -1):
        if marker.startswith(text[-n:]):
            return n
    return 0
