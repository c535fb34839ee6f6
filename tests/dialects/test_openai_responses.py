"""OpenAI Responses dialect: literal frames both ways, hypothesis round trips under any chunking and
perturbation, observer notices, request codec, the ``openai`` rules' exact 400/404s, and the openai SDK
reading the emitter's bytes."""

# ruff: noqa: E501  (literal wire bytes and bodies stay on one line)
from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest
from frames_responses import CASES, MODEL
from hypothesis import given
from hypothesis import strategies as st

from harness import codec
from harness.codec import encode_frames
from harness.dialects import Frame, get_dialect
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    StreamError,
    TextDelta,
    ToolCallBlock,
    Turn,
    Usage,
    coalesce,
    strip_items,
)
from harness.strategies import Chunking, reasoning_turns, sse_chunkings

RESP = get_dialect("openai-responses")
_IDS = re.compile(r"mock\d+")


def _norm(events: list[Event] | Turn) -> Turn:
    return strip_items(coalesce(events))


def _observe(chunks: list[bytes]) -> list[Event]:
    obs = RESP.observer()
    out: list[Event] = []
    for c in chunks:
        out += obs.feed(c)
    return out + obs.end()


def _notices(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.code, e.detail) for e in events if isinstance(e, Notice)]


def _sse(frames: list[tuple[str, str, list[str]]]) -> list[bytes]:
    return encode_frames([Frame(data, event=event) for event, data, _ in frames], "sse")


_SEQ = itertools.count()


def _frame(type_: str, **body: Any) -> bytes:
    """One SSE frame; a ``sequence_number`` of its own unless the body gives one (every event has one)."""
    obj = {"type": type_, "sequence_number": next(_SEQ), **body}
    return f"event: {type_}\ndata: {json.dumps(obj)}\n\n".encode()


# -- the literal table, both directions ---------------------------------------------------------------


@pytest.mark.parametrize(("variant", "desc", "turn", "frames"), CASES, ids=[c[0] for c in CASES])
def test_emitter_reproduces_the_literal_frames(
    variant: str, desc: str, turn: Turn, frames: list[Any]
) -> None:
    em = RESP.emitter(variant, model=MODEL)
    got = [(f.event, _IDS.sub("mockN", f.data), sorted(f.tags)) for f in em.feed(turn) + em.close()]
    assert got == [tuple(f) for f in frames]


@pytest.mark.parametrize(("variant", "desc", "turn", "frames"), CASES, ids=[c[0] for c in CASES])
def test_observer_reads_the_literal_frames(variant: str, desc: str, turn: Turn, frames: list[Any]) -> None:
    pieces = _sse(frames)
    whole = _observe(pieces)
    assert _norm(whole) == _norm(turn)
    assert all(kind == "alias" for kind, _ in _notices(whole))
    data = b"".join(pieces)
    assert _observe([data[i : i + 1] for i in range(len(data))]) == whole


def test_alias_variants_announce_each_alias_once() -> None:
    by_variant = {c[0]: _notices(_observe(_sse(c[3]))) for c in CASES}
    assert by_variant["alias-string"] == [
        ("alias", "response.reasoning.delta"),
        ("alias", "response.reasoning.done"),
    ]
    assert by_variant["alias-object"] == by_variant["alias-string"]
    assert by_variant["alias-summary"] == [
        ("alias", "response.reasoning_summary.delta"),
        ("alias", "response.reasoning_summary.done"),
    ]
    assert by_variant["vllm-parts"] == [
        ("alias", "response.reasoning_part.added"),
        ("alias", "response.reasoning_part.done"),
    ]
    assert by_variant["summary"] == by_variant["reasoning_text"] == []


def test_several_summary_parts_are_several_reasoning_blocks() -> None:
    events = _observe(_sse(CASES[0][3]))
    assert [e for e in events if isinstance(e, ReasoningDelta)] == [
        ReasoningDelta("**Estim", item="rs_mockN_0:s0".replace("mockN", _stem(events))),
        ReasoningDelta("ating**", item=f"rs_{_stem(events)}_0:s0"),
        ReasoningDelta("**Checking**", item=f"rs_{_stem(events)}_0:s1"),
    ]


def _stem(events: list[Event]) -> str:
    first = next(e for e in events if isinstance(e, ReasoningDelta))
    return first.item.split("_")[1]


def test_catalog_o3_capture_observes_as_summary_then_text() -> None:
    """The real o3 capture of wire-formats.md §3.2 (with its obfuscation padding), verbatim shapes."""
    stream = b"".join(
        [
            _frame(
                "response.created",
                sequence_number=0,
                response={"id": "resp_1", "status": "in_progress", "output": []},
            ),
            _frame(
                "response.output_item.added",
                sequence_number=2,
                output_index=0,
                item={"id": "rs_1", "type": "reasoning", "summary": []},
            ),
            _frame(
                "response.reasoning_summary_part.added",
                sequence_number=3,
                item_id="rs_1",
                output_index=0,
                summary_index=0,
                part={"type": "summary_text", "text": ""},
            ),
            _frame(
                "response.reasoning_summary_text.delta",
                sequence_number=4,
                item_id="rs_1",
                output_index=0,
                summary_index=0,
                delta="**Estim",
                obfuscation="08WtzLkL9",
            ),
            _frame(
                "response.reasoning_summary_text.delta",
                sequence_number=5,
                item_id="rs_1",
                output_index=0,
                summary_index=0,
                delta="ating**",
                obfuscation="qwcOIZHU7cQ",
            ),
            _frame(
                "response.reasoning_summary_text.done",
                sequence_number=6,
                item_id="rs_1",
                output_index=0,
                summary_index=0,
                text="**Estimating**",
            ),
            _frame(
                "response.reasoning_summary_part.done",
                sequence_number=7,
                item_id="rs_1",
                output_index=0,
                summary_index=0,
                part={"type": "summary_text", "text": "**Estimating**"},
            ),
            _frame(
                "response.output_item.done",
                sequence_number=8,
                output_index=0,
                item={
                    "id": "rs_1",
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": "**Estimating**"}],
                    "encrypted_content": "gAAAAB-mock-opaque",
                },
            ),
            _frame(
                "response.output_item.added",
                sequence_number=9,
                output_index=1,
                item={
                    "id": "msg_1",
                    "type": "message",
                    "status": "in_progress",
                    "content": [],
                    "role": "assistant",
                },
            ),
            _frame(
                "response.output_text.delta",
                sequence_number=11,
                item_id="msg_1",
                output_index=1,
                content_index=0,
                delta="About 25 tonnes.",
                obfuscation="x",
            ),
            _frame(
                "response.output_text.done",
                sequence_number=13,
                item_id="msg_1",
                output_index=1,
                content_index=0,
                text="About 25 tonnes.",
            ),
            _frame(
                "response.completed",
                sequence_number=16,
                response={
                    "id": "resp_1",
                    "status": "completed",
                    "output": [],
                    "usage": {
                        "input_tokens": 25,
                        "input_tokens_details": {"cached_tokens": 0},
                        "output_tokens": 2097,
                        "output_tokens_details": {"reasoning_tokens": 1600},
                        "total_tokens": 2122,
                    },
                },
            ),
        ]
    )
    assert _observe([stream]) == [
        ReasoningDelta("**Estim", item="rs_1:s0"),
        ReasoningDelta("ating**", item="rs_1:s0"),
        ReasoningSignature("gAAAAB-mock-opaque", item="rs_1:s0"),
        TextDelta("About 25 tonnes.", item="msg_1:t0"),
        Usage(25, 2097, 1600, 2122),
        End("stop"),
    ]


# -- hypothesis round trips ----------------------------------------------------------------------------


def _lossless() -> list[str]:
    perts = getattr(codec, "PERTURBATIONS", {"none": None})
    return sorted(n for n, p in perts.items() if p is None or (p.lossless and "sse" in p.transports))


def _turn(data: st.DataObject, variant: str) -> Turn:
    turn = data.draw(reasoning_turns(variant=f"openai-responses:{variant}"))
    if variant == "empty" and data.draw(st.booleans()):
        turn = (
            ReasoningSignature("gAAAAB-" + data.draw(st.text("abcXYZ019", min_size=1, max_size=8))),
            *turn,
        )
    return turn


@pytest.mark.parametrize("variant", list(RESP.variants))
@given(data=st.data(), chunking=sse_chunkings(max_cuts=16), perturbation=st.sampled_from(_lossless()))
def test_round_trip_under_any_chunking(
    variant: str, data: st.DataObject, chunking: Chunking, perturbation: str
) -> None:
    turn = _turn(data, variant)
    em = RESP.emitter(variant)
    frames = em.feed(turn) + em.close()
    pieces = encode_frames(frames, "sse", perturbation)
    assert _norm(_observe(chunking.pieces(pieces))) == _norm(turn)


@pytest.mark.parametrize("chunker", ["bytes", "utf8-split", "tiny", "whole"])
@pytest.mark.parametrize("variant", list(RESP.variants))
def test_round_trip_through_named_chunkers(variant: str, chunker: str) -> None:
    chunkers = getattr(codec, "CHUNKERS", None)
    if chunkers is None:
        pytest.skip("harness.codec has no CHUNKERS")
    turn: Turn = (
        ReasoningDelta("思考 "),
        ReasoningDelta("über"),
        ReasoningSignature("gAAAAB-x"),
        TextDelta("Grüße"),
        End(),
    )
    em = RESP.emitter(variant)
    writes = chunkers[chunker](encode_frames(em.feed(turn) + em.close(), "sse"))
    want = turn if variant != "empty" else turn[2:]
    assert _norm(_observe(writes)) == _norm(want)


@pytest.mark.parametrize("variant", list(RESP.variants))
@given(data=st.data())
def test_non_streaming_round_trip(variant: str, data: st.DataObject) -> None:
    turn = _turn(data, variant)
    body = RESP.emit_response(turn, variant)
    want = turn if variant != "empty" else tuple(e for e in turn if not isinstance(e, ReasoningDelta))
    assert _norm(RESP.observe_response(body)) == _norm(want)


# -- observer: repeats, aliases, errors, anomalies --------------------------------------------------------

_ADDED = _frame(
    "response.output_item.added",
    sequence_number=2,
    output_index=0,
    item={"id": "rs_9", "type": "reasoning", "summary": []},
)
_CREATED = _frame("response.created", sequence_number=0, response={"id": "resp_9", "output": []})
_COMPLETED = _frame(
    "response.completed",
    sequence_number=9,
    response={"id": "resp_9", "status": "completed", "output": [], "usage": None},
)


def test_repeats_are_never_double_counted_but_a_differing_done_is_noticed() -> None:
    events = _observe(
        [
            _CREATED, _ADDED,
            _frame("response.reasoning_summary_text.delta", item_id="rs_9", output_index=0, summary_index=0, delta="Let me"),
            _frame("response.reasoning_summary_text.done", item_id="rs_9", output_index=0, summary_index=0, text="Let me think."),
            _frame("response.output_item.done", output_index=0, item={"id": "rs_9", "type": "reasoning", "summary": [{"type": "summary_text", "text": "Let me"}]}),
            _COMPLETED,
        ]
    )  # fmt: skip
    assert [e for e in events if not isinstance(e, Notice)] == [
        ReasoningDelta("Let me", item="rs_9:s0"),
        End("stop"),
    ]
    assert _notices(events) == [
        ("done-mismatch", "response.reasoning_summary_text.done rs_9: deltas 'Let me' != 'Let me think.'")
    ]


def test_reasoning_only_in_done_is_emitted_once_and_flagged() -> None:
    events = _observe(
        [
            _CREATED, _ADDED,
            _frame("response.reasoning_text.done", item_id="rs_9", output_index=0, content_index=0, text="all at once"),
            _frame("response.output_item.done", output_index=0, item={"id": "rs_9", "type": "reasoning", "summary": [], "content": [{"type": "reasoning_text", "text": "all at once"}]}),
            _COMPLETED,
        ]
    )  # fmt: skip
    assert [e for e in events if not isinstance(e, Notice)] == [
        ReasoningDelta("all at once", item="rs_9:c0"),
        End("stop"),
    ]
    assert _notices(events) == [("reasoning-only-in-done", "response.reasoning_text.done rs_9")]


def test_reasoning_only_in_the_final_item_is_flagged_too() -> None:
    events = _observe(
        [
            _CREATED, _ADDED,
            _frame("response.output_item.done", output_index=0, item={"id": "rs_9", "type": "reasoning", "summary": [{"type": "summary_text", "text": "late"}]}),
            _COMPLETED,
        ]
    )  # fmt: skip
    assert _norm(events) == (ReasoningDelta("late"), End("stop"))
    assert _notices(events) == [("reasoning-only-in-done", "response.output_item.done rs_9")]


def test_stream_errors_and_failed_responses() -> None:
    err = _frame("error", sequence_number=5, code="server_is_overloaded", message="Overloaded", param=None)
    assert _observe([_CREATED, err]) == [StreamError("Overloaded", "server_is_overloaded")]
    failed = _frame(
        "response.failed",
        sequence_number=5,
        response={
            "id": "r",
            "status": "failed",
            "error": {"code": "context_length_exceeded", "message": "Too long."},
        },
    )
    assert _observe([_CREATED, failed]) == [StreamError("Too long.", "context_length_exceeded")]
    em = RESP.emitter("summary")
    frames = em.feed([TextDelta("Hi"), StreamError("Overloaded", "server_is_overloaded")])
    assert frames[-1].event == "error"
    assert frames[-1].tags == frozenset({"error"})
    assert json.loads(frames[-1].data) == {
        "type": "error",
        "sequence_number": 5,
        "code": "server_is_overloaded",
        "message": "Overloaded",
        "param": None,
    }
    assert em.close() == []
    em = RESP.emitter("failed")
    frames = em.feed([TextDelta("Hi"), StreamError("Overloaded", "server_is_overloaded")])
    assert frames[-1].event == "response.failed"
    assert json.loads(frames[-1].data)["response"]["error"] == {
        "code": "server_is_overloaded",
        "message": "Overloaded",
    }
    assert _norm(_observe(encode_frames(frames, "sse"))) == (
        TextDelta("Hi"),
        StreamError("Overloaded", "server_is_overloaded"),
    )


def test_incomplete_ends_with_length() -> None:
    em = RESP.emitter("summary")
    frames = em.feed([TextDelta("Hi"), End("length")])
    assert frames[-1].event == "response.incomplete"
    assert json.loads(frames[-1].data)["response"]["incomplete_details"] == {"reason": "max_output_tokens"}
    assert _norm(_observe(encode_frames(frames, "sse"))) == (TextDelta("Hi"), End("length"))


def test_unknown_events_malformed_json_second_lifecycle_after_end_and_eof() -> None:
    events = _observe(
        [
            b"\xef\xbb\xbf" + _CREATED,
            _frame("response.made_up", sequence_number=1),
            b'event: response.output_text.delta\ndata: {"type": "response.out\n\n',
            _CREATED,
            _COMPLETED,
            _COMPLETED,
        ]
    )
    assert [e for e in events if not isinstance(e, Notice)] == [End("stop")]
    assert _notices(events) == [
        ("sse-bom", ""),
        ("unknown-event", "response.made_up"),
        ("malformed-json", '{"type": "response.out'),
        ("second-lifecycle", "a second response.created"),
        ("data-after-end", "response.completed"),
    ]
    assert _observe([_CREATED, _ADDED]) == [
        Notice("no-terminator", "EOF before response.completed/incomplete/failed")
    ]
    events = _observe([_CREATED, _COMPLETED, _CREATED])
    assert _notices(events)[:2] == [
        ("second-lifecycle", "response.created after the terminal event"),
        ("data-after-end", "response.created"),
    ]


def test_unterminated_last_event_is_an_sse_anomaly_and_no_terminator() -> None:
    events = _observe([_CREATED, _COMPLETED[:-2]])
    assert ("sse-unterminated", "") in _notices(events)
    assert events[-1] == Notice("no-terminator", "EOF before response.completed/incomplete/failed")


def test_close_without_end_completes_once() -> None:
    em = RESP.emitter("summary")
    em.feed([ReasoningDelta("a")])
    frames = em.close()
    assert [f.event for f in frames] == [
        "response.reasoning_summary_text.done",
        "response.reasoning_summary_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert "reasoning-done" in frames[2].tags
    assert "terminal" in frames[3].tags
    assert em.close() == []


# -- request codec ---------------------------------------------------------------------------------------

CONVERSATION = [
    Message.user("Weather in Paris?"),
    Message(
        "assistant",
        (
            ReasoningBlock("I need", id="rs_a:s0"),
            ReasoningBlock("the weather.", signature="gAAAAB-enc", id="rs_a:s1"),
            ToolCallBlock("call_1", "get_weather", '{"city":"Paris"}'),
        ),
    ),
    Message.tool("call_1", "18°C, clear"),
]


def test_build_request_passes_the_reasoning_item_back_before_its_call() -> None:
    spec = RESP.build_request(CONVERSATION, model="o3", stream=True, variant="summary")
    assert spec.path == "/v1/responses"
    assert any(spec.path.endswith(s) for s in RESP.path_suffixes)
    assert spec.body == {
        "model": "o3",
        "input": [
            {"type": "message", "role": "user", "content": "Weather in Paris?"},
            {
                "type": "reasoning",
                "id": "rs_a",
                "summary": [
                    {"type": "summary_text", "text": "I need"},
                    {"type": "summary_text", "text": "the weather."},
                ],
                "encrypted_content": "gAAAAB-enc",
            },
            {
                "type": "function_call",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": '{"city":"Paris"}',
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "18°C, clear"},
        ],
        "stream": True,
        "reasoning": {"summary": "auto"},
        "include": ["reasoning.encrypted_content"],
        "store": False,
    }
    plain = RESP.build_request(CONVERSATION, model="o3", stream=False, variant="reasoning_text").body
    assert "reasoning" not in plain
    assert plain["input"][1]["content"] == [
        {"type": "reasoning_text", "text": "I need"},
        {"type": "reasoning_text", "text": "the weather."},
    ]


def test_parse_request_inverts_build_request() -> None:
    spec = RESP.build_request(CONVERSATION, model="o3", stream=True, variant="summary")
    assert RESP.parse_request(spec.body) == CONVERSATION


# -- provider rules ------------------------------------------------------------------------------------

EMITTED = [
    Message(
        "assistant",
        (
            ReasoningBlock("", signature="gAAAAB-enc"),
            ToolCallBlock("call_mock2", "get_weather", '{"city":"Paris"}'),
        ),
    )
]
OPENAI = RESP.provider_rules()["openai"]


def _input(*items: dict[str, Any], store: bool = False) -> dict[str, Any]:
    return {"model": "o3", "input": [{"role": "user", "content": "Weather?"}, *items], "store": store}


_RS = {"type": "reasoning", "id": "rs_mock2_0", "summary": [], "encrypted_content": "gAAAAB-enc"}
_FC = {
    "type": "function_call",
    "id": "fc_mock2_1",
    "call_id": "call_mock2",
    "name": "get_weather",
    "arguments": "{}",
}
_OUT = {"type": "function_call_output", "call_id": "call_mock2", "output": "18°C"}


def test_openai_accepts_the_reasoning_item_before_its_call() -> None:
    assert OPENAI.validate(_input(_RS, _FC, _OUT), EMITTED) is None
    assert OPENAI.validate(_input(_FC, _OUT), []) is None  # nothing emitted: no reasoning to require
    assert RESP.provider_rules()["lenient"].validate(_input(_FC, _OUT), EMITTED) is None


def test_openai_rejects_a_call_without_its_reasoning_item() -> None:
    rejection = OPENAI.validate(_input(_FC, _OUT), EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "openai/missing-reasoning")
    assert rejection.body == (
        b'{"error":{"message":"Item \'fc_mock2_1\' of type \'function_call\' was provided without its required '
        b'\'reasoning\' item: \'rs_mock2_0\'.","type":"invalid_request_error","param":"input","code":null}}'
    )
    no_id = OPENAI.validate(_input({k: v for k, v in _FC.items() if k != "id"}, _OUT), EMITTED)
    assert no_id is not None
    assert json.loads(no_id.body)["error"]["message"] == (
        "Item 'call_mock2' of type 'function_call' was provided without its required 'reasoning' item: 'rs_call_mock2'."
    )


def test_openai_rejects_an_orphan_reasoning_item() -> None:
    rejection = OPENAI.validate(_input(_RS, _OUT), EMITTED)
    assert rejection is not None
    assert (rejection.status, rejection.rule) == (400, "openai/orphan-reasoning")
    assert rejection.body == (
        b'{"error":{"message":"Item \'rs_mock2_0\' of type \'reasoning\' was provided without its required '
        b'following item.","type":"invalid_request_error","param":"input","code":null}}'
    )


def test_openai_answers_404_for_id_only_reasoning_under_store_false() -> None:
    bare = {"type": "reasoning", "id": "rs_mock2_0", "summary": []}
    for item in (bare, {"type": "item_reference", "id": "rs_mock2_0"}):
        extra = (_FC, _OUT) if item is bare else (_OUT,)
        rejection = OPENAI.validate(_input(item, *extra), EMITTED if item is bare else [])
        assert rejection is not None
        assert (rejection.status, rejection.rule) == (404, "openai/not-persisted")
        assert json.loads(rejection.body) == {
            "error": {
                "message": "Item with id 'rs_mock2_0' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
                "type": "invalid_request_error",
                "param": "input",
                "code": None,
            }
        }
    assert OPENAI.validate(_input(bare, _FC, _OUT, store=True), EMITTED) is None


def test_openai_shape_streams_summaries_only_when_requested() -> None:
    turn: Turn = (ReasoningDelta("hmm"), TextDelta("Hi"), End())
    asked = RESP.build_request([Message.user("hi")], model="o3", stream=True, variant="summary").body
    not_asked = RESP.build_request([Message.user("hi")], model="o3", stream=True, variant="empty").body
    assert OPENAI.shape(asked, turn) == turn
    shaped = OPENAI.shape(not_asked, turn)
    assert [type(e) for e in shaped] == [ReasoningSignature, TextDelta, End]
    assert shaped[0] == ReasoningSignature(
        "gAAAAB-mock-" + __import__("hashlib").sha256(b"hmm").hexdigest()[:16]
    )
    signed: Turn = (ReasoningDelta("hmm"), ReasoningSignature("gAAAAB-enc"), TextDelta("Hi"), End())
    assert OPENAI.shape(not_asked, signed) == signed[1:]
    assert RESP.provider_rules()["lenient"].shape(not_asked, turn) == turn


# -- the openai SDK reads the emitter's bytes ----------------------------------------------------------


def _client(body: bytes, seen: list[str]) -> Any:
    openai = pytest.importorskip("openai")
    httpx = pytest.importorskip("httpx")

    def handler(request: Any) -> Any:
        seen.append(request.url.path)
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    return openai.OpenAI(
        api_key="sk-test",
        base_url="http://mock/v1",
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
    )


@pytest.mark.parametrize("variant", ["summary", "reasoning_text"])
def test_openai_sdk_parses_the_emitter_output(variant: str) -> None:
    turn = next(c[2] for c in CASES if c[0] == variant)
    em = RESP.emitter(variant, model=MODEL)
    body = b"".join(encode_frames(em.feed(turn) + em.close(), "sse"))
    seen: list[str] = []
    client = _client(body, seen)
    events = list(client.responses.create(model=MODEL, input="Estimate.", stream=True))
    assert seen == ["/v1/responses"]
    kinds = [e.type for e in events]
    reasoning_kind = (
        "response.reasoning_summary_text.delta" if variant == "summary" else "response.reasoning_text.delta"
    )
    reasoning = "".join(e.delta for e in events if e.type == reasoning_kind)
    text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert reasoning == "".join(e.text for e in turn if isinstance(e, ReasoningDelta))
    assert text == "".join(e.text for e in turn if isinstance(e, TextDelta))
    assert [e.sequence_number for e in events] == list(range(len(events)))
    assert kinds[0] == "response.created"
    assert kinds[-1] == "response.completed"
    final = events[-1].response
    if variant == "summary":
        assert final.output[0].encrypted_content == "gAAAAB-mock-opaque"
        assert [s.text for s in final.output[0].summary] == ["**Estimating**", "**Checking**"]
        assert final.usage.output_tokens_details.reasoning_tokens == 1600
    assert final.output_text == text


def test_openai_sdk_stream_helper_accumulates_the_emitter_output() -> None:
    variant, _, turn, _ = CASES[1]  # empty: encrypted reasoning item, then a function call
    em = RESP.emitter(variant, model=MODEL)
    body = b"".join(encode_frames(em.feed(turn) + em.close(), "sse"))
    client = _client(body, [])
    with client.responses.stream(model=MODEL, input="Weather?") as stream:
        for _ in stream:
            pass
        final = stream.get_final_response()
    assert [o.type for o in final.output] == ["reasoning", "function_call"]
    assert final.output[0].encrypted_content == "gAAAAB-mock-opaque"
    assert (final.output[1].call_id, final.output[1].name, final.output[1].arguments) == (
        "call_Paris2",
        "get_weather",
        '{"city":"Paris"}',
    )


def test_openai_sdk_yields_the_error_event_instead_of_raising() -> None:
    em = RESP.emitter("summary", model=MODEL)
    body = b"".join(
        encode_frames(em.feed([TextDelta("Hi"), StreamError("Overloaded", "server_is_overloaded")]), "sse")
    )
    events = list(_client(body, []).responses.create(model=MODEL, input="x", stream=True))
    # The Responses stream does not raise on `event: error`: it yields a typed ResponseErrorEvent.
    assert events[-1].type == "error"
    assert events[-1].code == "server_is_overloaded"
