"""Findings grouped by cause: one check plus its message with the case-specific parts masked. The masking is
done here, once, for the console, summary.md, JUnit, the HTML report and ``thinkwire diff``; a cause's
headline puts back the figures its cases said (``SUT exited with code 3``), where the key masks them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from harness.report._common import first_line
from harness.verdict import CaseResult, Status

__all__ = ["Cause", "case_causes", "group_causes", "normalise_message"]

_QUOTED = re.compile(
    r"(?<![\w'])'(?:[^'\\\n]|\\.|'(?=\w))*'(?![\w'])"
    r"|(?<![\w\"])\"(?:[^\"\\\n]|\\.)*\"(?![\w\"])"
    r"|`[^`\n]*`"
)
"""A quoted text: a quote that opens after a space or a bracket and closes before one; an apostrophe
inside a word (``the gate's``, ``don't``) neither opens nor closes one, so it never splits a cause."""
_IDS = re.compile(
    r"\b(?:rs|msg|fc|call|toolu|resp|req|chatcmpl|gen|sig|tooluse|item|pid)_[A-Za-z0-9_-]+\b"
    r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    r"|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{8,}\b"
    r"|/tmp/\S+|0x[0-9a-fA-F]+"
)
_NUMBERS = re.compile(r"(?<![A-Za-z_.-])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
"""A number, not a name's digits (``utf8``, ``deepseek-v3.2``, ``gpt-4`` stay)."""
_SPACES = re.compile(r"\s+")


def normalise_message(message: str, figures: Sequence[str] = ()) -> str:
    """``message`` with quoted texts as ``'…'``, ids as ``<id>`` and numbers as ``N`` (one line, 300
    characters at most); ``figures``: the text each number in turn is shown as instead of ``N``.

    Numbers, ids and quoted texts are what differs between cases of one root cause. A wrapper that never
    splits inline ``<think>`` fails 26 cases with 26 messages that differ only in the turn, the text and
    the byte counts.
    """
    text = _QUOTED.sub("'…'", message)
    text = _IDS.sub("<id>", text)
    seen = iter(figures)
    text = _NUMBERS.sub(lambda _: next(seen, "N"), text)
    return first_line(_SPACES.sub(" ", text), 300)


def _numbers(message: str) -> list[str]:
    """The numbers ``normalise_message`` masks in ``message``, in order."""
    return _NUMBERS.findall(_IDS.sub("<id>", _QUOTED.sub("'…'", message)))


def _figure(values: list[str]) -> str:
    """What one masked number of a cause is shown as: its value when its cases agree, up to three values
    (``3/137``), else their range (``2–48``)."""
    distinct = list(dict.fromkeys(values))
    if len(distinct) <= 3:
        return "/".join(distinct)
    numbers = sorted(distinct, key=float)
    return f"{numbers[0]}–{numbers[-1]}"


@dataclass(slots=True)
class Cause:
    """One cause and the cases it shows in (``example``: the first case's own message)."""

    check: str
    message: str
    example: str = ""
    cases: list[CaseResult] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    """Each case's own message (or error line), in the order of ``cases``."""

    @property
    def key(self) -> tuple[str, str]:
        return (self.check, self.message)

    @property
    def count(self) -> int:
        return len(self.cases)

    @property
    def headline(self) -> str:
        """The message as the reports print it: masked as ``message`` is, its numbers shown as its cases
        said them (``SUT exited with code 3``, ``turn 1/2``, ``2–48 bytes``)."""
        said = [_numbers(m) for m in self.said or [self.example]]
        width = min(len(n) for n in said)
        figures = [_figure([n[k] for n in said]) for k in range(width)]
        return normalise_message(self.said[0] if self.said else self.example, figures)

    def line(self) -> str:
        """``[check] headline`` as the reports print it."""
        return f"[{self.check}] {self.headline}"


def case_causes(r: CaseResult) -> list[tuple[str, str, str]]:
    """``(check, normalised message, message)`` for each reason ``r`` did not pass (each once).

    A case with no failing finding, ERROR or TIMEOUT, has its status and the first line of its error as its
    cause.
    """
    out: list[tuple[str, str, str]] = []
    if r.status != Status.OK:
        error = first_line(r.error) or "no error text"
        out.append((r.status.value, normalise_message(error), error))
    for f in r.failing():
        said = f.message or f.verdict.value
        out.append((f.check, normalise_message(said), said))
    if not out and r.unexpected:
        out.append(("unexpected", r.stream.value, r.stream.value))
    unique: dict[tuple[str, str], tuple[str, str, str]] = {}
    for c in out:
        unique.setdefault((c[0], c[1]), c)
    return list(unique.values())


def group_causes(results: Iterable[CaseResult]) -> list[Cause]:
    """The causes of ``results`` (every one given is grouped: pass the failing ones), the most
    frequent first; a case with two causes is under both."""
    by_key: dict[tuple[str, str], Cause] = {}
    for r in results:
        for check, message, example in case_causes(r):
            cause = by_key.get((check, message))
            if cause is None:
                cause = by_key[(check, message)] = Cause(check, message, example)
            cause.cases.append(r)
            cause.said.append(example)
    return sorted(by_key.values(), key=lambda c: (-c.count, c.check, c.message))
