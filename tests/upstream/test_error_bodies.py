"""Every error body the mock serves, read by the provider's own official SDK over loopback: the SDK maps
it to the exception class it documents, with the status, the provider's ``type``/``code``/``status``
words and the request id it reads from the headers (openai: ``x-request-id``; anthropic:
``request-id``). The catalog's error cases and a table of statuses per provider both go through it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anthropic
import openai
import pytest
from google import genai
from google.genai import errors as genai_errors

from harness.catalog._case import Case
from harness.dialects import get_dialect
from harness.runner import load_cases
from harness.upstream import HttpError, MockUpstream, Script
from harness.upstream._head import REQUEST_ID

SDK_DIALECTS = ("openai-chat", "openai-responses", "anthropic-messages", "gemini")


def _call(up: MockUpstream, dialect: str) -> None:
    """One request through the dialect's official SDK, retries off; its client is closed after."""
    messages: Any = [{"role": "user", "content": "hi"}]
    if dialect.startswith("openai-"):
        with openai.OpenAI(base_url=up.base_url + "/v1", api_key="sk-test", max_retries=0) as oc:
            if dialect == "openai-chat":
                oc.chat.completions.create(model="m", messages=messages)
            else:
                oc.responses.create(model="m", input="hi")
    elif dialect == "anthropic-messages":
        base = up.base_url + "/anthropic"
        with anthropic.Anthropic(base_url=base, api_key="sk-ant-test", max_retries=0) as ac:
            ac.messages.create(model="m", max_tokens=16, messages=messages)
    else:
        with genai.Client(api_key="k", http_options=genai.types.HttpOptions(base_url=up.base_url)) as gc:
            gc.models.generate_content(model="gemini-3-pro-preview", contents="hi")


def _raised(up: MockUpstream, dialect: str) -> Exception:
    """What the SDK raises on the mock's (loaded) answer."""
    with pytest.raises(Exception) as info:
        _call(up, dialect)
    return info.value


# (status, provider-side code the scenario names or None) -> what each SDK documents
OPENAI = {
    400: openai.BadRequestError,
    401: openai.AuthenticationError,
    403: openai.PermissionDeniedError,
    404: openai.NotFoundError,
    429: openai.RateLimitError,
    500: openai.InternalServerError,
    503: openai.InternalServerError,
}
ANTHROPIC = {
    400: (anthropic.BadRequestError, "invalid_request_error"),
    401: (anthropic.AuthenticationError, "authentication_error"),
    403: (anthropic.PermissionDeniedError, "permission_error"),
    404: (anthropic.NotFoundError, "not_found_error"),
    429: (anthropic.RateLimitError, "rate_limit_error"),
    500: (anthropic.InternalServerError, "api_error"),
    529: (anthropic.InternalServerError, "overloaded_error"),
}
GEMINI = {
    400: (genai_errors.ClientError, "INVALID_ARGUMENT"),
    403: (genai_errors.ClientError, "PERMISSION_DENIED"),
    404: (genai_errors.ClientError, "NOT_FOUND"),
    429: (genai_errors.ClientError, "RESOURCE_EXHAUSTED"),
    500: (genai_errors.ServerError, "INTERNAL"),
    503: (genai_errors.ServerError, "UNAVAILABLE"),
}
# codes the catalog's scenarios name (OpenAI's and Anthropic's words): no provider copies another's
FOREIGN = (None, "rate_limit_exceeded", "overloaded_error")


def _table() -> list[tuple[str, int, str | None]]:
    rows = [(d, s, c) for d in ("openai-chat", "openai-responses") for s in OPENAI for c in FOREIGN]
    rows += [("anthropic-messages", s, c) for s in ANTHROPIC for c in FOREIGN]
    rows += [("gemini", s, c) for s in GEMINI for c in FOREIGN]
    return rows


def assert_documented(exc: Exception, dialect: str, status: int) -> None:
    """The exception class and fields the SDK documents for ``status`` from this provider."""
    if dialect.startswith("openai-"):
        assert type(exc) is OPENAI[status], (status, type(exc))
        assert isinstance(exc, openai.APIStatusError)
        assert exc.status_code == status
        assert exc.request_id == REQUEST_ID
        if status == 429:  # https://platform.openai.com/docs/guides/error-codes
            assert (exc.type, exc.code) == ("requests", "rate_limit_exceeded")
        else:
            assert exc.type == ("server_error" if status >= 500 else "invalid_request_error")
            assert exc.code not in ("overloaded_error", "rate_limit_error", "RESOURCE_EXHAUSTED")
    elif dialect == "anthropic-messages":
        cls, kind = ANTHROPIC[status]
        assert isinstance(exc, cls), (status, type(exc))
        assert isinstance(exc, anthropic.APIStatusError)
        assert exc.status_code == status
        assert exc.request_id == REQUEST_ID
        assert isinstance(exc.body, dict)
        assert exc.body["type"] == "error"
        assert exc.body["error"]["type"] == kind
    else:
        cls, rpc = GEMINI[status]
        assert type(exc) is cls, (status, type(exc))
        assert isinstance(exc, genai_errors.APIError)
        assert (exc.code, exc.status) == (status, rpc)


@pytest.fixture
def served(up: MockUpstream) -> Callable[[Script], Exception]:
    def serve(script: Script) -> Exception:
        up.load(script)
        return _raised(up, script.dialect)

    return serve


@pytest.mark.parametrize(("dialect", "status", "code"), _table())
def test_every_status_reaches_the_sdk_as_the_exception_it_documents(
    served: Callable[[Script], Exception], dialect: str, status: int, code: str | None
) -> None:
    d = get_dialect(dialect)
    body = d.error_body(status, "The mock says no.", code)
    exc = served(Script(dialect, (HttpError(status, body),)))
    assert_documented(exc, dialect, status)


def _catalog_errors() -> list[Case]:
    cases = load_cases(
        [
            "errors-cancellation/upstream-http-error",
            "errors-cancellation/retry-after-429",
            "errors-cancellation/retry-before-first-byte",
        ]
    )
    return [c for c in cases if c.dialect in SDK_DIALECTS and not c.stream]


@pytest.mark.parametrize("case", _catalog_errors(), ids=lambda c: c.id)
def test_every_catalog_error_body_reaches_the_sdk_as_documented(
    served: Callable[[Script], Exception], case: Case
) -> None:
    script = case.conversation().scripts[0]
    (error,) = [st for st in script.steps if isinstance(st, HttpError)]
    exc = served(script)
    assert_documented(exc, case.dialect, error.status)
    if dict(error.headers).get("retry-after") and case.dialect != "gemini":
        response = getattr(exc, "response", None)
        assert response is not None
        assert response.headers["retry-after"] == dict(error.headers)["retry-after"]


def test_the_catalog_covers_every_sdk_dialect() -> None:
    assert {c.dialect for c in _catalog_errors()} == set(SDK_DIALECTS)


def test_a_mid_stream_error_speaks_the_providers_words() -> None:
    """A scenario's ``overloaded_error`` (Anthropic's word) on other providers' error frames."""
    from harness._json import loads
    from harness.events import StreamError, TextDelta

    def frame(dialect: str, variant: str) -> Any:
        em = get_dialect(dialect).emitter(variant)
        return loads(em.feed([TextDelta("Hi"), StreamError("Overloaded", "overloaded_error")])[-1].data)

    assert frame("openai-responses", "summary")["code"] == "server_is_overloaded"
    assert frame("anthropic-messages", "thinking")["error"]["type"] == "overloaded_error"
    assert frame("gemini", "thought")["error"]["status"] == "UNAVAILABLE"
    assert frame("gemini", "thought")["error"]["code"] == 503
