"""``thinkwire record``: a transparent reverse proxy that forwards every upstream chunk to the client
the moment it arrives (one write per read: never buffering a stream) and writes a redacted cassette.

Rule: redaction happens in memory before a line is written; the cassette is appended line by line as
the exchange happens, so a crash loses at most the chunk in flight.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from harness.net import Request, Responder, Server
from harness.recording._cassette import FORMAT, VERSION, encode_bytes
from harness.recording._redact import Redactor
from harness.recording._replay import detect_dialect

__all__ = ["Recorder", "record_forever"]

_HOP = {
    "host",
    "content-length",
    "connection",
    "transfer-encoding",
    "keep-alive",
    "accept-encoding",
    "proxy-connection",
    "te",
    "upgrade",
}


class Recorder:
    """``Recorder(upstream, out)``: ``start()`` -> base URL; point the client here; ``stop()``."""

    def __init__(
        self,
        upstream: str,
        out: Path,
        *,
        port: int = 0,
        dialect: str | None = None,
        redactor: Redactor | None = None,
    ) -> None:
        self.upstream = upstream.rstrip("/")
        self.out = out
        self.dialect = dialect
        self.redactor = redactor or Redactor()
        self.server = Server(self._handle, port=port)
        self._lock = threading.Lock()
        self._ids = 0
        self._client: httpx.AsyncClient | None = None
        self.exchanges = 0

    @property
    def base_url(self) -> str:
        return self.server.base_url

    def start(self) -> str:
        self.out.parent.mkdir(parents=True, exist_ok=True)
        head = {
            "format": FORMAT,
            "version": VERSION,
            "recorded_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "dialect": self.dialect,
            "upstream": self.redactor.target(self.upstream),
        }
        self.out.write_text(json.dumps(head, ensure_ascii=False) + "\n", encoding="utf-8")
        return self.server.start()

    def stop(self) -> None:
        import asyncio

        if self._client is not None and self.server.loop is not None:
            fut = asyncio.run_coroutine_threadsafe(self._client.aclose(), self.server.loop)
            fut.result(5.0)
            self._client = None
        self.server.stop()

    def __enter__(self) -> Recorder:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _line(self, obj: dict[str, Any]) -> None:
        with self._lock, self.out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(obj, ensure_ascii=False) + "\n")

    async def _handle(self, request: Request, responder: Responder) -> None:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(300.0, connect=10.0))
        with self._lock:
            ident = self._ids
            self._ids += 1
        t0 = time.monotonic_ns()
        if self.dialect is None:
            self.dialect = detect_dialect(request.path)
        self._line(
            {
                "type": "request",
                "id": ident,
                "method": request.method,
                "path": self.redactor.target(request.target),
                "headers": [list(h) for h in self.redactor.header_pairs(request.headers)],
                "t_ms": 0.0,
                **_body(self.redactor.body(request.body)),
            }
        )
        headers = [(k, v) for k, v in request.headers if k.lower() not in _HOP] + [
            ("accept-encoding", "identity")
        ]
        upstream_req = self._client.build_request(
            request.method, self.upstream + request.target, headers=headers, content=request.body
        )
        offset = 0
        reason = "complete"
        try:
            resp = await self._client.send(upstream_req, stream=True)
        except httpx.HTTPError as exc:
            self._line({"type": "response", "id": ident, "status": 502, "headers": []})
            self._line({"type": "end", "id": ident, "reason": f"upstream error: {exc!r}"[:200]})
            await responder.start(502, [("content-type", "application/json")])
            await responder.write(json.dumps({"error": {"message": f"thinkwire record: {exc!r}"}}).encode())
            await responder.end()
            return
        try:
            out_headers = (
                [(k, v) for k, v in resp.headers.raw_list() if k.lower() not in _HOP]
                if hasattr(resp.headers, "raw_list")
                else [(k, v) for k, v in resp.headers.multi_items() if k.lower() not in _HOP]
            )
            self._line(
                {
                    "type": "response",
                    "id": ident,
                    "status": resp.status_code,
                    "headers": [list(h) for h in self.redactor.header_pairs(out_headers)],
                }
            )
            await responder.start(resp.status_code, out_headers)
            async for chunk in resp.aiter_raw():
                if responder.closed.is_set():
                    reason = "client-disconnect"
                    break
                await responder.write(chunk)  # forward first, record second: never delay the client
                self._line(
                    {
                        "type": "chunk",
                        "id": ident,
                        "offset": offset,
                        "t_ms": round((time.monotonic_ns() - t0) / 1e6, 3),
                        **encode_bytes(chunk),
                    }
                )
                offset += len(chunk)
            else:
                await responder.end()
        except (httpx.HTTPError, ConnectionError) as exc:
            reason = f"disconnect: {type(exc).__name__}"
            responder.abort()
        finally:
            await resp.aclose()
            self._line({"type": "end", "id": ident, "reason": reason})
            self.exchanges += 1


def _body(data: bytes) -> dict[str, str]:
    enc = encode_bytes(data)
    return {"body": enc["text"]} if "text" in enc else {"body_base64": enc["base64"]}


def record_forever(
    upstream: str, out: Path, *, port: int = 0, dialect: str | None = None, redactor: Redactor | None = None
) -> None:
    rec = Recorder(upstream, out, port=port, dialect=dialect, redactor=redactor)
    url = rec.start()
    print(f"thinkwire record: {url} -> {upstream}; writing {out} (Ctrl-C to stop)", flush=True)  # noqa: T201
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        rec.stop()
        print(f"thinkwire record: {rec.exchanges} exchange(s) written to {out}", flush=True)  # noqa: T201
