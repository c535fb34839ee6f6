"""Carriers beyond the built-in list: Portkey's ``content_blocks`` (read and echoed, deltas and
messages) and a carrier a profile declares as data. A correct gateway passes the signed and redacted
passback cases; one that drops signatures is caught; without the declaration nothing is read."""

from __future__ import annotations

import pytest
from _tb_cases import PLAIN, REDACTED, SIGNED, SIGNED_NONSTREAM, tb_gateway

from harness.dialects import get_dialect
from harness.drivers import parse_profile
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
)
from harness.runner import run
from harness.verdict import Verdict

ALL = (SIGNED, SIGNED_NONSTREAM, REDACTED, PLAIN)

CUSTOM = {
    "x_reasoning": {
        "delta": "x_parts",
        "message": "x_reasoning",
        "type_key": "kind",
        "thinking": "thought",
        "text_key": "body",
        "signature_key": "sig",
        "redacted": "hidden",
        "data_key": "blob",
    }
}


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TB_KEY", "k-test")


def gateway(mode: str, style: str, **extra: object) -> object:
    return tb_gateway(f"tb-{style}-{mode}", mode, style, **extra)


def verdicts(result: object) -> dict[str, Verdict]:
    return {r.case_id: r.stream for r in result.results}  # type: ignore[attr-defined]


def test_content_blocks_gateway_passes() -> None:
    result = run(list(ALL), sut=gateway("ok", "portkey", echo_fields=["content_blocks"]))
    assert verdicts(result) == dict.fromkeys(ALL, Verdict.PASS), [
        (r.case_id, [(f.check, f.message) for f in r.failing()]) for r in result.results
    ]


def test_content_blocks_gateway_dropping_signatures_is_caught() -> None:
    result = run(
        [SIGNED, REDACTED], sut=gateway("drop-signatures", "portkey", echo_fields=["content_blocks"])
    )
    for r in result.results:
        assert r.stream is Verdict.FAIL, r.case_id
        assert any(f.check == "passback" and "rejected" in f.message for f in r.findings), r.case_id


def test_declared_custom_carrier_passes() -> None:
    profile = gateway("ok", "custom", carriers=CUSTOM, echo_fields=["x_reasoning"])
    result = run(list(ALL), sut=profile)
    assert verdicts(result) == dict.fromkeys(ALL, Verdict.PASS), [
        (r.case_id, [(f.check, f.message) for f in r.failing()]) for r in result.results
    ]


def test_undeclared_custom_carrier_reads_nothing() -> None:
    result = run([PLAIN], sut=gateway("ok", "custom"))
    (r,) = result.results
    assert r.stream is Verdict.FAIL  # the observer never guesses a convention nobody declared


def test_content_blocks_stream_read_once_with_signature_redacted_and_no_text_as_reasoning() -> None:
    import json

    deltas = [
        {"content": "", "content_blocks": [{"index": 0, "delta": {"data": "RD"}}]},
        {"content": "", "content_blocks": [{"index": 1, "delta": {"thinking": "", "signature": ""}}]},
        {"content": "", "content_blocks": [{"index": 1, "delta": {"thinking": "ab"}}]},
        {"content": "", "content_blocks": [{"index": 1, "delta": {"signature": "S1"}}]},
        {"content": "hi", "content_blocks": [{"index": 2, "delta": {"text": "hi"}}]},
    ]
    wire = (
        b"".join(
            b"data: " + json.dumps({"choices": [{"index": 0, "delta": d}]}).encode() + b"\n\n" for d in deltas
        )
        + b"data: [DONE]\n\n"
    )
    obs = get_dialect("openai-chat").observer()
    events = [e for e in obs.feed(wire) + obs.end() if not isinstance(e, Notice)]
    assert events == [
        RedactedReasoning("RD"),
        ReasoningDelta("ab"),
        ReasoningSignature("S1"),
        TextDelta("hi"),
        End("stop"),
    ]


def test_content_blocks_echo_carries_blocks_and_text() -> None:
    msg = Message(
        "assistant",
        (ReasoningBlock("", redacted="RD"), ReasoningBlock("why", signature="S"), TextBlock("ok")),
    )
    spec = get_dialect("openai-chat").build_request(
        [Message.user("q"), msg], model="m", stream=True, variant="reasoning", echo_fields=("content_blocks",)
    )
    entry = spec.body["messages"][1]
    assert entry["content"] == "ok"
    assert entry["content_blocks"] == [
        {"type": "redacted_thinking", "data": "RD"},
        {"type": "thinking", "thinking": "why", "signature": "S"},
        {"type": "text", "text": "ok"},
    ]
    assert "reasoning" not in entry


@pytest.mark.parametrize(
    ("table", "match"),
    [
        ({"reasoning": {"form": "text"}}, r"carriers\.reasoning.*built-in"),
        ({"x": {"form": "list"}}, r"carriers\.x\.form.*text, blocks"),
        ({"x": {"type": "kind"}}, r"carriers\.x\.type.*unknown field.*type_key"),
        ({"x": {"delta": 3}}, r"carriers\.x\.delta.*string"),
    ],
)
def test_carrier_table_errors_name_the_field(table: dict[str, object], match: str) -> None:
    from harness._errors import ProfileError

    with pytest.raises(ProfileError, match=match):
        parse_profile({"kind": "url", "url": "http://x", "carriers": table})


def test_echo_fields_may_name_a_declared_carrier_only() -> None:
    from harness._errors import ProfileError

    with pytest.raises(ProfileError, match=r"echo_fields.*'x_reasonin'.*x_reasoning"):
        parse_profile({"kind": "url", "url": "http://x", "carriers": CUSTOM, "echo_fields": ["x_reasonin"]})
