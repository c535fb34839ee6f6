"""The translation core the three reference SUTs share: model routing, upstream bytes to delivered events,
non-streaming bodies and upstream error messages. It is sans-IO, like the dialects it composes; the SUTs
own the sockets, processes and threads."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from harness._json import loads
from harness.dialects import (
    DIALECT_MODULES,
    READ_ALL,
    Dialect,
    Reading,
    RequestSpec,
    check_variant,
    get_dialect,
)
from harness.events import End, Event, Message, Notice, StreamError, Usage
from harness.reference._faults import FaultFilter, inline_think
from harness.reference._parser_mutants import ParserFailure, Utf8Breaker, parser_mutant
from harness.reference._request_faults import mutate_body, passback_messages

__all__ = [
    "Route",
    "UpstreamPipe",
    "error_message",
    "parse_model",
    "pipe_faults",
    "retry_delay",
    "structured_fields",
    "upstream_request",
    "whole_response",
]


@dataclass(frozen=True, slots=True)
class Route:
    """Which upstream dialect/variant a request goes to, and the model name the upstream sees."""

    dialect: str
    variant: str
    model: str


def parse_model(model: str, default: str = "openai-chat") -> Route:
    """``"<dialect>[:<variant>]/<model>"`` -> Route; no known dialect prefix -> ``default``.

    A prefix that names no dialect is part of the model (``anthropic/claude-sonnet-4.5`` is an
    OpenRouter-style model id). An unknown variant of a known dialect is an UnknownName (a KeyError).
    """
    prefix, sep, rest = model.partition("/")
    name, _, variant = prefix.partition(":")
    if not sep or name not in DIALECT_MODULES:
        d = get_dialect(default)
        return Route(default, d.default_variant, model)
    d = get_dialect(name)
    if not variant:
        variant = d.default_variant
    else:
        check_variant(name, d.variants, variant)
    return Route(name, variant, rest)


STRUCTURED = ("response_format", "tool_choice")
"""The client's structured-output fields (OpenAI chat form) the reference SUTs forward."""


def upstream_request(
    route: Route,
    messages: Sequence[Message],
    *,
    stream: bool,
    faults: frozenset[str],
    structured: Mapping[str, Any] | None = None,
    chain: Mapping[str, Any] | None = None,
) -> RequestSpec:
    """The upstream request for ``messages``, reasoning passed back in the route's variant form, the
    client's ``structured`` output fields (``response_format``, ``tool_choice``) in the upstream's form;
    ``chain``: the dialect's chaining options (the Responses WebSocket's ``previous_response_id``)."""
    messages = passback_messages(messages, route.dialect, faults)
    dialect = get_dialect(route.dialect)
    options: dict[str, Any] = dict(chain or {})
    if "reasoning-content-passback" in faults and route.dialect == "openai-chat":  # FAULT
        options["echo_fields"] = ("reasoning_content",)
    spec = dialect.build_request(
        list(messages), model=route.model, stream=stream, variant=route.variant, **options
    )
    body = mutate_body(spec.body, faults)
    if structured:
        body = {**body, **_structured(route.dialect, structured)}
    return spec if body is spec.body else RequestSpec(spec.path, body, spec.headers)


def structured_fields(body: Mapping[str, Any]) -> dict[str, Any]:
    """The structured-output fields of a client's (OpenAI chat) request body."""
    return {k: body[k] for k in STRUCTURED if k in body}


def pipe_faults(faults: frozenset[str], structured: Mapping[str, Any]) -> frozenset[str]:
    """The event faults of a stream: ``buffer-structured`` buffers reasoning when the request asked for
    structured output or forced a tool (the correct path streams it as any other)."""
    if "buffer-structured" in faults and structured:  # FAULT: structured output waits for the end
        return faults | {"buffer-reasoning"}
    return faults


def _structured(dialect: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    if dialect == "openai-chat":
        return dict(fields)
    if dialect != "openai-responses":
        return {}  # not forwarded: the catalog asks for structured output of the OpenAI dialects only
    out: dict[str, Any] = {}
    fmt = fields.get("response_format")
    if isinstance(fmt, Mapping):
        schema = fmt.get("json_schema")
        out["text"] = {"format": {"type": fmt.get("type"), **(schema if isinstance(schema, Mapping) else {})}}
    choice = fields.get("tool_choice")
    if isinstance(choice, Mapping) and isinstance(choice.get("function"), Mapping):
        out["tool_choice"] = {"type": "function", "name": choice["function"].get("name")}
    elif choice is not None:
        out["tool_choice"] = choice
    return out


def _delivered(events: Iterable[Event]) -> list[Event]:
    # Notices describe the upstream's wire, not what this SUT delivers.
    return [e for e in events if not isinstance(e, Notice)]


class UpstreamPipe:
    """Raw upstream stream bytes in (any split), the events this SUT delivers out.

    ``upstream`` keeps every event the observer produced, unfiltered: the SUT's own memory of the
    turn (what a CLI passes back), which output faults do not touch.

    The bytes go through the parser mutant if any, the observer and the fault filters, in that order.
    """

    def __init__(self, dialect: Dialect, variant: str, faults: Iterable[str] = ()) -> None:
        faults = frozenset(faults)
        # FAULT: tags stay content
        raw = Reading(inline_think=False) if "raw-inline-tags" in faults else READ_ALL
        self.observer = dialect.observer(variant, reading=raw)
        self.filter = FaultFilter(faults)
        self.breaker = Utf8Breaker() if "break-utf8" in faults else None
        self.mutant = parser_mutant(faults, str(dialect.transport.value))
        self.broken = False  # a parser mutant failed the stream: the rest is not read
        self.add_start = "add-start-output" in faults
        self.clean_break = "terminate-broken-stream" in faults
        self.upstream: list[Event] = []

    def feed(self, data: bytes) -> list[Event]:
        if self.broken:
            return []
        if self.breaker is not None:
            data = self.breaker.feed(data)
        if self.mutant is not None:
            try:
                data = self.mutant.feed(data)
            except ParserFailure as exc:
                self.broken = True
                return self.fail(str(exc))
        events = self.observer.feed(data)
        self.upstream += events
        return _delivered(self.filter.feed(self._counted(events)))

    def _counted(self, events: list[Event]) -> list[Event]:
        """``add-start-output``: usage reports read as increments on top of message_start's output
        count (the correct path leaves message_delta's cumulative count alone)."""
        start = getattr(self.observer, "start_output", None)
        if not self.add_start or not start:
            return events
        return [  # FAULT: message_delta's count already includes message_start's
            replace(e, output_tokens=e.output_tokens + start, total_tokens=_plus(e.total_tokens, start))
            if isinstance(e, Usage) and e.output_tokens is not None
            else e
            for e in events
        ]

    def end(self) -> list[Event]:
        """The upstream's EOF: the last events, and an error when the stream ended unfinished (an
        unterminated stream is a failed one for every SUT, never a complete answer)."""
        if self.broken:
            return []
        events = self.observer.feed(self.mutant.end()) if self.mutant is not None else []
        events += self.observer.end()
        self.upstream += events
        events = self._counted(events)
        if not self.terminated:
            unfinished = self.fail("the upstream stream ended before it finished")
            return _delivered(self.filter.feed(events)) + unfinished
        return _delivered(self.filter.feed(events) + self.filter.close())

    @property
    def terminated(self) -> bool:
        """The upstream ended its stream properly or reported an error."""
        return any(isinstance(e, End | StreamError) for e in self.upstream)

    def fail(self, message: str) -> list[Event]:
        """The upstream broke off (transport error, EOF without a terminator): an error to deliver."""
        error = StreamError(message)
        self.upstream.append(error)
        if self.clean_break:  # FAULT: the broken end is delivered as a complete answer's
            return _delivered(self.filter.feed([End("stop")]) + self.filter.close())
        return _delivered(self.filter.feed([error]) + self.filter.close())


def _plus(total: int | None, n: int) -> int | None:
    return None if total is None else total + n


def whole_response(
    dialect: Dialect, body: bytes, faults: Iterable[str] = (), variant: str | None = None
) -> tuple[list[Event], list[Event]]:
    """A non-streaming upstream body -> (upstream events, delivered events); ``variant``: the route's
    (whose inline tag pair the reader then knows)."""
    faults = frozenset(faults)
    raw = Reading(inline_think=False) if "raw-inline-tags" in faults else READ_ALL  # FAULT: tags stay content
    upstream = dialect.observe_response(body, variant=variant, reading=raw)
    delivered = _delivered(FaultFilter(faults).run(upstream))
    if "nonstream-inline-think" in faults:
        delivered = inline_think(delivered)
    return upstream, delivered


RETRYABLE = frozenset({429, 500, 502, 503, 529})
MAX_RETRY_WAIT = 10.0


def retry_delay(status: int, headers: Mapping[str, str], faults: frozenset[str]) -> float | None:
    """How long to wait before the one retry of a request the upstream failed before sending anything
    (None: do not retry): a retryable status, then at least ``retry-after-ms`` / ``retry-after``
    seconds (capped at MAX_RETRY_WAIT). Nothing has reached the client yet, so a retry replays nothing."""
    if status not in RETRYABLE:
        return None
    if "retry-too-soon" in faults:  # FAULT: Retry-After is not honoured
        return 0.0
    low = {k.lower(): v for k, v in headers.items()}
    wait = 0.0
    try:
        if "retry-after-ms" in low:
            wait = float(low["retry-after-ms"]) / 1000
        elif "retry-after" in low:
            wait = float(low["retry-after"])
    except ValueError:  # an HTTP-date: not used by the providers in the catalog
        wait = 1.0
    return min(max(wait, 0.0), MAX_RETRY_WAIT)


def error_message(body: bytes) -> str:
    """The human message of a provider error body, whatever its shape (OpenAI/Anthropic/Gemini
    ``error.message``, Bedrock/DeepSeek ``message``, Ollama ``error`` string); else the raw text."""
    text = body.decode("utf-8", errors="replace").strip()
    try:
        data: Any = loads(body)
    except ValueError:
        return text[:2000]
    if isinstance(data, list) and data:
        data = data[0]
    if isinstance(data, dict):
        err = data.get("error")
        if isinstance(err, dict) and isinstance(err.get("message"), str):
            return str(err["message"])
        if isinstance(err, str):
            return err
        if isinstance(data.get("message"), str):
            return str(data["message"])
    return text[:2000]
