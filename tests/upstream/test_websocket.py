"""The mock's Responses WebSocket mode: response.create per request over one socket (wsproto), the
events as text messages, previous_response_id chained on the connection (store false: only the last
response; store true: any the mock produced), previous_response_not_found as the real API sends it;
and thinkwire's own WebSocket front door (the driver) against it."""

from __future__ import annotations

import json

import pytest

from harness.events import End, ReasoningDelta, TextDelta
from harness.net import WsClient
from harness.runner import run
from harness.upstream import Conversation, Emit, MockUpstream, Script

WS = "openai-responses-ws"


def _answer(text: str) -> Script:
    return Script(WS, (Emit((ReasoningDelta("Think."), TextDelta(text), End())),))


def _turn(sock: WsClient, **body: object) -> list[dict[str, object]]:
    sock.send(json.dumps({"type": "response.create", "model": "m", "input": "hi", **body}))
    out: list[dict[str, object]] = []
    while True:
        message = sock.recv(timeout=5)
        assert message is not None
        out.append(json.loads(message))
        if out[-1]["type"] in ("response.completed", "error"):
            return out


@pytest.fixture
def upstream() -> object:
    with MockUpstream() as mock:
        yield mock


def _rid(events: list[dict[str, object]]) -> str:
    created = next(e for e in events if e["type"] == "response.created")
    return str(created["response"]["id"])  # type: ignore[index]


def test_a_socket_serves_one_response_per_create_and_chains_the_last_one(upstream: MockUpstream) -> None:
    upstream.load(Conversation.of([_answer("One."), _answer("Two."), _answer("Three.")]))
    sock = WsClient(upstream.base_url + "/v1/responses")
    try:
        first = _turn(sock, store=False)
        assert [e["type"] for e in first][:2] == ["response.created", "response.in_progress"]
        assert any(e.get("delta") == "One." for e in first)  # the same events as the SSE stream
        second = _turn(sock, store=False, previous_response_id=_rid(first))
        assert second[-1]["type"] == "response.completed"
        stale = _turn(sock, store=False, previous_response_id=_rid(first))  # no longer the last one
        assert stale == [
            {
                "type": "error",
                "status": 400,
                "error": {
                    "type": "invalid_request_error",
                    "code": "previous_response_not_found",
                    "message": f"Previous response with id '{_rid(first)}' not found.",
                    "param": "previous_response_id",
                },
            }
        ]
    finally:
        sock.close()
    methods = [r.method for r in upstream.requests]
    assert methods == ["WS", "WS", "WS"]
    rejected = upstream.timeline.select("upstream", "rejected")
    assert [e.info["rule"] for e in rejected] == ["openai-ws/previous-response-not-found"]


def test_store_false_state_is_connection_local_store_true_is_not(upstream: MockUpstream) -> None:
    upstream.load(Conversation.of([_answer("A."), _answer("B."), _answer("C.")]))
    one = WsClient(upstream.base_url + "/v1/responses")
    first = _turn(one, store=False)
    one.close()
    two = WsClient(upstream.base_url + "/v1/responses")
    try:
        lost = _turn(two, store=False, previous_response_id=_rid(first))
        assert lost[-1]["error"]["code"] == "previous_response_not_found"  # type: ignore[index]
        kept = _turn(two, store=True, previous_response_id=_rid(first))
        assert kept[-1]["type"] == "response.completed"
    finally:
        two.close()


def test_the_drivers_websocket_front_door_passes_against_the_mock_itself() -> None:
    """An identity SUT: thinkwire's WebSocket client talks to the mock directly."""
    profile = {
        "name": "mock-direct-ws",
        "kind": "url",
        "url": "{upstream}",
        "front_door": WS,
        "front_variant": "summary",
        "path": "/v1/responses",
        "models": {"*": "mock-model"},
    }
    result = run(
        ["wire-variants/responses-websocket*", "tools-passback/responses-websocket*", "*websocket-cancel*"],
        sut=profile,
        expectations=None,
        preflight=False,
    )
    assert result.results
    assert {r.stream.value for r in result.results} <= {"PASS", "INFO"}, [
        (r.case_id, [(f.check, f.message) for f in r.failing()]) for r in result.results
    ]


def test_a_chained_create_without_token_reaches_the_conversation_of_the_response_it_names(
    upstream: MockUpstream,
) -> None:
    """Several conversations in flight (strict routing): the first turn carries its case's token, the
    chained one only the id of the response it continues, and still reaches its conversation."""
    from harness._routing import token_for
    from harness.timeline import Timeline
    from harness.upstream import ClientSide

    a, b = token_for("ws-a"), token_for("ws-b")
    tl_a = Timeline()
    upstream.route(a, Conversation.of([_answer("A1."), _answer("A2.")]), tl_a, ClientSide())
    upstream.route(b, Conversation.of([_answer("B1.")]), Timeline(), ClientSide())
    upstream.strict_routing = True
    sock = WsClient(upstream.base_url + "/v1/responses")
    try:
        first = _turn(sock, store=False, input=f"hi [{a}]")
        second = _turn(sock, store=False, previous_response_id=_rid(first), input="more")
        stray = _turn(sock, store=False, previous_response_id="resp_unknown", input="more")
    finally:
        sock.close()
        upstream.unroute(a)
        upstream.unroute(b)
        upstream.strict_routing = False
    assert any(e.get("delta") == "A2." for e in second)
    assert len(tl_a.select("upstream", "request")) == 2
    assert stray[-1]["type"] == "error"  # names no conversation in flight: the SUT's stray
