"""vcrpy and pytest-recording cassettes, YAML or JSON version 1, read into :class:`Foreign` interactions.
vcrpy and its serializers store bodies in several forms, and this module is where they are all accepted."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness._errors import CassetteError
from harness.recording._foreign import Foreign, check_request

__all__ = ["read_vcr"]

_MISSING = (
    "PyYAML is not installed: `thinkwire import` reads vcrpy cassettes with it; "
    "install it with `pip install pyyaml` (in a checkout: `pip install '.[import]'`)"
)


def _load(path: Path, data: bytes) -> Any:
    """A real YAML parser reads the file: PyYAML's safe loader turns ``!!binary`` bodies into bytes and
    constructs no other tag."""
    try:
        import yaml
    except ImportError:
        raise CassetteError(f"{path}: {_MISSING}") from None
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(data, Loader=loader)  # a safe loader: no tag but !!binary is constructed
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise CassetteError(f"{path}: not valid YAML{where}: {problem}") from None


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _headers(raw: Any, where: str) -> list[tuple[str, str]]:
    if raw is None:
        return []
    if not isinstance(raw, Mapping):
        raise CassetteError(f"{where}: headers must be a mapping of name to values, not {type(raw).__name__}")
    out: list[tuple[str, str]] = []
    for name, values in raw.items():
        for v in values if isinstance(values, list) else [values]:
            out.append((_text(name), _text(v)))
    return out


def _dumped(parsed: Any) -> bytes:
    return json.dumps(parsed).encode("utf-8")


def _body(raw: Any, where: str, *, response: bool) -> tuple[bytes, str]:
    """The body bytes and a note when the stored form is not the wire form.

    Every body form vcrpy and its serializers write is accepted: a plain or block-scalar ``string``,
    ``!!binary`` base64 that is often gzip inside, a request body that is a string or bytes, and
    ``parsed_body``. pydantic-ai's serializer stores JSON bodies parsed; they are re-serialised as its own
    deserializer does, with ``json.dumps`` default separators, and the interaction says so.
    """
    if raw is None:
        return b"", ""
    if response and isinstance(raw, Mapping):
        if "string" not in raw:
            raise CassetteError(
                f"{where}: body has no 'string' (vcrpy stores a response body as body.string)"
            )
        raw = raw["string"]
    if isinstance(raw, bytes):
        return raw, ""
    if isinstance(raw, str):
        return raw.encode("utf-8"), ""
    raise CassetteError(f"{where}: body must be a string or !!binary, not {type(raw).__name__}")


def _status(raw: Any, where: str) -> int:
    code = raw.get("code") if isinstance(raw, Mapping) else raw
    if isinstance(code, bool) or not isinstance(code, int) or not 100 <= code <= 599:
        raise CassetteError(f"{where}: status.code must be an HTTP status (100-599), not {code!r}")
    return code


def _interaction(path: Path, i: int, item: Any) -> Foreign:
    where = f"{path}: interaction {i}"
    if not isinstance(item, Mapping):
        raise CassetteError(f"{where}: expected a mapping with 'request' and 'response'")
    req, resp = item.get("request"), item.get("response")
    if not isinstance(req, Mapping):
        raise CassetteError(f"{where}: has no 'request' mapping")
    if not isinstance(resp, Mapping):
        raise CassetteError(f"{where}: has no 'response' mapping (an unanswered request cannot be replayed)")
    uri, method = check_request(where, "uri", req.get("uri"), req.get("method"))
    notes = []
    if "parsed_body" in req:
        req_body = _dumped(req["parsed_body"])
        notes.append("request body stored parsed: re-serialised with json.dumps")
    else:
        req_body, _ = _body(req.get("body"), f"{where}: request", response=False)
    if "parsed_body" in resp:
        resp_body = _dumped(resp["parsed_body"])
        notes.append(
            "response body stored parsed (parsed_body): re-serialised with json.dumps as the "
            "serializer replays it; the provider's own spacing is lost"
        )
    else:
        resp_body, _ = _body(resp.get("body"), f"{where}: response", response=True)
    return Foreign(
        index=i,
        method=method,
        url=uri,
        request_headers=_headers(req.get("headers"), f"{where}: request"),
        request_body=req_body,
        status=_status(resp.get("status"), f"{where}: response"),
        response_headers=_headers(resp.get("headers"), f"{where}: response"),
        response_body=resp_body,
        notes=tuple(notes),
    )


def read_vcr(path: Path, data: bytes) -> list[Foreign]:
    """Anything it cannot read is a :class:`CassetteError` naming the file, the interaction and the field."""
    doc = _load(path, data)
    if not isinstance(doc, Mapping) or not isinstance(doc.get("interactions"), list):
        raise CassetteError(
            f"{path}: not a vcrpy cassette (expected a top-level 'interactions' list; "
            "a HAR file needs --format har)"
        )
    version = doc.get("version", 1)
    if version != 1:
        raise CassetteError(f"{path}: vcrpy cassette version {version!r} (thinkwire reads version 1)")
    return [_interaction(path, i, item) for i, item in enumerate(doc["interactions"])]
