"""A SUT's exception is read whatever its shape: the HTTP status and the provider's code from real SDK
exception classes (an integer or word ``status``, an integer ``code``, ``status_code``, a nested
``response``, an AWS-style response dict, an SDK error under a framework's), and from a JS error's
fields through the adapter protocol. Reading never raises: the exception is the SUT's verdict with
its message, never a harness ERROR."""

from __future__ import annotations

import shutil
import urllib.error
from email.message import Message as Headers
from pathlib import Path
from typing import Any

import pytest

from harness.drivers import parse_profile
from harness.drivers._adapter_wire import Failed, parse_line
from harness.drivers._raised import raised
from harness.runner import run
from harness.verdict import Status, Verdict

HERE = Path(__file__).parent
PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
GEMINI_429 = "errors-cancellation/upstream-http-error[gemini:thought/frames]"
CHAT_429 = "errors-cancellation/upstream-http-error[openai-chat:reasoning_content/frames]"


def _genai(code: int, error: dict[str, Any]) -> Exception:
    from google.genai import errors

    return errors.ClientError(code, {"error": error})


def _openai_429() -> Exception:
    import httpx2
    import openai

    req = httpx2.Request("POST", "http://upstream/v1/chat/completions")
    body = {"message": "Rate limit reached.", "type": "requests", "code": "rate_limit_exceeded"}
    return openai.RateLimitError("Rate limit reached.", response=httpx2.Response(429, request=req), body=body)


def _anthropic_529() -> Exception:
    import anthropic
    import httpx2

    req = httpx2.Request("POST", "http://upstream/v1/messages")
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    return anthropic.APIStatusError("Overloaded", response=httpx2.Response(529, request=req), body=body)


def _httpx_503() -> Exception:
    import httpx

    req = httpx.Request("POST", "http://upstream/x")
    resp = httpx.Response(503, request=req)
    return httpx.HTTPStatusError("Service Unavailable", request=req, response=resp)


def _requests_502() -> Exception:
    import requests

    resp = requests.Response()
    resp.status_code = 502
    return requests.HTTPError("502 Server Error: Bad Gateway", response=resp)


def _botocore_throttled() -> Exception:
    from botocore.exceptions import ClientError

    response: Any = {
        "Error": {"Code": "ThrottlingException", "Message": "Too many requests."},
        "ResponseMetadata": {"HTTPStatusCode": 429},
    }
    return ClientError(response, "ConverseStream")


def _cohere_429() -> Exception:
    from cohere.core.api_error import ApiError

    return ApiError(status_code=429, body={"message": "too many requests"})


def _framework_over_openai() -> Exception:
    try:
        try:
            raise _openai_429()
        except Exception as sdk:
            raise RuntimeError("agent run failed") from sdk
    except RuntimeError as exc:
        return exc


class _HostileStatus(Exception):
    @property
    def status(self) -> int:
        raise AttributeError("no status here")

    @property
    def status_code(self) -> int:
        raise RuntimeError("a property that fails")


class _TextStatus(Exception):
    status = "429"


SHAPES: list[tuple[str, Any, int | None, str | None]] = [
    ("google-genai: int code, word status", lambda: _genai(
        429, {"code": 429, "message": "Resource exhausted.", "status": "RESOURCE_EXHAUSTED"}), 429,
     "RESOURCE_EXHAUSTED"),
    ("openai: status_code, string code", _openai_429, 429, "rate_limit_exceeded"),
    ("anthropic: status_code, error type in the body", _anthropic_529, 529, "overloaded_error"),
    ("httpx: response.status_code", _httpx_503, 503, None),
    ("requests: response.status_code", _requests_502, 502, None),
    ("urllib: int code and status", lambda: urllib.error.HTTPError(
        "http://upstream/x", 404, "Not Found", Headers(), None), 404, None),
    ("botocore: response dict", _botocore_throttled, 429, "ThrottlingException"),
    ("cohere: status_code only", _cohere_429, 429, None),
    ("a framework's error raised from the SDK's", _framework_over_openai, 429, "rate_limit_exceeded"),
    ("a numeric string status", lambda: _TextStatus("slow down"), 429, None),
    ("properties that raise", lambda: _HostileStatus("odd"), None, None),
    ("no status at all", lambda: ValueError("bad"), None, None),
]


@pytest.mark.parametrize(("make", "status", "code"), [s[1:] for s in SHAPES], ids=[s[0] for s in SHAPES])
def test_status_and_code_are_read_from_every_shape(make: Any, status: int | None, code: str | None) -> None:
    exc = make()
    said = raised(exc)
    assert (said.status, said.code) == (status, code)
    assert said.type == type(exc).__name__
    assert said.message == (str(exc) or said.message)


def test_the_message_falls_back_to_a_message_attribute() -> None:
    class Quiet(Exception):
        message = "said only here"

        def __str__(self) -> str:
            return ""

    assert raised(Quiet()).error == "Quiet: said only here"


def sut(name: str, **extra: Any) -> Any:
    data = {"kind": "python", "callable": f"_raising_suts:{name}", "sys_path": [str(HERE)], **extra}
    return parse_profile(data)


def _client_errors(r: Any) -> list[dict[str, Any]]:
    return [e["event"] for e in r.timeline if e.get("side") == "client" and e.get("act") == "event"
            and isinstance(e.get("event"), dict) and e["event"].get("type") == "StreamError"]


def test_the_real_google_genai_client_s_error_is_the_sut_s_answer() -> None:
    """google-genai raises ClientError(code=429, status=<the body's status word>) for the mock's 429:
    the client saw an error with that status and code (the driver did ``int(status)`` before: ERROR)."""
    (r,) = run([GEMINI_429], sut=sut("genai_stream", dialects=["gemini"]), preflight=False).results
    assert r.status is Status.OK, r.error
    assert r.stream is Verdict.PASS, [(f.check, f.message) for f in r.failing()]
    (err,) = _client_errors(r)
    assert (err["status"], err["code"]) == (429, "RESOURCE_EXHAUSTED")  # Google's status word for a 429
    assert err["message"].startswith("ClientError: 429 RESOURCE_EXHAUSTED")


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("raises_genai", "ServerError: 503 UNAVAILABLE"),
        ("raises_word", "APIError: "),
        ("raises_openai", "RateLimitError: Rate limit reached."),
    ],
)
def test_a_sut_that_raises_is_a_sut_verdict_with_its_message(name: str, said: str) -> None:
    (r,) = run([PLAIN], sut=sut(name), preflight=False).results
    assert r.status is Status.OK, r.error
    assert r.stream is Verdict.FAIL
    (f,) = [f for f in r.failing() if f.check == "sut-error"]
    assert f.message.startswith(f"turn 0: the SUT raised {said}"), f.message


# -- JS errors through the adapter protocol ----------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        ({"status": 429, "code": "rate_limit_exceeded"}, 429, "rate_limit_exceeded"),  # openai-node
        ({"status": "RESOURCE_EXHAUSTED", "code": 429}, 429, "RESOURCE_EXHAUSTED"),  # a word status
        ({"status": "503"}, 503, None),  # a numeric string
        ({"statusCode": 500}, 500, None),  # the AI SDK's APICallError
        ({"response": {"status": 502}}, 502, None),  # a fetch Response on the error
        ({"code": "ECONNRESET"}, None, "ECONNRESET"),  # a Node system error
        ({"code": 14}, None, "14"),  # a gRPC code: no HTTP status
        ({"status": {"odd": True}, "code": None}, None, None),  # nothing usable, and no ERROR
    ],
)
def test_adapter_error_fields_are_read_as_exceptions_are(
    error: dict[str, Any], status: int | None, code: str | None
) -> None:
    line = {"id": "c1/0", "error": {"type": "ApiError", "message": "failed", **error}}
    import json

    failed = parse_line(1, json.dumps(line))
    assert isinstance(failed, Failed)
    assert (failed.status, failed.code) == (status, code)


NODE_ADAPTER = HERE / "_node_raiser.cjs"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize(
    ("shape", "status", "code"),
    [("word", 429, "RESOURCE_EXHAUSTED"), ("nested", 429, None), ("cause", 429, "rate_limit_exceeded")],
)
def test_a_node_sdk_error_reaches_the_client_with_its_status(
    shape: str, status: int, code: str | None
) -> None:
    profile = parse_profile({
        "kind": "adapter", "name": f"node-raiser-{shape}", "dialects": ["openai-chat"], "timeout": 10,
        "command": [str(shutil.which("node")), str(NODE_ADAPTER), shape],
    })
    (r,) = run([CHAT_429], sut=profile, preflight=False).results
    assert r.status is Status.OK, r.error
    assert r.stream is Verdict.PASS, [(f.check, f.message) for f in r.failing()]
    (err,) = _client_errors(r)
    assert (err["status"], err.get("code")) == (status, code)

