"""The OpenAI Responses API over a WebSocket, ``/v1/responses`` WebSocket mode: the same events as the SSE
stream, one JSON text message each, started by ``response.create`` client messages. Over plain HTTP the
same endpoint answers SSE, so the emitter, observer and provider rules are the Responses dialect's and only
the messages and the connection's chaining live here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from harness._json import dumps_compact, loads
from harness.dialects._base import (
    ProviderRules,
    Rejection,
    RequestSpec,
    Variant,
)
from harness.dialects._variant import DOCS, Senders, by_name
from harness.dialects.openai_responses import VARIANTS as HTTP_VARIANTS
from harness.dialects.openai_responses import OpenAIResponsesDialect
from harness.dialects.openai_responses._items import NO_TOOL_CALL
from harness.dialects.openai_responses._observer import ResponsesObserver
from harness.dialects.openai_responses._rules import RULES as HTTP_RULES
from harness.dialects.openai_responses._rules import openai_error_body
from harness.events import Event, Message, Turn

__all__ = [
    "DIALECT",
    "TERMINAL",
    "VARIANTS",
    "OpenAIResponsesWsDialect",
    "WsMessageObserver",
    "event_kind",
    "not_found_rejection",
    "sse_event",
    "ws_error",
]

# Sources: https://developers.openai.com/api/docs/guides/websocket-mode, openai-python
# ``types/responses/responses_client_event.py`` and ``responses_server_event.py``. The client event is
# ``{"type": "response.create", ...the create body, without stream/background...}``; later turns send only
# new input items plus ``previous_response_id``, the connection keeping the last response. Errors are
# ``{"type": "error", "status": 400, "error": {"type", "code", "message", "param"}}`` messages.
NAME = "openai-responses-ws"
NOT_FOUND = "Previous response with id '{id}' not found."

_OVER_WS = (
    ("summary", "reasoning.summary", ("openai-responses-ws/reasoning-summary",)),
    ("empty", "no reasoning.summary", ()),
    ("reasoning_text", "", ()),
)
"""The HTTP variants the WebSocket mode plays, with what OpenAI (their one sender over it) is asked for
and their request forms."""
VARIANTS: dict[str, Variant] = by_name(
    replace(
        HTTP_VARIANTS[name],
        dialect=NAME,
        description=HTTP_VARIANTS[name].description + " (over the WebSocket)",
        senders=Senders(("openai",), (), note, DOCS["openai"]),
        forms=forms,
    )
    for name, note, forms in _OVER_WS
)


def ws_error(status: int, error: Mapping[str, Any]) -> str:
    """The error message a Responses WebSocket sends (``ResponseWsError``)."""
    return dumps_compact({"type": "error", "status": status, "error": dict(error)})


def not_found_rejection(previous_response_id: str) -> Rejection:
    """``previous_response_not_found``: the id is not the connection's last response (store false) nor
    one the mock produced (store true)."""
    error = {
        "type": "invalid_request_error",
        "code": "previous_response_not_found",
        "message": NOT_FOUND.format(id=previous_response_id),
        "param": "previous_response_id",
    }
    diff = ("previous_response_id", previous_response_id, "the last response of this connection")
    return Rejection(
        400, dumps_compact({"error": error}).encode(), "openai-ws/previous-response-not-found", (diff,)
    )


TERMINAL = frozenset({"response.completed", "response.failed", "response.incomplete", "error"})
"""The message types that end one response on the socket."""


def event_kind(message: str, response_id: str | None = None) -> tuple[str, str | None]:
    """A socket message's ``type``, and the response id it names (else ``response_id`` as given)."""
    try:
        obj = loads(message)
    except ValueError:
        return "message", response_id
    if not isinstance(obj, dict):
        return "message", response_id
    response = obj.get("response")
    if isinstance(response, dict) and isinstance(response.get("id"), str):
        response_id = response["id"]
    return str(obj.get("type", "message")), response_id


def sse_event(message: str, response_id: str | None = None) -> tuple[str, str | None, bytes]:
    """A socket message -> its ``type``, the response id it names (else ``response_id``), and the
    message as the SSE event the Responses observer reads (what a SUT feeds its Responses pipe)."""
    kind, response_id = event_kind(message, response_id)
    return kind, response_id, b"event: " + kind.encode() + b"\ndata: " + message.encode() + b"\n\n"


class WsMessageObserver:
    """One WebSocket text message per ``feed`` (a whole JSON event) -> canonical events, through the
    Responses SSE observer (the event name is the message's ``type``)."""

    def __init__(self) -> None:
        self._inner = ResponsesObserver()

    def feed(self, data: bytes) -> list[Event]:
        return self._inner.feed(sse_event(data.decode("utf-8", errors="replace"))[2])

    def end(self) -> list[Event]:
        return self._inner.end()


@dataclass(slots=True)
class _OpenAIWs(ProviderRules):
    """The ``openai`` Responses rules, plus: without ``previous_response_id`` a function_call_output
    needs its function_call in the input (the connection's cache is only reached through the id).

    With ``store: false`` only the most recent response of the same connection can be chained, else
    ``previous_response_not_found``: "Previous response with id '...' not found."
    """

    name: str = "openai-ws"
    dialect: str = NAME
    description: str = (
        "OpenAI Responses over WebSocket: previous_response_id must name the connection's last response "
        "(store false); a function_call_output needs its call in input or in the chained response; "
        "reasoning items as openai"
    )

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return HTTP_RULES["openai"].shape(request, turn)

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        items = request.get("input")
        if isinstance(items, list) and not request.get("previous_response_id"):
            kinds = [(i.get("type"), i.get("call_id")) for i in items if isinstance(i, Mapping)]
            calls = {cid for kind, cid in kinds if kind == "function_call"}
            outputs = [cid for kind, cid in kinds if kind == "function_call_output"]
            orphan = next((cid for cid in outputs if cid not in calls), 0)
            if orphan != 0:
                body = openai_error_body(NO_TOOL_CALL.format(call_id=orphan))
                diff = ("previous_response_id", None, "the response that made the call")
                return Rejection(400, body, "openai-ws/no-tool-call", (diff,))
        return HTTP_RULES["openai"].validate(request, emitted)


class OpenAIResponsesWsDialect(OpenAIResponsesDialect):
    """Its stream observer reads what arrives over plain HTTP (SSE), as the Responses dialect's does;
    over the socket: :class:`WsMessageObserver`."""

    name = NAME
    variants = VARIANTS
    websocket = True
    routed = False  # its paths are the Responses dialect's: a request reaches it through its script

    def build_request(
        self, messages: Sequence[Message], *, model: str, stream: bool, variant: str, **options: Any
    ) -> RequestSpec:
        """A ``response.create`` message. ``previous_response_id`` (with ``since``: how many of the
        messages that response already covers) sends only the new input items."""
        previous = options.pop("previous_response_id", None)
        since = int(options.pop("since", 0)) if previous else 0
        new = list(messages)[since:]
        spec = super().build_request(new, model=model, stream=True, variant=variant, **options)
        body: dict[str, Any] = {"type": "response.create", **spec.body}
        body.pop("stream", None)
        if previous:
            body["previous_response_id"] = previous
        return RequestSpec(spec.path, body, spec.headers)

    def parse_request(self, body: Mapping[str, Any]) -> list[Message]:
        return super().parse_request({k: v for k, v in body.items() if k != "type"})

    def provider_rules(self) -> Mapping[str, ProviderRules]:
        return {"lenient": HTTP_RULES["lenient"], "openai-ws": _OpenAIWs()}


DIALECT = OpenAIResponsesWsDialect()
