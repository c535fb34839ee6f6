"""Inline <think> splitter: leading tag only, every split point of both tags, implicit opener,
never-closed blocks, and the whole-string form used for non-streaming bodies."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.dialects._think import ThinkSplitter, split_think
from harness.events import Event, ReasoningDelta, TextDelta, coalesce

TEXT = "<think>hm, a greeting</think>Hello!"


def run(pieces: list[str], *, implicit: bool = False) -> tuple[tuple[Event, ...], bool]:
    s = ThinkSplitter(implicit=implicit)
    out: list[Event] = []
    for p in pieces:
        out += s.feed(p)
    out += s.end()
    return coalesce(out), s.unclosed


def test_leading_tag_whole() -> None:
    assert run([TEXT]) == ((ReasoningDelta("hm, a greeting"), TextDelta("Hello!")), False)


@pytest.mark.parametrize("cut", range(1, len(TEXT)))
def test_every_split_point(cut: int) -> None:
    """Covers every split of ``<think>`` and of ``</think>`` (and of the text between)."""
    assert run([TEXT[:cut], TEXT[cut:]]) == ((ReasoningDelta("hm, a greeting"), TextDelta("Hello!")), False)


def test_one_character_per_delta() -> None:
    assert run(list(TEXT)) == ((ReasoningDelta("hm, a greeting"), TextDelta("Hello!")), False)


def test_nothing_leaks_while_a_tag_prefix_is_pending() -> None:
    s = ThinkSplitter()
    assert s.feed("<th") == []
    assert s.pending
    assert s.feed("ink>ab</thi") == [ReasoningDelta("ab")]
    assert s.feed("nk>x") == [TextDelta("x")]


def test_leading_whitespace_is_allowed_and_dropped() -> None:
    assert run(["\n  ", "<think>r</think>t"]) == ((ReasoningDelta("r"), TextDelta("t")), False)


def test_non_leading_tag_stays_content() -> None:
    text = "Use the <think> tag like this: <think>x</think> and close it."
    assert run([text]) == ((TextDelta(text),), False)
    assert run(list(text)) == ((TextDelta(text),), False)


def test_second_block_after_the_first_stays_content() -> None:
    assert run(["<think>a</think>b<think>c</think>"]) == (
        (ReasoningDelta("a"), TextDelta("b<think>c</think>")),
        False,
    )


def test_never_closed_block_is_reasoning_and_flagged() -> None:
    assert run(["<think>still thinking", " </thi"]) == ((ReasoningDelta("still thinking </thi"),), True)


def test_implicit_opener() -> None:
    assert run(["Okay, so", " the user", "</think>\n\n", "Hello!"], implicit=True) == (
        (ReasoningDelta("Okay, so the user"), TextDelta("\n\nHello!")),
        False,
    )


def test_implicit_accepts_an_explicit_opener_too() -> None:
    assert run([TEXT], implicit=True) == ((ReasoningDelta("hm, a greeting"), TextDelta("Hello!")), False)


def test_implicit_never_closed_is_all_reasoning() -> None:
    assert run(["The whole monologue"], implicit=True) == ((ReasoningDelta("The whole monologue"),), True)


def test_without_implicit_a_bare_close_tag_is_content() -> None:
    assert run(["Okay</think>Hello"]) == ((TextDelta("Okay</think>Hello"),), False)


def test_undecided_prefix_at_eof_is_content() -> None:
    assert run(["<thi"]) == ((TextDelta("<thi"),), False)


def test_release_flushes_held_text_as_content() -> None:
    s = ThinkSplitter()
    assert s.feed("<th") == []
    assert s.release() == [TextDelta("<th")]
    assert s.feed("ink>x</think>") == [TextDelta("ink>x</think>")]


def test_split_think_whole_string() -> None:
    assert split_think(TEXT) == ("hm, a greeting", "Hello!", True)
    assert split_think("plain <think>x</think>") == ("", "plain <think>x</think>", False)
    assert split_think("<think></think>answer") == ("", "answer", True)


@given(
    reasoning=st.text(min_size=1).filter(lambda s: "</think>" not in s and not s.endswith(("<", "</"))),
    text=st.text(),
    cuts=st.lists(st.integers(0, 200), max_size=8),
)
def test_any_split_of_a_leading_block(reasoning: str, text: str, cuts: list[int]) -> None:
    whole = f"<think>{reasoning}</think>{text}"
    points = sorted({c % (len(whole) + 1) for c in cuts} | {0, len(whole)})
    pieces = [whole[a:b] for a, b in itertools.pairwise(points)]
    expected: list[Event] = [ReasoningDelta(reasoning)]
    if text:
        expected.append(TextDelta(text))
    assert run(pieces) == (tuple(expected), False)
