"""The translation core the three reference SUTs share: model routing, upstream bytes -> delivered
events (parser mutant if any, observer, fault filters), non-streaming bodies, upstream error messages.

Rule: sans-IO, like the dialects it composes. The SUTs own the sockets, processes and threads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from harness._json import loads
from harness.dialects import DIALECT_MODULES, Dialect, RequestSpec, check_variant, get_dialect
from harness.events import End, Event, Message, Notice, StreamError
from harness.reference._faults import FaultFilter, inline_think, strip_passback
from harness.reference._parser_mutants import ParserFailure, Utf8Breaker, parser_mutant

__all__ = ["Route", "UpstreamPipe", "error_message", "parse_model", "upstream_request", "whole_response"]


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


def upstream_request(
    route: Route, messages: Sequence[Message], *, stream: bool, faults: frozenset[str]
) -> RequestSpec:
    """The upstream request for ``messages``, reasoning passed back in the route's variant form."""
    if "lose-passback" in faults:
        messages = strip_passback(messages)
    dialect = get_dialect(route.dialect)
    return dialect.build_request(list(messages), model=route.model, stream=stream, variant=route.variant)


def _delivered(events: Iterable[Event]) -> list[Event]:
    # Notices describe the upstream's wire, not what this SUT delivers.
    return [e for e in events if not isinstance(e, Notice)]


class UpstreamPipe:
    """Raw upstream stream bytes in (any split), the events this SUT delivers out.

    ``upstream`` keeps every event the observer produced, unfiltered: the SUT's own memory of the
    turn (what a CLI passes back), which output faults do not touch.
    """

    def __init__(self, dialect: Dialect, variant: str, faults: Iterable[str] = ()) -> None:
        faults = frozenset(faults)
        self.observer = dialect.observer(variant)
        self.filter = FaultFilter(faults)
        self.breaker = Utf8Breaker() if "break-utf8" in faults else None
        self.mutant = parser_mutant(faults, str(dialect.transport.value))
        self.broken = False  # a parser mutant failed the stream: the rest is not read
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
        return _delivered(self.filter.feed(events))

    def end(self) -> list[Event]:
        """The upstream's EOF: the last events, and an error when the stream ended unfinished (an
        unterminated stream is a failed one for every SUT, never a complete answer)."""
        if self.broken:
            return []
        events = self.observer.feed(self.mutant.end()) if self.mutant is not None else []
        events += self.observer.end()
        self.upstream += events
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
        return _delivered(self.filter.feed([error]) + self.filter.close())


def whole_response(
    dialect: Dialect, body: bytes, faults: Iterable[str] = ()
) -> tuple[list[Event], list[Event]]:
    """A non-streaming upstream body -> (upstream events, delivered events)."""
    faults = frozenset(faults)
    upstream = dialect.observe_response(body)
    delivered = _delivered(FaultFilter(faults).run(upstream))
    if "nonstream-inline-think" in faults:
        delivered = inline_think(delivered)
    return upstream, delivered


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
