"""The front-door HTTP client shared by the gateway and URL drivers: one request, streamed, observed. Bytes
are read raw and never split on lines, which would break on U+2028."""

from __future__ import annotations

import socket
import threading
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from harness.dialects import READ_ALL, Reading, get_dialect
from harness.drivers._alarm import alarm
from harness.drivers._base import (
    ERROR_BODY_CAP,
    CancelWatch,
    CaseContext,
    CaseTooBig,
    DriverTimeout,
    TurnOutcome,
)
from harness.drivers._shaping import RequestShape, merge, request_variant, shaping, tool_specs, tools_json
from harness.events import Event, Message, Notice, ReasoningDelta, StreamError
from harness.net import Exchange, WireClient, WireError, shutdown

if TYPE_CHECKING:
    from harness._gate import Gate

__all__ = ["FrontDoor"]


class FrontDoor:
    """Speaks a SUT's front-door dialect over HTTP.

    Each piece the client hands over is recorded as a ``client``/``chunk`` entry and decoded by the front
    door's observer; every canonical event is both recorded and reported to the upstream's ClientSide so
    that gates can open. Reading is bounded by the case's byte cap and its wall-clock deadline: a watchdog
    shuts the socket down, from connecting to the last byte.

    Every request carries the profile's request shaping from ``_shaping``: headers, body fields, tool
    definitions. From the second turn on it echoes reasoning in the carriers the SUT streamed it in, unless
    the profile pins them, and its timeline entry says which carriers were sent and why.
    """

    def __init__(
        self,
        base_url: str,
        *,
        dialect: str,
        variant: str,
        path: str,
        reading: Reading | None = None,
        request: Mapping[str, RequestShape] | None = None,
        build_options: Mapping[str, Any] | None = None,
        values: Mapping[str, str] | None = None,
        echo_pin: str = "",
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.values = dict(values or {})  # the run-wide placeholders (request shaping templates)
        self.dialect = get_dialect(dialect)
        self.variant = variant
        self.path = path
        self.reading = reading or READ_ALL  # the profile's say (None: every carrier, tags split)
        # a twin reading without inline tags, when the profile lets the observer split them
        splits = reading is not None and reading.inline_think
        self.strict = replace(self.reading, inline_think=False) if splits else None
        self.request = request or {}
        self.build_options = dict(build_options or {})
        self.echo_pin = echo_pin  # why reasoning goes back in a fixed carrier ("": where the SUT put it)
        self.http = WireClient()

    def close(self) -> None:
        self.http.close()

    def send(self, ctx: CaseContext, turn: int, messages: list[Message], cancel: Gate | None) -> TurnOutcome:
        options, echo = self._echo(ctx, turn)
        case = ctx.case
        variant = request_variant(self.dialect.name, self.variant, case.dialect, case.variant)
        spec = self.dialect.build_request(
            messages, model=ctx.model, stream=case.stream, variant=variant, **options
        )
        payload, headers, unasked = self._shaped(ctx, dict(spec.body), dict(spec.headers), turn)
        url = self.base_url + (self.path or spec.path)
        tl = ctx.timeline
        out = TurnOutcome()
        body = _json_bytes(payload)
        if echo:
            sent = self._carriers(body, "request") or self._carriers(body, "request", empty=True)
            echo["echo"] = list(sent)
        if unasked:
            echo["unasked"] = list(unasked)
        tl.add("client", "request", turn=turn, data=body, url=url, **echo)
        left = ctx.left()
        if left <= 0:
            raise DriverTimeout(f"the case did not finish within {ctx.timeout:g}s (before turn {turn})")
        read = _Read(ctx, turn, out)
        # The case's wall-clock deadline, whatever the SUT does: a read blocks at most until then,
        # also on a SUT that trickles a byte at a time.
        watchdog = _Watchdog(left)
        within = f"the case did not finish within {ctx.timeout:g}s (turn {turn}"
        exchange: Exchange | None = None
        try:
            exchange = self.http.exchange(url, connect_timeout=min(5.0, left))
            watchdog.attach(exchange.sock)
            exchange.send("POST", body, headers)
            self._answer(read, exchange, watchdog, cancel)
        except _DeadlinePassed:
            raise _deadline(tl, turn, within, exchange) from None
        except (OSError, WireError) as exc:
            if watchdog.fired:
                raise _deadline(tl, turn, within, exchange) from None
            if isinstance(exc, TimeoutError):  # connecting took longer than it may
                tl.add("client", "error", turn=turn, error=f"timeout: {exc!r}")
                raise DriverTimeout(within + ")") from None
            tl.add("client", "error", turn=turn, error=repr(exc))
            read.emit([StreamError(f"transport error: {exc!r}")])
        finally:
            watchdog.cancel()
            if exchange is not None:
                exchange.release(reuse=not watchdog.fired)
        return out

    def _carriers(self, data: bytes, form: str, *, empty: bool = False) -> tuple[str, ...]:
        """The fields reasoning rides in ``data`` (``form``: stream, body or request), when the front
        door's dialect has several (``multi_carrier``); else (). ``empty``: those there but empty."""
        if not self.dialect.multi_carrier:
            return ()
        declared = self.build_options.get("carriers", ())
        return self.dialect.reasoning_carriers(data, form=form, carriers=declared, empty=empty)

    def _echo(self, ctx: CaseContext, turn: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """The request builder's options for turn ``turn`` and what the timeline notes about its echo:
        reasoning goes back in the carriers the SUT streamed it in over the earlier turns (what a client
        that keeps the message it got sends), unless the profile pins them (``echo_pin``); when the SUT
        used no field carrier, in ``front_variant``'s form. The note says which and why, so that a
        finding never blames the SUT for a carrier thinkwire chose."""
        if turn == 0 or not self.dialect.multi_carrier:
            return self.build_options, {}
        form = "stream" if ctx.case.stream else "body"
        answers = [b"".join(e.data for e in ctx.timeline.select("client", "chunk", k)) for k in range(turn)]

        def carriers(*, empty: bool = False) -> list[str]:
            seen: dict[str, None] = {}
            for answer in answers:
                seen.update(dict.fromkeys(self._carriers(answer, form, empty=empty)))
            return list(seen)

        streamed = carriers()
        options = self.build_options
        if self.echo_pin:
            why = self.echo_pin
        elif streamed:
            why = "the carrier(s) the SUT streamed the reasoning in"
            options = {**options, "echo_fields": tuple(streamed)}
        elif streamed := carriers(empty=True):  # read again only when no field held text
            why = "the field(s) the SUT sent empty (a client that keeps the message it got sends them)"
            options = {**options, "echo_fields": tuple(streamed)}
        else:
            why = f"the SUT streamed reasoning in no field: front_variant {self.variant!r}'s form"
        return options, {"streamed": streamed, "echo_why": why}

    def _answer(self, read: _Read, resp: Exchange, watchdog: _Watchdog, cancel: Gate | None) -> None:
        """Read the SUT's answer: an error body, one whole body, or a stream observed as it arrives
        (a cancel gate met ends it early). With an undeclared inline-think contract a twin strict
        observer notes what a leading tag would have been (``_inline_notice``)."""
        ctx, turn, tl, out = read.ctx, read.turn, read.ctx.timeline, read.out
        out.status = resp.status
        tl.add("client", "status", turn=turn, status=resp.status, headers=dict(resp.headers))
        if resp.status >= 400:
            body = read.budget.read_all(resp, ERROR_BODY_CAP, error=True)
            watchdog.check()
            read.emit([StreamError(_error_text(body), status=resp.status)])
            tl.add("client", "end", turn=turn)
            return
        strict = self.strict
        if not ctx.case.stream:
            body = read.budget.read_all(resp, ctx.max_bytes)
            watchdog.check()
            events = self.dialect.observe_response(body, reading=self.reading)
            if strict is not None:
                events += _inline_notice(events, self.dialect.observe_response(body, reading=strict))
            read.emit(events)
            tl.add("client", "end", turn=turn)
            return
        observer = self.dialect.observer(self.variant, reading=self.reading)
        twin = self.dialect.observer(self.variant, reading=strict) if strict is not None else None
        seen_strict: list[Event] = []
        watch, seen_n = CancelWatch(cancel), 0
        for chunk in resp.body():
            read.budget.chunk(chunk)
            read.emit(observer.feed(chunk))
            if twin is not None:
                seen_strict += twin.feed(chunk)
            fresh, seen_n = out.events[seen_n:], len(out.events)
            if cancel is not None and [ev for ev in fresh if watch.see(ev)]:
                tl.add("client", "cancel", turn=turn)
                out.cancelled = True
                return
        watchdog.check()
        events = observer.end()
        if twin is not None:
            events += _inline_notice(out.events + events, seen_strict + twin.end())
        read.emit(events)
        tl.add("client", "end", turn=turn)

    def _shaped(
        self, ctx: CaseContext, body: dict[str, Any], headers: dict[str, str], turn: int = 0
    ) -> tuple[dict[str, Any], dict[str, str], tuple[str, ...]]:
        """The request with the turn's own fields (``response_format`` ...) and the profile's shaping
        merged in (the profile's body fields win over thinkwire's), and the default asks it dropped."""
        case = ctx.case
        shape = shaping(
            self.request, front_door=self.dialect.name, dialect=case.dialect, variant=case.variant,
            model=ctx.model, values={**self.values, "upstream": ctx.upstream_url, "provider": ctx.provider},
        )
        if shape.tools and "tools" not in shape.body:
            specs = tool_specs(case.turns)
            if specs:
                body["tools"] = tools_json(self.dialect.name, specs)
        extra = getattr(case.turns[turn], "request", None) or {} if turn < len(case.turns) else {}
        return merge(merge(body, dict(extra)), shape.body), {**headers, **shape.headers}, shape.unasked


def _inline_notice(lenient: list[Event], strict: list[Event]) -> list[Event]:
    """A ``Notice("inline-think")`` when reading inline tags found reasoning a strict reading did not."""
    got = "".join(e.text for e in lenient if isinstance(e, ReasoningDelta))
    plain = "".join(e.text for e in strict if isinstance(e, ReasoningDelta))
    if len(got) > len(plain):
        return [
            Notice("inline-think", f"{len(got) - len(plain)} reasoning characters came from <think> tags")
        ]
    return []


class _Read:
    """One turn's reading: its outcome, its byte budget, and ``emit`` (record each event, show it
    to the gates, keep it in the outcome)."""

    def __init__(self, ctx: CaseContext, turn: int, out: TurnOutcome) -> None:
        self.ctx, self.turn, self.out = ctx, turn, out
        self.budget = _Budget(ctx, ctx.timeline, turn)

    def emit(self, events: list[Event]) -> None:
        for ev in events:
            self.ctx.timeline.add("client", "event", event=ev, turn=self.turn)
            self.ctx.client.observe(ev)
            self.out.events.append(ev)


class _Budget:
    """Counts what one case read from the SUT and stops it at ``ctx.max_bytes`` (CaseTooBig)."""

    def __init__(self, ctx: CaseContext, tl: Any, turn: int) -> None:
        self.ctx, self.tl, self.turn = ctx, tl, turn
        # what earlier turns read (none before the first: no need to look at the timeline)
        self.total = sum(len(e.data) for e in tl.select("client", "chunk")) if turn else 0

    def chunk(self, data: bytes) -> None:
        self.total += len(data)
        if self.total > self.ctx.max_bytes:
            keep = data[: max(0, len(data) - (self.total - self.ctx.max_bytes))]
            self.tl.add("client", "chunk", data=keep, turn=self.turn)
            self.tl.add("client", "error", turn=self.turn, error=f"more than {self.ctx.max_bytes} bytes")
            head = b"".join(e.data for e in self.tl.select("client", "chunk"))[:256]
            raise CaseTooBig(self.ctx.max_bytes, head)
        self.tl.add("client", "chunk", data=data, turn=self.turn)

    def read_all(self, resp: Exchange, cap: int, *, error: bool = False) -> bytes:
        """A whole body, at most ``cap`` bytes of it kept (an error body past its cap is cut, noted)."""
        parts: list[bytes] = []
        size = 0
        for data in resp.body():
            if error and size + len(data) > cap:
                parts.append(data[: cap - size])
                self.tl.add("client", "chunk", data=parts[-1], turn=self.turn, truncated=True)
                break
            size += len(data)
            self.chunk(data)
            parts.append(data)
        return b"".join(parts)


class _Watchdog:
    """Shuts the exchange's socket down at the case's deadline, so a blocked read (or write) returns
    at once (closing from another thread would not wake it; ``shutdown`` does). Armed before the
    connection is made; once cancelled it touches the socket no more (it may be kept for reuse)."""

    def __init__(self, seconds: float) -> None:
        self.fired = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._alarm = alarm.at(seconds, self._fire)

    def attach(self, sock: socket.socket) -> None:
        with self._lock:
            self._sock = sock
            if self.fired:
                shutdown(sock)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            if self._sock is not None:
                shutdown(self._sock)

    def cancel(self) -> None:
        alarm.cancel(self._alarm)
        with self._lock:
            self._sock = None

    def check(self) -> None:
        """After a read loop: an end of stream caused by the deadline is a timeout, not the SUT's end."""
        if self.fired:
            raise _DeadlinePassed


class _DeadlinePassed(Exception):
    pass


def _deadline(tl: Any, turn: int, within: str, exchange: Exchange | None) -> DriverTimeout:
    """The watchdog ended the turn: noted on the timeline, said as what the SUT was doing then."""
    tl.add("client", "error", turn=turn, error="deadline: connection closed by thinkwire")
    doing = "the SUT was still sending" if exchange is not None and exchange.status else "no answer yet"
    return DriverTimeout(f"{within}: {doing})")


def _json_bytes(body: Any) -> bytes:
    from harness._json import dumps_compact

    return dumps_compact(body).encode()


def _error_text(body: bytes) -> str:
    text = body.decode(errors="replace")
    return text[:2000]
