"""The front-door HTTP client shared by the gateway and URL drivers: one request, streamed, observed.

Rule: bytes are read raw (never ``iter_lines``: it splits on U+2028), each read is recorded as a
``client``/``chunk`` entry, decoded by the front door's observer, and every canonical event is both
recorded and reported to the upstream's ClientSide so that gates can open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx

from harness.dialects import get_dialect
from harness.drivers._base import CaseContext, DriverTimeout, TurnOutcome, gate_met
from harness.events import Event, Message, StreamError

if TYPE_CHECKING:
    from harness.upstream import Gate

__all__ = ["FrontDoor"]


class FrontDoor:
    """Speaks a SUT's front-door dialect over HTTP."""

    def __init__(
        self,
        base_url: str,
        *,
        dialect: str,
        variant: str,
        path: str,
        observer_options: dict[str, Any] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.dialect = get_dialect(dialect)
        self.variant = variant
        self.path = path
        self.observer_options = observer_options or {}
        self.http = httpx.Client(timeout=httpx.Timeout(30.0, connect=5.0))

    def close(self) -> None:
        self.http.close()

    def send(self, ctx: CaseContext, turn: int, messages: list[Message], cancel: Gate | None) -> TurnOutcome:
        spec = self.dialect.build_request(
            messages, model=ctx.model, stream=ctx.case.stream, variant=self.variant
        )
        url = self.base_url + (self.path or spec.path)
        tl = ctx.timeline
        out = TurnOutcome()
        tl.add("client", "request", turn=turn, data=_json_bytes(spec.body), url=url)
        timeout = httpx.Timeout(ctx.timeout, connect=5.0)

        def emit(events: list[Event]) -> None:
            for ev in events:
                tl.add("client", "event", event=ev, turn=turn)
                ctx.client.observe(ev)
                out.events.append(ev)

        try:
            with self.http.stream(
                "POST", url, json=spec.body, headers=dict(spec.headers), timeout=timeout
            ) as resp:
                out.status = resp.status_code
                tl.add(
                    "client", "status", turn=turn, status=resp.status_code, headers=dict(resp.headers.items())
                )
                if resp.status_code >= 400:
                    body = resp.read()
                    tl.add("client", "chunk", data=body, turn=turn)
                    emit([StreamError(_error_text(body), status=resp.status_code)])
                    tl.add("client", "end", turn=turn)
                    return out
                if not ctx.case.stream:
                    body = resp.read()
                    tl.add("client", "chunk", data=body, turn=turn)
                    emit(self.dialect.observe_response(body, **self.observer_options))
                    tl.add("client", "end", turn=turn)
                    return out
                observer = self.dialect.observer(self.variant, **self.observer_options)
                for chunk in resp.iter_raw():
                    tl.add("client", "chunk", data=chunk, turn=turn)
                    emit(observer.feed(chunk))
                    if cancel is not None and gate_met(out.events, cancel):
                        tl.add("client", "cancel", turn=turn)
                        out.cancelled = True
                        return out
                emit(observer.end())
                tl.add("client", "end", turn=turn)
        except httpx.TimeoutException as exc:
            tl.add("client", "error", turn=turn, error=f"timeout: {exc!r}")
            raise DriverTimeout(f"no answer from the SUT within {ctx.timeout:.0f}s on turn {turn}") from None
        except httpx.HTTPError as exc:
            tl.add("client", "error", turn=turn, error=repr(exc))
            emit([StreamError(f"transport error: {exc!r}")])
        return out


def _json_bytes(body: Any) -> bytes:
    from harness._json import dumps_compact

    return dumps_compact(body).encode()


def _error_text(body: bytes) -> str:
    text = body.decode(errors="replace")
    return text[:2000]
