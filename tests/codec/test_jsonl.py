"""JSONL/NDJSON codec: LF-only splitting (U+2028, U+2029, VT, FF and lone CR never split a record),
CRLF stripped and reported, unterminated last record; round trips in any split."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import JSONLDecoder, encode_jsonl
from harness.codec._chunkers import cut


def decode(chunks: list[bytes]) -> tuple[list[str], JSONLDecoder]:
    d = JSONLDecoder()
    out: list[str] = []
    for c in chunks:
        out += d.feed(c)
    out += d.end()
    return out, d


ROWS = [
    (b'{"a":1}\n{"b":2}\n', ['{"a":1}', '{"b":2}'], []),
    (b'{"a":1}\r\n{"b":2}\r\n', ['{"a":1}', '{"b":2}'], ["crlf"]),
    ('{"t":"a\u2028b\u2029c"}\n'.encode(), ['{"t":"a\u2028b\u2029c"}'], []),
    (b'{"t":"a\rb\x0bc\x0cd"}\n', ['{"t":"a\rb\x0bc\x0cd"}'], []),
    (b'{"a":1}\n\n\r\n{"b":2}\n', ['{"a":1}', '{"b":2}'], []),  # blank lines skipped
    (b'{"a":1}\n{"b":2}', ['{"a":1}', '{"b":2}'], ["unterminated"]),
    (b'{"a":"\xff"}\n', ['{"a":"\ufffd"}'], ["invalid-utf8"]),
    (b"\n  \n", ["  "], []),
]


@pytest.mark.parametrize(("raw", "lines", "anomalies"), ROWS)
def test_rows_whole_and_per_byte(raw: bytes, lines: list[str], anomalies: list[str]) -> None:
    for chunks in ([raw], [raw[i : i + 1] for i in range(len(raw))]):
        got, d = decode(chunks)
        assert got == lines
        assert d.anomalies == anomalies


def test_unterminated_record_is_kept() -> None:
    _, d = decode([b'{"a":1}\n{"b":'])
    assert d.unterminated == '{"b":'
    _, d = decode([b'{"a":1}\n'])
    assert d.unterminated is None


def test_encode_jsonl() -> None:
    assert encode_jsonl(["a", "b"]) == b"a\nb\n"
    assert encode_jsonl(["a"], eol="\r\n") == b"a\r\n"


tricky = st.characters(blacklist_categories=("Cs",)) | st.sampled_from(
    ["\u2028", "\u2029", "\r", "\x0b", "\x85"]
)
json_st = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(tricky, max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(tricky, max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    values=st.lists(json_st, max_size=8),
    cuts=st.lists(st.integers(1, 400), max_size=12),
    eol=st.sampled_from(["\n", "\r\n"]),
)
def test_json_records_round_trip_in_any_split(values: list[object], cuts: list[int], eol: str) -> None:
    lines = [json.dumps(v, ensure_ascii=False) for v in values]
    got, d = decode(cut(encode_jsonl(lines, eol=eol), cuts))
    assert [json.loads(g) for g in got] == values
    assert "invalid-utf8" not in d.anomalies


raw_record = st.text(tricky, min_size=1, max_size=20).filter(
    lambda s: "\n" not in s and not s.endswith("\r") and s not in ("\r",)
)


@given(records=st.lists(raw_record, max_size=8), cuts=st.lists(st.integers(1, 200), max_size=12))
def test_raw_records_with_lone_cr_and_separators_round_trip(records: list[str], cuts: list[int]) -> None:
    got, _ = decode(cut(encode_jsonl(records), cuts))
    assert got == records
