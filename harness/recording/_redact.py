"""Redaction before anything touches disk or stdout: credentials in URLs, headers, query strings and request
bodies, found by rule rather than by a list of known names. A secret is replaced by ``<redacted>`` in
memory before the cassette line or a printed line is built."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from harness._errors import FlagError

__all__ = ["KEPT_FIELDS", "REDACTED", "Redactor", "secret_name"]

REDACTED = "<redacted>"

# Words that make a name secret (compared with each word of the name, lower-cased).
_SECRET_WORDS = frozenset(
    {
        "auth",
        "authorization",
        "authentication",
        "key",
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "passphrase",
        "pwd",
        "credential",
        "credentials",
        "cookie",
        "cookies",
        "session",
        "sessionid",
        "bearer",
        "jwt",
    }
)
# Fragments that make a name secret wherever they appear (names written without separators).
_SECRET_FRAGMENTS = (
    "apikey",
    "secret",
    "password",
    "passwd",
    "credential",
    "cookie",
    "accesskey",
    "privatekey",
    "authtoken",
    "accesstoken",
    "refreshtoken",
    "sessiontoken",
    "sessionid",
)
# Query names that carry a credential although no secret word says so (presigned URLs).
_QUERY_EXTRA = frozenset({"sig", "signature", "x-amz-signature", "x-goog-signature"})
# Header names that identify an account without a secret word in them.
_HEADER_EXTRA = frozenset({"openai-organization", "openai-project", "anthropic-organization-id"})

KEPT_FIELDS = frozenset({"signature", "thoughtsignature", "thought_signature", "encrypted_content"})
"""JSON names (lower-cased) whose values stay byte-exact: reasoning a client must pass back."""
_OPAQUE_TYPES = frozenset({"redacted_thinking", "reasoning.encrypted"})
"""Block types whose ``data`` is opaque reasoning (kept byte-exact)."""

_EDGE = r"(?<![A-Za-z0-9+/_.-])"
_VALUES = (
    _EDGE + r"sk-(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}",  # OpenAI / Anthropic / DeepSeek style keys
    _EDGE + r"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])",  # AWS access key ids
    _EDGE + r"AIza[0-9A-Za-z_-]{30,}",  # Google API keys
    _EDGE + r"gh[pousr]_[A-Za-z0-9]{20,}",  # GitHub tokens
    _EDGE + r"xox[abprs]-[A-Za-z0-9-]{10,}",  # Slack tokens
    r"\bBearer\s+[A-Za-z0-9._~+/=-]{12,}",  # an Authorization value wherever it appears
    _EDGE + r"eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*",  # JWT: header.payload.sig
)
_FORM = re.compile(r"[^\s=&]+=[^\s&]*(?:&[^\s=&]+=[^\s&]*)*")
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def secret_name(name: str) -> bool:
    """Is ``name`` (a header, query or JSON name) the name of a credential?

    A header, query or JSON name is secret when one of its words, split at ``-``, ``_``, ``.`` and
    camelCase, is an auth, key, token, secret, password, credential, cookie or session word.
    """
    low = name.lower()
    if any(f in low.replace("-", "").replace("_", "") for f in _SECRET_FRAGMENTS):
        return True
    return any(w.lower() in _SECRET_WORDS for w in _WORDS.findall(name))


def _compile(patterns: Sequence[str], flag: str) -> list[re.Pattern[str]]:
    out = []
    for p in patterns:
        try:
            out.append(re.compile(p, re.IGNORECASE))
        except re.error as exc:
            raise FlagError(
                f"{flag} {p!r}: not a valid regular expression ({exc}); "
                "escape special characters, e.g. 'x-my-secret' or 'x-tenant-.*'"
            ) from None
    return out


@dataclass
class Redactor:
    """URL userinfo is always secret. Any string value is scanned for credential-shaped values such as
    ``sk-...``, ``AKIA...``, ``Bearer ...`` and JWTs, and a form body is read like a query. Users add name
    regexes with ``--redact-header`` and ``--redact-query``, dotted JSON paths such as ``a.*.token`` with
    ``--redact-json``, and value regexes with ``--redact-value``.

    Reasoning fields that a client must pass back byte for byte are provider output, not credentials, and
    are never touched: a thinking ``signature``, ``encrypted_content``, ``thoughtSignature``, the ``data``
    of a redacted or encrypted reasoning block. Response bodies are recorded as sent, because they are what
    replay serves."""
    headers: Sequence[str] = ()  # extra header-name regexes (full match, case-insensitive)
    json_paths: Sequence[str] = ()  # extra dotted paths into JSON bodies ("*" matches any key)
    queries: Sequence[str] = ()  # extra query-name regexes
    values: Sequence[str] = ()  # extra value regexes (every match is replaced)
    _header_res: list[re.Pattern[str]] = field(init=False, repr=False)
    _query_res: list[re.Pattern[str]] = field(init=False, repr=False)
    _value_re: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._header_res = _compile(self.headers, "--redact-header")
        self._query_res = _compile(self.queries, "--redact-query")
        _compile(self.values, "--redact-value")
        self._value_re = re.compile("|".join(f"(?:{p})" for p in (*_VALUES, *self.values)))

    # -- names -----------------------------------------------------------------------------------
    def secret_header(self, name: str) -> bool:
        return (
            secret_name(name)
            or name.lower() in _HEADER_EXTRA
            or any(r.fullmatch(name) for r in self._header_res)
        )

    def secret_query(self, name: str) -> bool:
        return (
            secret_name(name)
            or name.lower() in _QUERY_EXTRA
            or any(r.fullmatch(name) for r in self._query_res)
        )

    # -- values ----------------------------------------------------------------------------------
    def text(self, s: str) -> str:
        """Credential-shaped values inside free text (a path, an error message, a header value)."""
        return self._value_re.sub(REDACTED, s)

    def header_pairs(self, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        return [(k, REDACTED if self.secret_header(k) else self.text(v)) for k, v in pairs]

    def url(self, url: str) -> str:
        """A full URL: userinfo, secret query values and credential-shaped values removed."""
        parts = urlsplit(url)
        if "@" in parts.netloc:
            parts = parts._replace(netloc=REDACTED + "@" + parts.netloc.rpartition("@")[2])
        return self.target(urlunsplit(parts))

    def target(self, target: str) -> str:
        """A request target (path and query)."""
        parts = urlsplit(target)
        path = self.text(parts.path)
        if not parts.query:
            return urlunsplit(parts._replace(path=path))
        return urlunsplit(parts._replace(path=path, query=self._query(parts.query)))

    def _query(self, query: str) -> str:
        pairs = [
            (k, REDACTED if self.secret_query(k) else self.text(v))
            for k, v in parse_qsl(query, keep_blank_values=True)
        ]
        return urlencode(pairs, safe="<>")

    def body(self, data: bytes) -> bytes:
        """A request body: JSON by name and value (re-serialised only if something was removed; kept
        fields keep their exact value), a form body like a query, other text by value, binary as it
        is."""
        try:
            obj = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                return data
            if _FORM.fullmatch(text):  # application/x-www-form-urlencoded (an OAuth token request)
                cleaned = self._query(text)
            else:
                cleaned = self.text(text)
            return data if cleaned == text else cleaned.encode("utf-8")
        obj, changed = self._walk(obj)
        for path in self.json_paths:
            changed |= _redact_path(obj, path.split("."))
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() if changed else data

    def _walk(self, obj: Any) -> tuple[Any, bool]:
        if isinstance(obj, str):
            cleaned = self.text(obj)
            return cleaned, cleaned != obj
        changed = False
        if isinstance(obj, dict):
            opaque = obj.get("type") in _OPAQUE_TYPES
            for k, v in obj.items():
                low = k.lower()
                if low in KEPT_FIELDS or (opaque and low == "data"):
                    continue
                if secret_name(k) and isinstance(v, str | list | dict):
                    obj[k] = REDACTED
                    changed = True
                    continue
                obj[k], c = self._walk(v)
                changed |= c
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                obj[i], c = self._walk(v)
                changed |= c
        return obj, changed


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
