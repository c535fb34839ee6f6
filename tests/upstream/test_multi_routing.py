"""Many conversations on one MockUpstream: each request goes to the conversation its routing token
names (in the body, where gateways forward it, or in the x-thinkwire-case header), with that
conversation's own timeline, gate and records; another conversation's token is recorded as
cross-talk; a request naming none while several are in flight is a stray (500, the SUT's)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import pytest

from harness._routing import ROUTE_HEADER, token_for, tokens_in
from harness.events import End, ReasoningDelta, TextDelta
from harness.timeline import Timeline
from harness.upstream import ClientSide, Conversation, Emit, Gate, MockUpstream, Script

A, B = token_for("case-a"), token_for("case-b")


def chat(reasoning: str, *, gate: bool = False) -> Conversation:
    steps: list[object] = [Emit((ReasoningDelta(reasoning),))]
    if gate:
        steps.append(Gate(reasoning=reasoning, timeout=10.0))
    steps.append(Emit((TextDelta("done"), End("stop"))))
    return Conversation((Script("openai-chat", tuple(steps)),), name=reasoning)  # type: ignore[arg-type]


def body(token: str | None, *extra: str) -> dict[str, object]:
    content = "Hello?" + (f" [{token}]" if token else "")
    msgs = [{"role": "user", "content": content}]
    msgs += [{"role": "assistant", "content": "", "reasoning_content": x} for x in extra]
    return {"model": "m", "stream": True, "messages": msgs}


def post(up: MockUpstream, payload: dict[str, object], **headers: str) -> httpx.Response:
    return httpx.post(up.base_url + "/v1/chat/completions", json=payload, headers=headers, timeout=10)


@pytest.fixture
def up(server: MockUpstream) -> Iterator[MockUpstream]:
    yield server
    for tok in (A, B):
        server.unroute(tok)
    server.strict_routing = False


def test_tokens_are_stable_and_found_in_order() -> None:
    assert token_for("case-a") == A
    assert A.startswith("tw-")
    assert len(A) == 11
    assert A != B
    raw = f'{{"x": "[{B}] and {A} and {B}", "y": "tw-12345678x tw-abc"}}'.encode()
    assert tokens_in(raw) == [B, A]
    assert tokens_in(b"no token here") == []


def test_each_request_reaches_the_conversation_its_token_names_while_another_is_held(
    up: MockUpstream,
) -> None:
    tl_a, tl_b, client_a = Timeline(), Timeline(), ClientSide()
    up.route(A, chat("alpha", gate=True), tl_a, client_a)
    up.route(B, chat("beta"), tl_b, ClientSide())
    up.strict_routing = True
    held: dict[str, httpx.Response] = {}
    t = threading.Thread(target=lambda: held.setdefault("a", post(up, body(A))))
    t.start()
    assert tl_a.wait_for("upstream", "gate-wait", timeout=10)  # A is held at its gate ...
    r = post(up, body(B))  # ... while B is answered whole
    assert r.status_code == 200
    assert "beta" in r.text
    assert "alpha" not in r.text
    client_a.observe(ReasoningDelta("alpha"))  # A's own client side opens A's gate
    t.join(10)
    assert "alpha" in held["a"].text
    assert "beta" not in held["a"].text
    assert len(tl_a.select("upstream", "request")) == 1
    assert len(tl_b.select("upstream", "request")) == 1
    assert tl_a.select("upstream", "gate-open")
    assert not tl_b.select("upstream", "gate-wait")
    assert not tl_a.select("upstream", "crosstalk")
    assert not up.strays


def test_the_header_names_a_conversation_too(up: MockUpstream) -> None:
    tl_b = Timeline()
    up.route(A, chat("alpha"), Timeline(), ClientSide())
    up.route(B, chat("beta"), tl_b, ClientSide())
    r = post(up, body(None), **{ROUTE_HEADER: B})
    assert r.status_code == 200
    assert "beta" in r.text
    assert len(tl_b.select("upstream", "request")) == 1


def test_another_conversations_token_in_a_request_is_recorded_as_crosstalk(up: MockUpstream) -> None:
    tl_a = Timeline()
    up.route(A, chat("alpha"), tl_a, ClientSide())
    up.route(B, chat("beta"), Timeline(), ClientSide())
    r = post(up, body(A, f"[{B}] beta's reasoning"))
    assert r.status_code == 200
    assert "alpha" in r.text
    (e,) = tl_a.select("upstream", "crosstalk")
    assert e.info["tokens"] == [B]
    assert e.info["cases"] == ["beta"]


def test_a_request_naming_no_conversation_in_flight_is_a_stray(up: MockUpstream) -> None:
    tl_a, tl_b = Timeline(), Timeline()
    up.route(A, chat("alpha"), tl_a, ClientSide())
    up.route(B, chat("beta"), tl_b, ClientSide())
    up.strict_routing = True
    before = len(up.strays)
    for payload in (body(None), body(token_for("case-z"))):
        r = post(up, payload)
        assert r.status_code == 500
        assert "cannot be routed" in r.text
    assert "carries no routing token" in post(up, body(None)).text
    assert len(up.strays) == before + 3
    assert not tl_a.select("upstream", "request")
    assert not tl_b.select("upstream", "request")


def test_one_conversation_in_flight_takes_a_request_without_token_unless_strict(
    up: MockUpstream,
) -> None:
    tl_a = Timeline()
    up.route(A, chat("alpha"), tl_a, ClientSide())
    assert "alpha" in post(up, body(None)).text  # as before routing existed (a serial run)
    up.strict_routing = True
    assert post(up, body(None)).status_code == 500
    assert len(tl_a.select("upstream", "request")) == 1


def test_without_routes_the_loaded_conversation_answers_whatever_the_token(up: MockUpstream) -> None:
    tl = Timeline()
    up.load(chat("loaded"), timeline=tl, client=ClientSide())
    assert "loaded" in post(up, body(A)).text
    assert not tl.select("upstream", "crosstalk")
