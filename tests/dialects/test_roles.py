"""The roles a :class:`Dialect` is composed of (issue 47): a dialect that only sets data gets working
whole bodies, errors, observers, emitters, requests and routing from the roles' defaults and the template
methods; and every registered dialect fills each hook a role leaves open."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from harness._errors import UnknownName
from harness._json import loads
from harness.dialects import (
    Dialect,
    Emitter,
    ProviderRules,
    RequestSpec,
    Transport,
    Variant,
    dialect_names,
    get_dialect,
)
from harness.dialects._base import (
    ErrorShape,
    Identity,
    LenientRules,
    RequestCodec,
    Routing,
    Rules,
    Wire,
    call_arguments,
    content_text,
)
from harness.events import End, Event, Message, Notice, StreamError, TextDelta, Turn

VARIANTS = {"plain": Variant("plain", "TOY-1", "toy", "a toy row", frozenset())}
RULES: dict[str, ProviderRules] = {"lenient": LenientRules("toy")}


class ToyEmitter(Emitter):
    def __init__(self, variant: str = "", *, model: str = "mock-model") -> None:
        self.variant, self.model = variant, model


class ToyObserver:
    def feed(self, data: bytes) -> list[Event]:
        return []

    def end(self) -> list[Event]:
        return [End()]


def _write(turn: Turn, *, model: str) -> Any:
    return {"model": model, "text": "".join(ev.text for ev in turn if isinstance(ev, TextDelta))}


def _read(obj: Any) -> list[Event]:
    return [TextDelta(str(obj.get("text", ""))), End()] if isinstance(obj, Mapping) else []


class Toy(Dialect):
    """Data only, and the two hooks no role can guess (the error's JSON, the request)."""

    name = "toy"
    path_suffixes = ("/toy",)
    variants = VARIANTS
    default_variant = "plain"
    emitter_type, observer_type = ToyEmitter, ToyObserver
    object_writer, object_reader = staticmethod(_write), staticmethod(_read)
    rules = RULES

    def error_object(self, status: int, message: str, code: str | None) -> Any:
        return {"error": {"status": status, "message": message, "code": code}}

    def request_spec(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        return RequestSpec("/toy", {"model": model, "texts": [m.text for m in messages], **options})


TOY = Toy()
TURN: Turn = (TextDelta("hi"), End())


def test_the_dialect_is_its_roles() -> None:
    assert Dialect.__bases__ == (Routing, Wire, RequestCodec, ErrorShape, Rules)
    assert Wire.__bases__ == RequestCodec.__bases__ == (Identity,)


def test_a_whole_body_is_the_writers_value_dumped_and_read_back() -> None:
    body = TOY.emit_response(TURN, "plain", model="m")
    assert body == b'{"model":"m","text":"hi"}'
    assert TOY.observe_response(body) == [TextDelta("hi"), End()]
    assert TOY.emit_response_for(TURN, "plain", model="m", request={"x": 1}) == body


def test_an_erring_turn_is_answered_with_the_error_shape() -> None:
    turn: Turn = (TextDelta("a"), StreamError("slow down", "rate", 429))
    assert loads(TOY.emit_response(turn, "plain")) == {
        "error": {"status": 429, "message": "slow down", "code": "rate"}
    }
    assert loads(TOY.emit_response((StreamError("boom"),), "plain"))["error"]["status"] == 500
    assert TOY.error_headers(429) == ()


def test_an_indent_writes_bodies_as_google_does() -> None:
    class Pretty(Toy):
        indent = 2

    assert (
        Pretty().error_body(400, "no")
        == b'{\n  "error": {\n    "status": 400,\n    "message": "no",\n    "code": null\n  }\n}\n'
    )


def test_a_body_that_is_no_json_or_an_error_never_reaches_the_reader() -> None:
    assert TOY.observe_response(b"{oops") == [Notice("malformed-json", "{oops")]

    class Erring(Toy):
        def read_error(self, obj: Any) -> StreamError | None:
            return StreamError(obj["error"]) if isinstance(obj, Mapping) and "error" in obj else None

    assert Erring().observe_response(b'{"error": "no"}') == [StreamError("no")]
    assert Erring().observe_response(b'{"text": "yes"}') == [TextDelta("yes"), End()]


def test_variants_are_checked_by_every_template() -> None:
    for call in (
        lambda: TOY.emit_response(TURN, "nope"),
        lambda: TOY.emitter("nope"),
        lambda: TOY.observer("nope"),
        lambda: TOY.build_request([], model="m", stream=False, variant="nope"),
    ):
        with pytest.raises(UnknownName, match="nope"):
            call()
    assert isinstance(TOY.observer(), ToyObserver)
    assert TOY.observer("plain").end() == [End()]


def test_the_emitter_class_is_called_with_or_without_the_variant() -> None:
    em = TOY.emitter("plain", model="m")
    assert isinstance(em, ToyEmitter)
    assert (em.variant, em.model) == ("plain", "m")

    class NoVariant(Toy):
        emitter_takes_variant = False

    em = NoVariant().emitter("plain", model="m")
    assert isinstance(em, ToyEmitter)
    assert (em.variant, em.model) == ("", "m")


def test_build_request_is_the_request_spec_and_rules_are_data() -> None:
    spec = TOY.build_request([Message.user("q")], model="m", stream=True, variant="plain", extra=1)
    assert spec == RequestSpec("/toy", {"model": "m", "texts": ["q"], "extra": 1})
    assert list(TOY.provider_rules()) == ["lenient"]


@pytest.mark.parametrize(
    ("data", "path", "body", "expected"),
    [
        ({}, "/x", {"stream": True}, True),
        ({}, "/x", {"stream": "yes"}, False),  # only true asks
        ({}, "/x", {}, False),
        ({"stream_default": True}, "/x", {}, True),
        ({"stream_default": True}, "/x", {"stream": False}, False),
        ({"stream_default": True}, "/x", {"stream": None}, True),  # only false declines
        ({"stream_paths": ("-stream",), "stream_in_body": False}, "/a-stream", {}, True),
        ({"stream_paths": ("-stream",), "stream_in_body": False}, "/a", {"stream": True}, False),
        ({"stream_in_body": False, "stream_default": True}, "", {"stream": False}, True),
        ({"stream_paths": (":s",), "whole_paths": (":w",)}, "/m:w", {"stream": True}, False),
        ({"stream_paths": (":s",), "whole_paths": (":w",)}, "/m:s", {"stream": False}, True),
        ({"stream_paths": (":s",), "whole_paths": (":w",)}, "/messages", {"stream": True}, True),
    ],
)
def test_wants_stream_is_routing_data(
    data: dict[str, Any], path: str, body: dict[str, Any], expected: bool
) -> None:
    toy = type("Routed", (Toy,), data)()
    assert toy.wants_stream(path, body) is expected


def test_routing_defaults_are_sse() -> None:
    assert (TOY.transport, TOY.content_type, TOY.json_content_type) == (
        Transport.SSE,
        "text/event-stream",
        "application/json",
    )
    assert TOY.keepalive() == b": keepalive\n\n"
    assert TOY.stream_framing("/toy", {}) == ("sse", "text/event-stream")


def test_the_shared_codec_pieces() -> None:
    parts = [{"type": "text", "text": "a"}, {"type": "image", "text": "b"}, "junk", {"text": "c"}]
    assert content_text(parts) == "abc"
    assert content_text(parts, typed=True) == "a"
    assert (content_text("s"), content_text(None), content_text({"text": "x"})) == ("s", "", "")
    assert call_arguments('{"a": 1}') == {"a": 1}
    assert call_arguments("  ") == {}
    assert call_arguments("{bad") == {}
    assert call_arguments("{bad", keep_bad=True) == {"arguments": "{bad"}


@pytest.mark.parametrize("name", dialect_names())
def test_every_dialect_fills_the_hooks_its_roles_leave_open(name: str) -> None:
    """No role hook raises NotImplementedError on a registered dialect: a whole body and an error body
    are written (and the body read back to its end), and a request is built and parsed back."""
    d = get_dialect(name)
    variant = d.default_variant
    assert variant in d.variants
    body = d.emit_response(TURN, variant, model="m")
    assert any(isinstance(ev, End) for ev in d.observe_response(body))
    assert isinstance(d.error_body(429, "slow down"), bytes)
    assert d.provider_rules()
    spec = d.build_request([Message.user("hello")], model="m", stream=False, variant=variant)
    assert "hello" in [m.text for m in d.parse_request(spec.body)]
    assert isinstance(d.emitter(variant), Emitter)
    assert d.observer(variant) is not None
