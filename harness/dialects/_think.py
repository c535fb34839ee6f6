"""Inline ``<think>…</think>`` splitter: content text in (any split), reasoning and text events out.

Rule: only a *leading* tag opens reasoning (leading whitespace before it is dropped); a tag anywhere
else, or a second block after the first ``</think>``, stays content. ``implicit=True`` (template-primed
models) reads everything before the first ``</think>`` as reasoning even without an opener.
"""

from __future__ import annotations

from typing import Literal

from harness.events import ReasoningDelta, TextDelta

__all__ = ["CLOSE", "OPEN", "ThinkSplitter", "split_think"]

OPEN = "<think>"
CLOSE = "</think>"
_WS = " \t\r\n"

State = Literal["start", "inside", "after"]


def _held_suffix(buf: str, tag: str) -> int:
    """Length of the longest suffix of ``buf`` that is a proper prefix of ``tag``."""
    for n in range(min(len(buf), len(tag) - 1), 0, -1):
        if buf.endswith(tag[:n]):
            return n
    return 0


class ThinkSplitter:
    """Feed ``delta.content`` strings; get :class:`ReasoningDelta` / :class:`TextDelta` events.

    >>> s = ThinkSplitter()
    >>> s.feed("<th") + s.feed("ink>hm</think>Hi")
    [ReasoningDelta(text='hm', item=''), TextDelta(text='Hi', item='')]
    """

    __slots__ = ("_buf", "implicit", "item", "state", "unclosed")

    def __init__(self, *, implicit: bool = False, item: str = "") -> None:
        self.implicit = implicit
        self.item = item
        self.state: State = "start"
        self._buf = ""
        self.unclosed = False
        """True after :meth:`end` when a reasoning block was never closed."""

    @property
    def pending(self) -> bool:
        """Text is held back (a possible tag prefix, or leading whitespace)."""
        return bool(self._buf)

    def feed(self, text: str) -> list[ReasoningDelta | TextDelta]:
        if not text:
            return []
        if self.state == "after":
            return [TextDelta(text, self.item)]
        self._buf += text
        if self.state == "start":
            return self._start()
        return self._inside()

    def release(self) -> list[ReasoningDelta | TextDelta]:
        """Give up splitting (structured reasoning won): held text becomes content, the rest passes."""
        out: list[ReasoningDelta | TextDelta] = []
        if self.state == "start":
            if self._buf:
                out.append(TextDelta(self._buf, self.item))
            self._buf = ""
            self.state = "after"
        return out

    def end(self) -> list[ReasoningDelta | TextDelta]:
        buf, self._buf = self._buf, ""
        out: list[ReasoningDelta | TextDelta] = []
        if self.state == "start":
            if buf:
                if self.implicit:
                    self.unclosed = True
                    out.append(ReasoningDelta(buf, self.item))
                else:
                    out.append(TextDelta(buf, self.item))
        elif self.state == "inside":
            self.unclosed = True
            if buf:
                out.append(ReasoningDelta(buf, self.item))
        self.state = "after"
        return out

    def _start(self) -> list[ReasoningDelta | TextDelta]:
        lead = self._buf.lstrip(_WS)
        if not lead or (len(lead) < len(OPEN) and OPEN.startswith(lead)):
            return []  # undecided: whitespace only, or a prefix of the opener
        if lead.startswith(OPEN):
            self._buf = lead[len(OPEN) :]
            self.state = "inside"
            return self._inside()
        if self.implicit:
            self.state = "inside"
            return self._inside()
        buf, self._buf = self._buf, ""
        self.state = "after"
        return [TextDelta(buf, self.item)]

    def _inside(self) -> list[ReasoningDelta | TextDelta]:
        buf = self._buf
        out: list[ReasoningDelta | TextDelta] = []
        pos = buf.find(CLOSE)
        if pos >= 0:
            if pos:
                out.append(ReasoningDelta(buf[:pos], self.item))
            rest = buf[pos + len(CLOSE) :]
            self._buf = ""
            self.state = "after"
            if rest:
                out.append(TextDelta(rest, self.item))
            return out
        hold = _held_suffix(buf, CLOSE)
        emit = buf[: len(buf) - hold]
        self._buf = buf[len(buf) - hold :]
        if emit:
            out.append(ReasoningDelta(emit, self.item))
        return out


def split_think(text: str, *, implicit: bool = False) -> tuple[str, str, bool]:
    """Whole-string form for non-streaming bodies: ``(reasoning, content, found)``."""
    s = ThinkSplitter(implicit=implicit)
    events = s.feed(text) + s.end()
    reasoning = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    content = "".join(e.text for e in events if isinstance(e, TextDelta))
    found = any(isinstance(e, ReasoningDelta) for e in events) or (
        s.state == "after" and text.lstrip(_WS).startswith(OPEN)
    )
    return reasoning, content, found
