"""Each provider's own words for an error, by HTTP status: OpenAI's error object, Anthropic's ``error.type``
and Google's ``status``, a ``google.rpc.Code`` name, taken from the official SDK types and docs. A scenario
names an error once, as a status, a message and maybe a code, and every dialect spells it here as its
provider does."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["anthropic_error", "google_error", "google_pretty", "openai_error", "openai_stream_code"]

_ANTHROPIC_TYPES: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}
"""https://docs.anthropic.com/en/api/errors (HTTP errors); the anthropic SDK's ``types/shared/
error_type.py`` lists the same ``type`` words (``request_too_large`` is the docs' 413 only)."""
_ANTHROPIC_WORDS = frozenset(_ANTHROPIC_TYPES.values()) | {
    "memory_precondition_failed_error", "memory_path_conflict_error", "conflict_error",
}  # fmt: skip

_GOOGLE_STATUS: dict[int, str] = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ABORTED",
    429: "RESOURCE_EXHAUSTED",
    499: "CANCELLED",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
"""https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes and google.rpc.Code (the names
google-genai's ``errors.APIError.status`` carries)."""
_GOOGLE_WORDS = frozenset(_GOOGLE_STATUS.values()) | {
    "OK", "UNKNOWN", "ALREADY_EXISTS", "FAILED_PRECONDITION", "OUT_OF_RANGE", "DATA_LOSS",
}  # fmt: skip

_MEANINGS: dict[str, int] = {
    "rate_limit_exceeded": 429, "rate_limit_error": 429, "RESOURCE_EXHAUSTED": 429, "requests": 429,
    "tokens": 429, "insufficient_quota": 429, "overloaded_error": 529, "server_is_overloaded": 503,
    "UNAVAILABLE": 503, "api_error": 500, "server_error": 500, "INTERNAL": 500,
    "invalid_request_error": 400, "INVALID_ARGUMENT": 400, "authentication_error": 401,
    "UNAUTHENTICATED": 401, "permission_error": 403, "PERMISSION_DENIED": 403, "not_found_error": 404,
    "NOT_FOUND": 404, "timeout_error": 504, "DEADLINE_EXCEEDED": 504,
}  # fmt: skip
"""What another provider's word means, as an HTTP status: a mid-stream error frame carries no status
of its own, so a scenario's ``overloaded_error`` becomes Google's ``UNAVAILABLE`` on Gemini."""


def _status_of(status: int | None, code: str | None) -> int:
    """The HTTP status an error stands for: its own, else what its code means, else 500."""
    if status:
        return status
    return _MEANINGS.get(code or "", 500)


def _fits(code: str, status: int | None) -> bool:
    """A code may stand in a body of ``status`` when it means that status (or nothing known).

    A code from another provider's vocabulary, such as ``rate_limit_exceeded`` on Gemini, is never copied
    into a body: SDKs branch on these fields, and a foreign word is a mock no client ever meets.
    """
    meant = _MEANINGS.get(code)
    return not status or meant is None or meant == status or {meant, status} <= {503, 529}


def _anthropic_type(status: int | None, code: str | None) -> str:
    if code in _ANTHROPIC_WORDS and _fits(code, status):
        return code
    n = _status_of(status, code)
    if n == 503 and not status:  # another provider's "overloaded": Anthropic's is 529
        n = 529
    return _ANTHROPIC_TYPES.get(n, "api_error" if n >= 500 else "invalid_request_error")


def anthropic_error(status: int | None, message: str, code: str | None, request_id: str) -> dict[str, Any]:
    """Anthropic's error body: ``{"type": "error", "error": {"type", "message"}, "request_id"}``
    (anthropic SDK ``types/shared/error_response.py``)."""
    return {
        "type": "error",
        "error": {"type": _anthropic_type(status, code), "message": message},
        "request_id": request_id,
    }


def google_error(status: int | None, message: str, code: str | None = None) -> dict[str, Any]:
    """Google's error body: ``{"error": {"code": <HTTP status>, "message", "status": <rpc name>}}``
    (google-genai ``errors.APIError`` reads ``code``, ``status`` and ``message`` from it)."""
    if code in _GOOGLE_WORDS and _fits(code, status):
        n = status or next((k for k, v in _GOOGLE_STATUS.items() if v == code), 500)
        return {"error": {"code": n, "message": message, "status": code}}
    n = _status_of(status, code)
    n = 503 if n == 529 else n  # another provider's "overloaded": Google's is UNAVAILABLE
    rpc = _GOOGLE_STATUS.get(n, "INTERNAL" if n >= 500 else "INVALID_ARGUMENT")
    return {"error": {"code": n, "message": message, "status": rpc}}


def google_pretty(message: str) -> str:
    """Google's 400 as its OpenAI-compatible endpoint writes it and OpenRouter relays it: pretty-printed,
    non-ASCII kept, a newline at the end (recorded: massgen/MassGen#665)."""
    return json.dumps(google_error(400, message), indent=2, ensure_ascii=False) + "\n"


def openai_stream_code(status: int | None, code: str | None) -> str | None:
    """The ``code`` of a Responses stream's ``error`` event (openai SDK ``ResponseErrorEvent.code``):
    OpenAI's own word, ``server_is_overloaded`` for an overload (wire-formats.md section 4), never
    another provider's (``overloaded_error``)."""
    if code is None or (code not in _ANTHROPIC_WORDS and code not in _GOOGLE_WORDS):
        return code
    n = _status_of(status, code)
    if n in (503, 529):
        return "server_is_overloaded"
    return "rate_limit_exceeded" if n == 429 else "server_error"


def openai_error(
    status: int, message: str, code: str | None = None, *, param: str | None = None
) -> dict[str, Any]:
    """OpenAI's error object, ``{"error": {"message", "type", "param", "code"}}`` (openai SDK
    ``types/shared/error_object.py``): a 429 is ``type`` ``requests`` with ``code``
    ``rate_limit_exceeded`` (https://platform.openai.com/docs/guides/error-codes); other client errors
    ``invalid_request_error``, server errors ``server_error``. ``code`` is OpenAI's own free-form word
    (another provider's rate-limit or overload word is mapped to OpenAI's); ``param`` the request field
    the error is about."""
    if status == 429:
        code = code if code == "insufficient_quota" else "rate_limit_exceeded"
        kind = "insufficient_quota" if code == "insufficient_quota" else "requests"
    else:
        kind = "invalid_request_error" if 400 <= status < 500 else "server_error"
        foreign = code in _ANTHROPIC_WORDS or code in _GOOGLE_WORDS
        code = None if foreign and code != "invalid_request_error" else code
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}
