"""Redaction before anything touches disk: credentials in headers, query strings and JSON bodies.

Rule: a secret is replaced by ``<redacted>`` in the recorder's memory before the cassette line is
built; users add header-name regexes and dotted JSON paths (``metadata.user_id``, ``a.*.token``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["REDACTED", "Redactor"]

REDACTED = "<redacted>"
_HEADERS = (
    r"authorization",
    r"proxy-authorization",
    r"x-api-key",
    r"api-key",
    r"x-goog-api-key",
    r"cookie",
    r"set-cookie",
    r"openai-organization",
    r"x-amz-security-token",
    r"x-amz-date-token",
)
_QUERY = (
    "key",
    "api_key",
    "apikey",
    "token",
    "access_token",
    "sig",
    "signature",
    "x-amz-signature",
    "x-amz-credential",
    "x-amz-security-token",
)
_JSON_KEYS = re.compile(r"(api[_-]?key|secret|password|token|authorization)$", re.IGNORECASE)


@dataclass
class Redactor:
    headers: Sequence[str] = ()  # extra header-name regexes
    json_paths: Sequence[str] = ()  # extra dotted paths into JSON bodies ("*" matches any key)
    _header_re: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._header_re = re.compile("^(?:" + "|".join([*_HEADERS, *self.headers]) + ")$", re.IGNORECASE)

    def header_pairs(self, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        return [(k, REDACTED if self._header_re.match(k) else v) for k, v in pairs]

    def target(self, target: str) -> str:
        parts = urlsplit(target)
        if not parts.query:
            return target
        query = [
            (k, REDACTED if k.lower() in _QUERY else v)
            for k, v in parse_qsl(parts.query, keep_blank_values=True)
        ]
        return urlunsplit(parts._replace(query=urlencode(query, safe="<>")))

    def body(self, data: bytes) -> bytes:
        try:
            obj = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            return data
        changed = self._walk(obj)
        for path in self.json_paths:
            changed |= _redact_path(obj, path.split("."))
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() if changed else data

    def _walk(self, obj: Any) -> bool:
        changed = False
        if isinstance(obj, dict):
            for k, v in obj.items():
                if isinstance(v, str) and _JSON_KEYS.search(k) and k not in ("max_tokens", "budget_tokens"):
                    obj[k] = REDACTED
                    changed = True
                else:
                    changed |= self._walk(v)
        elif isinstance(obj, list):
            for v in obj:
                changed |= self._walk(v)
        return changed


def _redact_path(obj: Any, path: list[str]) -> bool:
    if not path:
        return False
    head, rest = path[0], path[1:]
    keys: Iterable[Any]
    if isinstance(obj, dict):
        keys = list(obj) if head == "*" else ([head] if head in obj else [])
    elif isinstance(obj, list):
        keys = (
            range(len(obj))
            if head == "*"
            else ([int(head)] if head.isdigit() and int(head) < len(obj) else [])
        )
    else:
        return False
    changed = False
    for k in keys:
        if rest:
            changed |= _redact_path(obj[k], rest)
        else:
            obj[k] = REDACTED
            changed = True
    return changed
