"""The error bodies test_error_bodies.py does not reach, read by the provider's official SDK over loopback:
Bedrock's (botocore: the exception named in ``x-amzn-ErrorType``, the status and ``x-amzn-RequestId``),
Cohere's (the cohere SDK's error class per status), and every strict upstream's own rejection as the
SDK meets it, the request the SDK sent being the bad one (OpenAI's and DeepSeek's chat 400s, Google's
``contents`` 400s)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import botocore.session
import cohere
import cohere.errors
import httpx
import openai
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError
from google import genai
from google.genai import errors as genai_errors

from harness.dialects import get_dialect
from harness.dialects.bedrock_converse._dialect import EXCEPTIONS
from harness.events import End, TextDelta
from harness.runner import load_cases
from harness.upstream import Emit, HttpError, MockUpstream, Script
from harness.upstream._head import REQUEST_ID

TURN = Emit((TextDelta("Hi!"), End()))


@pytest.fixture
def bedrock(up: MockUpstream) -> Iterator[Any]:
    session = botocore.session.get_session()
    client = session.create_client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=up.base_url,
        aws_access_key_id="AKIDTEST",
        aws_secret_access_key="secret",
        config=Config(retries={"total_max_attempts": 1, "mode": "standard"}),  # no retry
    )
    yield client
    client.close()


def _converse_error(client: Any) -> ClientError:
    with pytest.raises(ClientError) as info:
        client.converse(modelId="m", messages=[{"role": "user", "content": [{"text": "hi"}]}])
    return info.value


def test_the_exception_table_is_botocores() -> None:
    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    shapes = {
        s.name: s.metadata["error"]["httpStatusCode"] for s in model.operation_model("Converse").error_shapes
    }
    assert {name: shapes[name] for name in EXCEPTIONS.values()} == {v: k for k, v in EXCEPTIONS.items()}
    assert set(shapes) - set(EXCEPTIONS.values()) == {"ModelNotReadyException"}  # a second 429


@pytest.mark.parametrize("status", sorted(EXCEPTIONS))
def test_every_bedrock_status_reaches_botocore_as_its_exception(
    up: MockUpstream, bedrock: Any, status: int
) -> None:
    d = get_dialect("bedrock-converse")
    body = d.error_body(status, "The mock says no.")
    up.load(Script("bedrock-converse", (HttpError(status, body, headers=d.error_headers(status)),)))
    exc = _converse_error(bedrock)
    assert exc.response["Error"]["Code"] == EXCEPTIONS[status]
    assert exc.response["Error"]["Message"] == "The mock says no."
    assert exc.response["ResponseMetadata"]["HTTPStatusCode"] == status
    assert exc.response["ResponseMetadata"]["RequestId"] == REQUEST_ID
    assert type(exc).__name__ == EXCEPTIONS[status]  # the modeled exception class botocore builds


def test_the_catalogs_bedrock_errors_reach_botocore_as_documented(up: MockUpstream, bedrock: Any) -> None:
    cases = [
        c
        for c in load_cases(
            ["errors-cancellation/upstream-http-error", "errors-cancellation/retry-after-429"]
        )
        if c.dialect == "bedrock-converse" and not c.stream
    ]
    assert cases
    for case in cases:
        script = case.conversation().scripts[0]
        (error,) = [st for st in script.steps if isinstance(st, HttpError)]
        up.load(script)
        exc = _converse_error(bedrock)
        assert exc.response["Error"]["Code"] == EXCEPTIONS[error.status], case.id
        assert exc.response["ResponseMetadata"]["HTTPStatusCode"] == error.status


COHERE = {
    400: cohere.errors.BadRequestError,
    401: cohere.errors.UnauthorizedError,
    403: cohere.errors.ForbiddenError,
    404: cohere.errors.NotFoundError,
    422: cohere.errors.UnprocessableEntityError,
    429: cohere.errors.TooManyRequestsError,
    500: cohere.errors.InternalServerError,
    503: cohere.errors.ServiceUnavailableError,
}
"""cohere SDK ``v2/raw_client.py``: the class it raises per status (``errors/``)."""


@pytest.mark.parametrize("status", sorted(COHERE))
def test_every_cohere_status_reaches_the_sdk_as_its_error(up: MockUpstream, status: int) -> None:
    body = get_dialect("cohere").error_body(status, "The mock says no.")
    up.load(Script("cohere", (HttpError(status, body),)))
    with httpx.Client() as http:
        client = cohere.ClientV2(api_key="k", base_url=up.base_url, max_retries=0, httpx_client=http)
        with pytest.raises(cohere.core.api_error.ApiError) as info:
            client.chat(model="command-a-reasoning-08-2025", messages=[{"role": "user", "content": "hi"}])
    assert type(info.value) is COHERE[status]
    assert info.value.status_code == status
    assert isinstance(info.value.body, dict)
    assert info.value.body["message"] == "The mock says no."


def _chat(up: MockUpstream, rules: str, messages: list[Any]) -> openai.APIStatusError:
    up.load(Script("openai-chat", (TURN,), variant="reasoning_content", provider_rules=rules))
    client = openai.OpenAI(base_url=up.base_url + "/v1", api_key="sk-test", max_retries=0)
    with client as oc, pytest.raises(openai.APIStatusError) as info:
        oc.chat.completions.create(model="m", messages=messages)
    return info.value


ORPHAN: list[Any] = [
    {"role": "user", "content": "hi"},
    {"role": "tool", "tool_call_id": "c1", "content": "x"},
]


@pytest.mark.parametrize("rules", ["openai", "deepseek-v4"])
def test_a_chat_history_the_provider_rejects_reaches_the_sdk_as_bad_request(
    up: MockUpstream, rules: str
) -> None:
    exc = _chat(up, rules, ORPHAN)
    assert type(exc) is openai.BadRequestError
    assert exc.status_code == 400
    assert exc.request_id == REQUEST_ID
    assert exc.type == "invalid_request_error"
    assert "role 'tool' must be a response to a" in exc.message
    assert exc.code == (None if rules == "openai" else "invalid_request_error")


def test_openai_rejects_an_assistant_message_without_content(up: MockUpstream) -> None:
    null = _chat(up, "openai", [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None}])
    assert (type(null), null.code, null.param) == (openai.BadRequestError, None, "messages.[1].content")


def test_deepseek_accepts_what_only_openai_rejects(up: MockUpstream) -> None:
    up.load(Script("openai-chat", (TURN,), variant="reasoning_content", provider_rules="deepseek-v4"))
    with openai.OpenAI(base_url=up.base_url + "/v1", api_key="sk-test", max_retries=0) as oc:
        answer = oc.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}, {"role": "assistant", "content": None}]
        )
    assert answer.choices[0].message.content == "Hi!"


def test_a_gemini_history_google_rejects_reaches_the_sdk_as_client_error(up: MockUpstream) -> None:
    up.load(Script("gemini", (TURN,), variant="thought", provider_rules="gemini-3"))
    contents: Any = [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "assistant", "parts": [{"text": "Hello"}]},
        {"role": "user", "parts": [{"text": "and?"}]},
    ]
    client = genai.Client(api_key="k", http_options=genai.types.HttpOptions(base_url=up.base_url))
    with client as gc, pytest.raises(genai_errors.ClientError) as info:
        gc.models.generate_content(model="gemini-3-flash-preview", contents=contents)
    assert (info.value.code, info.value.status) == (400, "INVALID_ARGUMENT")
    assert info.value.message == "Please use a valid role: user, model."


@pytest.mark.parametrize("status", [400, 404, 500])
def test_every_ollama_error_reaches_the_sdk_as_response_error(up: MockUpstream, status: int) -> None:
    """ollama SDK ``_client.py``: ``ResponseError(r.text, status_code)``, reading ``error`` from the JSON."""
    import ollama

    up.load(
        Script("ollama", (HttpError(status, get_dialect("ollama").error_body(status, "model not found")),))
    )
    client = ollama.Client(host=up.base_url)
    with pytest.raises(ollama.ResponseError) as info:
        client.chat(model="qwen3", messages=[{"role": "user", "content": "hi"}])
    assert (info.value.status_code, info.value.error) == (status, "model not found")
    client._client.close()


def test_anthropics_strict_rejection_reaches_the_sdk_as_bad_request(up: MockUpstream) -> None:
    import anthropic

    up.load(Script("anthropic-messages", (TURN,), variant="thinking", provider_rules="anthropic"))
    messages: Any = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": [{"type": "thinking", "signature": "EqQBsig"}, {"type": "text", "text": "Hi"}],
        },
        {"role": "user", "content": "and?"},
    ]
    client = anthropic.Anthropic(base_url=up.base_url + "/anthropic", api_key="sk-ant-test", max_retries=0)
    with client as ac, pytest.raises(anthropic.BadRequestError) as info:
        ac.messages.create(model="claude-sonnet-4-5", max_tokens=16, messages=messages)
    assert info.value.status_code == 400
    assert isinstance(info.value.body, dict)
    assert info.value.body["error"] == {
        "type": "invalid_request_error",
        "message": "messages.1.content.0.thinking.thinking: Field required",
    }
    assert info.value.request_id == REQUEST_ID


def test_the_responses_schema_rejection_reaches_the_sdk_as_bad_request(up: MockUpstream) -> None:
    up.load(Script("openai-responses", (TURN,), variant="summary", provider_rules="openai"))
    items: Any = [
        {"role": "user", "content": "hi"},
        {"type": "response.reasoning_summary_part.added", "item_id": "rs_1", "summary_index": 0},
    ]
    client = openai.OpenAI(base_url=up.base_url + "/v1", api_key="sk-test", max_retries=0)
    with client as oc, pytest.raises(openai.BadRequestError) as info:
        oc.responses.create(model="gpt-5", input=items, store=False)
    assert (info.value.status_code, info.value.code, info.value.type) == (
        400,
        "invalid_value",
        "invalid_request_error",
    )
    assert (
        "- Invalid value: 'response.reasoning_summary_part.added'. Supported values are: "
        in info.value.message
    )
    assert info.value.request_id == REQUEST_ID
