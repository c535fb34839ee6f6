"""The inline ``<think>…</think>`` splitter: content text in, split anywhere, reasoning and text events out.
Every reader of reasoning inside content splits it here, so a tag pair is read one way."""

from __future__ import annotations

from typing import Literal

from harness.events import ReasoningDelta, TextDelta

__all__ = ["CLOSE", "HARMONY", "MM_THINK", "OPEN", "TAGS", "THOUGHT", "ThinkSplitter", "split_think"]

OPEN = "<think>"
CLOSE = "</think>"
TAGS = (OPEN, CLOSE)
MM_THINK = ("<mm:think>", "</mm:think>")
"""MiniMax-M3 served raw (no reasoning parser)."""
THOUGHT = ("<thought>", "</thought>")
"""Gemini's OpenAI-compatible endpoint with ``include_thoughts``."""
HARMONY = ("<|channel|>analysis<|message|>", "<|end|><|start|>assistant<|channel|>final<|message|>")
"""gpt-oss harmony channels as local backends stream them without a parser: the analysis channel is the
reasoning, the final channel the answer (https://cookbook.openai.com/articles/openai-harmony)."""
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

    Only a leading tag opens reasoning, and whitespace before it is dropped; a tag anywhere else, or a
    second block after the first closing tag, stays content. ``implicit=True``, for template-primed models,
    reads everything before the first closing tag as reasoning even without an opener. The tag pair is
    data, :data:`TAGS` by default: MiniMax-M3's ``<mm:think>``, Gemini's OpenAI-compatible ``<thought>``
    and gpt-oss's raw harmony channels (``<|channel|>analysis<|message|>`` …
    ``<|end|><|start|>assistant<|channel|>final<|message|>``) split exactly like ``<think>``.
    """

    __slots__ = ("_buf", "close", "implicit", "open", "state", "unclosed")

    def __init__(self, *, implicit: bool = False, tags: tuple[str, str] = TAGS) -> None:
        self.implicit = implicit
        self.open, self.close = tags
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
            return [TextDelta(text)]
        self._buf += text
        if self.state == "start":
            return self._start()
        return self._inside()

    def release(self) -> list[ReasoningDelta | TextDelta]:
        """Give up splitting (structured reasoning won): held text becomes content, the rest passes."""
        out: list[ReasoningDelta | TextDelta] = []
        if self.state == "start":
            if self._buf:
                out.append(TextDelta(self._buf))
            self._buf = ""
            self.state = "after"
        return out

    def end(self) -> list[ReasoningDelta | TextDelta]:
        buf, self._buf = self._buf, ""
        out: list[ReasoningDelta | TextDelta] = []
        if self.state == "inside" or (self.state == "start" and self.implicit and buf):
            self.unclosed = True  # an open block, or implicit reasoning whose closing tag never came
            out = [ReasoningDelta(buf)] if buf else []
        elif self.state == "start" and buf:
            out = [TextDelta(buf)]
        self.state = "after"
        return out

    def _start(self) -> list[ReasoningDelta | TextDelta]:
        lead = self._buf.lstrip(_WS)
        opener = self.open
        if not lead or (len(lead) < len(opener) and opener.startswith(lead)):
            return []  # undecided: whitespace only, or a prefix of the opener
        if lead.startswith(opener):
            self._buf = lead[len(opener) :]
            self.state = "inside"
            return self._inside()
        if self.implicit:
            self.state = "inside"
            return self._inside()
        buf, self._buf = self._buf, ""
        self.state = "after"
        return [TextDelta(buf)]

    def _inside(self) -> list[ReasoningDelta | TextDelta]:
        buf = self._buf
        out: list[ReasoningDelta | TextDelta] = []
        close = self.close
        pos = buf.find(close)
        if pos >= 0:
            if pos:
                out.append(ReasoningDelta(buf[:pos]))
            rest = buf[pos + len(close) :]
            self._buf = ""
            self.state = "after"
            if rest:
                out.append(TextDelta(rest))
            return out
        hold = _held_suffix(buf, close)
        emit = buf[: len(buf) - hold]
        self._buf = buf[len(buf) - hold :]
        if emit:
            out.append(ReasoningDelta(emit))
        return out


def split_think(text: str, *, implicit: bool = False, tags: tuple[str, str] = TAGS) -> tuple[str, str, bool]:
    """Whole-string form for non-streaming bodies: ``(reasoning, content, found)``."""
    s = ThinkSplitter(implicit=implicit, tags=tags)
    events = s.feed(text) + s.end()
    reasoning = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    content = "".join(e.text for e in events if isinstance(e, TextDelta))
    found = any(isinstance(e, ReasoningDelta) for e in events) or (
        s.state == "after" and text.lstrip(_WS).startswith(tags[0])
    )
    return reasoning, content, found
