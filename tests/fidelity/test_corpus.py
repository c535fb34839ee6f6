"""The mock against the real recorded corpus: no unexplained difference, no stale kept row, no rule a
recording breaks; and the comparison can fail (a drifted emitter is caught)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from tests.fidelity._need import corpus_or_skip
from tools.fidelity import KEPT, PERMISSIVE_LICENSES, UNCOVERED, compare_corpus, coverage, load_corpus
from tools.fidelity._compare import Difference
from tools.fidelity._kept import Kept

corpus_or_skip()


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return compare_corpus()


def test_no_unexplained_difference(report) -> None:  # type: ignore[no-untyped-def]
    shown = "\n".join(
        f"{d.where}: {d.dialect} {d.aspect} {d.subject!r} {d.detail}" for d in report.unexplained
    )
    assert not report.unexplained, f"the mock drifted from real recorded traffic:\n{shown}"


def test_every_kept_row_explains_something(report) -> None:  # type: ignore[no-untyped-def]
    assert not report.stale, f"kept rows that explain no difference (remove them): {report.stale}"


def test_no_rule_is_contradicted_by_a_recording(report) -> None:  # type: ignore[no-untyped-def]
    assert not report.contradicted


def test_corpus_covers_what_the_issue_asks() -> None:
    corpus = load_corpus()
    assert len(corpus) >= 12
    by_dialect = Counter(cx.dialect for cx in corpus)
    assert set(by_dialect) >= {
        "anthropic-messages",
        "openai-chat",
        "openai-responses",
        "gemini",
        "bedrock-converse",
    }
    bodies = {cx.label: cx.exchange.body for cx in corpus}

    def some(needle: bytes, dialect: str) -> bool:
        return any(needle in b for label, b in bodies.items() if corpus_dialect(corpus, label) == dialect)

    assert some(b"signature_delta", "anthropic-messages")
    assert some(b"redacted_thinking", "anthropic-messages")
    assert some(b'"tool_use"', "anthropic-messages")
    assert some(b"reasoning_content", "openai-chat")
    assert some(b"reasoning_details", "openai-chat")
    assert some(b"reasoning_summary_text.delta", "openai-responses")
    assert some(b"encrypted_content", "openai-responses")
    assert some(b"thoughtSignature", "gemini")
    assert some(b"reasoningContent", "bedrock-converse") or any(
        cx.dialect == "bedrock-converse"
        and cx.exchange.header("content-type") == "application/vnd.amazon.eventstream"
        for cx in corpus
    )
    modes = {
        (cx.dialect, (cx.exchange.header("content-type") or "").startswith("application/json"))
        for cx in corpus
    }
    for d in ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse"):
        assert (d, True) in modes  # a whole body
        assert (d, False) in modes or d == "gemini"  # and a stream
    assert all(cx.file.license in PERMISSIVE_LICENSES for cx in corpus)
    assert all(len(cx.file.commit) == 40 for cx in corpus)


def corpus_dialect(corpus, label):  # type: ignore[no-untyped-def]
    return next(cx.dialect for cx in corpus if cx.label == label)


def test_readme_table_is_current(report) -> None:  # type: ignore[no-untyped-def]
    from tools.docs._fidelity import BEGIN, END, render_corpus_table

    readme = (Path(__file__).resolve().parents[2] / "recordings" / "README.md").read_text()
    block = readme.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert block == render_corpus_table(report).strip(), "run `nox -s fidelity` to re-render the corpus table"


def test_a_drifted_emitter_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fidelity test can fail: an Anthropic emitter that spells ping compactly and pads nothing."""
    from harness.dialects.anthropic_messages import _wire as _anthropic_wire

    monkeypatch.setattr(_anthropic_wire, "PING", '{"type":"ping"}')
    monkeypatch.setattr(_anthropic_wire, "_PADS", (0,))
    corpus = [cx for cx in load_corpus() if cx.file.name == "anthropic-thinking-stream"]
    drifted = compare_corpus(corpus, KEPT)
    found = {(d.aspect, d.subject) for d in drifted.unexplained}
    assert ("rule", "ping-after-block-start") in found
    assert ("rule", "padded-data") in found
    assert ("framing", "padded") in found


def test_a_stale_row_and_an_unmatched_difference_are_reported() -> None:
    corpus = [cx for cx in load_corpus() if cx.file.name == "anthropic-redacted-stream"]
    stale = Kept("gemini", "field", "nothing", "*", "explains nothing")
    got = compare_corpus(corpus, (stale,))
    assert got.stale == [stale]
    assert any(d.aspect == "order" for d in got.unexplained)  # its ping placement, unexplained without KEPT


def test_difference_matching_uses_globs() -> None:
    d = Difference("openai-chat", "field", "chunk:role", "missing x_groq", "groq-reasoning-stream#0")
    assert d.matches(Kept("openai-chat", "*", "*", "*", "r", "groq-*"))
    assert not d.matches(Kept("openai-chat", "field", "chunk:role", "missing x_groq", "r", "deepseek-*"))
    assert not d.matches(Kept("gemini", "*", "*", "*", "r"))


def test_kept_rows_are_frozen_and_reasoned() -> None:
    for row in KEPT:
        assert dataclasses.is_dataclass(row)
        assert len(row.reason) > 40, row


def test_every_variant_is_compared_or_says_why() -> None:
    """Each emitter variant of each dialect is played by a corpus file or has its reason in
    _uncovered.UNCOVERED (h23a's adaptive variant and WebSocket dialect included), and no row is stale."""
    cov = coverage(load_corpus())
    assert not cov.missing, f"variants with neither a recording nor a reason in UNCOVERED: {cov.missing}"
    assert not cov.stale, f"UNCOVERED rows for a recorded or unknown variant (remove them): {cov.stale}"
    assert ("anthropic-messages", "adaptive") in cov.covered
    assert ("openai-responses-ws", "summary") in cov.uncovered


def test_a_new_variant_without_a_recording_or_a_reason_is_caught() -> None:
    corpus = load_corpus()
    rows = dict(UNCOVERED)
    del rows[("gemini", "signature-text")]
    rows[("anthropic-messages", "thinking")] = "a row for a recorded variant"
    rows[("gemini", "no-such-variant")] = "a row for a variant no dialect has"
    cov = coverage(corpus, rows)
    assert cov.missing == [("gemini", "signature-text")]
    assert cov.stale == [("anthropic-messages", "thinking"), ("gemini", "no-such-variant")]
