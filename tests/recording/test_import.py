"""``thinkwire import``: vcrpy / pytest-recording cassettes in every body form and HAR files become
thinkwire cassettes with the response bytes exact, redaction applied, and one line per interaction;
a bad file is one line naming the file, the interaction and why (exit 2)."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import pytest

from harness import CassetteError
from harness.cli import main
from harness.recording import read_cassette
from harness.recording._import import decode_content, import_file, split_events, trim_body

SSE = 'event: message_start\ndata: {"type":"message_start"}\n\nevent: ping\ndata: {"type": "ping"}\n\n'
EVENTSTREAM = bytes(range(256)) * 2  # not UTF-8: only !!binary can hold it
GZ_JSON = b'[{\n  "candidates": []\n}\n,\r\n{\n  "candidates": []\n}\n]'


def _b64(data: bytes) -> str:
    text = base64.b64encode(data).decode()
    return "\n".join("        " + text[i : i + 76] for i in range(0, len(text), 76))


VCR = f"""interactions:
- request:
    body: '{{"model":"claude","stream":true,"api_key":"sk-abcdefghijklmnopqrstuvwxyz0123"}}'
    headers:
      authorization:
      - Bearer sk-live-0123456789abcdefghijkl
      content-type:
      - application/json
    method: POST
    uri: https://api.anthropic.com/v1/messages?beta=true&key=AIzaSyA-0123456789abcdefghijklmnopqrstuv
  response:
    body:
      string: |+
        event: message_start
        data: {{"type":"message_start"}}

        event: ping
        data: {{"type": "ping"}}

    headers:
      content-type:
      - text/event-stream; charset=utf-8
      set-cookie:
      - session=abc
    status:
      code: 200
      message: OK
- request:
    headers: {{}}
    method: POST
    parsed_body:
      model: gpt-5
      stream: false
    uri: https://api.openai.com/v1/responses
  response:
    headers:
      content-type:
      - application/json
    parsed_body:
      id: resp_1
      store: true
    status:
      code: 200
      message: OK
- request:
    body: null
    headers: {{}}
    method: POST
    uri: https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream
  response:
    body:
      string: !!binary |
{_b64(EVENTSTREAM)}
    headers:
      content-type:
      - application/vnd.amazon.eventstream
    status:
      code: 200
      message: OK
- request:
    body: '{{"contents":[]}}'
    headers: {{}}
    method: POST
    uri: https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent#frag
  response:
    body:
      string: !!binary |
{_b64(gzip.compress(GZ_JSON))}
    headers:
      Content-Encoding:
      - gzip
      Content-Length:
      - '99'
      Content-Type:
      - application/json; charset=UTF-8
    status:
      code: 200
      message: OK
- request:
    body: '{{"messages":[]}}'
    headers: {{}}
    method: POST
    uri: https://api.deepseek.com/chat/completions
  response:
    body:
      string: 'data: {{"choices":[]}}


        data: [DONE]


        '
    headers:
      content-type:
      - text/event-stream
    status:
      code: 200
      message: OK
version: 1
"""


def _write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    return p


def test_vcr_every_body_form_keeps_response_bytes_exact(tmp_path: Path) -> None:
    result = import_file(_write(tmp_path, "c.yaml", VCR))
    ex = result.cassette.exchanges
    assert len(ex) == 5
    assert len(result.lines) == 5
    assert ex[0].body == SSE.encode()  # a block scalar ('|+'): trailing blank line kept
    assert json.loads(ex[1].body) == {"id": "resp_1", "store": True}  # parsed_body, re-serialised
    assert ex[1].body == json.dumps({"id": "resp_1", "store": True}).encode()
    assert ex[2].body == EVENTSTREAM  # !!binary, not UTF-8
    assert ex[3].body == GZ_JSON  # !!binary gzip, decoded
    assert ex[4].body == b'data: {"choices":[]}\n\ndata: [DONE]\n\n'  # a folded single-quoted scalar
    assert [e.status for e in ex] == [200] * 5
    assert ex[3].path == "/v1beta/models/g:streamGenerateContent"  # the fragment is never sent
    assert ex[1].request_body == json.dumps({"model": "gpt-5", "stream": False}).encode()
    assert result.cassette.dialect is None  # four dialects: each exchange's path names its own


def test_vcr_lines_say_what_was_lost(tmp_path: Path) -> None:
    lines = import_file(_write(tmp_path, "c.yaml", VCR)).lines
    assert all(line.startswith(f"interaction {i}: POST ") for i, line in enumerate(lines))
    assert "anthropic-messages): converted" in lines[0]
    assert "chunk boundaries and timing" in lines[0]
    assert "response body stored parsed" in lines[1]
    assert "request body stored parsed" in lines[1]
    assert "content-encoding gzip decoded" in lines[3]
    assert "URL fragment #frag dropped" in lines[3]


def test_vcr_redaction_applied_and_encoding_headers_dropped(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    import_file(_write(tmp_path, "c.yaml", VCR)).cassette.write(out)
    text = out.read_text()
    for secret in (
        "sk-live-0123456789abcdef",
        "sk-abcdefghijklmnopqrstuvwxyz0123",
        "AIzaSyA-01",
        "session=abc",
    ):
        assert secret not in text
    back = read_cassette(out)
    assert back.exchanges[0].header("set-cookie") == "<redacted>"
    assert json.loads(back.exchanges[0].request_body)["api_key"] == "<redacted>"
    assert dict(back.exchanges[0].request_headers)["authorization"] == "<redacted>"
    assert "key=%3Credacted%3E" in back.exchanges[0].path or "key=<redacted>" in back.exchanges[0].path
    gem = back.exchanges[3]
    assert gem.header("content-encoding") is None
    assert gem.header("content-length") is None
    assert back.exchanges[0].body == SSE.encode()
    assert back.source == "vcrpy:c.yaml"


def test_vcr_gz_file_and_only(tmp_path: Path) -> None:
    p = _write(tmp_path, "c.yaml.gz", gzip.compress(VCR.encode()))
    result = import_file(p, only=[1, 3])
    assert [line.split(":")[0] for line in result.lines] == ["interaction 1", "interaction 3"]
    assert result.converted == 2
    with pytest.raises(CassetteError, match="--only 9: no such interaction"):
        import_file(p, only=[9])


HAR = {
    "log": {
        "version": "1.2",
        "entries": [
            {
                "startedDateTime": "2026-01-01T00:00:00Z",
                "request": {
                    "method": "POST",
                    "url": "https://api.openai.com/v1/chat/completions",
                    "headers": [{"name": "Authorization", "value": "Bearer sk-abcdefghijklmnopqrstu012"}],
                    "postData": {"mimeType": "application/json", "text": '{"stream":true}'},
                },
                "response": {
                    "status": 200,
                    "headers": [
                        {"name": "content-type", "value": "text/event-stream"},
                        {"name": "content-encoding", "value": "br"},
                    ],
                    "content": {"mimeType": "text/event-stream", "text": "data: [DONE]\n\n"},
                },
                "timings": {"wait": 12.5},
            },
            {
                "request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "headers": []},
                "response": {
                    "status": 200,
                    "headers": [{"name": "content-type", "value": "application/json"}],
                    "content": {"encoding": "base64", "text": base64.b64encode(b'{"id":"m"}').decode()},
                },
            },
            {
                "request": {"method": "GET", "url": "https://api.anthropic.com/v1/models", "headers": []},
                "response": {"status": 0, "headers": [], "content": {}},
            },
            {
                "request": {"method": "GET", "url": "https://api.anthropic.com/v1/models", "headers": []},
                "response": {"status": 200, "headers": [], "content": {"size": 10}},
            },
        ],
    }
}


def test_har_entries(tmp_path: Path) -> None:
    result = import_file(_write(tmp_path, "s.har", json.dumps(HAR)))
    ex = result.cassette.exchanges
    assert [e.body for e in ex] == [b"data: [DONE]\n\n", b'{"id":"m"}']
    assert ex[0].chunks[0].t_ms == 12.5  # time to first byte
    assert ex[0].header("content-encoding") is None  # HAR keeps the decoded body: never decoded twice
    assert dict(ex[0].request_headers)["Authorization"] == "<redacted>"
    assert "content-encoding header dropped" in result.lines[0]
    assert "interaction 2: GET /v1/models -> -: skipped: no response (HAR status 0" in result.lines[2]
    assert "skipped: the HAR writer kept no response body" in result.lines[3]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("a.yaml", "interactions: [\n", "a.yaml: not valid YAML (line"),
        ("b.yaml", "foo: 1\n", "b.yaml: not a vcrpy cassette"),
        ("c.yaml", "interactions:\n- request: {method: GET}\n  response: {status: {code: 200}}\n",
         "c.yaml: interaction 0: request.uri must be an absolute URL"),
        ("d.yaml", "interactions:\n- request: {method: GET, uri: 'http://x/'}\n  response: {status: 9}\n",
         "d.yaml: interaction 0: response: status.code must be an HTTP status"),
        ("e.yaml", "interactions:\n- request: {method: GET, uri: 'http://x/'}\n",
         "e.yaml: interaction 0: has no 'response' mapping"),
        ("f.yaml", "x: !!python/object:os.system {}\n", "f.yaml: not valid YAML"),
        ("g.har", '{"log": {"entries": [{"request": {"url": "x"}, "response": {}}]}}',
         "g.har: entry 0: request.url must be an absolute URL"),
        ("h.har", "{not json", "h.har: not valid JSON"),
        ("i.yaml", "interactions: []\n", "i.yaml: holds no interaction"),
    ],
)  # fmt: skip
def test_bad_file_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, message: str
) -> None:
    src = _write(tmp_path, name, text)
    assert main(["import", str(src), "--out", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("thinkwire: error: "), err
    assert message in err[0], err
    assert "Traceback" not in err[0]
    assert not (tmp_path / "o.jsonl").exists()


def test_cli_prints_a_line_per_interaction_and_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = _write(tmp_path, "c.yaml", VCR), tmp_path / "o.jsonl"
    assert main(["import", str(src), "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6
    assert lines[-1] == f"wrote {out}: 5 exchange(s)"
    assert read_cassette(out).exchanges[0].body == SSE.encode()
    assert main(["import", str(src), "--out", str(out)]) == 2  # never overwritten without --force
    assert "--force" in capsys.readouterr().err
    assert main(["import", str(src), "--out", str(out), "--force", "--only", "x"]) == 2
    assert "--only 'x'" in capsys.readouterr().err


def test_nothing_convertible_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    har = {"log": {"entries": [HAR["log"]["entries"][2]]}}  # type: ignore[index]
    src = _write(tmp_path, "s.har", json.dumps(har))
    assert main(["import", str(src), "--out", str(tmp_path / "o.jsonl")]) == 2
    captured = capsys.readouterr()
    assert "skipped: no response" in captured.out
    assert "no interaction could be converted" in captured.err


def test_trim_keeps_whole_events_exactly() -> None:
    events = [f'data: {{"n":{i}}}\n\n'.encode() for i in range(10)]
    body = b"".join(events)
    assert split_events(body, "text/event-stream") == events
    trimmed, note = trim_body(body, "text/event-stream; charset=utf-8", 2)
    assert trimmed == b"".join(events[:2] + events[-2:])
    assert note == "trimmed to the first and last 2 of 10 events"
    assert trim_body(body, "text/event-stream", 5) == (body, "")  # nothing to cut
    crlf = body.replace(b"\n", b"\r\n")
    assert len(split_events(crlf, "text/event-stream") or []) == 10
    assert split_events(b'{"a":1}', "application/json") is None


def test_trim_cuts_only_deltas_of_a_typed_stream() -> None:
    """A Responses stream keeps every structural event (a client looks a text part up by the
    output_item.added / content_part.added it saw): a positional cut dropped them."""

    def ev(kind: str, n: int) -> bytes:
        return f'event: {kind}\ndata: {{"type":"{kind}","sequence_number":{n}}}\n\n'.encode()

    kinds = ["response.created", "response.output_item.added"]
    kinds += ["response.reasoning_summary_text.delta"] * 6 + ["response.output_item.done"]
    kinds += ["response.output_item.added", "response.content_part.added"]
    kinds += ["response.output_text.delta"] * 6 + ["response.content_part.done", "response.completed"]
    events = [ev(k, n) for n, k in enumerate(kinds)]
    trimmed, note = trim_body(b"".join(events), "text/event-stream", 2)
    kept = split_events(trimmed, "text/event-stream") or []
    assert [e for e in events if b"delta" not in e.split(b"\n")[0]] == [
        e for e in kept if e.split(b"\n")[0][-5:] != b"delta"
    ]
    assert sum(1 for e in kept if e.split(b"\n")[0].endswith(b"delta")) == 4  # first 2, last 2
    assert note == "trimmed to the first and last 2 of 12 deltas, 7 other events kept"


def test_content_decoding() -> None:
    assert decode_content(gzip.compress(b"x"), "gzip") == b"x"
    import zlib

    assert decode_content(zlib.compress(b"y"), "deflate") == b"y"
    assert decode_content(b"z", "identity") == b"z"
    with pytest.raises(ValueError, match="not valid gzip"):
        decode_content(b"plain", "gzip")
    with pytest.raises(LookupError, match="'compress'"):
        decode_content(b"z", "compress")


def test_undecodable_encoding_skips_the_interaction(tmp_path: Path) -> None:
    text = VCR.replace("      Content-Encoding:\n      - gzip", "      Content-Encoding:\n      - zstd")
    result = import_file(_write(tmp_path, "c.yaml", text))
    assert result.converted == 4
    assert (
        "interaction 3: POST /v1beta/models/g:streamGenerateContent -> 200: skipped: content-encoding 'zstd'"
        in (result.lines[3])
    )


def test_missing_pyyaml_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "yaml", None)  # as if PyYAML were not installed
    with pytest.raises(CassetteError, match=r"c.yaml: PyYAML is not installed: .*pip install pyyaml"):
        import_file(_write(tmp_path, "c.yaml", VCR))
    assert import_file(_write(tmp_path, "s.har", json.dumps(HAR))).converted == 2  # HAR needs no YAML
