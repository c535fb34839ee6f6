"""The parser mutants of the reference SUTs: each deviates exactly where its real decoder does (literal
bytes in, the events the deviating reader dispatches out), and nowhere else: on input its deviation
does not touch, it reads like the WHATWG decoder under any chunking."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import SSEDecoder
from harness.codec._chunkers import cut
from harness.reference._core import UpstreamPipe
from harness.reference._faults import CLI_FAULTS, GATEWAY_FAULTS, SDK_FAULTS
from harness.reference._parser_mutants import (
    PARSER_FAULTS,
    JsonlMutant,
    ParserFailure,
    ParserMutant,
    parser_mutant,
)

SSE = [f for f in sorted(PARSER_FAULTS) if f.startswith("sse-")]


def events(fault: str, chunks: list[bytes]) -> list[tuple[str, str]]:
    """What the mutant dispatches, read back by the correct decoder: (event name, data)."""
    m = ParserMutant(fault)
    out = b"".join(m.feed(c) for c in chunks) + m.end()
    return [(e.event, e.data) for e in SSEDecoder().feed(out)]


def whatwg(chunks: list[bytes]) -> list[tuple[str, str]]:
    d = SSEDecoder()
    evs = [e for c in chunks for e in d.feed(c)] + d.end()
    return [(e.event, e.data) for e in evs]


BOM_DATA = b'\xef\xbb\xbfdata: {"a":1}\n\ndata: {"b":2}\n\n'

CASES = [
    # the measurement of the openai SDK: the first event after a BOM is gone
    ("sse-bom-drop-first", [BOM_DATA], [("message", '{"b":2}')]),
    ("sse-bom-drop-first", [BOM_DATA[:1], BOM_DATA[1:]], [("message", '{"b":2}')]),
    # google-genai: 'data:' without the space is no data line
    ("sse-data-space-only", [b'data:{"a":1}\n\ndata: {"b":2}\n\n'], [("message", '{"b":2}')]),
    # a chunk-local parser: the CR|LF split loses the event; a split BOM glues U+FFFD onto the field
    ("sse-chunk-local", [b"data: 1\r", b"\n\r", b"\ndata: 2\n\n"], [("message", "2")]),
    ("sse-chunk-local", [BOM_DATA[:1], BOM_DATA[1:]], [("message", '{"b":2}')]),
    # LF-only: CR framing never ends an event, CRLF never makes a blank line
    ("sse-lflf-only", [b"data: 1\r\rdata: 2\r\n\r\n"], []),
    ("sse-line-per-event", [b'data: {"a":\ndata: 1}\n\n'], [("message", '{"a":'), ("message", "1}")]),
    ("sse-dispatch-unterminated", [b"data: 1\n\ndata: 2\n"], [("message", "1"), ("message", "2")]),
]


@pytest.mark.parametrize(("fault", "chunks", "want"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_mutant_deviates_where_its_decoder_does(
    fault: str, chunks: list[bytes], want: list[tuple[str, str]]
) -> None:
    assert events(fault, chunks) == want
    assert whatwg(chunks) != want  # the correct reader differs exactly here


@pytest.mark.parametrize(
    ("fault", "data", "match"),
    [
        ("sse-comments-as-data", b": keep-alive\n\ndata: 1\n\n", "comment line ': keep-alive'"),
        ("sse-dispatch-empty", b"event: ping\n\ndata: 1\n\n", "empty data of event 'ping'"),
    ],
)
def test_json_parser_failures(fault: str, data: bytes, match: str) -> None:
    with pytest.raises(ParserFailure, match=match):
        ParserMutant(fault).feed(data)
    assert whatwg([data]) == [("message", "1")]


PLAIN = (
    b'data: {"a":"x"}\n\nevent: e\ndata: {"b":[1,\ndata: 2]}\n\nevent: ping\ndata: {}\n\n'
    b'data: {"c":"\xe6\x80\x9d\xf0\x9f\xa4\x94"}\n\n'
)


UNTOUCHED = [f for f in SSE if f not in ("sse-line-per-event", "sse-chunk-local")]


@pytest.mark.parametrize("fault", UNTOUCHED)
@given(points=st.lists(st.integers(1, len(PLAIN) - 1), max_size=12))
def test_without_their_trigger_mutants_read_like_whatwg(fault: str, points: list[int]) -> None:
    chunks = cut(PLAIN, points)
    assert events(fault, chunks) == whatwg(chunks)


def test_chunk_local_reads_whole_events_per_chunk_like_whatwg() -> None:
    chunks = [PLAIN[: PLAIN.index(b"event: ping")], PLAIN[PLAIN.index(b"event: ping") :]]
    assert events("sse-chunk-local", chunks) == whatwg(chunks)


def test_jsonl_mutant_drops_only_a_last_record_without_lf() -> None:
    m = JsonlMutant()
    assert m.feed(b'{"a":1}\n{"b"') + m.feed(b":2}\n") + m.end() == b'{"a":1}\n{"b":2}\n'
    m = JsonlMutant()
    assert m.feed(b'{"a":1}\n{"b":2}') + m.end() == b'{"a":1}\n'


def test_a_mutant_applies_to_its_transport_only_and_every_sut_takes_them() -> None:
    assert isinstance(parser_mutant(["sse-lflf-only"], "sse"), ParserMutant)
    assert parser_mutant(["sse-lflf-only"], "jsonl") is None
    assert isinstance(parser_mutant(["jsonl-drop-unterminated"], "jsonl"), JsonlMutant)
    assert parser_mutant(["drop-reasoning"], "sse") is None
    assert PARSER_FAULTS <= GATEWAY_FAULTS & SDK_FAULTS & CLI_FAULTS


def test_a_parser_failure_becomes_the_streams_error_and_the_rest_is_not_read() -> None:
    from harness.dialects import get_dialect
    from harness.events import StreamError

    pipe = UpstreamPipe(get_dialect("openai-chat"), "reasoning_content", ["sse-comments-as-data"])
    out = pipe.feed(b": keep-alive\n\n")
    assert [type(e) for e in out] == [StreamError]
    assert pipe.terminated
    assert pipe.feed(b"data: [DONE]\n\n") == []
    assert pipe.end() == []
