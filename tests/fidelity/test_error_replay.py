"""The error path against recorded error answers (tools/fidelity/_errors): every recorded exchange with a
4xx/5xx status goes through the mock under its provider's rules, and the mock's status, content type,
error body shape and message match the recording, but for the kept differences, each with its reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.recording import read_cassette
from harness.recording._corpus import locate, open_corpus
from tools.fidelity._errors import (
    ERROR_RECORDINGS,
    KEPT_ERRORS,
    answer,
    compare_errors,
    compare_one,
    error_exchanges,
)

RECORDINGS = Path(__file__).resolve().parents[2] / "recordings"


def _corpus() -> list[object]:
    """The corpus's exchanges when it is present (it holds no error answer today)."""
    if open_corpus(locate()) is None:
        return []
    from tools.fidelity._corpus import load_corpus

    return list(load_corpus())


def test_every_error_recording_is_named_with_its_provider_rules() -> None:
    with_errors = {
        p.stem
        for p in RECORDINGS.glob("*.jsonl")
        if any(ex.status >= 400 for ex in read_cassette(p).exchanges)
    }
    assert with_errors == set(ERROR_RECORDINGS)


def test_no_unexplained_difference_on_the_error_path() -> None:
    exchanges = error_exchanges(RECORDINGS, _corpus())
    report = compare_errors(exchanges)
    assert report.compared == ["deepseek-400-ds1#0", "deepseek-400-ds2#0"]  # the corpus has no 4xx/5xx
    assert report.unexplained == []
    assert report.stale == []
    assert set(report.explained) == set(KEPT_ERRORS)


def test_the_v4_error_is_byte_identical() -> None:
    (ds2,) = [e for e in error_exchanges(RECORDINGS) if e.label == "deepseek-400-ds2#0"]
    status, _, body = answer(ds2)
    assert (status, body) == (400, ds2.exchange.body)
    assert len(body) == 175  # the captured size wire-formats.md section 7 gives


def test_a_drifted_error_body_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import harness.dialects.openai_chat._rules as chat_rules

    (ds2,) = [e for e in error_exchanges(RECORDINGS) if e.label == "deepseek-400-ds2#0"]
    monkeypatch.setattr(chat_rules, "DS2_MESSAGE", "reasoning_content is required.")
    assert {d.aspect for d in compare_one(ds2)} == {"message"}

    def kimi_like(message: str) -> bytes:
        return b'{"error":{"message":"x","type":"invalid_request_error"}}'

    monkeypatch.setattr(chat_rules, "deepseek_body", kimi_like)
    details = {d.detail for d in compare_one(ds2) if d.aspect == "field"}
    assert details == {"missing error.code", "missing error.param"}
