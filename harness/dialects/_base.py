"""The contract every provider dialect fulfils, :class:`Dialect`, :class:`Emitter` and :class:`ProviderRules`,
and the small pieces the dialect modules share. The optional hooks are attributes with defaults, after
httpx's ``BaseTransport``, so nothing reads a hook by probing for it (tests/dialects/test_no_probing.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeAlias

from harness._errors import UnknownName
from harness._json import loads
from harness.codec import Frame
from harness.dialects._variant import Caps, Senders, Variant
from harness.events import End, Event, Message, Notice, StreamError, Turn

if TYPE_CHECKING:
    from harness.dialects._carriers import Specs

__all__ = [
    "LENIENT",
    "READ_ALL",
    "Caps",
    "Dialect",
    "Difference",
    "Emitter",
    "EmitterLoop",
    "Fidelity",
    "LenientRules",
    "Observer",
    "ProviderRules",
    "Reading",
    "Rejection",
    "RequestSpec",
    "Senders",
    "Transport",
    "Variant",
    "check_variant",
    "json_body",
    "stream_flag",
    "turn_error",
]


class Transport(StrEnum):
    SSE = "sse"
    JSONL = "jsonl"
    EVENTSTREAM = "eventstream"
    JSON_ARRAY = "json-array"
    """A streamed JSON array (Gemini ``streamGenerateContent`` without ``?alt=sse``)."""


Difference: TypeAlias = tuple[str, Any, Any]
"""``(field, actual, expected)``: pytest-httpserver's shape; feeds both the 400 body and the finding."""


@dataclass(frozen=True, slots=True)
class Rejection:
    """What a strict provider answers when a request lost or altered reasoning: exact status and body."""

    status: int
    body: bytes
    rule: str
    differences: tuple[Difference, ...] = ()
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    """Extra response headers the provider sends with the error (Bedrock: ``x-amzn-ErrorType``)."""
    kind: str = "passback"
    """What the rule polices, so one check owns it: ``passback`` (reasoning the SUT had to carry back
    was lost: the passback check), ``fidelity`` (it came back altered: passback-fidelity) or ``request``
    (the request itself breaks the provider's current contract, e.g. a thinking mode the model refuses
    or a Vertex body without ``anthropic_version``: the request-contract check)."""
    answer: Turn | None = None
    """What a provider that refuses by answering, not by an error status, streams instead of the
    scripted turn (Gemini's 200 with ``finishReason: MISSING_THOUGHT_SIGNATURE``); ``status`` and
    ``body`` then describe that answer as a whole body. None: ``status`` and ``body`` are the answer."""


@dataclass(frozen=True, slots=True)
class Fidelity:
    """What a provider that compares passed-back reasoning with what it emitted found in one request.

    ``differences`` is empty when everything came back as the provider needs it (byte-exact where it
    requires that). ``rejects``: the provider answers such a request with an error (its
    :class:`Rejection` has ``kind="fidelity"``); otherwise it answers 200 and only degrades, so no
    status code can reveal the loss. Provider rules that make the comparison override
    :meth:`ProviderRules.fidelity`.
    """

    rule: str
    differences: tuple[Difference, ...] = ()
    rejects: bool = False


@dataclass(frozen=True, slots=True)
class RequestSpec:
    """An upstream request built by a dialect's request codec."""

    path: str
    body: dict[str, Any]
    headers: Mapping[str, str] = field(default_factory=dict)


class Emitter:
    """Stateful, sans-IO: canonical events in, frames out. Feed the turn in pieces (a script interleaves
    gates between pieces); an :class:`~harness.events.End` event or :meth:`close` emits the closing
    frames (done-repeats, terminal). Before the first piece the mock upstream calls
    :meth:`bind_request` and :meth:`prime`; both do nothing unless a wire needs them.

    The frames are :class:`~harness.codec.Frame`; the transport encoders in ``harness.codec`` turn them
    into bytes.
    """

    def feed(self, events: Sequence[Event]) -> list[Frame]:
        raise NotImplementedError

    def close(self) -> list[Frame]:
        raise NotImplementedError

    def bind_request(self, request: Mapping[str, Any]) -> None:
        """What the stream's shape depends on in the request (Chat: ``stream_options.include_usage``;
        Responses: the settings the response object echoes)."""

    def prime(self, events: Sequence[Event]) -> None:
        """The whole turn, before it is fed: what a wire says up front (Anthropic: the input tokens in
        ``message_start``)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """How an observer reads reasoning where the dialect offers a choice (:attr:`Dialect.multi_carrier`:
    the Chat dialect's carriers and inline tags): the SUT profile's say for its front door. A dialect
    with one way to carry reasoning has nothing to choose: it reads none of these."""

    reasoning_fields: tuple[str, ...] | None = None
    """The text carriers in priority order (None: every built-in carrier, the declared ones last)."""
    inline_think: bool = True
    """Split a leading ``<think>`` pair in content into reasoning (False: a door that claims structured
    reasoning, whose leaked tags are content)."""
    implicit_think: bool | None = None
    """Content before the first closing tag is reasoning (None: as the upstream variant says)."""
    carriers: Specs = ()
    """The carriers the SUT profile declares (``[carriers.<name>]``)."""


READ_ALL = Reading()
"""Every carrier, inline tags split, the variant's implicit opener: how the mock and the reference SUTs
read an upstream."""


class Observer(Protocol):
    """Sans-IO: raw response bytes in (any split), canonical events out, including
    :class:`~harness.events.Notice` for anything it cannot interpret. ``end()`` is EOF."""

    def feed(self, data: bytes) -> list[Event]: ...

    def end(self) -> list[Event]: ...


class ProviderRules:
    """A versioned strict (or lenient) provider: checks a request against what the upstream emitted
    earlier in the conversation, and may shape what it streams from what the request asked for.

    The optional hooks have defaults: ``request_rules`` (the names of its :class:`Rejection` rules of
    ``kind="request"``; the request-contract check is N/A under rules without one) and
    :meth:`fidelity` (see :class:`Fidelity`).

    Like every piece of a dialect it is sans-IO: the rules and the request codecs work on parsed JSON
    bodies.
    """

    name: str
    dialect: str
    description: str
    request_rules: ClassVar[tuple[str, ...]] = ()

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        """``emitted``: the assistant messages this upstream produced earlier in the conversation."""
        raise NotImplementedError

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        """What the provider actually streams for this request (e.g. no summaries unless requested)."""
        raise NotImplementedError

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        """What these rules find comparing the passed-back reasoning with what was emitted (None: they
        make no such comparison, or the request carries nothing to compare)."""
        return None


LENIENT = "lenient"
"""The provider rules every dialect has (a case's rules unless its scenario names strict ones)."""


@dataclass(slots=True)
class LenientRules(ProviderRules):
    """The ``lenient`` provider: accepts every request, streams the turn as scripted."""

    dialect: str
    description: str = "accepts every request; streams the scripted turn unchanged"
    name: str = LENIENT

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        return None

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return turn


class Dialect:
    """A provider wire protocol; each dialect module's ``DIALECT`` is an instance of a subclass. It owns
    its routing data, which the mock upstream reads: the request paths it serves (``path_suffixes``),
    the transport and content type of its streams, and how a request asks for a stream
    (:meth:`wants_stream`).

    A subclass sets the data and writes the methods that raise :class:`NotImplementedError` here. The
    optional hooks below (attributes and methods) have the defaults that fit most providers; a dialect
    overrides the ones its provider does differently."""

    name: str
    transport: Transport
    content_type: str  # of a streaming response
    path_suffixes: tuple[str, ...]  # routing in the mock upstream, e.g. ("/chat/completions",)
    variants: dict[str, Variant]
    """Its variants by name: the built-in rows, and any a ``--variants-dir`` file declared."""
    default_variant: str

    # -- optional hooks, with their defaults --------------------------------------------------------
    routed: bool = True
    """False: its paths are another dialect's (a WebSocket mode): a request reaches it through its script,
    never through the mock upstream's routing by path."""
    websocket: bool = False
    """Its conversation runs over a WebSocket (``response.create`` messages), not HTTP requests."""
    json_content_type: str = "application/json"
    """The content type of a whole (non-streaming) body."""
    id_header: str | None = None
    """The response header an official SDK reads the request id from (None: the SDK reads none)."""
    sse_eol: str = "\n"
    """The provider's own SSE line end (Gemini: ``"\\r\\n"``)."""
    multi_carrier: bool = False
    """Reasoning may ride several fields (:meth:`reasoning_carriers` names the ones an answer or a
    request used): the front-door client echoes it where the SUT put it."""

    def stream_framing(self, target: str, request: Mapping[str, Any]) -> tuple[str, str]:
        """``(transport, content type)`` of a streaming answer to ``target`` (path and query) and its
        request body; the request may pick the framing (Gemini: ``?alt=sse`` or a JSON array)."""
        return str(self.transport), self.content_type

    def emit_response_for(
        self, turn: Turn, variant: str, *, model: str = "mock-model", request: Mapping[str, Any]
    ) -> bytes:
        """The whole body answering ``request``: :meth:`emit_response` unless the body echoes the
        request's settings (Responses)."""
        return self.emit_response(turn, variant, model=model)

    def reasoning_carriers(
        self, data: bytes, *, form: str, carriers: Specs = (), empty: bool = False
    ) -> tuple[str, ...]:
        """The fields reasoning rides in ``data`` (``form``: stream, body or request), when
        :attr:`multi_carrier`; else (). ``empty``: the fields that were there but empty instead."""
        return ()

    def keepalive(self) -> bytes | None:
        """What a server writes into a silent stream of this dialect to keep its client reading (a
        gateway whose upstream is silent): an SSE comment line, which every SSE client ignores; None
        where the framing has no such thing (NDJSON, a JSON array, AWS event streams)."""
        return b": keepalive\n\n" if self.transport == Transport.SSE else None

    # -- what every dialect writes ------------------------------------------------------------------
    def wants_stream(self, path: str, body: Mapping[str, Any]) -> bool:
        """Whether the request (its path and parsed JSON body) asks for a streaming response."""
        raise NotImplementedError

    def emitter(self, variant: str, *, model: str = "mock-model") -> Emitter:
        raise NotImplementedError

    def emit_response(self, turn: Turn, variant: str, *, model: str = "mock-model") -> bytes:
        """The non-streaming JSON body for the same turn: the variant checked, a turn that errs answered
        with the provider's error body, any other with :meth:`response_body` (a template method: a
        dialect writes only its body)."""
        check_variant(self.name, self.variants, variant)
        err = turn_error(turn)
        if err is not None:
            return self.error_body(err.status or 500, err.message, err.code)
        return self.response_body(turn, variant, model=model)

    def response_body(self, turn: Turn, variant: str, *, model: str) -> bytes:
        """The success body of :meth:`emit_response`, for a turn without an error."""
        raise NotImplementedError

    def observer(self, variant: str | None = None, *, reading: Reading = READ_ALL) -> Observer:
        """The streaming observer; ``variant``: the upstream's, when known (checked; its inline tag pair).
        A template method: a dialect writes :meth:`stream_observer`."""
        if variant is not None:
            check_variant(self.name, self.variants, variant)
        return self.stream_observer(variant, reading)

    def stream_observer(self, variant: str | None, reading: Reading) -> Observer:
        """A new streaming observer (``variant`` known to be this dialect's, or None)."""
        raise NotImplementedError

    def observe_response(
        self, body: bytes, *, variant: str | None = None, reading: Reading = READ_ALL
    ) -> list[Event]:
        """Canonical events from a non-streaming JSON body: a body that is no JSON is its
        ``malformed-json`` notice, any other is read by :meth:`read_response` (a template method)."""
        obj, bad = json_body(body)
        if bad is not None:
            return [bad]
        return self.read_response(obj, variant=variant, reading=reading)

    def read_response(self, obj: Any, *, variant: str | None, reading: Reading) -> list[Event]:
        """The events of a parsed non-streaming body (any JSON value: a dialect checks its shape)."""
        raise NotImplementedError

    def error_body(self, status: int, message: str, code: str | None = None) -> bytes:
        """The provider's HTTP error body shape."""
        raise NotImplementedError

    def error_headers(self, status: int, code: str | None = None) -> tuple[tuple[str, str], ...]:
        """Headers the provider sends with an HTTP error of ``status`` besides its body (Bedrock names
        the exception in ``x-amzn-ErrorType``); most send none."""
        return ()

    def build_request(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        """An upstream request carrying ``messages``, with each assistant message's reasoning passed
        back in this variant's form."""
        raise NotImplementedError

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        """The canonical messages a request carries (reasoning passback included)."""
        raise NotImplementedError

    def provider_rules(self) -> Mapping[str, ProviderRules]:
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------------
# Shared by the dialect modules.


class EmitterLoop(Emitter):
    """:meth:`feed` and :meth:`close` of the emitters that build a stream one event at a time: a
    subclass writes ``_start`` (the frames that open the stream, once; ``[]`` after), ``_event`` (one
    canonical event's frames) and ``_end`` (the closing frames; it sets :attr:`ended`, after which
    nothing more is emitted: an error frame ends a stream too)."""

    ended = False

    def feed(self, events: Sequence[Event]) -> list[Frame]:
        out = self._start()
        for ev in events:
            if self.ended:
                break
            out += self._event(ev)
        return out

    def close(self) -> list[Frame]:
        if self.ended:
            return []
        return self._start() + self._end(End())

    def _start(self) -> list[Frame]:
        raise NotImplementedError

    def _event(self, ev: Event) -> list[Frame]:
        raise NotImplementedError

    def _end(self, ev: End) -> list[Frame]:
        raise NotImplementedError


def check_variant(dialect: str, variants: Mapping[str, Variant], variant: str) -> None:
    """:class:`~harness._errors.UnknownName` naming the dialect, the unknown variant and the closest
    known ones."""
    if variant not in variants:
        raise UnknownName(f"{dialect} variant", variant, variants)


def stream_flag(path: str, body: Mapping[str, Any]) -> bool:
    """``wants_stream`` of the dialects whose body says ``"stream": true`` (absent: not streaming)."""
    return body.get("stream") is True


def turn_error(turn: Turn) -> StreamError | None:
    """The turn's error, if it has one: a non-streaming response answers with its error body."""
    return next((ev for ev in turn if isinstance(ev, StreamError)), None)


def json_body(body: bytes, keep: int = 80) -> tuple[Any, Notice | None]:
    """A non-streaming response body parsed (an empty one is ``null``), or the ``malformed-json``
    notice, with its first ``keep`` bytes, that an observer returns instead of events."""
    try:
        return loads(body.strip() or b"null"), None
    except ValueError:  # JSONDecodeError and orjson's error are both ValueErrors
        return None, Notice("malformed-json", body[:keep].decode(errors="replace"))
