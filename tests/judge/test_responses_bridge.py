"""Responses bridges (issue 40): the five breaks of public reports against gateways with an OpenAI
Responses front door over a Chat or Anthropic upstream (and the other way round), each seen by the
Responses observer as the notice the front-door-grammar check fails on, or lost reasoning the delivery
check sees; the reference gateway's switches reproduce each one alone; the bridge scenarios are for
SUTs whose front door on the wire is the Responses API. Sans-IO: hand-built SSE and the emitters' frames.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from typing import Any

import pytest

from harness import FlagError
from harness.catalog._claims import left_out_reason
from harness.catalog._scenario import TurnSpec
from harness.codec import encode_frames
from harness.dialects import get_dialect
from harness.drivers import KIND_TABLE
from harness.events import End, Event, Notice, ReasoningDelta, ReasoningSignature, TextDelta
from harness.judge import CHECKS, build_view
from harness.judge._grammar import GRAMMAR_BREAKS
from harness.reference._bridge_faults import BRIDGE_FAULTS, BridgeFrames, bridge_body
from harness.reference._faults import GATEWAY_FAULTS, FaultFilter
from harness.runner import builtin_behind_door, builtin_profile, load_cases
from harness.runner._sut import reproduce_line
from harness.timeline import Timeline
from harness.upstream import Emit
from harness.verdict import Verdict
from tests.judge._fake_case import FakeCase

_SEQ = itertools.count()


def _sse(type_: str, **body: Any) -> bytes:
    obj = {"type": type_, "sequence_number": next(_SEQ), **body}  # every event has one (its SDK type)
    return f"event: {type_}\ndata: {json.dumps(obj)}\n\n".encode()


def _observe(stream: bytes) -> list[Event]:
    obs = get_dialect("openai-responses").observer()
    return obs.feed(stream) + obs.end()


def _breaks(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.code, e.detail) for e in events if isinstance(e, Notice) and e.code in GRAMMAR_BREAKS]


RS = {"id": "rs_1", "type": "reasoning", "summary": []}
RS_DONE = {**RS, "summary": [{"type": "summary_text", "text": "Hmm, ok."}], "encrypted_content": "gAAA-sig"}
MSG = {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed", "content": []}
CREATED = _sse("response.created", response={"id": "resp_1", "status": "in_progress", "output": []})


def _summary(event: str, **body: Any) -> bytes:
    return _sse(
        f"response.reasoning_summary_text.{event}", item_id="rs_1", output_index=0, summary_index=0, **body
    )


def _stream(
    *,
    added: dict[str, Any] | None = RS,
    done_text: str = "Hmm, ok.",
    done_item: dict[str, Any] = RS_DONE,
    completed: tuple[dict[str, Any], ...] = (RS_DONE, MSG),
) -> bytes:
    """A reasoning item streamed the way the Responses API does, but for the one part a case changes."""
    head = CREATED + (_sse("response.output_item.added", output_index=0, item=added) if added else b"")
    deltas = (
        _summary("delta", delta="Hmm,") + _summary("delta", delta=" ok.") + _summary("done", text=done_text)
    )
    done = _sse("response.output_item.done", output_index=0, item=done_item)
    final = {"id": "resp_1", "status": "completed", "output": list(completed)}
    return head + deltas + done + _sse("response.completed", response=final)


BARE = {"id": "rs_1", "type": "reasoning"}
BARE_DONE = {k: v for k, v in RS_DONE.items() if k != "summary"}
UNSIGNED = {k: v for k, v in RS_DONE.items() if k != "encrypted_content"}
RESIGNED = {**RS_DONE, "encrypted_content": "gAAA-other"}

BREAKS: list[tuple[str, bytes, str, str]] = [
    # (what the bridge got wrong, its stream, the notice, what the notice's detail names)
    ("reasoning item without summary", _stream(added=BARE, done_item=BARE_DONE, completed=(BARE_DONE, MSG)),
     "missing-field", "reasoning rs_1: summary"),
    (".done text differs from the deltas", _stream(done_text=" ok."), "done-mismatch",
     "rs_1: deltas 'Hmm, ok.'"),
    ("delta for an unannounced item", _stream(added=None), "unknown-item-id", "rs_1"),
    ("completed drops the reasoning item", _stream(completed=(MSG,)), "completed-lacks-item",
     "reasoning rs_1"),
    ("completed drops the encrypted_content", _stream(completed=(UNSIGNED, MSG)), "completed-lacks-field",
     "lacks encrypted_content of rs_1"),
]  # fmt: skip


@pytest.mark.parametrize(("stream", "kind", "names"), [b[1:] for b in BREAKS], ids=[b[0] for b in BREAKS])
def test_each_break_is_one_grammar_notice_naming_the_item(stream: bytes, kind: str, names: str) -> None:
    found = _breaks(_observe(stream))
    assert {k for k, _ in found} == {kind}  # (an item without summary: on output_item.added and .done)
    assert all(names in detail for _, detail in found)


def test_a_snapshot_with_another_ciphertext_is_no_break() -> None:
    """OpenAI's own response.completed carries another encrypted_content than the item's
    output_item.done (the corpus's openai-responses-summary-stream): only a lost one is a break."""
    assert _breaks(_observe(_stream(completed=(RESIGNED, MSG)))) == []


def test_the_faithful_stream_breaks_nothing_and_is_read_whole() -> None:
    events = _observe(_stream())
    assert _breaks(events) == []
    assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "Hmm, ok."
    assert [e.value for e in events if isinstance(e, ReasoningSignature)] == ["gAAA-sig"]


def test_the_observer_reads_past_a_break_and_repairs_nothing() -> None:
    """The reasoning of a stream whose .done disagrees is the deltas' (not the .done's), and the lost
    signature is still the one output_item.done carried: the notice says what the client got wrong."""
    events = _observe(_stream(done_text=" ok.", completed=(UNSIGNED, MSG)))
    assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "Hmm, ok."
    assert {k for k, _ in _breaks(events)} == {"done-mismatch", "completed-lacks-field"}


def test_a_whole_response_without_summary_is_a_missing_field() -> None:
    body = json.dumps({"id": "resp_1", "status": "completed", "output": [BARE_DONE, MSG]}).encode()
    kinds = [e.code for e in get_dialect("openai-responses").observe_response(body) if isinstance(e, Notice)]
    assert kinds == ["missing-field"]


# -- the reference gateway's switches, on its Responses front door's own frames ------------------------

TURN: list[Event] = [
    ReasoningDelta("The user", item="r"),
    ReasoningDelta(" greets.", item="r"),
    ReasoningSignature("gAAA-sig", item="r"),
    TextDelta("Hi", item="t"),
    End("stop"),
]

SWITCHES = [
    ("bridge-no-summary", "missing-field"),
    ("bridge-done-last-delta", "done-mismatch"),
    ("bridge-unannounced-reasoning", "unknown-item-id"),
    ("bridge-completed-drops-reasoning", "completed-lacks-item"),
    ("bridge-completed-drops-signature", "completed-lacks-field"),
]


def _gateway_stream(faults: tuple[str, ...]) -> bytes:
    em = get_dialect("openai-responses").emitter("summary")
    bridge = BridgeFrames(faults)
    frames = (
        bridge.rewrite(em.feed(TURN[:2])) + bridge.rewrite(em.feed(TURN[2:])) + bridge.rewrite(em.close())
    )
    return b"".join(encode_frames(frames, "sse"))


def test_every_switch_is_listed_once_and_taken_by_the_gateway() -> None:
    assert {s for s, _ in SWITCHES} == set(BRIDGE_FAULTS) <= GATEWAY_FAULTS


@pytest.mark.parametrize(("fault", "kind"), SWITCHES)
def test_each_switch_makes_its_break_and_no_other(fault: str, kind: str) -> None:
    events = _observe(_gateway_stream((fault,)))
    assert {k for k, _ in _breaks(events)} == {kind}
    if fault != "bridge-completed-drops-reasoning":  # what the client sees as it streams is whole
        assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "The user greets."


def test_without_a_switch_the_frames_pass_unchanged() -> None:
    em = get_dialect("openai-responses").emitter("summary")
    frames = em.feed(TURN) + em.close()
    assert BridgeFrames(()).rewrite(frames) == frames
    assert BridgeFrames(("drop-reasoning",)).rewrite(frames) == frames  # not a bridge switch
    assert _breaks(_observe(_gateway_stream(()))) == []


def test_a_whole_body_loses_only_the_summary() -> None:
    d = get_dialect("openai-responses")
    body = d.emit_response(tuple(TURN), "summary")
    assert bridge_body(body, ()) == body
    broken = json.loads(bridge_body(body, ("bridge-no-summary",)))
    rs = [i for i in broken["output"] if i["type"] == "reasoning"]
    assert rs
    assert all("summary" not in i and i["encrypted_content"] == "gAAA-sig" for i in rs)


# -- the other way round: raw reasoning_text behind a Chat front door -----------------------------------

RAW = [
    ReasoningDelta("summary part", item="rs_1:s0"),
    ReasoningDelta("raw part", item="rs_1:c0"),
    ReasoningSignature("gAAA-sig", item="rs_1:c0"),
    ReasoningDelta("other dialect", item="msg_1:c0"),
    TextDelta("Hi", item="msg_1:t0"),
    End("stop"),
]


def test_drop_reasoning_text_drops_only_a_reasoning_items_content_parts() -> None:
    out = FaultFilter(("drop-reasoning-text",)).run(RAW)
    assert [e for e in RAW if e not in out] == [RAW[1]]


def test_the_reasoning_text_variant_is_read_as_reasoning_by_the_observer() -> None:
    em = get_dialect("openai-responses").emitter("reasoning_text")
    stream = b"".join(encode_frames(em.feed(TURN) + em.close(), "sse"))
    events = _observe(stream)
    raw = [e for e in events if isinstance(e, ReasoningDelta)]
    assert "".join(e.text for e in raw) == "The user greets."
    assert all(":c" in e.item for e in raw)
    assert _breaks(events) == []
    assert not [e for e in FaultFilter(("drop-reasoning-text",)).run(events) if isinstance(e, ReasoningDelta)]


# -- the grammar check's verdict names the item ---------------------------------------------------------


def test_the_check_fails_naming_the_item_without_summary() -> None:
    turn = TurnSpec((Emit((ReasoningDelta("Hmm."), TextDelta("Hi"), End())),), "hi")
    tl = Timeline()
    tl.add("upstream", "request", turn=0)
    for ev in _observe(_stream(added=BARE, done_item=BARE_DONE, completed=(BARE_DONE, MSG))):
        tl.add("client", "event", event=ev, turn=0)
    finding = CHECKS.get("front-door-grammar")(build_view(FakeCase((turn,)), tl, KIND_TABLE["gateway"]))
    assert finding.verdict == Verdict.FAIL
    assert "reasoning rs_1: summary" in finding.message
    assert finding.evidence


# -- who gets the bridge cases --------------------------------------------------------------------------

BRIDGE_CASES = load_cases(
    ["ordering-duplication/responses-bridge", "tools-passback/responses-bridge-tool-turn"]
)


def test_the_bridge_cases_are_for_a_responses_front_door_on_the_wire_only() -> None:
    assert BRIDGE_CASES
    assert {c.dialect for c in BRIDGE_CASES} == {"openai-chat", "anthropic-messages"}
    responses = builtin_behind_door("reference", "openai-responses")
    chat, sdk, cli = (builtin_profile(n) for n in ("reference", "reference-sdk", "reference-cli"))
    in_process_responses = replace(sdk, front_door="openai-responses")
    for case in BRIDGE_CASES:
        assert left_out_reason(case, responses) == ""
        assert "front door openai-chat" in left_out_reason(case, chat)
        assert "front door pi-json" in left_out_reason(case, cli)
        assert "front door openai-chat" in left_out_reason(case, sdk)
        assert "no front door on the wire" in left_out_reason(case, in_process_responses)
    other = load_cases(["wire-variants/responses-reasoning-text"])
    assert other
    assert all(left_out_reason(c, p) == "" for c in other for p in (chat, sdk, cli, responses))


def test_the_reference_gateway_behind_its_responses_door() -> None:
    p = builtin_behind_door("reference", "openai-responses", ("bridge-no-summary",))
    assert (p.front_door, p.front_variant, p.path) == ("openai-responses", "summary", "/v1/responses")
    assert "--fault" in p.command
    assert "bridge-no-summary" in p.command
    line = reproduce_line("a/b[c]", p)
    assert "--sut reference --front-door openai-responses --fault bridge-no-summary" in line
    assert builtin_behind_door("reference", "openai-chat") == builtin_profile("reference")
    with pytest.raises(FlagError, match="has no such front door"):
        builtin_behind_door("reference-sdk", "openai-responses")
    with pytest.raises(FlagError, match="has no such front door"):
        builtin_behind_door("reference", "gemini")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--sut", "reference-sdk", "--front-door", "openai-responses"], "has no such front door"),
        (["--sut", "reference", "--front-door", "gemini"], "has no such front door"),
        (["--sut", "my.toml", "--front-door", "openai-responses"], "only for a built-in SUT"),
    ],
)
def test_front_door_with_a_sut_it_cannot_take_is_refused_in_one_line(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.cli import main

    assert main(["run", "-q", *argv, "--cases", "wire-variants/responses-reasoning-text"]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert len(err.strip().splitlines()) == 1


def test_openais_recorded_streams_break_no_grammar_rule() -> None:
    """Ground truth: every recorded OpenAI Responses stream of the corpus reads without a grammar break
    (its response.completed re-encrypts encrypted_content: a check that compared the value would fail
    OpenAI itself)."""
    from harness.recording import read_cassette
    from tests.fidelity._need import corpus_or_skip

    corpus = corpus_or_skip()
    read = 0
    for name in ("openai-responses-summary-stream", "openai-responses-tool-stream"):
        for ex in read_cassette(corpus.path(name)).exchanges:
            assert _breaks(_observe(b"".join(c.data for c in ex.chunks))) == [], (name, ex.path)
            read += 1
    assert read >= 3


def _sdk_final_reasoning(faults: tuple[str, ...]) -> list[tuple[str | None, int]] | str:
    """The reasoning items (encrypted_content, summary parts) of the openai SDK's ``get_final_response()``
    after it read the gateway's stream with ``faults``; or the exception the SDK raised."""
    from openai import omit
    from openai._models import validate_type
    from openai.lib.streaming.responses._responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent

    em = get_dialect("openai-responses").emitter("summary")
    state: Any = ResponseStreamState(input_tools=omit, text_format=omit)
    try:
        for f in BridgeFrames(faults).rewrite(em.feed(TURN) + em.close()):
            state.handle_event(validate_type(type_=ResponseStreamEvent, value=json.loads(f.data)))
    except Exception as exc:  # what the SDK raises is the outcome
        return type(exc).__name__
    final = state._completed_response
    return [(o.encrypted_content, len(o.summary)) for o in final.output if o.type == "reasoning"]


@pytest.mark.parametrize(
    ("faults", "sdk_user_gets"),
    [
        ((), [("gAAA-sig", 1)]),
        (("bridge-no-summary",), "ValidationError"),  # the typed event union rejects the item
        (("bridge-completed-drops-reasoning",), []),  # the final response has no reasoning to pass back
        (("bridge-completed-drops-signature",), [(None, 1)]),  # ... passes it back unsigned
        # the SDK does not accumulate reasoning deltas, so these two reach its users unharmed (clients
        # that do, such as @ai-sdk/openai, are the ones the public reports are from):
        (("bridge-unannounced-reasoning",), [("gAAA-sig", 1)]),
        (("bridge-done-last-delta",), [("gAAA-sig", 1)]),
    ],
)
def test_what_the_openai_sdks_stream_reader_makes_of_each_switch(
    faults: tuple[str, ...], sdk_user_gets: object
) -> None:
    """Ground truth from the installed openai SDK (its typed ResponseStreamEvent and the state behind
    ``responses.stream(...).get_final_response()``): the breaks the grammar check fails are real."""
    assert _sdk_final_reasoning(faults) == sdk_user_gets
