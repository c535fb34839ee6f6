"""Redaction by rule: a corpus of planted secrets (URL userinfo, headers, query, nested JSON, value
patterns, user-added rules) goes through the real ``thinkwire record``; none reaches the cassette,
stdout or stderr, the upstream still gets every one of them (the proxy is transparent), and the
reasoning fields a client must pass back (signature, encrypted_content, thoughtSignature, redacted
data) survive byte-exact, although they are planted with credential-shaped content themselves."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import httpx
import pytest
from _rec_helpers import Child, url_of

from harness.recording import REDACTED, Redactor, read_cassette
from harness.recording._redact import secret_name
from harness.upstream import Conversation, MockUpstream, Raw, Script

S = {  # name -> planted value; every value is unique and must vanish
    "userinfo": "S01-userinfo-pass-7a1c",
    "q-api-key": "S02-query-apikey-4b2d",
    "q-client-secret": "S03-query-clientsecret-9e3f",
    "q-key": "S04-query-key-1c5e",
    "q-access-token": "S05-query-accesstoken-6d7a",
    "q-sig": "S06-query-sig-2f8b",
    "h-authorization": "S07-header-bearer-8c9d0e1f2a3b",
    "h-x-api-key": "S08-header-xapikey-3a4b",
    "h-x-auth-token": "S09-header-xauthtoken-5c6d",
    "h-openai-api-key": "S10-header-openaiapikey-7e8f",
    "h-anthropic-api-key": "S11-header-anthropicapikey-9a0b",
    "h-proxy-authorization": "S12-header-proxyauth-1c2d",
    "h-cookie": "S13-header-cookie-3e4f",
    "h-x-goog-api-key": "S14-header-googapikey-5a6b",
    "h-api-key": "S15-header-apikey-7c8d",
    "h-x-session-id": "S16-header-sessionid-9e0f",
    "h-x-amz-security-token": "S17-header-amzsectoken-1a2b",
    "v-sk": "sk-proj-S18valuepatternsk3c4d5e6f",
    "v-akia": "AKIAS19VALUEPATTERN7",
    "v-jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJTMjAtand0In0.S20sigpartQ",
    "j-api_key": "S21-json-api_key-5e6f",
    "j-apiKey": "S22-json-apiKey-7a8b",
    "j-password": "S23-json-password-9c0d",
    "j-refresh_token": "S24-json-refresh_token-1e2f",
    "j-aws_secret_access_key": "S25-json-awssecret-3a4b",
    "j-private_key": "S26-json-privatekey-5c6d",
    "j-secret_key": "S27-json-secretkey-7e8f",
    "j-tools-auth-token": "S28-json-nested-token-9a0b",
    "j-client_secret": "S29-json-clientsecret-1c2d",
    "j-session_token": "S30-json-sessiontoken-3e4f",
    "j-text-sk-ant": "sk-ant-api03-S31intextABCDEFGH",
    "j-text-bearer": "S32bearerintextQRSTUVWX",
    "custom-header": "S33-custom-header-5a6b",
    "custom-query": "S34-custom-query-7c8d",
    "custom-json": "S35-custom-json-9e0f",
    "custom-value": "corp-353535",
    "resp-set-cookie": "S37-response-setcookie-1a2b",
}
# passback fields planted with credential-shaped content: kept byte-exact all the same
SIG = "sk-notakey0123456789/AKIAIOSFODNN7EXAMPLE+EqQBCkgIARABGAIiQL=="
ENC = "gAAAAAB-eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.enc+/opaque=="
TSIG = "CiIBAKIAIOSFODNN7EXAMPL+thoughtSig/Bearer abcdefghijklmnop=="
RDATA = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB4URj2p=="
FRAMES = [
    b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":'
    b'{"type":"signature_delta","signature":"' + SIG.encode() + b'"}}\n\n',
    b'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":'
    b'{"type":"redacted_thinking","data":"' + RDATA.encode() + b'"}}\n\n',
    b'event: message_stop\ndata: {"type":"message_stop"}\n\n',
]


def _request_body() -> dict[str, object]:
    return {
        "model": "claude",
        "max_tokens": 100,
        "thinking": {"type": "enabled", "budget_tokens": 50},
        "api_key": S["j-api_key"],
        "metadata": {
            "apiKey": S["j-apiKey"],
            "user": {"password": S["j-password"], "refresh_token": S["j-refresh_token"]},
            "custom_field": S["custom-json"],
        },
        "credentials": {"aws_secret_access_key": S["j-aws_secret_access_key"]},
        "config": {"private_key": S["j-private_key"], "secret_key": S["j-secret_key"]},
        "tools": [{"name": "t", "auth": {"token": S["j-tools-auth-token"]}}],
        "oauth": [{"client_secret": S["j-client_secret"], "session_token": S["j-session_token"]}],
        "messages": [
            {"role": "user", "content": f"my key is {S['j-text-sk-ant']} and Bearer {S['j-text-bearer']}"},
            {"role": "user", "content": f"ticket {S['custom-value']} and {S['v-jwt']}"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "plan", "signature": SIG},
                    {"type": "redacted_thinking", "data": RDATA},
                ],
            },
        ],
        "input": [{"type": "reasoning", "summary": [], "encrypted_content": ENC}],
        "contents": [{"role": "model", "parts": [{"text": "x", "thoughtSignature": TSIG}]}],
    }


def test_no_planted_secret_reaches_cassette_or_output_and_passback_survives(tmp_path: Path) -> None:
    assert len(S) >= 30
    out = tmp_path / "c.jsonl"
    script = Script(
        "anthropic-messages",
        (Raw(tuple(FRAMES)),),
        stream=True,
        headers=(("set-cookie", S["resp-set-cookie"]), ("x-request-id", "req-kept")),
    )
    with MockUpstream() as up:
        up.load(Conversation((script,)))
        upstream = up.base_url.replace("http://", f"http://admin:{S['userinfo']}@")
        rec = Child(
            "record",
            "--upstream",
            upstream,
            "--out",
            str(out),
            "--redact-header",
            "x-my-tenant",
            "--redact-query",
            "tenant",
            "--redact-json",
            "metadata.custom_field",
            "--redact-value",
            r"corp-\d{6}",
        )
        try:
            first = rec.line()
            url = url_of(first)
            params = {
                "api-key": S["q-api-key"],
                "client_secret": S["q-client-secret"],
                "key": S["q-key"],
                "access_token": S["q-access-token"],
                "sig": S["q-sig"],
                "tenant": S["custom-query"],
                "beta": "true",
            }
            headers = {
                "Authorization": f"Bearer {S['h-authorization']}",
                "x-api-key": S["h-x-api-key"],
                "x-auth-token": S["h-x-auth-token"],
                "openai-api-key": S["h-openai-api-key"],
                "anthropic-api-key": S["h-anthropic-api-key"],
                "Proxy-Authorization": S["h-proxy-authorization"],
                "Cookie": f"sid={S['h-cookie']}",
                "x-goog-api-key": S["h-x-goog-api-key"],
                "api-key": S["h-api-key"],
                "X-Session-Id": S["h-x-session-id"],
                "X-Amz-Security-Token": S["h-x-amz-security-token"],
                "X-Trace": f"trace {S['v-sk']}",
                "X-Debug": S["v-akia"],
                "X-My-Tenant": S["custom-header"],
                "anthropic-version": "2023-06-01",
            }
            body = json.dumps(_request_body()).encode()
            with httpx.stream(
                "POST", url + "/v1/messages", params=params, headers=headers, content=body, timeout=30
            ) as resp:
                got = b"".join(resp.iter_raw())
            code, rest, stderr = rec.finish(signal.SIGTERM)
            stdout = first + "\n" + rest
        finally:
            rec.kill()
        received = up.requests[0]
    assert code == 0, stderr
    assert got == b"".join(FRAMES)
    # transparent: the upstream got the credentials the recorder keeps off disk
    assert received.header("x-api-key") == S["h-x-api-key"]
    assert S["q-key"] in received.target
    assert received.body == body

    text = out.read_text(encoding="utf-8")
    leaked = [name for name, value in S.items() if value in text or value in stdout or value in stderr]
    assert leaked == [], leaked
    assert f"-> http://{REDACTED}@127.0.0.1:" in first  # the upstream URL, its userinfo replaced

    cassette = read_cassette(out)
    ex = cassette.exchanges[0]
    assert cassette.upstream.startswith(f"http://{REDACTED}@127.0.0.1:")
    assert ex.body == b"".join(FRAMES)  # response bytes as sent, signature and redacted data included
    sent = json.loads(ex.request_body)
    assert sent["messages"][2]["content"][0]["signature"] == SIG
    assert sent["messages"][2]["content"][1]["data"] == RDATA
    assert sent["input"][0]["encrypted_content"] == ENC
    assert sent["contents"][0]["parts"][0]["thoughtSignature"] == TSIG
    for kept in (SIG, ENC, TSIG, RDATA):
        assert kept in text
    assert sent["max_tokens"] == 100
    assert sent["thinking"]["budget_tokens"] == 50
    assert "beta=true" in ex.path
    assert ("anthropic-version", "2023-06-01") in ex.request_headers
    assert ex.header("x-request-id") == "req-kept"


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("Authorization", True),
        ("x-auth-token", True),
        ("openai-api-key", True),
        ("aws_secret_access_key", True),
        ("apiKey", True),
        ("XAuthToken", True),
        ("sessionid", True),
        ("client_secret", True),
        ("Set-Cookie", True),
        ("passphrase", True),
        ("max_tokens", False),
        ("budget_tokens", False),
        ("reasoning_tokens", False),
        ("signature", False),
        ("thoughtSignature", False),
        ("encrypted_content", False),
        ("author", False),
        ("content-type", False),
        ("keywords", False),
    ],
)
def test_secret_names_by_rule(name: str, secret: bool) -> None:
    assert secret_name(name) is secret


def test_value_patterns_do_not_touch_ordinary_text() -> None:
    r = Redactor()
    for text in (
        "the bearer of bad news",
        "a basic question about sk-learning-and-other-long-words",
        "ask-me-anything",
        "tokens: 12, key points: three",
    ):
        assert r.text(text) == text


def test_a_body_without_secrets_is_kept_byte_for_byte() -> None:
    body = b'{ "model" : "m",  "messages": [{"role":"user","content":"caf\\u00e9"}], "max_tokens": 5 }'
    assert Redactor().body(body) == body


def test_a_form_body_is_redacted_like_a_query() -> None:
    body = b"grant_type=client_credentials&client_id=app&client_secret=S40-form-secret&scope=a+b"
    out = Redactor().body(body).decode()
    assert "S40-form-secret" not in out
    assert "client_secret=<redacted>" in out
    assert "grant_type=client_credentials" in out
    assert "client_id=app" in out
