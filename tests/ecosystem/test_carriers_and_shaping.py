"""Request shaping (profile ``[request]``) and every reasoning carrier of the openai-chat front door,
against a small LiteLLM-like gateway that carries Anthropic thinking as ``thinking_blocks``: a correct
gateway passes the thinking-block passback cases; one that drops signatures fails them; a profile
without the key header or the ``thinking`` field gets no verdict it did not earn."""

from __future__ import annotations

import psutil
import pytest
from _tb_cases import PLAIN, REDACTED, SIGNED, SIGNED_NONSTREAM, tb_gateway

from harness._errors import PreflightError, ProfileError
from harness.catalog import expand_all, load_catalog, select
from harness.dialects import Reading, get_dialect
from harness.drivers import parse_profile
from harness.drivers._shaping import shaping, tool_specs
from harness.events import (
    End,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    TextBlock,
    TextDelta,
    ToolCallBlock,
)
from harness.runner import run
from harness.verdict import Verdict


def gateway(mode: str, **extra: object) -> object:
    return tb_gateway(f"tb-{mode}", mode, **{"echo_fields": ["thinking_blocks"], **extra})


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TB_KEY", "k-test")


def by_id(result: object) -> dict[str, object]:
    return {r.case_id: r for r in result.results}  # type: ignore[attr-defined]


def finding(result: object, check: str) -> str:
    return "; ".join(f.message for f in result.findings if f.check == check)  # type: ignore[attr-defined]


def children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


# -- the gateway ------------------------------------------------------------------------------------


def test_correct_thinking_blocks_gateway_passes_passback() -> None:
    before = children()
    result = run([SIGNED, SIGNED_NONSTREAM, REDACTED, PLAIN], sut=gateway("ok"))
    got = by_id(result)
    for cid in (SIGNED, SIGNED_NONSTREAM, REDACTED, PLAIN):
        r = got[cid]
        assert r.stream is Verdict.PASS, (cid, [(f.check, f.verdict, f.message) for f in r.findings])
    assert "accepted" in finding(got[SIGNED], "passback")
    assert result.exit_code == 0
    assert children() <= before


def test_gateway_dropping_signatures_fails_passback() -> None:
    result = run([SIGNED, SIGNED_NONSTREAM, REDACTED], sut=gateway("drop-signatures"))
    for cid, r in by_id(result).items():
        assert r.stream is Verdict.FAIL, cid
        assert "rejected the continuation" in finding(r, "passback"), cid
    assert result.exit_code == 1


def test_echo_in_the_wrong_carrier_fails_passback() -> None:
    # the gateway reads thinking_blocks back; a client that echoes only `reasoning` loses the signatures
    result = run([SIGNED], sut=gateway("ok", echo_fields=["reasoning"]))
    (r,) = result.results
    assert r.stream is Verdict.FAIL
    assert "rejected the continuation" in finding(r, "passback")


def test_missing_key_header_stops_at_preflight() -> None:
    with pytest.raises(PreflightError):
        run([PLAIN], sut=gateway("ok", request={}))


def test_without_thinking_field_reasoning_never_arrives() -> None:
    # defaults = false: thinkwire does not ask for thinking; the mock provider then sends none
    profile = gateway("ok", request={"headers": {"authorization": "Bearer {env:TB_KEY}"}, "defaults": False})
    result = run([SIGNED], sut=profile)
    (r,) = result.results
    # thinkwire's client asked for none (the profile's choice): neither the SUT's delivery nor its
    # request contract is at fault; the case's premise is absent, said as such
    assert r.stream is Verdict.UNSUPPORTED
    assert "did not ask the upstream for thinking blocks" in finding(r, "premise")
    assert [f.verdict for f in r.findings if f.check in ("request-contract", "delivery")] != [Verdict.FAIL]
    assert all(f.verdict is not Verdict.FAIL for f in r.findings)


# -- request shaping --------------------------------------------------------------------------------


def test_shaping_layers_defaults_profile_and_dialect(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TW_KEY", "secret")
    profile = parse_profile(
        {
            "kind": "url",
            "url": "http://127.0.0.1:1",
            "request": {
                "headers": {"x-key": "{env:TW_KEY}", "x-model": "{model}"},
                "body": {"metadata": {"case": "{dialect}:{variant}"}},
                "anthropic-messages": {"body": {"thinking": {"budget_tokens": 4096}}, "tools": True},
            },
        }
    )
    s = shaping(
        profile.request,
        front_door="openai-chat",
        dialect="anthropic-messages",
        variant="thinking",
        model="m1",
    )
    assert s.headers == {"x-key": "secret", "x-model": "m1"}
    assert s.body == {
        "thinking": {"type": "enabled", "budget_tokens": 4096},
        "metadata": {"case": "anthropic-messages:thinking"},
    }
    assert s.tools is True
    plain = shaping(
        profile.request, front_door="openai-chat", dialect="openai-chat", variant="reasoning", model="m"
    )
    assert "thinking" not in plain.body
    assert plain.tools is False


def test_adaptive_variant_asks_by_effort_never_thinking_enabled() -> None:
    """The adaptive variant plays models that answer 400 to thinking.type enabled: the default asks them by
    reasoning_effort (a gateway maps it onto adaptive thinking); a profile's own body still wins."""

    def body(table: object, variant: str) -> dict[str, object]:
        shape = shaping(
            table,  # type: ignore[arg-type]
            front_door="openai-chat",
            dialect="anthropic-messages",
            variant=variant,
            model="m",
        )
        return dict(shape.body)

    assert body({}, "adaptive") == {"reasoning_effort": "medium"}
    own = {"body": {"reasoning_effort": "high"}}
    table = parse_profile({"kind": "url", "url": "http://127.0.0.1:1", "request": own}).request
    assert body(table, "adaptive") == {"reasoning_effort": "high"}
    assert body({}, "redacted") == {"thinking": {"type": "enabled", "budget_tokens": 2048}}


@pytest.mark.parametrize(
    ("request_table", "field", "problem"),
    [
        ({"header": {}}, "request.header", "did you mean 'headers'"),
        (
            {"anthropic-mesages": {"body": {}}},
            "request.anthropic-mesages",
            "did you mean 'anthropic-messages'",
        ),
        ({"openai-chat": {"header": {}}}, "request.openai-chat.header", "unknown field"),
        ({"headers": {"x": 1}}, "request.headers", "table of strings"),
        ({"headers": {"x": "{env:TW_SURELY_UNSET}"}}, "request.headers", "TW_SURELY_UNSET is not set"),
        ({"openai-responses": {"tools": "yes"}}, "request.openai-responses.tools", "true or false"),
    ],
)
def test_request_table_errors_name_the_field(
    request_table: dict[str, object], field: str, problem: str
) -> None:
    with pytest.raises(ProfileError) as info:
        parse_profile({"kind": "url", "url": "http://x", "request": request_table}, source="p.toml")
    text = str(info.value)
    assert "p.toml" in text
    assert field in text
    assert problem in text


def test_echo_fields_are_checked() -> None:
    with pytest.raises(ProfileError, match=r"echo_fields.*thinking_blocks"):
        parse_profile({"kind": "url", "url": "http://x", "echo_fields": ["thinking_block"]})
    with pytest.raises(ProfileError, match="only an openai-chat front door"):
        parse_profile(
            {
                "kind": "url",
                "url": "http://x",
                "front_door": "anthropic-messages",
                "echo_fields": ["reasoning"],
            }
        )


def test_tool_specs_come_from_the_scripted_calls() -> None:
    (case,) = select(expand_all(load_catalog()), [SIGNED])
    (spec,) = tool_specs(case.turns)
    assert spec.name == "get_weather"
    assert spec.parameters["properties"] == {"city": {"type": "string"}}


# -- the thinking_blocks carrier, read and echoed ---------------------------------------------------


def _chat_stream(*deltas: dict[str, object]) -> bytes:
    import json

    out = b""
    for d in deltas:
        out += b"data: " + json.dumps({"choices": [{"index": 0, "delta": d}]}).encode() + b"\n\n"
    return out + b"data: [DONE]\n\n"


def test_observer_reads_thinking_blocks_once_with_signature_and_redacted() -> None:
    wire = _chat_stream(
        {"content": "", "thinking_blocks": [{"type": "redacted_thinking", "data": "RD"}]},
        {
            "reasoning_content": "ab",
            "thinking_blocks": [{"type": "thinking", "thinking": "ab", "signature": None}],
        },
        {
            "reasoning_content": "c",
            "thinking_blocks": [{"type": "thinking", "thinking": "c", "signature": None}],
        },
        {"content": "", "thinking_blocks": [{"type": "thinking", "thinking": "", "signature": "S1"}]},
        {"content": "hi"},
    )
    obs = get_dialect("openai-chat").observer()
    events = obs.feed(wire) + obs.end()
    reasoning = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    assert reasoning == "abc"  # mirrored in reasoning_content and thinking_blocks: read once
    assert [e for e in events if isinstance(e, RedactedReasoning)] == [RedactedReasoning("RD")]
    assert [e for e in events if isinstance(e, ReasoningSignature)] == [ReasoningSignature("S1")]
    assert any(isinstance(e, Notice) and e.code == "mirrored" for e in events)
    assert [e for e in events if isinstance(e, TextDelta)] == [TextDelta("hi")]
    assert events[-1] == End("stop")


def test_narrowed_reasoning_fields_never_hide_signatures_or_redacted_blocks() -> None:
    wire = _chat_stream(
        {"content": "", "thinking_blocks": [{"type": "redacted_thinking", "data": "RD"}]},
        {
            "reasoning_content": "ab",
            "thinking_blocks": [{"type": "thinking", "thinking": "ab", "signature": "S"}],
        },
    )
    obs = get_dialect("openai-chat").observer(reading=Reading(reasoning_fields=("reasoning_content",)))
    events = obs.feed(wire) + obs.end()
    assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "ab"  # read once
    assert [e for e in events if isinstance(e, ReasoningSignature)] == [ReasoningSignature("S")]
    assert [e for e in events if isinstance(e, RedactedReasoning)] == [RedactedReasoning("RD")]


def test_nonstreaming_message_thinking_blocks() -> None:
    import json

    body = json.dumps(
        {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {
                        "role": "assistant",
                        "content": "ok",
                        "reasoning_content": "why",
                        "thinking_blocks": [
                            {"type": "thinking", "thinking": "why", "signature": "S"},
                            {"type": "redacted_thinking", "data": "R"},
                        ],
                    },
                }
            ]
        }
    ).encode()
    events = get_dialect("openai-chat").observe_response(body)
    assert [e for e in events if not isinstance(e, Notice)] == [
        ReasoningDelta("why"),
        ReasoningSignature("S"),
        RedactedReasoning("R"),
        TextDelta("ok"),
        End("stop"),
    ]


def test_echo_thinking_blocks_round_trips_through_the_parser() -> None:
    chat = get_dialect("openai-chat")
    reply = Message(
        "assistant",
        (
            ReasoningBlock("why", signature="S"),
            ReasoningBlock("", redacted="R"),
            TextBlock("t"),
            ToolCallBlock("c1", "get_weather", '{"city":"Paris"}'),
        ),
    )
    spec = chat.build_request(
        [Message.user("q"), reply],
        model="m",
        stream=True,
        variant="think-tags",
        echo_fields=("reasoning_content", "thinking_blocks"),
    )
    entry = spec.body["messages"][1]
    assert entry["content"] == "t"  # no inline tags: the echo carriers replace the variant's
    assert entry["reasoning_content"] == "why"
    assert entry["thinking_blocks"] == [
        {"type": "thinking", "thinking": "why", "signature": "S"},
        {"type": "redacted_thinking", "data": "R"},
    ]
    assert list(entry)[-1] == "tool_calls"
    assert "echo_fields" not in spec.body
    assert chat.parse_request(spec.body)[1] == reply


def test_reasoning_items_read_and_echoed_with_id_and_encrypted_content() -> None:
    import json

    item = {
        "type": "reasoning",
        "id": "rs_1",
        "encrypted_content": "ENC",
        "summary": [{"type": "summary_text", "text": "plan"}],
    }
    body = json.dumps(
        {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "reasoning_content": "plan",
                        "reasoning_items": [item],
                    },
                }
            ]
        }
    ).encode()
    chat = get_dialect("openai-chat")
    events = [e for e in chat.observe_response(body) if not isinstance(e, Notice)]
    assert events[:2] == [ReasoningDelta("plan", item="rs_1"), ReasoningSignature("ENC", item="rs_1")]
    reply = Message(
        "assistant", (ReasoningBlock("plan", signature="ENC", id="rs_1"), ToolCallBlock("c1", "f", "{}"))
    )
    spec = chat.build_request(
        [Message.user("q"), reply],
        model="m",
        stream=False,
        variant="reasoning",
        echo_fields=("reasoning_items",),
    )
    assert spec.body["messages"][1]["reasoning_items"] == [item]
    assert chat.parse_request(spec.body)[1] == reply


def test_a_list_carrier_recapping_streamed_reasoning_is_read_once() -> None:
    # LiteLLM streams reasoning_content deltas, then the whole reasoning item in reasoning_items
    item = {
        "type": "reasoning",
        "id": "rs_1",
        "encrypted_content": "ENC",
        "summary": [{"type": "summary_text", "text": "ab"}],
    }
    wire = _chat_stream(
        {"reasoning_content": "a"}, {"reasoning_content": "b"}, {"reasoning_items": [item]}, {"content": "t"}
    )
    obs = get_dialect("openai-chat").observer()
    events = obs.feed(wire) + obs.end()
    assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "ab"
    assert [e for e in events if isinstance(e, ReasoningSignature)] == [
        ReasoningSignature("ENC", item="rs_1")
    ]
    assert any(isinstance(e, Notice) and e.code == "mirrored" for e in events)
