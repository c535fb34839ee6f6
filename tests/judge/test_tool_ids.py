"""The tool-ids check on hand-built timelines: the upstream's call id reaches the client and comes
back upstream; a minted id or the Responses item id (``fc_...``) in its place fails; a dialect that
writes no call id (Ollama) leaves nothing to judge."""

from __future__ import annotations

from harness._json import dumps_compact
from harness.catalog._scenario import TurnSpec
from harness.drivers import KIND_TABLE
from harness.events import End, Event, ReasoningDelta, TextDelta, ToolCallDelta
from harness.judge import CHECKS, build_view
from harness.timeline import Timeline
from harness.upstream import Emit
from harness.verdict import Finding, Verdict
from tests.judge._fake_case import FakeCase

CALL = ToolCallDelta(0, "call_abc", "get_weather", '{"city":"Paris"}')
TURNS = (
    TurnSpec((Emit((ReasoningDelta("Look it up."), CALL, End("tool_calls"))),), "Weather?"),
    TurnSpec((Emit((TextDelta("18°C."), End())),), None),
)


def _continuation(call_id: str) -> bytes:
    return dumps_compact(
        {
            "model": "m",
            "input": [
                {"type": "message", "role": "user", "content": "Weather?"},
                {"type": "function_call", "call_id": call_id, "name": "get_weather", "arguments": "{}"},
                {"type": "function_call_output", "call_id": call_id, "output": "18"},
            ],
        }
    ).encode()


def _judge(seen: str | None, sent_back: str, *, wire_id: bool = True) -> Verdict:
    return _finding(seen, sent_back, wire_id=wire_id).verdict


def _finding(seen: str | None, sent_back: str, *, wire_id: bool = True) -> Finding:
    tl = Timeline()
    tl.add("upstream", "request", turn=0, data=b'{"model":"m","input":"Weather?"}')
    written = b'{"type":"function_call","id":"fc_1","call_id":"call_abc"}' if wire_id else b'{"name":"x"}'
    tl.add_write("upstream", written, 0, frozenset({"tool"}))
    client: list[Event] = [ReasoningDelta("Look it up."), ToolCallDelta(0, seen, "get_weather", "{}")]
    for ev in (*client, End("tool_calls")):
        tl.add("client", "event", event=ev, turn=0)
    tl.add("upstream", "request", turn=1, data=_continuation(sent_back))
    tl.add_write("upstream", b'{"delta":"18"}', 1, frozenset({"text"}))
    for ev2 in (TextDelta("18°C."), End()):
        tl.add("client", "event", event=ev2, turn=1)
    view = build_view(FakeCase(TURNS, "openai-responses"), tl, KIND_TABLE["gateway"])
    return CHECKS.get("tool-ids")(view)


def test_the_upstreams_id_both_ways_passes() -> None:
    assert _judge("call_abc", "call_abc") == Verdict.PASS


def test_the_item_id_in_place_of_the_call_id_fails() -> None:
    found = _finding("fc_1", "fc_1")
    assert found.verdict == Verdict.FAIL
    # the upstream did send fc_1, as the item id: the message says so instead of "never sent"
    assert "an id the upstream sent in another field, not as the call id" in found.message


def test_a_minted_id_is_one_the_upstream_never_sent() -> None:
    found = _finding("call_gw_0", "call_abc")
    assert found.verdict == Verdict.FAIL
    assert "under an id the upstream never sent" in found.message


def test_an_id_sent_back_that_the_upstream_never_gave_fails() -> None:
    assert _judge("call_abc", "call_gw_0") == Verdict.FAIL


def test_a_wire_without_call_ids_is_not_judged() -> None:
    # Ollama writes no call id: the SUT has to mint one, and neither side is judged
    assert _judge("call_gw_0", "call_gw_0", wire_id=False) == Verdict.NOT_APPLICABLE
