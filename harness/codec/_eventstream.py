"""The AWS event-stream codec, ``application/vnd.amazon.eventstream``, in both directions and sans-IO. It is
separate from SSE because its framing is binary and cannot be recovered once broken."""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias
from zlib import crc32

from harness._errors import DecodeError

__all__ = [
    "EventStreamDecoder",
    "EventStreamMessage",
    "HeaderValue",
    "encode_frame",
    "encode_message",
]

HeaderValue: TypeAlias = str | bytes | bool | int
"""Decoded header values: strings (type 7), byte arrays (6) and UUIDs (9, as 16 bytes), booleans
(0/1), integers (byte 2, short 3, int 4, long 5, timestamp 8 in milliseconds)."""

PRELUDE_LENGTH = 12
MAX_HEADERS_LENGTH = 128 * 1024
MAX_PAYLOAD_LENGTH = 24 * 1024 * 1024

_PRELUDE = struct.Struct(">II")
_U32 = struct.Struct(">I")
_U16 = struct.Struct(">H")
_INT_TYPES: dict[int, struct.Struct] = {
    2: struct.Struct(">b"),
    3: struct.Struct(">h"),
    4: struct.Struct(">i"),
    5: struct.Struct(">q"),
    8: struct.Struct(">q"),
}


@dataclass(frozen=True, slots=True)
class EventStreamMessage:
    """One decoded message: its headers (in wire order) and raw payload."""

    headers: dict[str, HeaderValue] = field(default_factory=dict)
    payload: bytes = b""

    @property
    def message_type(self) -> str:
        """``event``, ``exception`` or ``error`` (``:message-type``; ``event`` when absent)."""
        value = self.headers.get(":message-type", "event")
        return value if isinstance(value, str) else "event"

    @property
    def event_type(self) -> str:
        """``:event-type`` for events, ``:exception-type`` for exceptions, ``:error-code`` for errors."""
        key = {"exception": ":exception-type", "error": ":error-code"}.get(self.message_type, ":event-type")
        value = self.headers.get(key, "")
        return value if isinstance(value, str) else ""


def _header(name: str, value: HeaderValue) -> bytes:
    raw_name = name.encode()
    if not 0 < len(raw_name) <= 255:
        raise ValueError(f"eventstream header name must be 1..255 bytes, got {len(raw_name)}: {name!r}")
    head = bytes((len(raw_name),)) + raw_name
    if isinstance(value, bool):
        return head + (b"\x00" if value else b"\x01")
    if isinstance(value, int):
        if -(1 << 31) <= value < (1 << 31):
            return head + b"\x04" + _INT_TYPES[4].pack(value)
        if -(1 << 63) <= value < (1 << 63):
            return head + b"\x05" + _INT_TYPES[5].pack(value)
        raise ValueError(f"eventstream header {name!r}: integer {value} does not fit in 64 bits")
    if isinstance(value, str):
        kind, raw = b"\x07", value.encode()
    else:
        kind, raw = b"\x06", bytes(value)
    if len(raw) > 0xFFFF:
        raise ValueError(f"eventstream header {name!r}: value is {len(raw)} bytes, the limit is 65535")
    return head + kind + _U16.pack(len(raw)) + raw


def encode_message(headers: Mapping[str, HeaderValue], payload: bytes) -> bytes:
    """One complete message: prelude + prelude CRC, headers, payload, message CRC."""
    raw_headers = b"".join(_header(k, v) for k, v in headers.items())
    if len(raw_headers) > MAX_HEADERS_LENGTH:
        raise ValueError(
            f"eventstream headers are {len(raw_headers)} bytes, the limit is {MAX_HEADERS_LENGTH}"
        )
    if len(payload) > MAX_PAYLOAD_LENGTH:
        raise ValueError(f"eventstream payload is {len(payload)} bytes, the limit is {MAX_PAYLOAD_LENGTH}")
    prelude = _PRELUDE.pack(PRELUDE_LENGTH + len(raw_headers) + len(payload) + 4, len(raw_headers))
    prelude += _U32.pack(crc32(prelude) & 0xFFFFFFFF)
    message = prelude + raw_headers + payload
    return message + _U32.pack(crc32(message) & 0xFFFFFFFF)


def encode_frame(event_type: str, payload: str, message_type: str = "event") -> bytes:
    """A Bedrock-style message. Events name their shape in ``:event-type``, exceptions in
    ``:exception-type``; ``error`` messages carry ``:error-code`` = ``event_type`` and
    ``:error-message`` = ``payload`` with an empty body (botocore's unmodeled-error shape)."""
    if message_type == "error":
        return encode_message(
            {":error-code": event_type, ":error-message": payload, ":message-type": "error"}, b""
        )
    kind = ":event-type" if message_type == "event" else ":exception-type"
    headers: dict[str, HeaderValue] = {
        kind: event_type,
        ":content-type": "application/json",
        ":message-type": message_type,
    }
    return encode_message(headers, payload.encode())


class EventStreamDecoder:
    """Feed bytes in any split; get the messages completed so far.

    Raises :class:`~harness._errors.DecodeError` on a corrupt prelude, a CRC mismatch, bad headers or
    (at :meth:`end`) a truncated message. After an error every later call raises the same error.

    Unlike SSE, a broken event-stream has no next line to resync on, so the decoder raises instead of
    recording an anomaly.
    """

    __slots__ = ("_buf", "_error", "_offset")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._offset = 0  # stream offset of _buf[0], for error messages
        self._error: DecodeError | None = None

    def feed(self, data: bytes) -> list[EventStreamMessage]:
        if self._error is not None:
            raise self._error
        self._buf += data
        out: list[EventStreamMessage] = []
        pos = 0
        buf = self._buf
        try:
            while len(buf) - pos >= PRELUDE_LENGTH:
                total = self._check_prelude(buf, pos)
                if len(buf) - pos < total:
                    break
                out.append(self._message(bytes(buf[pos : pos + total])))
                pos += total
                self._offset += total
        except DecodeError as exc:
            self._error = exc
            if not out:
                raise
        finally:
            del buf[:pos]
        return out

    @property
    def error(self) -> DecodeError | None:
        """The error that stopped decoding. Messages completed before a corrupt one in the same chunk are
        still returned by that :meth:`feed`; the error is raised by the next call (or read here)."""
        return self._error

    def end(self) -> list[EventStreamMessage]:
        """End of stream: leftover bytes are a truncated message."""
        if self._error is not None:
            raise self._error
        if self._buf:
            self._error = DecodeError(
                f"eventstream truncated: {len(self._buf)} bytes of an incomplete message at offset "
                f"{self._offset}"
            )
            raise self._error
        return []

    def _fail(self, problem: str) -> DecodeError:
        return DecodeError(f"eventstream message at offset {self._offset}: {problem}")

    def _check_prelude(self, buf: bytearray, pos: int) -> int:
        total, headers_len = _PRELUDE.unpack_from(buf, pos)
        (want,) = _U32.unpack_from(buf, pos + 8)
        got = crc32(buf[pos : pos + 8]) & 0xFFFFFFFF
        if want != got:
            raise self._fail(f"prelude CRC mismatch (header says {want:08x}, computed {got:08x})")
        if headers_len > MAX_HEADERS_LENGTH:
            raise self._fail(f"headers length {headers_len} exceeds {MAX_HEADERS_LENGTH}")
        payload_len = total - headers_len - PRELUDE_LENGTH - 4
        if payload_len < 0:
            raise self._fail(f"total length {total} is too small for {headers_len} bytes of headers")
        if payload_len > MAX_PAYLOAD_LENGTH:
            raise self._fail(f"payload length {payload_len} exceeds {MAX_PAYLOAD_LENGTH}")
        return int(total)

    def _message(self, raw: bytes) -> EventStreamMessage:
        (want,) = _U32.unpack_from(raw, len(raw) - 4)
        got = crc32(raw[:-4]) & 0xFFFFFFFF
        if want != got:
            raise self._fail(f"message CRC mismatch (trailer says {want:08x}, computed {got:08x})")
        (headers_len,) = _U32.unpack_from(raw, 4)
        headers = self._headers(raw[PRELUDE_LENGTH : PRELUDE_LENGTH + headers_len])
        return EventStreamMessage(headers, raw[PRELUDE_LENGTH + headers_len : -4])

    def _headers(self, raw: bytes) -> dict[str, HeaderValue]:
        headers: dict[str, HeaderValue] = {}
        pos, n = 0, len(raw)
        try:
            while pos < n:
                name_len = raw[pos]
                raw_name = raw[pos + 1 : pos + 1 + name_len]
                if len(raw_name) != name_len:
                    raise self._fail("a header name runs past the headers")
                name = raw_name.decode()
                pos += 1 + name_len
                kind = raw[pos]
                pos += 1
                value: HeaderValue
                if kind in (0, 1):
                    value = kind == 0
                elif kind in _INT_TYPES:
                    fmt = _INT_TYPES[kind]
                    (value,) = fmt.unpack_from(raw, pos)
                    pos += fmt.size
                elif kind in (6, 7):
                    (length,) = _U16.unpack_from(raw, pos)
                    data = raw[pos + 2 : pos + 2 + length]
                    if len(data) != length:
                        raise self._fail(f"header {name!r} value runs past the headers")
                    value = data.decode() if kind == 7 else data
                    pos += 2 + length
                elif kind == 9:
                    data = raw[pos : pos + 16]
                    if len(data) != 16:
                        raise self._fail(f"header {name!r} uuid runs past the headers")
                    value = data
                    pos += 16
                else:
                    raise self._fail(f"header {name!r} has unknown value type {kind}")
                if name in headers:
                    raise self._fail(f"duplicate header {name!r}")
                headers[name] = value
        except (IndexError, struct.error, UnicodeDecodeError) as exc:
            raise self._fail(f"malformed headers ({exc})") from None
        return headers
