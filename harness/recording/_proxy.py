"""``thinkwire record``: a transparent reverse proxy that forwards every upstream chunk the moment it arrives
and writes a redacted cassette. It never buffers a stream: one write per read."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from harness._errors import CassetteError, FlagError
from harness.net import (
    DEFAULT_GRACE,
    Request,
    Responder,
    Server,
    Waker,
    check_port,
    drain,
    listen_error,
    remove_port_file,
    say,
    write_port_file,
)
from harness.recording._cassette import FORMAT, TRUNCATED, VERSION, CassetteWriter, encode_bytes
from harness.recording._redact import Redactor
from harness.recording._replay import detect_dialect

__all__ = ["Recorder", "parse_listen", "record_forever"]

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
_LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def parse_listen(value: str) -> tuple[str, int]:
    """``--listen HOST:PORT`` (loopback only) -> (host, port)."""
    host, colon, port = value.rpartition(":")
    if not colon or not port.isdigit():
        raise FlagError(f"--listen {value!r}: expected HOST:PORT with a numeric port, e.g. 127.0.0.1:8089")
    if host not in _LOOPBACK:
        raise FlagError(f"--listen {value!r}: the recorder listens on loopback only; use 127.0.0.1:{port}")
    return "127.0.0.1", check_port(int(port), "--listen")


@dataclass(slots=True)
class _Live:
    """One exchange in flight."""

    ident: int
    ended: bool = False
    reason: str = ""


class Recorder:
    """``Recorder(upstream, out)``: ``start()`` -> base URL; point the client here; ``stop()``.
    ``mode``: ``x`` refuses an existing ``out``, ``a`` appends to it, ``w`` replaces it.

    Redaction happens in memory before a line is written. Each line is appended and flushed as it happens;
    a chunk's line is written before the chunk is forwarded, and an exchange's end line before the response
    ends at the client. Whatever a client has seen complete is complete in the file.

    On shutdown new requests get 503 and in-flight exchanges get ``grace`` seconds; then each is closed
    with an end line ``truncated`` and cut. Per-exchange state lives only while the exchange is in flight,
    so memory stays flat however many requests pass.
    """

    def __init__(
        self,
        upstream: str,
        out: Path,
        *,
        port: int = 0,
        dialect: str | None = None,
        redactor: Redactor | None = None,
        mode: str = "x",
        waker: Waker | None = None,
    ) -> None:
        self.upstream = upstream.rstrip("/")
        self.out = out
        self.dialect = dialect
        self.redactor = redactor or Redactor()
        self.mode = mode
        self.waker = waker
        self.server = Server(self._handle, port=port)
        self._writer: CassetteWriter | None = None
        self._created = False
        self._client: httpx.AsyncClient | None = None
        self._live: dict[int, _Live] = {}
        self.closing = False
        self.exchanges = 0
        """Exchanges whose end line is written."""
        self.truncated = 0

    @property
    def base_url(self) -> str:
        return self.server.base_url

    @property
    def in_flight(self) -> int:
        return len(self._live)

    def start(self) -> str:
        self._created = not self.out.exists()
        head = {
            "format": FORMAT,
            "version": VERSION,
            "recorded_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "dialect": self.dialect,
            "upstream": self.redactor.url(self.upstream),
        }
        self._writer = CassetteWriter(self.out, head, self.mode)
        try:
            return self.server.start()
        except RuntimeError as exc:
            self._writer.close()
            self.discard_if_empty()
            port = self.server.port
            raise FlagError(
                f"--listen 127.0.0.1:{port}: cannot listen ({listen_error(exc)}); "
                "choose a free port or port 0"
            ) from None

    def discard_if_empty(self) -> None:
        """After a failed start: leave no header-only file this recorder created."""
        if self._created and self._writer is not None and self._writer.next_id == 0:
            self.out.unlink(missing_ok=True)

    def shutdown(self, grace: float) -> None:
        """Answer new requests 503 and give in-flight exchanges ``grace`` seconds (the waker's next
        stop cuts it short); :meth:`stop` then closes the rest with an end line ``truncated``."""
        self.closing = True
        if self._live and self.waker is not None and grace > 0:
            drain(self.waker, lambda: len(self._live), grace)

    def stop(self) -> None:
        self.closing = True
        loop = self.server.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError, TimeoutError):  # the loop is already gone
                asyncio.run_coroutine_threadsafe(self._close(), loop).result(5.0)
        self.server.stop()
        for live in list(self._live.values()):  # pragma: no cover - the loop never ran _close
            self._end(live, TRUNCATED)
        if self._writer is not None:
            self._writer.close()

    async def _close(self) -> None:
        """On the loop: every exchange still in flight gets its end line, then the client closes."""
        for live in list(self._live.values()):
            self._end(live, TRUNCATED)
        if self._client is not None:
            client, self._client = self._client, None
            await client.aclose()

    def __enter__(self) -> Recorder:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- lines -----------------------------------------------------------------------------------
    def _line(self, live: _Live, obj: dict[str, Any]) -> bool:
        """Write one line of an exchange unless it is already closed; False when it is."""
        if live.ended or self._writer is None:
            return False
        self._writer.line(obj)
        return True

    def _end(self, live: _Live, reason: str) -> None:
        if self._line(live, {"type": "end", "id": live.ident, "reason": reason}):
            live.ended, live.reason = True, reason
            self.exchanges += 1
            if reason == TRUNCATED:
                self.truncated += 1

    # -- one exchange ----------------------------------------------------------------------------
    async def _handle(self, request: Request, responder: Responder) -> None:
        if self.closing or self._writer is None:
            body = b"thinkwire record: shutting down\n"
            await responder.start(503, [("content-type", "text/plain")], framing="length", length=len(body))
            await responder.write(body)
            await responder.end()
            return
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(300.0, connect=10.0))
        live = _Live(self._writer.new_id())
        self._live[live.ident] = live
        try:
            await self._exchange(live, request, responder, self._client)
        finally:
            self._live.pop(live.ident, None)
            if not live.ended:  # cancelled (stop) or an unexpected error
                self._end(live, TRUNCATED if self.closing else "disconnect: recorder error")
            if self.closing and not self._live and self.waker is not None:
                self.waker.poke()

    async def _exchange(
        self, live: _Live, request: Request, responder: Responder, client: httpx.AsyncClient
    ) -> None:
        ident, redact = live.ident, self.redactor
        t0 = time.monotonic_ns()
        if self.dialect is None:
            self.dialect = detect_dialect(request.path)
        self._line(
            live,
            {
                "type": "request",
                "id": ident,
                "method": request.method,
                "path": redact.target(request.target),
                "headers": [list(h) for h in redact.header_pairs(request.headers)],
                "t_ms": 0.0,
                **_body(redact.body(request.body)),
            },
        )
        headers = [(k, v) for k, v in request.headers if k.lower() not in _HOP] + [
            ("accept-encoding", "identity")
        ]
        upstream_req = client.build_request(
            request.method, self.upstream + request.target, headers=headers, content=request.body
        )
        try:
            resp = await client.send(upstream_req, stream=True)
        except httpx.HTTPError as exc:
            await self._unreachable(live, responder, exc)
            return
        try:
            await self._relay(live, resp, responder, t0)
        except httpx.HTTPError as exc:
            self._end(live, f"disconnect: {type(exc).__name__}")
            responder.abort()
        except ConnectionError:
            self._end(live, "client-disconnect")
            responder.abort()
        finally:
            await resp.aclose()

    async def _unreachable(self, live: _Live, responder: Responder, exc: httpx.HTTPError) -> None:
        """The upstream could not be reached: recorded (credentials out of the reason) and answered
        as a 502 naming why."""
        redact = self.redactor
        why = f"{type(exc).__name__}: {exc}".replace(self.upstream, redact.url(self.upstream))
        why = redact.text(why)[:200]
        self._line(live, {"type": "response", "id": live.ident, "status": 502, "headers": []})
        self._end(live, f"upstream error: {why}")
        body = json.dumps({"error": {"message": f"thinkwire record: upstream error: {why}"}}).encode()
        await responder.start(502, [("content-type", "application/json")], framing="length", length=len(body))
        await responder.write(body)
        await responder.end()

    async def _relay(self, live: _Live, resp: httpx.Response, responder: Responder, t0: int) -> None:
        """The upstream's response, each chunk recorded then forwarded as it arrives; the end line
        written before the client sees the end."""
        ident = live.ident
        out_headers = [(k, v) for k, v in resp.headers.multi_items() if k.lower() not in _HOP]
        self._line(
            live,
            {
                "type": "response",
                "id": ident,
                "status": resp.status_code,
                "headers": [list(h) for h in self.redactor.header_pairs(out_headers)],
            },
        )
        await responder.start(resp.status_code, out_headers)
        offset = 0
        async for chunk in resp.aiter_raw():
            if responder.closed.is_set():
                self._end(live, "client-disconnect")
                break
            if not self._line(  # recorded first: the file never lacks bytes a client has seen
                live,
                {
                    "type": "chunk",
                    "id": ident,
                    "offset": offset,
                    "t_ms": round((time.monotonic_ns() - t0) / 1e6, 3),
                    **encode_bytes(chunk),
                },
            ):
                break  # truncated by shutdown
            offset += len(chunk)
            await responder.write(chunk)
        else:
            self._end(live, "complete")  # before the client sees the end
            if live.reason == "complete":  # (not truncated by a shutdown meanwhile)
                await responder.end()
                return
        responder.abort()


def _body(data: bytes) -> dict[str, str]:
    enc = encode_bytes(data)
    return {"body": enc["text"]} if "text" in enc else {"body_base64": enc["base64"]}




def record_forever(
    upstream: str,
    out: Path,
    *,
    port: int = 0,
    dialect: str | None = None,
    redactor: Redactor | None = None,
    mode: str = "x",
    port_file: Path | None = None,
    grace: float = DEFAULT_GRACE,
    waker: Waker | None = None,
) -> int:
    """Record until SIGTERM / SIGINT (or ``waker.stop()``); 0 after SIGTERM, 130 after SIGINT."""
    if grace < 0:
        raise FlagError(f"--grace {grace}: expected seconds >= 0 (0 truncates in-flight exchanges at once)")
    if not upstream.startswith(("http://", "https://")):
        raise FlagError(f"--upstream {upstream!r}: expected an http:// or https:// base URL")
    waker = waker or Waker()
    rec = Recorder(upstream, out, port=port, dialect=dialect, redactor=redactor, mode=mode, waker=waker)
    try:
        url = rec.start()
    except (CassetteError, FlagError):
        waker.close()
        raise
    waker.install()
    try:
        if port_file is not None:
            try:
                write_port_file(port_file, rec.server.port)
            except FlagError:
                rec.stop()
                rec.discard_if_empty()
                raise
        say(
            f"thinkwire record: {url} -> {rec.redactor.url(upstream)}; writing {out} "
            "(stop with Ctrl-C or SIGTERM)"
        )
        waker.wait_stop()
        rec.shutdown(grace)
    finally:
        rec.stop()
        remove_port_file(port_file, rec.server.port)
        waker.close()
    cut = f" ({rec.truncated} truncated)" if rec.truncated else ""
    say(f"thinkwire record: {rec.exchanges} exchange(s) written to {out}{cut}")
    return waker.exit_code
