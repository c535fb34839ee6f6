"""Cassettes round-trip byte for byte, bad files name the line, and no planted secret reaches disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import CassetteError, ThinkwireError
from harness.recording import Cassette, Chunk, Exchange, Redactor, read_cassette
from harness.recording._replay import parse_timing

CHUNKS = [b'data: {"d":"\xe6\x80', b'\x9d\xe8\x80\x83"}\r', b"\n\r\n", b"\xef\xbb\xbf\xff"]


def cassette() -> Cassette:
    ex = Exchange(
        "POST",
        "/v1/chat/completions",
        [("content-type", "application/json")],
        b'{"model":"m"}',
        200,
        [("content-type", "text/event-stream")],
        end="complete",
    )
    off = 0
    for i, c in enumerate(CHUNKS):
        ex.chunks.append(Chunk(c, off, float(i)))
        off += len(c)
    return Cassette([ex], "2026-12-02T00:00:00Z", "openai-chat", "http://up")


def test_round_trip_keeps_bytes_and_boundaries(tmp_path: Path) -> None:
    p = tmp_path / "c.jsonl"
    cassette().write(p)
    back = read_cassette(p)
    assert [c.data for c in back.exchanges[0].chunks] == CHUNKS
    assert back.dialect == "openai-chat"
    lines = p.read_text().splitlines()
    assert '"format": "thinkwire-cassette"' in lines[0]
    assert '"base64"' in lines[3]  # a split code point is not valid UTF-8 alone: stored as base64
    assert '"text": "\\n\\r\\n"' in lines[5]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda ls: [*ls[:1], "{not json", *ls[2:]], ":2: not valid JSON"),
        (
            lambda ls: [*ls[:3], ls[3].replace('"t_ms": 0.0', '"t_ms": "soon"'), *ls[4:]],
            "'t_ms' must be a number",
        ),
        (
            lambda ls: [*ls[:1], ls[1].replace('"t_ms": 0.0', '"t_ms": "soon"'), *ls[2:]],
            "'t_ms' must be a number",
        ),
        (
            lambda ls: [*ls[:2], ls[2].replace('"status": 200', '"status": "200"'), *ls[3:]],
            "integer 'status'",
        ),
        (lambda ls: [*ls[:2], *ls[1:]], "a second request with id 0"),
        (lambda ls: ['{"format":"other","version":1}', *ls[1:]], ":1: not a thinkwire cassette"),
        (
            lambda ls: [ls[0].replace('"version": 1', '"version": 9'), *ls[1:]],
            "unsupported cassette version 9",
        ),
        (lambda ls: ls[:3] + ls[4:], "chunk offset"),
        (
            lambda ls: [*ls[:3], ls[3].replace('"type": "chunk"', '"type": "chnk"'), *ls[4:]],
            "unknown record type",
        ),
        (lambda ls: [], "empty file"),
    ],
    ids=[
        "bad-json",
        "chunk-t_ms",
        "request-t_ms",
        "status-str",
        "duplicate-id",
        "wrong-format",
        "version",
        "missing-chunk",
        "bad-type",
        "empty",
    ],
)
def test_malformed_cassettes_name_the_line(tmp_path: Path, mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / "c.jsonl"
    cassette().write(p)
    p.write_text("\n".join(mutate(p.read_text().splitlines())))
    with pytest.raises(CassetteError, match=message.replace("(", r"\(")) as info:
        read_cassette(p)
    assert str(p) in str(info.value)


@pytest.mark.parametrize(
    ("mutate", "warning", "end", "status"),
    [
        (lambda ls: ls[:-1], "exchange 0 has no end line", "truncated", 200),
        (lambda ls: ls[:2], "exchange 0 has no response line", "truncated", 0),
        (lambda ls: [*ls[:-1], ls[-1][:7]], "torn last line ignored", "truncated", 200),
        (lambda ls: [*ls, '{"type": "chunk", "id": 0, "offs'], "torn last line ignored", "complete", 200),
    ],
    ids=["no-end", "no-response", "torn-end", "torn-after-end"],
)
def test_a_recording_cut_at_any_instant_still_reads(  # type: ignore[no-untyped-def]
    tmp_path: Path, mutate, warning: str, end: str, status: int
) -> None:
    """What a killed recorder leaves (no end line, no response line, a torn last line) is read as a
    truncated exchange, with a warning naming the file; the bytes before the cut are kept."""
    p = tmp_path / "c.jsonl"
    cassette().write(p)
    p.write_text("\n".join(mutate(p.read_text().splitlines())))  # no final newline: a torn write
    back = read_cassette(p)
    assert any(warning in w and str(p) in w for w in back.warnings), back.warnings
    ex = back.exchanges[0]
    assert (ex.end, ex.status) == (end, status)
    assert b"".join(CHUNKS).startswith(ex.body)


def test_an_intact_cassette_has_no_warning(tmp_path: Path) -> None:
    p = tmp_path / "c.jsonl"
    cassette().write(p)
    assert read_cassette(p).warnings == []


SECRETS = [
    "sk-live-AAAA1111",
    "ant-BBBB2222",
    "goog-CCCC3333",
    "cookie-DDDD4444",
    "query-EEEE5555",
    "json-FFFF6666",
    "custom-GGGG7777",
    "path-HHHH8888",
]


def test_redaction_removes_every_planted_secret(tmp_path: Path) -> None:
    r = Redactor(headers=[r"x-my-secret"], json_paths=["metadata.user_token_hash", "tools.*.auth"])
    headers = r.header_pairs(
        [
            ("Authorization", f"Bearer {SECRETS[0]}"),
            ("x-api-key", SECRETS[1]),
            ("x-goog-api-key", SECRETS[2]),
            ("Cookie", SECRETS[3]),
            ("X-My-Secret", SECRETS[6]),
            ("content-type", "application/json"),
        ]
    )
    target = r.target(f"/v1beta/models/g:streamGenerateContent?alt=sse&key={SECRETS[4]}")
    body = r.body(
        (
            f'{{"model":"m","api_key":"{SECRETS[5]}","metadata":{{"user_token_hash":"{SECRETS[7]}"}},'
            '"tools":[{"auth":"x"}],"max_tokens":5}'
        ).encode()
    )
    ex = Exchange(
        "POST", target, headers, body, 200, r.header_pairs([("set-cookie", SECRETS[3])]), end="complete"
    )
    p = tmp_path / "c.jsonl"
    Cassette([ex], "t", None, "http://up").write(p)
    text = p.read_text()
    for s in SECRETS:
        assert s not in text, s
    assert "alt=sse" in text
    assert "max_tokens" in text
    assert "application/json" in text


def test_timing_parse() -> None:
    assert parse_timing("recorded") == 1.0
    assert parse_timing("none") is None
    assert parse_timing("x4") == 0.25
    with pytest.raises(ThinkwireError, match="--timing 'fast': unknown timing"):
        parse_timing("fast")
