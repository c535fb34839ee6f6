"""What a SUT's exception says, read from any SDK's shape: its HTTP status, the provider's error code, its
message, and the package that raised it. An exception is the SUT's answer, never a harness fault, so
reading it never raises."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from harness.drivers._layer import frames_of, named_layer

__all__ = ["Raised", "http_status", "raised", "read_fields"]

_CHAIN = 8  # exceptions followed through __cause__ / __context__


@dataclass(frozen=True, slots=True)
class Raised:
    """An exception as the SUT's users see it."""

    type: str
    message: str
    status: int | None = None  # the HTTP status it carries, if any
    code: str | None = None  # the provider's error code or status word, if any
    where: str = ""  # "raised in PKG VERSION PATH:LINE, under PKG VERSION" ("": no package named)

    @property
    def error(self) -> str:
        """``Type: message``, the line findings quote."""
        return f"{self.type}: {self.message}" if self.message else self.type


def http_status(value: Any) -> int | None:
    """``value`` as an HTTP status (an integer or a numeric string from 100 to 599), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, int) and 100 <= value <= 599:
        return value
    return None


def _word(value: Any) -> str | None:
    """A code: a non-numeric string (a status word, an error code)."""
    if isinstance(value, str) and value.strip() and http_status(value) is None:
        return value.strip()
    return None


def _get(obj: Any, name: str) -> Any:
    """``obj.name`` or ``obj[name]``, never raising (a property of an SDK object may)."""
    try:
        if isinstance(obj, Mapping):
            return obj.get(name)
        return getattr(obj, name, None)
    except Exception:
        return None


def read_fields(obj: Any) -> tuple[int | None, str | None]:
    """(HTTP status, code) of one exception or error object, without following its chain.

    The HTTP status is an integer from 100 to 599 found in the usual places: ``status_code``, an integer or
    numeric ``status``, an integer ``code``, a ``response``'s status, an AWS-style response dict. A word
    status such as "RESOURCE_EXHAUSTED" or a string code such as "rate_limit_exceeded" is the code. The
    adapter protocol's ``error`` fields go through the same reading, so a JS error is read as a Python one.
    """
    status = code = None
    response = _get(obj, "response")
    meta = _get(response, "ResponseMetadata")  # botocore: response is a dict
    for value in (
        _get(obj, "status_code"),
        _get(obj, "status"),
        _get(obj, "statusCode"),
        _get(obj, "http_status"),
        _get(obj, "code") if isinstance(_get(obj, "code"), int) else None,
        _get(response, "status_code"),
        _get(response, "status"),
        _get(meta, "HTTPStatusCode"),
    ):
        status = http_status(value)
        if status is not None:
            break
    body = _get(obj, "body")
    inner = _get(body, "error")
    for value in (
        _get(obj, "status"),
        _get(obj, "code"),
        _get(_get(response, "Error"), "Code"),
        _get(inner, "code"),
        _get(inner, "status"),
        _get(inner, "type"),
    ):
        code = _word(value)
        if code is not None:
            break
    return status, code


def _message(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = ""
    if not text:
        message = _get(exc, "message")
        text = message if isinstance(message, str) else ""
    return text


def raised(exc: BaseException) -> Raised:
    """What ``exc`` says: its type and message, and the first status and code found on it or on the
    exceptions it was raised from."""
    status = code = None
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen and len(seen) < _CHAIN:
        seen.add(id(cur))
        s, c = read_fields(cur)
        status = status if status is not None else s
        code = code if code is not None else c
        cur = cur.__cause__ or cur.__context__
    return Raised(type(exc).__name__, _message(exc), status, code, named_layer(frames_of(exc)))
