"""The RPC input of CLI SUTs (profile ``input = "rpc"``): the commands the driver writes (a prompt per
user message, its request fields, an abort at the cancel gate, stdin closed after the last run), the
runs cut at ``agent_end``; and which cases a CLI taking one prompt on its command line is not judged on."""

from __future__ import annotations

from typing import Any

import pytest

from harness._json import loads
from harness.codec import encode_frames
from harness.dialects import get_dialect
from harness.drivers import parse_profile
from harness.drivers._cli_rpc import ABORT_LINE, RpcClient, cli_unsupported, prompt_line
from harness.events import End, Event, ReasoningDelta, StreamError, TextDelta
from harness.runner import load_cases
from harness.runner._case_run import unsupported_reason

PI = get_dialect("pi-json")


def run_bytes(*events: Event, prompt: str = "hi") -> bytes:
    """One run of a pi v2 CLI writing ``events`` (session ... agent_end, agent_settled)."""
    em = PI.emitter("v2", prompt=prompt)  # type: ignore[call-arg]
    frames = em.feed(list(events)) + em.close()
    return b"".join(encode_frames(frames, PI.transport))


def client(case_id: str) -> RpcClient:
    (case,) = load_cases([case_id])
    return RpcClient(case.turns, lambda: PI.observer("v2"))


CANCEL = "errors-cancellation/cancel-then-continue[anthropic-messages:thinking/frames]"
STRUCTURED = "incrementality/structured-output[openai-chat:reasoning_content/frames]"


def test_the_first_prompt_carries_the_turns_request_fields() -> None:
    line = client(STRUCTURED).first()
    obj = loads(line)
    assert obj["type"] == "prompt"
    assert obj["message"].startswith("Weather in Paris, as JSON. [tw-")
    assert obj["request"]["response_format"]["type"] == "json_schema"
    assert line.endswith(b"\n")
    assert line.count(b"\n") == 1
    assert b"request" not in prompt_line("hi")  # an optional field: absent when the turn adds nothing


def test_the_last_run_ends_with_stdin_closed() -> None:
    rpc = client(STRUCTURED)
    fed = rpc.feed(run_bytes(ReasoningDelta("The schema"), TextDelta("{}"), End()))
    assert fed.close
    assert not fed.write
    assert not fed.cancelled
    assert [type(e) for e in fed.events] == [ReasoningDelta, TextDelta, End]


def test_cancel_gate_aborts_then_the_next_prompt_follows_agent_end() -> None:
    rpc = client(CANCEL)
    whole = run_bytes(ReasoningDelta("Let me think"), ReasoningDelta(" more"), End("aborted"))
    head, tail = whole.split(b"more", 1)
    fed = rpc.feed(head[:-20])  # up to the gate's text (and a partial line)
    assert fed.cancelled
    assert fed.write == [ABORT_LINE]
    assert not fed.close
    assert any(isinstance(e, ReasoningDelta) for e in fed.events)
    fed = rpc.feed(head[-20:] + b"more" + tail)  # what the CLI writes after the abort, to agent_settled
    assert fed.events == []  # the client went away from that run
    (nxt,) = fed.write
    obj = loads(nxt)
    assert obj.keys() == {"type", "message"}
    assert obj["message"].startswith("Never mind: just say hi.")
    assert not fed.close


def test_agent_settled_belongs_to_the_run_before_and_each_run_has_its_own_observer() -> None:
    rpc = client(CANCEL)
    first = run_bytes(ReasoningDelta("Let me think"), End("aborted"))
    end_at = first.index(b'{"type":"agent_settled"')
    rpc.feed(first[:end_at])  # through agent_end: the next prompt goes out
    second = run_bytes(ReasoningDelta("A short greeting."), TextDelta("Hi!"), End(), prompt="again")
    fed = rpc.feed(first[end_at:] + second)
    assert [type(e) for e in fed.events] == [ReasoningDelta, TextDelta, End]  # no data-after-end notice
    assert fed.close


def test_an_error_before_the_gate_is_shown() -> None:
    rpc = client(CANCEL)
    fed = rpc.feed(run_bytes(StreamError("boom")))
    assert not fed.cancelled
    assert any(isinstance(e, StreamError) for e in fed.events)
    assert len(fed.write) == 1  # the run ended: the conversation goes on


@pytest.mark.parametrize(
    ("case_id", "says"),
    [
        (CANCEL, "another user message"),
        (STRUCTURED, "request fields"),
        ("wire-variants/ollama-generate[ollama:generate/frames]", ""),
    ],
)
def test_a_cli_taking_one_prompt_is_not_judged_on_what_it_cannot_carry(case_id: str, says: str) -> None:
    (case,) = load_cases([case_id])
    argv: dict[str, Any] = {"kind": "cli", "command": ["agent", "{prompt}"]}
    reason = unsupported_reason(case, parse_profile(argv))
    assert (says in reason) if says else reason == ""
    assert unsupported_reason(case, parse_profile({**argv, "input": "rpc"})) == ""
    assert cli_unsupported(case.turns, "rpc") == ""
