"""The mock's answer to each recorded request: the same content, through thinkwire's own emitter. Nothing here
is compared; ``_compare`` does that."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.dialects import get_dialect
from harness.events import Event, Notice
from harness.upstream import Conversation, Emit, Script
from harness.upstream._dispatch import ConversationState, dispatch
from harness.upstream._plan import Head, Write
from tools.fidelity._corpus import CorpusExchange

__all__ = ["MockAnswer", "mock_answers", "recorded_events"]


@dataclass(frozen=True, slots=True)
class MockAnswer:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    stream: bool

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


def recorded_events(cx: CorpusExchange) -> tuple[Event, ...]:
    """What the recorded response carries, as the dialect's observer reads it (notices left out)."""
    d = get_dialect(cx.dialect)
    body = cx.exchange.body
    stream = d.wants_stream(cx.exchange.path.split("?", 1)[0], cx.request)
    if stream:
        obs = d.observer()
        events = obs.feed(body) + obs.end()
    else:
        events = d.observe_response(body)
    return tuple(e for e in events if not isinstance(e, Notice))


def _model(cx: CorpusExchange, request: dict[str, Any]) -> str:
    model = request.get("model")
    if isinstance(model, str):
        return model
    path = cx.exchange.path.split("?", 1)[0]
    tail = path.rsplit("/", 1)[-1]
    return tail.split(":", 1)[0] if cx.dialect == "gemini" else tail


def mock_answers(exchanges: list[CorpusExchange]) -> list[MockAnswer]:
    """The mock's answers to the exchanges of one corpus file, in order (one conversation).

    The recorded response is decoded by its dialect's observer into canonical events. A script that emits
    exactly those events, in the variant and provider rules the manifest names for that provider, answers
    the recorded request through the mock upstream's own :func:`~harness.upstream._dispatch.dispatch`, with
    its target, query and JSON body. Strict provider rules then judge a continuation against what the mock
    itself emitted before.
    """
    scripts = []
    for cx in exchanges:
        request = cx.request
        scripts.append(
            Script(
                cx.dialect,
                (Emit(recorded_events(cx)),),
                variant=cx.file.variant,
                provider_rules=cx.file.provider_rules,
                model=_model(cx, request),
            )
        )
    state = ConversationState(Conversation(tuple(scripts), name=exchanges[0].file.name if exchanges else ""))
    out = []
    for cx in exchanges:
        ex = cx.exchange
        _, plan = dispatch(
            state,
            method=ex.method,
            target=ex.path,
            headers=tuple(ex.request_headers),
            body=ex.request_body,
            t=0,
        )
        head = next((a for a in plan.actions if isinstance(a, Head)), None)
        body = b"".join(a.data for a in plan.actions if isinstance(a, Write))
        out.append(MockAnswer(head.status if head else 0, head.headers if head else (), body, plan.stream))
    return out
