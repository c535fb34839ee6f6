"""SSE decoder: the literal probes of wire-formats.md section 1.1 fed whole, byte by byte and with trailing
garbage; field rules; invalid UTF-8; Hypothesis properties (round trip, any split, never raises)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import SSEDecoder, SSEEncoder, SSEEvent, SSEFraming, encode_sse
from harness.codec._chunkers import cut


@dataclass(frozen=True)
class Probe:
    name: str
    chunks: tuple[bytes, ...]
    events: tuple[SSEEvent, ...]
    at: tuple[int, ...]  # index of the byte whose arrival dispatches each event (one byte at a time)
    anomalies: tuple[str, ...] = ()
    unterminated: SSEEvent | None = None


A1 = SSEEvent('{"a":1}')
A2 = SSEEvent('{"a":2}')
PROBES = [
    Probe("LF", (b'data: {"a":1}\n\n',), (A1,), (14,)),
    Probe("CRLF", (b'data: {"a":1}\r\n\r\n',), (A1,), (15,)),  # the CR of the blank line ends it
    Probe("CR_ONLY", (b'data: {"a":1}\r\r',), (A1,), (14,)),
    Probe("MIXED", (b'data: {"a":1}\r\n\n',), (A1,), (15,)),
    Probe("BOM", (b'\xef\xbb\xbfdata: {"a":1}\n\n',), (A1,), (17,), ("bom",)),
    Probe("BOM_SPLIT", (b"\xef", b'\xbb\xbfdata: {"a":1}\n\n'), (A1,), (17,), ("bom",)),
    Probe("NO_SPACE", (b'data:{"a":1}\n\n',), (A1,), (13,)),
    Probe("MULTILINE", (b'data: {"a":\ndata: 1}\n\n',), (SSEEvent('{"a":\n1}'),), (21,)),
    Probe("COMMENT", (b': OPENROUTER PROCESSING\n\ndata: {"a":1}\n\n',), (A1,), (39,)),
    Probe("EVENT_ONLY", (b"event: ping\n\n",), (), ()),
    Probe(
        "UNTERMINATED",
        (b'data: {"a":1}\n\ndata: {"a":2}',),
        (A1,),
        (14,),
        ("partial-line", "unterminated"),
        A2,
    ),
    Probe(
        "SPLIT_UTF8", (b'data: {"d":"\xe6\x80', b'\x9d\xe8\x80\x83"}\n\n'), (SSEEvent('{"d":"思考"}'),), (21,)
    ),
    Probe("SPLIT_CRLF", (b'data: {"a":1}\r', b"\n", b"\r", b'\ndata: {"a":2}\r\n\r\n'), (A1, A2), (15, 32)),
]
IDS = [p.name for p in PROBES]


def decode(chunks: Sequence[bytes]) -> tuple[list[SSEEvent], SSEDecoder]:
    d = SSEDecoder()
    out: list[SSEEvent] = []
    for c in chunks:
        out += d.feed(c)
    out += d.end()
    return out, d


@pytest.mark.parametrize("probe", PROBES, ids=IDS)
def test_probe_whole_and_as_written(probe: Probe) -> None:
    for chunks in ([b"".join(probe.chunks)], list(probe.chunks)):
        events, d = decode(chunks)
        assert events == list(probe.events)
        assert d.anomalies == list(probe.anomalies)
        assert d.unterminated == probe.unterminated


@pytest.mark.parametrize("probe", PROBES, ids=IDS)
def test_probe_one_byte_at_a_time_dispatches_at_the_frame_end(probe: Probe) -> None:
    data = b"".join(probe.chunks)
    d = SSEDecoder()
    at: list[int] = []
    events: list[SSEEvent] = []
    for i in range(len(data)):
        got = d.feed(data[i : i + 1])
        at += [i] * len(got)
        events += got
    d.end()
    assert events == list(probe.events)
    assert tuple(at) == probe.at
    assert d.unterminated == probe.unterminated


@pytest.mark.parametrize("probe", PROBES, ids=IDS)
def test_probe_with_trailing_garbage_changes_nothing_until_eof(probe: Probe) -> None:
    garbage = b'data: {"partial'
    d = SSEDecoder()
    events: list[SSEEvent] = []
    for c in [*probe.chunks, garbage]:
        events += d.feed(c)
    assert events == list(probe.events)  # before EOF: exactly the probe's events
    assert d.end() == []
    assert "partial-line" in d.anomalies
    assert "unterminated" in d.anomalies
    assert d.unterminated is not None
    assert d.unterminated.data.endswith('{"partial')


def test_a_blank_line_without_data_dispatches_nothing_and_resets_the_event_type() -> None:
    events, _ = decode([b"event: a\n\ndata: b\n\n"])
    assert events == [SSEEvent("b", "message")]


FIELDS = [
    (b"event: x\ndata: y\n\n", [SSEEvent("y", "x")]),
    (b"event:\ndata: y\n\n", [SSEEvent("y", "message")]),  # an empty type is "message"
    (b"data\n\n", [SSEEvent("")]),  # no colon: the whole line is the field name, value empty
    (b"data:\n\n", [SSEEvent("")]),
    (b"data:  x\n\n", [SSEEvent(" x")]),  # one space stripped, not two
    (b"data: a\ndata: b\n\n", [SSEEvent("a\nb")]),
    (b"data: a\ndata:\n\n", [SSEEvent("a\n")]),
    (b"foo: bar\ndata: x\n\n", [SSEEvent("x")]),  # unknown field ignored
    (b"id: 7\ndata: a\n\ndata: b\n\n", [SSEEvent("a", id="7"), SSEEvent("b", id="7")]),  # id persists
    (b"id: 7\ndata: a\n\nid\ndata: b\n\n", [SSEEvent("a", id="7"), SSEEvent("b", id="")]),  # reset
    (b"id: 7\ndata: a\n\nid: 8\x009\ndata: b\n\n", [SSEEvent("a", id="7"), SSEEvent("b", id="7")]),  # NUL
    (b"retry: 1500\ndata: a\n\n", [SSEEvent("a", retry=1500)]),
    (b"retry: 15a\ndata: a\n\n", [SSEEvent("a")]),
    (b"retry: \xd9\xa1\ndata: a\n\n", [SSEEvent("a")]),  # Arabic-Indic digit: not ASCII
    (b"retry:\ndata: a\n\n", [SSEEvent("a")]),
    (b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\ndata: y\n\n", [SSEEvent("y")]),  # only one BOM is stripped
    (b"data: x\n\n\n\n\ndata: y\n\n", [SSEEvent("x"), SSEEvent("y")]),
    (b"data: x\n\n: c\n\ndata: y\n\n", [SSEEvent("x"), SSEEvent("y")]),
    # later blocks of one chunk that are not a single "data: " line (the block fast path must notice)
    (b"data: x\n\ndata: a\ndata: b\n\ndata: y\n\n", [SSEEvent("x"), SSEEvent("a\nb"), SSEEvent("y")]),
    (b"data: x\n\nevent: e\ndata: y\n\n", [SSEEvent("x"), SSEEvent("y", "e")]),
    (b"data: x\n\nid: 3\n\ndata: y\n\n", [SSEEvent("x"), SSEEvent("y", id="3")]),
    (b"data: x\n\ndata: y\nid: 4\n\n", [SSEEvent("x"), SSEEvent("y", id="4")]),
    (b"data: x\n\ndata:y\n\ndata: z", [SSEEvent("x"), SSEEvent("y")]),
]


@pytest.mark.parametrize(("raw", "expected"), FIELDS)
def test_field_rules(raw: bytes, expected: list[SSEEvent]) -> None:
    assert decode([raw])[0] == expected
    assert decode([raw[i : i + 1] for i in range(len(raw))])[0] == expected


@pytest.mark.parametrize(
    "chunks",
    [
        [b"data: a\n\ndata: \xff\n\ndata: c\n\n"],
        [b"data: a\n\n", b"data: \xff\n\ndata: c\n\n"],
        [b"data: a\r\n\r\ndata: \xff\r\n\r\ndata: c\r\n\r\n"],
    ],
    ids=["fast-path", "split", "crlf"],
)
def test_invalid_utf8_is_replaced_and_reported(chunks: list[bytes]) -> None:
    events, d = decode(chunks)
    assert [e.data for e in events] == ["a", "\ufffd", "c"]
    assert d.anomalies == ["invalid-utf8"]


def test_valid_stream_reports_no_anomaly() -> None:
    _, d = decode([b"data: a\n\n"])
    assert d.anomalies == []
    assert d.unterminated is None


def test_a_huge_event_in_small_chunks() -> None:
    body = b"data: " + "é".encode() * 100_000 + b"\n\n"
    events, _ = decode([body[i : i + 256] for i in range(0, len(body), 256)])
    assert events == [SSEEvent("é" * 100_000)]


# -- properties ------------------------------------------------------------------------------------
data_text = st.text(st.characters(blacklist_characters="\r", blacklist_categories=("Cs",)), max_size=40)
names = st.none() | st.text(
    st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=12
)
events_st = st.lists(st.tuples(data_text, names), max_size=12)
cuts_st = st.lists(st.integers(min_value=1, max_value=2000), max_size=20)
framings = st.builds(SSEFraming, eol=st.sampled_from(["lf", "crlf", "cr", "mixed"]), space=st.booleans())


@given(events=events_st, cuts=cuts_st, framing=framings)
def test_decode_encode_round_trips_in_any_split(
    events: list[tuple[str, str | None]], cuts: list[int], framing: SSEFraming
) -> None:
    raw = b"".join(encode_sse(events, framing))
    got, d = decode(cut(raw, cuts))
    assert got == [SSEEvent(data, name or "message") for data, name in events]
    assert d.anomalies == []


@given(raw=st.binary(max_size=300), cuts=cuts_st)
def test_arbitrary_bytes_never_raise_and_any_split_equals_whole(raw: bytes, cuts: list[int]) -> None:
    whole, dw = decode([raw])
    split, ds = decode(cut(raw, cuts))
    per_byte, db = decode([raw[i : i + 1] for i in range(len(raw))])
    assert whole == split == per_byte
    assert dw.unterminated == ds.unterminated == db.unterminated
    assert set(dw.anomalies) == set(ds.anomalies) == set(db.anomalies)


sse_alphabet = st.sampled_from(
    [
        b"data: ",
        b"data:",
        b"event: e",
        b"id: 1",
        b"retry: 5",
        b": c",
        b"x",
        b"\xe6\x80",
        b"\x9d",
        b"\n",
        b"\r",
        b"\r\n",
        b"\n\n",
        b"\xef\xbb\xbf",
    ]
)


@given(parts=st.lists(sse_alphabet, max_size=40), cuts=cuts_st)
def test_sse_shaped_bytes_any_split_equals_whole(parts: list[bytes], cuts: list[int]) -> None:
    raw = b"".join(parts)
    whole, dw = decode([raw])
    split, ds = decode(cut(raw, cuts))
    per_byte, db = decode([raw[i : i + 1] for i in range(len(raw))])
    assert whole == split == per_byte
    assert dw.unterminated == ds.unterminated == db.unterminated


def test_encoder_rejects_what_sse_cannot_carry() -> None:
    enc = SSEEncoder()
    with pytest.raises(ValueError, match="event cannot contain a line break"):
        enc.encode("x", event="a\nb")
    with pytest.raises(ValueError, match="NUL"):
        enc.encode("x", id="a\x00")
    with pytest.raises(ValueError, match="unknown eol"):
        SSEFraming(eol="crcr")
    assert enc.encode("a\r\nb\rc") == b"data: a\ndata: b\ndata: c\n\n"  # CRs become line breaks
    assert enc.encode("x", event="e", id="1", retry=5) == b"event: e\nid: 1\nretry: 5\ndata: x\n\n"


def test_empty_chunks_between_a_line_end_and_its_blank_line() -> None:
    """The blank line that ends an event arrives after empty writes: the event still dispatches."""
    d = SSEDecoder()
    got = d.feed(b"data: a\n") + d.feed(b"") + d.feed(b"") + d.feed(b"\ndata: b") + d.feed(b"\n\n")
    assert [e.data for e in got] == ["a", "b"]
