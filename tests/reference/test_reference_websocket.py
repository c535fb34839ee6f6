"""The reference SUTs over the Responses WebSocket upstream: the sans-IO client half against wsproto's
server; the gateway's socket per conversation (previous_response_id chained on it), its cancel, its
mid-stream error, its non-streaming answer and its ws-new-socket-per-turn fault, against the mock
itself; nothing left behind (psutil); and the catalog's WebSocket cases through the gateway, the CLI
and under --concurrency."""

from __future__ import annotations

import contextlib
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
from test_reference_gateway import chat as gateway_chat
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Ping, RejectConnection, Request, TextMessage

from harness.dialects import get_dialect
from harness.events import (
    End,
    Event,
    Message,
    ReasoningDelta,
    ReasoningSignature,
    StreamError,
    TextDelta,
    ToolCallDelta,
    assemble,
)
from harness.net import WireClient, WsClientSide, WsClosed
from harness.reference._core import Route
from harness.reference.agent import Agent
from harness.reference.gateway import Gateway
from harness.runner import run
from harness.upstream import Conversation, Emit, MidStreamError, MockUpstream, Script, Stall
from harness.verdict import Status, Verdict

WS = "openai-responses-ws"
CHAT = get_dialect("openai-chat")
BOUND_S = 10.0


def _server_accepting(side: WsClientSide) -> tuple[WSConnection, bytes]:
    server = WSConnection(ConnectionType.SERVER)
    server.receive_data(side.handshake())
    assert isinstance(next(server.events()), Request)
    return server, server.send(AcceptConnection())


def test_the_client_half_joins_fragments_answers_pings_and_closes() -> None:
    side = WsClientSide("http://127.0.0.1:9/v1/responses?x=1")
    assert (side.host, side.port, side.target) == ("127.0.0.1", 9, "/v1/responses?x=1")
    server, accept = _server_accepting(side)
    frames = server.send(TextMessage("he", message_finished=False)) + server.send(TextMessage("llo"))
    messages, out = side.receive(accept + frames + server.send(Ping(b"p")))
    assert side.accepted
    assert messages == ["hello"]
    server.receive_data(out)
    assert [type(e).__name__ for e in server.events()] == ["Pong"]
    server.receive_data(side.text("hi"))
    assert [e.data for e in server.events() if isinstance(e, TextMessage)] == ["hi"]
    messages, out = side.receive(server.send(CloseConnection(code=1000)))
    assert side.closed
    assert messages == []
    assert out
    assert side.close() == b""  # no second close frame


def test_the_client_half_raises_on_a_refused_or_cut_handshake() -> None:
    side = WsClientSide("http://127.0.0.1:9/v1/responses")
    server = WSConnection(ConnectionType.SERVER)
    server.receive_data(side.handshake())
    next(server.events())
    with pytest.raises(WsClosed, match="HTTP 403"):
        side.receive(server.send(RejectConnection(status_code=403)))
    with pytest.raises(WsClosed, match="during the WebSocket handshake"):
        WsClientSide("http://127.0.0.1:9/").receive(b"")


# -- the gateway against the mock ----------------------------------------------------------------------
def chat(base: str, messages: list[Message], *, stream: bool = True) -> tuple[int, bytes, list[Event]]:
    return gateway_chat(base, messages, model=f"{WS}:summary/m", stream=stream)


def _script(*events: Event) -> Script:
    return Script(WS, (Emit(events),))


TOOL = _script(
    ReasoningDelta("Think."),
    ReasoningSignature("gAAA-ws"),
    ToolCallDelta(0, "call_1", "get_weather", '{"city":"Paris"}'),
    End("tool_calls"),
)
ANSWER = _script(ReasoningDelta("Tool says."), TextDelta("18C."), End())
AGAIN = _script(ReasoningDelta("Again."), TextDelta("Mild."), End())


@pytest.fixture
def pair(request: pytest.FixtureRequest) -> Iterator[tuple[MockUpstream, Gateway]]:
    faults = getattr(request, "param", ())
    with MockUpstream() as up, Gateway(up.base_url, faults) as gw:
        yield up, gw


def _bodies(up: MockUpstream) -> list[dict[str, Any]]:
    return [json.loads(r.body) for r in up.requests]


def _chain(gw: Gateway) -> list[tuple[int, bytes, list[Event]]]:
    msgs = [Message.user("Weather?")]
    out = [chat(gw.base_url, msgs)]
    msgs += [assemble(out[-1][2]), Message.tool("call_1", "18C", "get_weather")]
    out.append(chat(gw.base_url, msgs))
    if out[-1][0] == 200:
        msgs += [assemble(out[-1][2]), Message.user("Tomorrow?")]
        out.append(chat(gw.base_url, msgs))
    return out


def test_gateway_chains_a_conversation_on_one_socket(pair: tuple[MockUpstream, Gateway]) -> None:
    up, gw = pair
    up.load(Conversation.of([TOOL, ANSWER, AGAIN]))
    answers = _chain(gw)
    assert [a[0] for a in answers] == [200, 200, 200]
    assert assemble(answers[2][2]).text == "Mild."
    assert {r.conn for r in up.requests} == {up.requests[0].conn}  # one socket for the conversation
    first, second, third = _bodies(up)
    assert "previous_response_id" not in first
    assert second["previous_response_id"].startswith("resp_")
    assert not up.timeline.select("upstream", "rejected")  # each id named the socket's last response
    assert second["input"] == [{"type": "function_call_output", "call_id": "call_1", "output": "18C"}]
    assert third["input"][0]["content"] == "Tomorrow?"
    assert len(third["input"]) == 1
    assert third["previous_response_id"] != second["previous_response_id"]


@pytest.mark.parametrize("pair", [("ws-new-socket-per-turn",)], indirect=True)
def test_gateway_new_socket_per_turn_fault_is_previous_response_not_found(
    pair: tuple[MockUpstream, Gateway],
) -> None:
    up, gw = pair
    up.load(Conversation.of([TOOL, ANSWER, AGAIN]))
    answers = _chain(gw)
    assert [a[0] for a in answers] == [200, 400]
    assert b"Previous response with id 'resp_" in answers[1][1]
    (rejected,) = up.timeline.select("upstream", "rejected")
    assert rejected.info["rule"] == "openai-ws/previous-response-not-found"
    assert len({r.conn for r in up.requests}) == 2


def test_gateway_a_conversation_it_does_not_know_goes_whole_on_a_new_socket(
    pair: tuple[MockUpstream, Gateway],
) -> None:
    """A history this gateway did not relay (another instance's): the whole input, no chaining."""
    up, gw = pair
    up.load(Conversation.of([ANSWER]))
    call = Message("assistant", assemble(TOOL.steps[0].events).content)  # type: ignore[union-attr]
    status, _, events = chat(gw.base_url, [Message.user("Weather?"), call, Message.tool("call_1", "18C")])
    assert status == 200
    assert assemble(events).text == "18C."
    (body,) = _bodies(up)
    assert "previous_response_id" not in body
    assert [i.get("type") for i in body["input"]][-2:] == ["function_call", "function_call_output"]


def test_gateway_mid_stream_error_is_surfaced_never_replayed(pair: tuple[MockUpstream, Gateway]) -> None:
    up, gw = pair
    broken = Script(WS, (Emit((ReasoningDelta("Half."),)), MidStreamError(StreamError("overloaded"))))
    up.load(Conversation.of([broken, ANSWER]))
    status, _, events = chat(gw.base_url, [Message.user("Hi")])
    assert status == 200
    assert [e for e in events if isinstance(e, ReasoningDelta)] == [ReasoningDelta("Half.")]
    assert any(isinstance(e, StreamError) for e in events)
    assert len(up.requests) == 1  # not retried
    assert gw.sockets.take([Message.user("Hi"), Message("assistant"), Message.user("x")]) == {}


def test_gateway_nonstreaming_client_over_the_socket(pair: tuple[MockUpstream, Gateway]) -> None:
    up, gw = pair
    up.load(Conversation.of([ANSWER]))
    status, _, events = chat(gw.base_url, [Message.user("Hi")], stream=False)
    assert status == 200
    message = assemble(events)
    assert (message.reasoning, message.text) == ("Tool says.", "18C.")


def _to(port: int) -> list[Any]:
    """This process's TCP connections to ``port`` that are still open."""
    return [
        c
        for c in psutil.Process().net_connections(kind="tcp")
        if c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED
    ]


def _wait(what: Any) -> None:
    deadline = time.monotonic() + BOUND_S
    while not what():
        assert time.monotonic() < deadline
        time.sleep(0.01)  # polling for an event, not timing a verdict


def test_gateway_cancel_and_stop_leave_no_socket(pair: tuple[MockUpstream, Gateway]) -> None:
    up, gw = pair
    port = httpx.URL(up.base_url).port
    assert port is not None
    stalled = Script(WS, (Emit((ReasoningDelta("Thinking"),)), Stall(BOUND_S)))
    up.load(Conversation.of([ANSWER, stalled]))
    assert chat(gw.base_url, [Message.user("Hi")])[0] == 200
    assert len(_to(port)) == 1  # kept for the conversation's next turn
    spec = CHAT.build_request(
        [Message.user("Think.")], model=f"{WS}:summary/m", stream=True, variant="reasoning_details"
    )
    with httpx.stream("POST", gw.base_url + spec.path, json=spec.body, timeout=BOUND_S) as r:
        for chunk in r.iter_raw():
            if b"Thinking" in chunk:
                break  # the client leaves mid-reasoning
    _wait(lambda: up.timeline.select("upstream", "disconnect"))
    _wait(lambda: len(_to(port)) == 1)  # the cancelled socket closed; the kept one stays until stop
    gw.stop()
    _wait(lambda: not _to(port))


# -- the catalog ------------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("sut", ["reference", "reference-cli"])
def test_the_websocket_cases_pass_through_gateway_and_cli(sut: str) -> None:
    result = run(["*websocket*"], sut=sut, expectations=None)
    assert len(result.results) == 4
    assert all(r.status == Status.OK and r.stream == Verdict.PASS for r in result.results), [
        (r.case_id, r.status.value, [(f.check, f.message) for f in r.failing()]) for r in result.results
    ]


def test_websocket_cases_run_in_flight_with_others_the_cancel_too() -> None:
    """Chained turns are routed by the response they continue, and the cancel case runs in flight too:
    each conversation of the gateway has its own upstream socket, which is what the cancel is judged on
    (issue 39: a broken SUT fails fast)."""
    cases = ["*websocket*", "tools-passback/deepseek-three-turns*"]
    result = run(cases, sut="reference", expectations=None, concurrency=4)
    assert {r.stream for r in result.results} == {Verdict.PASS}
    assert "errors-cancellation/websocket-cancel[openai-responses-ws:summary/frames]" in {
        r.case_id for r in result.results
    }
    assert {r.case_id for r in result.results if r.alone} == set()


# -- the agent CLI in process --------------------------------------------------------------------------
@pytest.mark.parametrize("faults", [(), ("ws-new-socket-per-turn",)], ids=["correct", "new-socket"])
def test_agent_continues_its_tool_loop_on_one_socket(tmp_path: Path, faults: tuple[str, ...]) -> None:
    http = WireClient()
    with MockUpstream() as up, contextlib.closing(http):
        up.load(Conversation.of([TOOL, ANSWER]))
        agent = Agent(
            upstream=up.base_url,
            route=Route(WS, "summary", "m"),
            session=tmp_path / "s",
            faults=frozenset(faults),
            out=io.BytesIO(),
            http=http,
        )
        try:
            status = agent.run("Weather?")
        finally:
            agent.cleanup()
        first, second = _bodies(up)
        conns = {r.conn for r in up.requests}
    assert "previous_response_id" not in first
    assert "ws" not in agent.ws  # closed at cleanup
    assert second["previous_response_id"].startswith("resp_")
    assert [i["type"] for i in second["input"]] == ["function_call_output"]
    if faults:
        assert (status, len(conns)) == (1, 2)  # previous_response_not_found on the new socket
    else:
        assert (status, len(conns)) == (0, 1)
