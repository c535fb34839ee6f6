"""encode_frames and PERTURBATIONS: literal bytes per perturbation (the section 1.1 probes in the encode
direction), transports, and the lossless property checked through the decoder under any chunking."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.codec import (
    CHUNKERS,
    PERTURBATIONS,
    Frame,
    JSONLDecoder,
    SSEDecoder,
    SSEEvent,
    encode_frames,
    encode_pieces,
    get_chunker,
)
from harness.codec._chunkers import cut
from harness.codec._sse_encode import split_json_lines

F = (Frame('{"a":1}'), Frame('{"b":[2,"x,y"]}', event="e"))
ENCODED = {
    "none": [b'data: {"a":1}\n\n', b'event: e\ndata: {"b":[2,"x,y"]}\n\n'],
    "crlf": [b'data: {"a":1}\r\n\r\n', b'event: e\r\ndata: {"b":[2,"x,y"]}\r\n\r\n'],
    "cr": [b'data: {"a":1}\r\r', b'event: e\rdata: {"b":[2,"x,y"]}\r\r'],
    "mixed": [b'data: {"a":1}\r\n\n', b'event: e\r\ndata: {"b":[2,"x,y"]}\r\n\n'],
    "bom": [b'\xef\xbb\xbfdata: {"a":1}\n\n', b'event: e\ndata: {"b":[2,"x,y"]}\n\n'],
    "bom-split": [b"\xef", b'\xbb\xbfdata: {"a":1}\n\n', b'event: e\ndata: {"b":[2,"x,y"]}\n\n'],
    "no-space": [b'data:{"a":1}\n\n', b'event:e\ndata:{"b":[2,"x,y"]}\n\n'],
    "multiline": [
        b'data: {\ndata: "a":1}\n\n',
        b'event: e\ndata: {\ndata: "b":[\ndata: 2,\ndata: "x,y"]}\n\n',
    ],
    "comments": [b': keep-alive\n\ndata: {"a":1}\n\n', b'event: e\ndata: {"b":[2,"x,y"]}\n\n'],
    "event-only": [b'data: {"a":1}\n\n', b'event: ping\n\nevent: e\ndata: {"b":[2,"x,y"]}\n\n'],
    "unterminated": [b'data: {"a":1}\n\n', b'event: e\ndata: {"b":[2,"x,y"]}\n'],
}


def test_every_perturbation_has_a_literal_row() -> None:
    assert sorted(n for n, p in PERTURBATIONS.items() if "sse" in p.transports) == sorted(ENCODED)


@pytest.mark.parametrize("name", sorted(ENCODED))
def test_sse_perturbation_bytes(name: str) -> None:
    assert encode_frames(F, "sse", name) == ENCODED[name]
    p = PERTURBATIONS[name]
    assert p.description
    assert "\n" not in p.description


@pytest.mark.parametrize(
    ("name", "probe"),
    [
        ("none", b'data: {"a":1}\n\n'),
        ("crlf", b'data: {"a":1}\r\n\r\n'),
        ("cr", b'data: {"a":1}\r\r'),
        ("mixed", b'data: {"a":1}\r\n\n'),
        ("bom", b'\xef\xbb\xbfdata: {"a":1}\n\n'),
        ("no-space", b'data:{"a":1}\n\n'),
    ],
)
def test_catalog_probes_in_the_encode_direction(name: str, probe: bytes) -> None:
    assert b"".join(encode_frames([Frame('{"a":1}')], "sse", name)) == probe


def test_pieces_say_which_frame_they_carry() -> None:
    assert [i for i, _ in encode_pieces(F, "sse", "bom-split")] == [None, 0, 1]
    assert [i for i, _ in encode_pieces(F, "sse", "comments")] == [0, 1]


def test_later_batches_get_no_bom_and_earlier_batches_stay_terminated() -> None:
    assert encode_frames(F[:1], "sse", "bom", start=False) == [b'data: {"a":1}\n\n']
    assert encode_frames(F[:1], "sse", "bom-split", start=False) == [b'data: {"a":1}\n\n']
    assert encode_frames(F[:1], "sse", "unterminated", end=False) == [b'data: {"a":1}\n\n']
    assert encode_frames(F[:1], "sse", "unterminated") == [b'data: {"a":1}\n']


# -- placement: each perturbation sits where a deviating parser loses something visible ------------
R = frozenset({"reasoning"})
TAGGED = (Frame("[0]", tags=frozenset({"start"})), Frame("[1]", tags=R), Frame("[2]", tags=R), Frame("[3]"))
CHUNK = '{"object":"chat.completion.chunk","choices":[{"index":0,"delta":%s}]}'
ROLE = CHUNK % '{"role":"assistant","reasoning_content":""}'
REASON = CHUNK % '{"reasoning_content":"Hm."}'


def test_comments_before_the_first_frame_and_between_reasoning_frames() -> None:
    out = encode_frames(TAGGED, "sse", "comments")
    assert out == [
        b": keep-alive\n\ndata: [0]\n\n",
        b"data: [1]\n\n",
        b": OPENROUTER PROCESSING\n\ndata: [2]\n\n",
        b"data: [3]\n\n",
    ]
    assert encode_frames(TAGGED[1:], "sse", "comments", start=False)[0] == b"data: [1]\n\n"


def test_no_space_on_the_first_and_the_last_frame_only() -> None:
    out = encode_frames(TAGGED, "sse", "no-space")
    assert out == [b"data:[0]\n\n", b"data: [1]\n\n", b"data: [2]\n\n", b"data:[3]\n\n"]
    assert encode_frames(TAGGED, "sse", "no-space", start=False, end=False) == encode_frames(TAGGED, "sse")


@pytest.mark.parametrize("name", ["bom", "bom-split"])
def test_bom_lands_on_reasoning_a_bare_role_chunk_is_folded_into_it(name: str) -> None:
    frames = (Frame(ROLE, tags=frozenset({"start"})), Frame(REASON, tags=R), Frame("[DONE]"))
    pieces = encode_pieces(frames, "sse", name)
    first = b"".join(d for _, d in pieces[:-1]) if name == "bom" else b"".join(d for _, d in pieces[:2])
    assert first.startswith(b"\xef\xbb\xbfdata: ")
    assert [i for i, _ in pieces] == ([1, 2] if name == "bom" else [None, 1, 2])
    decoded = SSEDecoder().feed(b"".join(d for _, d in pieces))
    assert [json.loads(e.data)["choices"][0]["delta"] for e in decoded[:1]] == [
        {"role": "assistant", "reasoning_content": "Hm."}
    ]
    # a first frame that is the protocol's own opener (not a chat chunk) stays where it is
    assert [i for i, _ in encode_pieces(TAGGED, "sse", "bom")] == [0, 1, 2, 3]


def test_unterminated_jsonl_record_lacks_its_lf() -> None:
    assert encode_frames(F, "jsonl", "unterminated") == [b'{"a":1}\n', b'{"b":[2,"x,y"]}']
    d = JSONLDecoder()
    assert d.feed(b"".join(encode_frames(F, "jsonl", "unterminated"))) == ['{"a":1}']


def test_jsonl_transport() -> None:
    assert encode_frames(F, "jsonl") == [b'{"a":1}\n', b'{"b":[2,"x,y"]}\n']
    assert encode_frames(F, "jsonl", "crlf") == [b'{"a":1}\r\n', b'{"b":[2,"x,y"]}\r\n']
    d = JSONLDecoder()
    assert d.feed(b"".join(encode_frames(F, "jsonl", "crlf"))) == ['{"a":1}', '{"b":[2,"x,y"]}']
    assert d.anomalies == ["crlf"]


@pytest.mark.parametrize(
    ("transport", "name"),
    [
        ("jsonl", "cr"),
        ("jsonl", "bom"),
        ("jsonl", "multiline"),
        ("eventstream", "crlf"),
        ("eventstream", "comments"),
    ],
)
def test_a_perturbation_that_makes_no_sense_names_the_transport(transport: str, name: str) -> None:
    with pytest.raises(ValueError, match=f"makes no sense for transport '{transport}'"):
        encode_frames(F, transport, name)


def test_unknown_names() -> None:
    with pytest.raises(ValueError, match="unknown perturbation 'crlff': valid: 'none', 'crlf'"):
        encode_frames(F, "sse", "crlff")
    with pytest.raises(ValueError, match="unknown transport 'ws'"):
        encode_frames(F, "ws")


def test_eventstream_takes_only_none() -> None:
    from harness.codec._eventstream import encode_frame

    frames = [Frame('{"x":1}', event="messageStart")]
    assert encode_frames(frames, "eventstream") == [encode_frame("messageStart", '{"x":1}', "event")]
    assert [n for n, p in PERTURBATIONS.items() if "eventstream" in p.transports] == ["none"]


def test_lossless_flags() -> None:
    lossy = sorted(n for n, p in PERTURBATIONS.items() if not p.lossless)
    assert lossy == ["multiline", "unterminated"]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ('{"a":1,"b":"x,{y"}', ["{", '"a":1,', '"b":"x,{y"}']),
        ("[DONE]", ["[DONE]"]),
        ('{"s":"\\",["}', ["{", '"s":"\\",["}']),
        ("[1,2]", ["[", "1,", "2]"]),
        ("not json {", ["not json {"]),
        ("{bad,", ["{bad,"]),
    ],
)
def test_split_json_lines_cuts_only_outside_strings(text: str, lines: list[str]) -> None:
    assert split_json_lines(text) == lines


# -- properties: lossless perturbations decode to the plain events under any chunking ----------------
def decode(chunks: list[bytes]) -> tuple[list[SSEEvent], SSEDecoder]:
    d = SSEDecoder()
    out: list[SSEEvent] = []
    for c in chunks:
        out += d.feed(c)
    d.end()
    return out, d


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
frame_st = st.builds(
    Frame,
    data=json_values.map(lambda v: json.dumps(v, ensure_ascii=False, separators=(",", ":")))
    | st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"), max_size=20),
    event=st.none() | st.sampled_from(["e", "response.reasoning_summary_text.delta", "思考"]),
)
frames_st = st.lists(frame_st, min_size=1, max_size=6)
chunking_st = st.sampled_from(sorted(CHUNKERS)) | st.integers(0, 99).map(lambda s: f"random:{s}")
SSE_LOSSLESS = sorted(n for n, p in PERTURBATIONS.items() if p.lossless and "sse" in p.transports)


@given(frames=frames_st, name=st.sampled_from(SSE_LOSSLESS), chunking=chunking_st)
def test_lossless_perturbations_decode_to_the_plain_events(
    frames: list[Frame], name: str, chunking: str
) -> None:
    plain, _ = decode(encode_frames(frames, "sse"))
    got, _ = decode(get_chunker(chunking)(encode_frames(frames, "sse", name)))
    assert got == plain
    assert [e.data for e in plain] == [f.data.replace("\r\n", "\n") for f in frames]


@given(frames=frames_st, cuts=st.lists(st.integers(1, 500), max_size=10))
def test_multiline_rejoins_to_equivalent_json(frames: list[Frame], cuts: list[int]) -> None:
    got, _ = decode(cut(b"".join(encode_frames(frames, "sse", "multiline")), cuts))
    assert len(got) == len(frames)
    for ev, f in zip(got, frames, strict=True):
        assert _same_json(ev.data, f.data)


def _same_json(a: str, b: str) -> bool:
    try:
        vb: Any = json.loads(b)
    except ValueError:
        return a == b.replace("\r\n", "\n")
    return json.dumps(json.loads(a)) == json.dumps(vb)  # by text: NaN is a JSON value unequal to itself


@given(frames=frames_st)
def test_unterminated_loses_exactly_the_last_event(frames: list[Frame]) -> None:
    plain, _ = decode(encode_frames(frames, "sse"))
    got, d = decode(encode_frames(frames, "sse", "unterminated"))
    assert got == plain[:-1]
    assert d.unterminated == plain[-1]
    assert "unterminated" in d.anomalies
