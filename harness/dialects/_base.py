"""The contract every provider dialect fulfils, :class:`Dialect`, :class:`Emitter` and :class:`ProviderRules`,
and the small pieces the dialect modules share. A dialect is composed of roles, each one concern whose hooks
have defaults (routing, wire, request codec, error shape, rules), which its template methods join; nothing
reads a hook by probing for it (tests/dialects/test_no_probing.py)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeAlias

from harness._errors import UnknownName
from harness._json import dumps_compact, loads
from harness.codec import Frame
from harness.dialects._values import json_args
from harness.dialects._variant import Caps, Senders, Variant
from harness.events import End, Event, Message, Notice, StreamError, ToolResultBlock, Turn

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
    "ErrorShape",
    "Fidelity",
    "Identity",
    "LenientRules",
    "Observer",
    "ProviderRules",
    "Reading",
    "Rejection",
    "RequestCodec",
    "RequestSpec",
    "Routing",
    "Rules",
    "Senders",
    "Transport",
    "Variant",
    "Wire",
    "call_arguments",
    "chat_messages",
    "check_variant",
    "content_text",
    "json_body",
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
    family: str = "passback"
    """What the rule polices, so one check owns it: ``passback`` (reasoning the SUT had to carry back
    was lost: the passback check), ``fidelity`` (it came back altered: passback-fidelity) or ``request``
    (the request itself breaks the provider's current contract, e.g. a thinking mode the model refuses
    or a Vertex body without ``anthropic_version``: the request-contract check)."""
    answer: Turn | None = None
    """What a provider that refuses by answering, not by an error status, streams instead of the
    scripted turn (Gemini's 200 with ``finishReason: MISSING_THOUGHT_SIGNATURE``); ``status`` and
    ``body`` then describe that answer as a whole body. None: ``status`` and ``body`` are the answer."""

    @property
    def kind(self) -> str:
        """Deprecated spelling of :attr:`family`."""
        warnings.warn("Rejection.kind is deprecated: use Rejection.family", DeprecationWarning, stacklevel=2)
        return self.family


@dataclass(frozen=True, slots=True)
class Fidelity:
    """What a provider that compares passed-back reasoning with what it emitted found in one request.

    ``differences`` is empty when everything came back as the provider needs it (byte-exact where it
    requires that). ``rejects``: the provider answers such a request with an error (its
    :class:`Rejection` has ``family="fidelity"``); otherwise it answers 200 and only degrades, so no
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
    ``family="request"``; the request-contract check is N/A under rules without one) and
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


# ---------------------------------------------------------------------------------------------------
# A dialect is composed of roles, each one concern with defaults; Dialect joins them with its template
# methods, so that a subclass writes only what differs.


class Identity:
    """Role: the dialect's name and its variants, which the other roles check a variant name against."""

    name: str
    variants: dict[str, Variant]
    """Its variants by name: the built-in rows, and any a ``--variants-dir`` file declared."""
    default_variant: str

    def require_variant(self, variant: str) -> None:
        """:func:`check_variant` against this dialect's variants."""
        check_variant(self.name, self.variants, variant)


class Routing:
    """Role: how the mock upstream finds the dialect and frames its answers: the request paths it serves,
    the transport and content types of its streams, and whether a request asks for a stream."""

    transport: Transport = Transport.SSE
    content_type: str = "text/event-stream"
    """Of a streaming response."""
    path_suffixes: tuple[str, ...]  # routing in the mock upstream, e.g. ("/chat/completions",)
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
    stream_paths: tuple[str, ...] = ()
    """Path endings that ask for a stream whatever the body says (Bedrock's ``-stream``)."""
    whole_paths: tuple[str, ...] = ()
    """Path endings that ask for a whole body whatever the body says (Vertex's ``:rawPredict``)."""
    stream_in_body: bool = True
    """The body's ``"stream"`` flag says it where the path does not (False: the body is not read)."""
    stream_default: bool = False
    """What a request asks for when neither its path nor its body says (Ollama: a stream, unless the
    body says ``"stream": false``)."""

    def wants_stream(self, path: str, body: Mapping[str, Any]) -> bool:
        """Whether the request (its path and parsed JSON body) asks for a streaming response."""
        if path.endswith(self.stream_paths):
            return True
        if path.endswith(self.whole_paths):
            return False
        if not self.stream_in_body:
            return self.stream_default
        flag = body.get("stream", self.stream_default)
        return flag is not False if self.stream_default else flag is True

    def stream_framing(self, target: str, request: Mapping[str, Any]) -> tuple[str, str]:
        """``(transport, content type)`` of a streaming answer to ``target`` (path and query) and its
        request body; the request may pick the framing (Gemini: ``?alt=sse`` or a JSON array)."""
        return str(self.transport), self.content_type

    def keepalive(self) -> bytes | None:
        """What a server writes into a silent stream of this dialect to keep its client reading (a
        gateway whose upstream is silent): an SSE comment line, which every SSE client ignores; None
        where the framing has no such thing (NDJSON, a JSON array, AWS event streams)."""
        return b": keepalive\n\n" if self.transport == Transport.SSE else None


class Wire(Identity):
    """Role: the provider's stream both ways (its emitter and observer classes) and its whole bodies:
    the object a turn is answered with, how that JSON is written, and what reads such a body back."""

    emitter_type: Callable[..., Emitter]
    """Called with the variant's name (unless :attr:`emitter_takes_variant` is False) and ``model=``."""
    emitter_takes_variant: bool = True
    observer_type: Callable[[], Observer]
    object_writer: Callable[..., Any]
    """The whole body's JSON value for a turn without an error, called with the turn and ``model=``."""
    object_reader: Callable[[Any], list[Event]]
    """The events of a parsed whole body, where ``variant`` and ``reading`` leave nothing to choose."""
    indent: int | None = None
    """Whole bodies pretty-printed with this indent and a final newline, as Google writes them (None:
    compact)."""
    multi_carrier: bool = False
    """Reasoning may ride several fields (:meth:`reasoning_carriers` names the ones an answer or a
    request used): the front-door client echoes it where the SUT put it."""

    def emitter(self, variant: str, *, model: str = "mock-model") -> Emitter:
        self.require_variant(variant)
        if self.emitter_takes_variant:
            return self.emitter_type(variant, model=model)
        return self.emitter_type(model=model)

    def stream_observer(self, variant: str | None, reading: Reading) -> Observer:
        """A new streaming observer (``variant`` known to be this dialect's, or None)."""
        return self.observer_type()

    def response_object(self, turn: Turn, variant: str, *, model: str) -> Any:
        """The whole body's JSON value for a turn without an error (``variant`` known to be this
        dialect's)."""
        return self.object_writer(turn, model=model)

    def read_response(self, obj: Any, *, variant: str | None, reading: Reading) -> list[Event]:
        """The events of a parsed whole body (any JSON value: a dialect checks its shape)."""
        return self.object_reader(obj)

    def dump(self, obj: Any) -> bytes:
        """A whole body (an answer or an error) written as the provider writes it."""
        if self.indent is None:
            return dumps_compact(obj).encode()
        return (json.dumps(obj, indent=self.indent, ensure_ascii=False) + "\n").encode()

    def reasoning_carriers(
        self, data: bytes, *, form: str, carriers: Specs = (), empty: bool = False
    ) -> tuple[str, ...]:
        """The fields reasoning rides in ``data`` (``form``: stream, body or request), when
        :attr:`multi_carrier`; else (). ``empty``: the fields that were there but empty instead."""
        return ()


class RequestCodec(Identity):
    """Role: the upstream request, built from canonical messages (each assistant message's reasoning
    passed back in the variant's form) and read back into them. Its bodies are parsed JSON."""

    def build_request(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        """The variant checked, the request :meth:`request_spec` builds."""
        self.require_variant(variant)
        return self.request_spec(messages, model=model, stream=stream, variant=variant, **options)

    def request_spec(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        """An upstream request carrying ``messages`` (``variant`` known to be this dialect's)."""
        raise NotImplementedError

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        """The canonical messages a request carries (reasoning passback included)."""
        raise NotImplementedError


class ErrorShape:
    """Role: the provider's HTTP error: the JSON value of its body, and its headers."""

    def error_object(self, status: int, message: str, code: str | None) -> Any:
        raise NotImplementedError

    def read_error(self, obj: Any) -> StreamError | None:
        """The error a parsed whole body is, when the dialect's body reader does not tell one itself
        (None: it is no error body)."""
        return None

    def error_headers(self, status: int, code: str | None = None) -> tuple[tuple[str, str], ...]:
        """Headers the provider sends with an HTTP error of ``status`` besides its body (Bedrock names
        the exception in ``x-amzn-ErrorType``); most send none."""
        return ()


class Rules:
    """Role: the versioned provider rules (:class:`ProviderRules`) the dialect's upstream can enforce."""

    rules: Mapping[str, ProviderRules]

    def provider_rules(self) -> Mapping[str, ProviderRules]:
        return self.rules


class Dialect(Routing, Wire, RequestCodec, ErrorShape, Rules):
    """A provider wire protocol; each dialect module's ``DIALECT`` is an instance of a subclass. Its
    roles (:class:`Identity`, :class:`Routing`, :class:`Wire`, :class:`RequestCodec`, :class:`ErrorShape`,
    :class:`Rules`) hold its data and hooks, with the defaults that fit most providers; the template
    methods here join them, so a subclass sets data and writes only what its provider does differently."""

    def emit_response(self, turn: Turn, variant: str, *, model: str = "mock-model") -> bytes:
        """The whole body for the same turn: the variant checked, a turn that errs answered with the
        provider's error body, any other with :meth:`response_object`."""
        self.require_variant(variant)
        err = turn_error(turn)
        if err is not None:
            return self.error_body(err.status or 500, err.message, err.code)
        return self.dump(self.response_object(turn, variant, model=model))

    def emit_response_for(
        self, turn: Turn, variant: str, *, model: str = "mock-model", request: Mapping[str, Any]
    ) -> bytes:
        """The whole body answering ``request``: :meth:`emit_response` unless the body echoes the
        request's settings (Responses)."""
        return self.emit_response(turn, variant, model=model)

    def observer(self, variant: str | None = None, *, reading: Reading = READ_ALL) -> Observer:
        """The streaming observer; ``variant``: the upstream's, when known (checked; its inline tag pair)."""
        if variant is not None:
            self.require_variant(variant)
        return self.stream_observer(variant, reading)

    def observe_response(
        self, body: bytes, *, variant: str | None = None, reading: Reading = READ_ALL
    ) -> list[Event]:
        """Canonical events from a whole body: a body that is no JSON is its ``malformed-json`` notice,
        an error body its :meth:`read_error`, any other is read by :meth:`read_response`."""
        obj, bad = json_body(body)
        if bad is not None:
            return [bad]
        err = self.read_error(obj)
        if err is not None:
            return [err]
        return self.read_response(obj, variant=variant, reading=reading)

    def error_body(self, status: int, message: str, code: str | None = None) -> bytes:
        """The provider's HTTP error body."""
        return self.dump(self.error_object(status, message, code))


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


def content_text(content: Any, *, typed: bool = False) -> str:
    """The text of a request's content field: a string as it is, a list's parts' ``text`` joined
    (``typed``: only the parts whose ``type`` is ``text``), "" for anything else."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(
        str(p.get("text", ""))
        for p in content
        if isinstance(p, Mapping) and (not typed or p.get("type") == "text")
    )


def chat_messages(
    messages: Sequence[Message], assistant: Callable[[Message], dict[str, Any]]
) -> list[dict[str, Any]]:
    """A conversation as OpenAI-style ``messages`` (Chat Completions, and Cohere v2, which took the shape):
    each assistant message as ``assistant`` writes it, a tool result a ``role: tool`` message, any other
    message its role and text."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "assistant":
            out.append(assistant(m))
        elif m.role == "tool":
            results = (b for b in m.content if isinstance(b, ToolResultBlock))
            out += ({"role": "tool", "tool_call_id": b.call_id, "content": b.content} for b in results)
        else:
            out.append({"role": m.role, "content": m.text})
    return out


def call_arguments(arguments: str, *, keep_bad: bool = False) -> Any:
    """A tool call's arguments as the JSON value a request carries (``{}`` when empty); text that is
    no JSON is ``{}``, or with ``keep_bad`` ``{"arguments": <the text>}``."""
    return json_args(arguments, keep_bad=keep_bad)


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
