"""AWS eventstream codec: botocore's EventStreamBuffer is the oracle; the §8.1 reference frame is exact."""

from __future__ import annotations

import json
import struct
from zlib import crc32

import pytest
from botocore.eventstream import EventStreamBuffer
from hypothesis import given
from hypothesis import strategies as st

from harness._errors import DecodeError
from harness.codec._eventstream import (
    EventStreamDecoder,
    EventStreamMessage,
    HeaderValue,
    encode_frame,
    encode_message,
)

REFERENCE_PAYLOAD = {
    "contentBlockIndex": 0,
    "delta": {"reasoningContent": {"text": "Let me"}},
    "p": "abcdefgh",
}
EVENT_HEADERS = {
    ":event-type": "contentBlockDelta",
    ":content-type": "application/json",
    ":message-type": "event",
}


def _compact(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _botocore(data: bytes, pieces: list[int] | None = None) -> list[tuple[dict[str, object], bytes]]:
    buf = EventStreamBuffer()
    out = []
    cuts = pieces or [len(data)]
    last = 0
    for cut in [*cuts, len(data)]:
        buf.add_data(data[last:cut])
        last = cut
        out += [(m.headers, m.payload) for m in buf]
    return out


def _ours(chunks: list[bytes]) -> list[EventStreamMessage]:
    d = EventStreamDecoder()
    out = []
    for c in chunks:
        out += d.feed(c)
    out += d.end()
    return out


def test_reference_frame_is_byte_exact() -> None:
    frame = encode_frame("contentBlockDelta", _compact(REFERENCE_PAYLOAD))
    assert len(frame) == 188
    assert frame[:12].hex() == "000000bc00000057451afe2b"
    assert frame[-4:].hex() == "6ca47a8e"


def test_botocore_decodes_an_event_including_a_split_after_byte_7() -> None:
    frame = encode_frame("contentBlockDelta", _compact(REFERENCE_PAYLOAD))
    expected = [
        (
            EVENT_HEADERS,
            _compact(REFERENCE_PAYLOAD).encode(),
        )
    ]
    assert _botocore(frame) == expected
    assert _botocore(frame, [7]) == expected
    assert _botocore(frame, list(range(1, len(frame)))) == expected  # one byte at a time


def test_exception_frames_name_the_shape_in_exception_type() -> None:
    frame = encode_frame("throttlingException", '{"message":"Too many requests"}', "exception")
    [(headers, payload)] = _botocore(frame)
    assert headers == {
        ":exception-type": "throttlingException",
        ":content-type": "application/json",
        ":message-type": "exception",
    }
    assert payload == b'{"message":"Too many requests"}'
    [msg] = _ours([frame])
    assert (msg.message_type, msg.event_type) == ("exception", "throttlingException")


def test_error_frames_carry_code_and_message_headers() -> None:
    frame = encode_frame("InternalFailure", "boom", "error")
    [(headers, payload)] = _botocore(frame)
    assert headers == {":error-code": "InternalFailure", ":error-message": "boom", ":message-type": "error"}
    assert payload == b""
    [msg] = _ours([frame])
    assert (msg.message_type, msg.event_type) == ("error", "InternalFailure")


def test_one_byte_feeding_yields_nothing_until_the_last_byte() -> None:
    frame = encode_frame("messageStop", '{"stopReason":"end_turn"}')
    d = EventStreamDecoder()
    for i in range(len(frame) - 1):
        assert d.feed(frame[i : i + 1]) == []
    [msg] = d.feed(frame[-1:])
    assert msg.payload == b'{"stopReason":"end_turn"}'
    assert d.end() == []


def test_two_messages_in_one_chunk() -> None:
    a = encode_frame("messageStart", '{"role":"assistant"}')
    b = encode_frame("messageStop", '{"stopReason":"end_turn"}')
    assert [m.event_type for m in _ours([a + b])] == ["messageStart", "messageStop"]


def test_every_header_type_decodes_like_botocore() -> None:
    def raw_header(name: str, kind: int, value: bytes) -> bytes:
        return bytes((len(name),)) + name.encode() + bytes((kind,)) + value

    headers = (
        raw_header("t", 0, b"")
        + raw_header("f", 1, b"")
        + raw_header("b", 2, struct.pack(">b", -3))
        + raw_header("s", 3, struct.pack(">h", 300))
        + raw_header("i", 4, struct.pack(">i", -70000))
        + raw_header("l", 5, struct.pack(">q", 1 << 40))
        + raw_header("a", 6, struct.pack(">H", 2) + b"\x00\xff")
        + raw_header("u", 7, struct.pack(">H", 2) + "é".encode())
        + raw_header("ts", 8, struct.pack(">q", 1700000000000))
        + raw_header("id", 9, bytes(range(16)))
    )
    prelude = struct.pack(">II", 12 + len(headers) + 4, len(headers))
    prelude += struct.pack(">I", crc32(prelude))
    msg = prelude + headers
    msg += struct.pack(">I", crc32(msg))
    [ours] = _ours([msg])
    [(theirs, _)] = _botocore(msg)
    expected: dict[str, HeaderValue] = {
        "t": True, "f": False, "b": -3, "s": 300, "i": -70000, "l": 1 << 40,
        "a": b"\x00\xff", "u": "é", "ts": 1700000000000, "id": bytes(range(16)),
    }  # fmt: skip
    assert ours.headers == expected
    assert {k: v for k, v in theirs.items() if k not in ("ts", "id")} == {
        k: v for k, v in expected.items() if k not in ("ts", "id")
    }
    assert theirs["ts"] == 1700000000000


def _corrupt(data: bytes, index: int) -> bytes:
    return data[:index] + bytes((data[index] ^ 0x01,)) + data[index + 1 :]


def test_prelude_crc_corruption_raises() -> None:
    frame = encode_frame("messageStop", '{"stopReason":"end_turn"}')
    with pytest.raises(DecodeError) as info:
        _ours([_corrupt(frame, 9)])
    assert str(info.value) == (
        "eventstream message at offset 0: prelude CRC mismatch (header says "
        f"{int.from_bytes(_corrupt(frame, 9)[8:12], 'big'):08x}, computed {crc32(frame[:8]):08x})"
    )


def test_message_crc_corruption_raises_and_stays_failed() -> None:
    good = encode_frame("messageStart", '{"role":"assistant"}')
    frame = encode_frame("messageStop", '{"stopReason":"end_turn"}')
    bad = _corrupt(frame, 40)
    d = EventStreamDecoder()
    [first] = d.feed(good + bad)  # the message before the corrupt one is still delivered
    assert first.event_type == "messageStart"
    assert d.error is not None
    where = rf"^eventstream message at offset {len(good)}: message CRC mismatch"
    with pytest.raises(DecodeError, match=where):
        d.feed(b"")
    with pytest.raises(DecodeError, match="message CRC mismatch"):
        d.feed(good)
    with pytest.raises(DecodeError, match="message CRC mismatch"):
        d.end()


def test_truncated_stream_raises_at_end() -> None:
    frame = encode_frame("messageStop", '{"stopReason":"end_turn"}')
    d = EventStreamDecoder()
    assert d.feed(frame[:-5]) == []
    with pytest.raises(DecodeError, match=rf"^eventstream truncated: {len(frame) - 5} bytes"):
        d.end()


def test_impossible_lengths_raise() -> None:
    prelude = struct.pack(">II", 16, 8)  # 8 bytes of headers cannot fit in 16 bytes total
    prelude += struct.pack(">I", crc32(prelude))
    with pytest.raises(DecodeError, match="total length 16 is too small for 8 bytes of headers"):
        EventStreamDecoder().feed(prelude)


def test_encoder_rejects_oversized_headers() -> None:
    with pytest.raises(ValueError, match="limit is 65535"):
        encode_message({"x": "a" * 70000}, b"")
    with pytest.raises(ValueError, match=r"1\.\.255 bytes"):
        encode_message({"": "a"}, b"")


_names = st.text(st.characters(codec="utf-8", blacklist_categories=("Cs",)), min_size=1, max_size=12)
_values: st.SearchStrategy[HeaderValue] = st.one_of(
    st.text(max_size=30),
    st.binary(max_size=30),
    st.booleans(),
    st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1),
)
_messages = st.lists(
    st.tuples(st.dictionaries(_names, _values, max_size=5), st.binary(max_size=200)), min_size=1, max_size=4
)


@given(messages=_messages, cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=12))
def test_arbitrary_messages_round_trip_under_arbitrary_splits(
    messages: list[tuple[dict[str, HeaderValue], bytes]], cuts: list[int]
) -> None:
    data = b"".join(encode_message(h, p) for h, p in messages)
    points = sorted({c % len(data) for c in cuts} - {0})
    chunks = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    decoded = _ours(chunks)
    assert [(m.headers, m.payload) for m in decoded] == messages
    assert [(dict(h), p) for h, p in _botocore(data, points)] == messages
