"""One interaction as another tool stored it, the common currency of the ``thinkwire import`` readers and the
converter, and the one check of a stored request's URL and method. It is data only; nothing here decodes or
converts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness._errors import CassetteError

__all__ = ["Foreign", "check_request"]


@dataclass(frozen=True, slots=True)
class Foreign:
    """One interaction as another tool stored it (bodies as stored, before any decoding)."""

    index: int
    method: str
    url: str
    request_headers: list[tuple[str, str]]
    request_body: bytes
    status: int
    response_headers: list[tuple[str, str]]
    response_body: bytes
    t_ms: float = 0.0
    notes: tuple[str, ...] = ()
    skip: str = ""
    """Why this interaction cannot become an exchange (empty: it can)."""

    def header(self, name: str) -> str:
        return ", ".join(v for k, v in self.response_headers if k.lower() == name)


def check_request(where: str, field: str, url: Any, method: Any) -> tuple[str, str]:
    """A stored request's URL and method, or the :class:`CassetteError` naming the field."""
    if not isinstance(url, str) or "://" not in url:
        raise CassetteError(f"{where}: request.{field} must be an absolute URL, not {url!r}")
    if not isinstance(method, str) or not method:
        raise CassetteError(f"{where}: request.method must be a string, not {method!r}")
    return url, method
