"""The per-event field rows of both front doors (openai_responses/_schema.EVENT_FIELDS,
anthropic_messages/_schema.py) against the installed SDKs' pydantic types, the ground truth they were read
from and here only a test oracle; every recorded real stream and every emitter variant breaks none of them;
each field switch of the reference gateway makes exactly its break, which the SDK rejects or mis-reads."""

from __future__ import annotations

import inspect
import json
import typing
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness.codec import Frame, encode_frames
from harness.dialects import get_dialect
from harness.dialects._fields import Field, FieldNotes, field_breaks, json_type
from harness.dialects.anthropic_messages import _schema as anthropic_rows
from harness.dialects.openai_responses import _schema as responses_rows
from harness.events import (
    End,
    Event,
    Notice,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)
from harness.judge._grammar import GRAMMAR_BREAKS
from harness.recording._cassette import read_cassette
from harness.recording._corpus import locate, open_corpus
from harness.reference._faults import FAULTS, GATEWAY_FAULTS
from harness.reference._schema_faults import SCHEMA_FAULTS, FieldFrames

DOORS = ("openai-responses", "anthropic-messages")
SDK_NAMES = {"openai-responses": responses_rows.SDK, "anthropic-messages": anthropic_rows.SDK}
TURN: list[Event] = [
    ReasoningDelta("The user", item="r"),
    ReasoningDelta(" greets.", item="r"),
    ReasoningSignature("sig-1", item="r"),
    RedactedReasoning("opaque"),
    TextDelta("Hi", item="t"),
    ToolCallDelta(0, "call_1", "get_weather", '{"city":"Paris"}'),
    Usage(12, 7, 3, None),
    End("tool_calls"),
]
FAILED: list[Event] = [ReasoningDelta("Hm", item="r"), StreamError("Overloaded", "overloaded_error", 529)]


def _frames(dialect: str, variant: str, turn: list[Event], faults: tuple[str, ...] = ()) -> list[Frame]:
    em = get_dialect(dialect).emitter(variant)
    return FieldFrames(faults).rewrite(em.feed(turn) + em.close())


def _breaks(dialect: str, stream: bytes) -> list[Notice]:
    obs = get_dialect(dialect).observer()
    events = obs.feed(stream) + obs.end()
    return [e for e in events if isinstance(e, Notice) and e.code in GRAMMAR_BREAKS]


def _sse(frames: list[Frame]) -> bytes:
    return b"".join(encode_frames(frames, "sse"))


# -- the pure check ------------------------------------------------------------------------------------
ROWS = (Field("index", "integer", "a.py"), Field("m", "object", "a.py"), Field("m.id", "string", "b.py"))


def test_field_breaks_names_each_absent_or_retyped_field_once() -> None:
    assert field_breaks({"index": 0, "m": {"id": "x"}}, ROWS) == []
    assert field_breaks({"m": {"id": "x"}}, ROWS) == [(ROWS[0], None)]
    assert field_breaks({"index": "0", "m": {"id": 3}}, ROWS) == [(ROWS[0], "string"), (ROWS[2], "integer")]
    assert field_breaks({"index": True, "m": None}, ROWS) == [(ROWS[0], "boolean"), (ROWS[1], "null")]
    assert field_breaks({"index": 0}, ROWS) == [(ROWS[1], None)]  # m.id: its parent's row reports it


def test_json_type_is_the_wires() -> None:
    values: tuple[Any, ...] = (1, True, 1.5, "s", {}, [], None)
    assert [json_type(v) for v in values] == [
        "integer", "boolean", "number", "string", "object", "array", "null",
    ]  # fmt: skip


def test_a_stream_notes_each_break_once_citing_the_sdk_file() -> None:
    notes, out = FieldNotes("sdk 1.0"), list[Any]()
    for _ in range(3):
        notes.note("ev", {"m": {}}, ROWS, out)
    assert out == [
        Notice("event-lacks-field", "ev without index: integer (sdk 1.0 a.py)"),
        Notice("event-lacks-field", "ev without m.id: string (sdk 1.0 b.py)"),
    ]
    assert {n.code for n in out} <= set(GRAMMAR_BREAKS)
    assert "field-type" in GRAMMAR_BREAKS


# -- the rows are the installed SDKs' types ------------------------------------------------------------
def _unwrap(a: Any) -> Any:
    while typing.get_origin(a) is typing.Annotated:
        a = typing.get_args(a)[0]
    return a


def _members(union: Any) -> dict[str, Any]:
    """The models of a union discriminated by ``type``, by their type's literal."""
    return {typing.get_args(m.model_fields["type"].annotation)[0]: m for m in typing.get_args(_unwrap(union))}


def _json_of(annotation: Any) -> str:
    import pydantic

    a = _unwrap(annotation)
    if a is int:
        return "integer"
    if a is str:
        return "string"
    if typing.get_origin(a) in (list, dict):
        return "array" if typing.get_origin(a) is list else "object"
    if typing.get_origin(a) is typing.Union:
        kinds = {_json_of(x) for x in typing.get_args(a)}
        return kinds.pop() if len(kinds) == 1 else str(kinds)
    if typing.get_origin(a) is typing.Literal:
        return json_type(typing.get_args(a)[0])
    if inspect.isclass(a) and issubclass(a, pydantic.BaseModel):
        return "object"
    return str(a)


def _declared(model: Any, prefix: str, package: str, *, keep_type: bool = False) -> set[Field]:
    """The required fields of ``model`` as rows, ``prefix`` before each path; ``type`` only with
    ``keep_type`` (else it is the discriminator that picked the row)."""
    file = inspect.getfile(model).split(f"{package}/", 1)[1]
    return {
        Field(prefix + name, _json_of(f.annotation), file)
        for name, f in model.model_fields.items()
        if f.is_required() and (name != "type" or keep_type)
    }


def test_the_responses_rows_are_what_the_installed_openai_sdk_requires() -> None:
    openai = pytest.importorskip("openai")
    from openai.types.responses import ResponseStreamEvent

    assert f"openai {openai.__version__}" == responses_rows.SDK
    members = _members(ResponseStreamEvent)
    for kind, rows in responses_rows.EVENT_FIELDS.items():
        declared = _declared(members[kind], "", "openai")
        if kind in ("response.output_text.delta", "response.output_text.done"):
            # logprobs: required by the SDK type, absent from the real o3 capture (wire-formats.md 3.2)
            declared = {f for f in declared if f.path != "logprobs"}
        assert set(rows) == declared, kind
    for kind, parts in responses_rows.PART_FIELDS.items():
        union = members[kind].model_fields["part"].annotation
        if "" in parts:  # one part type: its ``type`` is a field like any other
            assert set(parts[""]) == _declared(union, "part.", "openai", keep_type=True), kind
            continue
        assert set(parts) == set(_members(union)), kind
        for part_type, rows in parts.items():
            assert set(rows) == _declared(_members(union)[part_type], "part.", "openai"), (kind, part_type)


def test_the_anthropic_rows_are_what_the_installed_anthropic_sdk_requires() -> None:
    anthropic = pytest.importorskip("anthropic")
    from anthropic.types import (
        ContentBlock,
        Message,
        MessageDeltaUsage,
        RawContentBlockDelta,
        RawMessageStreamEvent,
    )
    from anthropic.types import Usage as SDKUsage

    assert f"anthropic {anthropic.__version__}" == anthropic_rows.SDK
    members = _members(RawMessageStreamEvent)
    assert set(anthropic_rows.EVENT_FIELDS) == set(members)
    start = _declared(Message, "message.", "anthropic", keep_type=True)
    start |= _declared(SDKUsage, "message.usage.", "anthropic")
    nested = {"message_start": start, "message_delta": _declared(MessageDeltaUsage, "usage.", "anthropic")}
    for kind, rows in anthropic_rows.EVENT_FIELDS.items():
        assert set(rows) == _declared(members[kind], "", "anthropic") | nested.get(kind, set()), kind
    blocks, deltas = _members(ContentBlock), _members(RawContentBlockDelta)
    for kind, rows in anthropic_rows.BLOCK_FIELDS.items():
        assert set(rows) == _declared(blocks[kind], "content_block.", "anthropic"), kind
    for kind, rows in anthropic_rows.DELTA_FIELDS.items():
        assert set(rows) == _declared(deltas[kind], "delta.", "anthropic"), kind
    assert set(anthropic_rows.DELTA_FIELDS) == set(deltas)


# -- ground truth: recorded streams, then the mock's own emitters ---------------------------------------
def _recorded_streams() -> list[tuple[str, str, bytes]]:
    root = Path(__file__).resolve().parents[2]
    paths = [p for d in DOORS for p in sorted((root / "recordings").glob(f"{d.split('-')[0]}-*.jsonl"))]
    corpus = open_corpus(locate())
    if corpus is not None:
        prefixes = ("anthropic-", "openai-responses-")
        paths += sorted(corpus.path(e.name) for e in corpus.manifest.entries if e.name.startswith(prefixes))
    out = []
    for p in paths:
        cassette = read_cassette(p)
        for n, ex in enumerate(cassette.exchanges):
            if cassette.dialect in DOORS and "event-stream" in (ex.header("content-type") or ""):
                out.append((f"{p.name}#{n}", cassette.dialect, ex.body))
    return out


def test_every_recorded_stream_breaks_no_rule() -> None:
    streams = _recorded_streams()
    assert {d for _, d, _ in streams} == set(DOORS), "no recorded stream of a front door's dialect"
    for where, dialect, body in streams:
        assert _breaks(dialect, body) == [], where


@pytest.mark.parametrize(
    ("dialect", "variant"), [(d, v) for d in DOORS for v in get_dialect(d).variants], ids=str
)
@pytest.mark.parametrize("turn", [TURN, FAILED, [End("stop")]], ids=["whole", "failed", "empty"])
def test_every_emitter_variant_breaks_no_rule(dialect: str, variant: str, turn: list[Event]) -> None:
    assert _breaks(dialect, _sse(_frames(dialect, variant, turn))) == []


# -- the switches ---------------------------------------------------------------------------------------
SWITCHES = [
    ("door-no-sequence-number", "openai-responses", "event-lacks-field", "without sequence_number"),
    ("door-index-as-string", "openai-responses", "field-type", "output_index: string, not integer"),
    ("door-done-new-id", "openai-responses", "done-id-mismatch", "output 0: added rs_"),
    ("door-start-no-model", "anthropic-messages", "event-lacks-field", "message_start without message.model"),
    ("door-stop-no-index", "anthropic-messages", "event-lacks-field", "content_block_stop without index"),
    ("door-delta-no-output-tokens", "anthropic-messages", "event-lacks-field", "without usage.output_tokens"),
]


@pytest.mark.parametrize(("fault", "dialect", "kind", "detail"), SWITCHES, ids=[s[0] for s in SWITCHES])
def test_each_switch_makes_its_break_alone(fault: str, dialect: str, kind: str, detail: str) -> None:
    variant = get_dialect(dialect).default_variant
    breaks = _breaks(dialect, _sse(_frames(dialect, variant, TURN, (fault,))))
    assert {b.code for b in breaks} == {kind}
    assert detail in breaks[0].detail
    assert SDK_NAMES[dialect] in breaks[0].detail
    assert fault in FAULTS
    assert fault in GATEWAY_FAULTS


def test_the_switches_are_one_per_family_and_the_identity_when_off() -> None:
    assert {s[0] for s in SWITCHES} == set(SCHEMA_FAULTS)
    for dialect in DOORS:
        em = get_dialect(dialect).emitter(get_dialect(dialect).default_variant)
        frames = em.feed(TURN) + em.close()
        assert FieldFrames(()).rewrite(frames) == frames
        assert FieldFrames(("drop-reasoning",)).rewrite(frames) == frames
        other = [s[0] for s in SWITCHES if s[1] != dialect]
        assert FieldFrames(other).rewrite(frames) == frames  # a door's switch leaves the other door alone


@pytest.mark.parametrize(("fault", "dialect", "kind", "detail"), SWITCHES, ids=[s[0] for s in SWITCHES])
def test_the_sdk_types_reject_what_each_switch_writes(
    fault: str, dialect: str, kind: str, detail: str
) -> None:
    """The oracle: the SDK's event union, validated strictly as a client that validates its stream does
    (a string is no integer), accepts every event the front door writes, and rejects the switch's."""
    pydantic = pytest.importorskip("pydantic")
    if dialect == "openai-responses":
        pytest.importorskip("openai")
        from openai.types.responses import ResponseStreamEvent as Union
    else:
        pytest.importorskip("anthropic")
        from anthropic.types import RawMessageStreamEvent as Union
    adapter = pydantic.TypeAdapter(Union)

    def rejected(faults: tuple[str, ...]) -> set[str]:
        out = set()
        for f in _frames(dialect, get_dialect(dialect).default_variant, TURN, faults):
            if f.data.startswith("{") and f.event != "ping":
                obj = json.loads(f.data)
                usage = (obj.get("response") or {}).get("usage") or {}  # (Responses: as test_responses_schema
                usage.get("input_tokens_details", {}).setdefault("cache_write_tokens", 0)  # does, see there)
                try:
                    adapter.validate_json(json.dumps(obj), strict=True)
                except pydantic.ValidationError:
                    out.add(json.loads(f.data)["type"])
        return out

    assert rejected(()) == set()
    objs = (
        [json.loads(f.data) for f in _frames(dialect, "summary", TURN)]
        if dialect == "openai-responses"
        else []
    )
    changed = {
        "door-no-sequence-number": {o["type"] for o in objs},
        "door-index-as-string": {o["type"] for o in objs if "output_index" in o},
        "door-done-new-id": set(),  # each event is well typed alone: the SDK stream state fails (below)
        "door-start-no-model": {"message_start"},
        "door-stop-no-index": {"content_block_stop"},
        "door-delta-no-output-tokens": {"message_delta"},
    }
    assert rejected((fault,)) == changed[fault]


def test_the_anthropic_sdks_message_stream_fails_or_misreads_each_switch() -> None:
    """The SDK itself, reading leniently as ``messages.stream()`` does (lib/streaming/_messages.py
    ``accumulate_event``), takes ``current_snapshot.content[event.index]`` at each content_block_stop and
    copies ``message_delta``'s ``usage.output_tokens`` into its snapshot, an int by its type."""
    pytest.importorskip("anthropic")
    from anthropic.lib.streaming._messages import accumulate_event

    def read(faults: tuple[str, ...]) -> Any:
        snapshot: Any = None
        for f in _frames("anthropic-messages", "thinking", TURN, faults):
            if f.event != "ping":
                snapshot = accumulate_event(event=json.loads(f.data), current_snapshot=snapshot, json_bufs={})
        return snapshot

    assert read(()).usage.output_tokens == 7
    assert read(("door-delta-no-output-tokens",)).usage.output_tokens is None
    with pytest.raises(TypeError, match="list indices"):
        read(("door-stop-no-index",))


def test_a_content_part_without_its_text_is_noted_and_fails_the_openai_sdks_stream_state() -> None:
    frames = _frames("openai-responses", "summary", TURN)
    objs = [json.loads(f.data) for f in frames]
    for obj in objs:
        if obj["type"] == "response.content_part.added":
            del obj["part"]["text"]
    stream = _sse([replace(f, data=json.dumps(o)) for f, o in zip(frames, objs, strict=True)])
    [only] = _breaks("openai-responses", stream)
    assert only.detail.startswith("response.content_part.added without part.text: string (openai ")
    pytest.importorskip("openai")
    from openai import omit
    from openai._models import construct_type
    from openai.lib.streaming.responses._responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent

    def read() -> None:
        state: Any = ResponseStreamState(input_tools=omit, text_format=omit)
        for obj in objs:
            state.handle_event(construct_type(type_=ResponseStreamEvent, value=obj))

    with pytest.raises(TypeError):
        read()


def test_the_openai_sdks_stream_state_fails_on_a_done_under_a_new_id() -> None:
    pytest.importorskip("openai")
    from openai import omit
    from openai._models import construct_type
    from openai.lib.streaming.responses._responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent

    def read(faults: tuple[str, ...]) -> None:
        state: Any = ResponseStreamState(input_tools=omit, text_format=omit)
        for f in _frames("openai-responses", "summary", TURN, faults):
            state.handle_event(construct_type(type_=ResponseStreamEvent, value=json.loads(f.data)))

    read(())
    with pytest.raises(RuntimeError, match="identity changed"):
        read(("door-done-new-id",))
