"""HAR 1.2 files from browser devtools, mitmproxy, Playwright or Charles, read into :class:`Foreign`
interactions. HAR has its own body rules, so its reader is separate from the vcrpy one."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness._errors import CassetteError
from harness.recording._foreign import Foreign, check_request

__all__ = ["read_har"]


def _headers(raw: Any, where: str) -> list[tuple[str, str]]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(
        isinstance(h, Mapping) and isinstance(h.get("name"), str) for h in raw
    ):
        raise CassetteError(f"{where}: headers must be a list of {{name, value}} objects")
    return [(h["name"], str(h.get("value", ""))) for h in raw]


def _text(obj: Any, where: str) -> bytes | None:
    """A postData / content body: None when the HAR writer did not keep it."""
    if not isinstance(obj, Mapping) or obj.get("text") is None:
        return None
    text = obj["text"]
    if not isinstance(text, str):
        raise CassetteError(f"{where}: text must be a string, not {type(text).__name__}")
    if obj.get("encoding") == "base64":
        try:
            return base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise CassetteError(f"{where}: text is marked base64 but is not ({exc})") from None
    return text.encode("utf-8")


def _entry(path: Path, i: int, entry: Any) -> Foreign:
    where = f"{path}: entry {i}"
    if not isinstance(entry, Mapping):
        raise CassetteError(f"{where}: expected an object with 'request' and 'response'")
    req, resp = entry.get("request"), entry.get("response")
    if not isinstance(req, Mapping) or not isinstance(resp, Mapping):
        raise CassetteError(f"{where}: needs 'request' and 'response' objects")
    url, method = check_request(where, "url", req.get("url"), req.get("method"))
    status = resp.get("status")
    if isinstance(status, bool) or not isinstance(status, int):
        raise CassetteError(f"{where}: response.status must be an integer, not {status!r}")
    headers = _headers(resp.get("headers"), f"{where}: response")
    body = _text(resp.get("content"), f"{where}: response.content")
    skip, notes = "", []
    if status == 0:
        skip = "no response (HAR status 0: the request failed or was blocked)"
    elif body is None:
        skip = "the HAR writer kept no response body (content.text absent)"
    if any(k.lower() == "content-encoding" for k, _ in headers):
        headers = [(k, v) for k, v in headers if k.lower() != "content-encoding"]
        notes.append("content-encoding header dropped: HAR stores the decoded body")
    timings = entry.get("timings")
    wait = timings.get("wait") if isinstance(timings, Mapping) else None
    request_body = _text(req.get("postData"), f"{where}: request.postData")
    if request_body is None and isinstance(req.get("postData"), Mapping):
        notes.append("request body kept as form params only: not converted")
    return Foreign(
        index=i,
        method=method,
        url=url,
        request_headers=_headers(req.get("headers"), f"{where}: request"),
        request_body=request_body or b"",
        status=status,
        response_headers=headers,
        response_body=body or b"",
        t_ms=float(wait) if isinstance(wait, int | float) and wait > 0 else 0.0,
        notes=tuple(notes),
        skip=skip,
    )


def read_har(path: Path, data: bytes) -> list[Foreign]:
    """``log.entries[]`` are read in order; a body is ``content.text``, base64 when ``content.encoding`` says
    so. HAR writers store the body already content-decoded, so a ``Content-Encoding`` header left beside it
    is dropped with a note, never applied twice. An entry without a response, status 0, or without its body
    text cannot be replayed and is skipped with that reason. A file that is not HAR is one
    :class:`CassetteError` naming the file, the entry and the field."""
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise CassetteError(f"{path}: not valid JSON ({exc}); a HAR file is JSON") from None
    log = doc.get("log") if isinstance(doc, Mapping) else None
    entries = log.get("entries") if isinstance(log, Mapping) else None
    if not isinstance(entries, list):
        raise CassetteError(f"{path}: not a HAR file (expected log.entries to be a list)")
    return [_entry(path, i, e) for i, e in enumerate(entries)]
