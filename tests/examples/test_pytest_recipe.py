"""The pytest recipe (included in docs/pytest.md): test your own streaming code against thinkwire.

These are real tests: if the docs' examples break, this file fails.
"""

from __future__ import annotations

import httpx
import pytest
from hypothesis import given, settings

import harness
from harness import strategies
from harness.dialects import get_dialect
from harness.events import End, ReasoningDelta, TextDelta, coalesce, strip_items
from harness.reference.sdk import reference_sdk
from harness.runner import run
from harness.upstream import Emit, Gate, Script


# --- example: the mock upstream fixture -------------------------------------------------------------
def my_client_reasoning(base_url: str) -> tuple[str, str]:
    """Stand-in for *your* code: stream a chat completion and split reasoning from the answer."""
    observer = get_dialect("openai-chat").observer()
    events = []
    with httpx.stream(
        "POST", f"{base_url}/v1/chat/completions", json={"model": "m", "stream": True, "messages": []}
    ) as resp:
        for chunk in resp.iter_raw():
            events += observer.feed(chunk)
    events += observer.end()
    reasoning = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    return reasoning, text


def test_my_client_separates_reasoning(mock_upstream) -> None:  # type: ignore[no-untyped-def]
    mock_upstream.load(
        Script(
            "openai-chat",
            (Emit((ReasoningDelta("Let me think."), TextDelta("Hi!"), End())),),
            variant="reasoning_content",
            chunking="bytes",
        )
    )
    assert my_client_reasoning(mock_upstream.base_url) == ("Let me think.", "Hi!")
    assert len(mock_upstream.requests) == 1


# --- example: run catalog cases against your SDK wrapper -------------------------------------------
@pytest.mark.thinkwire(sut="reference-sdk")
def test_wrapper_passes_the_passback_cases(thinkwire_run) -> None:  # type: ignore[no-untyped-def]
    result = thinkwire_run("tools-passback/deepseek-*[openai-chat:reasoning_content/frames]")
    assert result.results, "the glob matched no case"
    assert not result.unexpected, [(r.case_id, [f.message for f in r.failing()]) for r in result.unexpected]


# --- example: fuzz your decoder with thinkwire's strategies ----------------------------------------
@settings(max_examples=25)
@given(
    turn=strategies.reasoning_turns(variant="openai-chat:reasoning_content"),
    chunking=strategies.sse_chunkings(),
)
def test_observer_survives_any_split(turn, chunking) -> None:  # type: ignore[no-untyped-def]
    dialect = get_dialect("openai-chat")
    emitter = dialect.emitter("reasoning_content")
    frames = emitter.feed(turn) + emitter.close()
    from harness.codec import encode_frames

    data = b"".join(encode_frames(frames, "sse"))
    observer = dialect.observer("reasoning_content")
    events = [e for piece in chunking.split(data) for e in observer.feed(piece)] + observer.end()
    assert strip_items(coalesce(events)) == strip_items(coalesce(turn))


# --- example: gate a stream until your client has shown the first delta ----------------------------
def test_gate_holds_until_observed(mock_upstream) -> None:  # type: ignore[no-untyped-def]
    script = Script(
        "openai-chat",
        (
            Emit((ReasoningDelta("one"),)),
            Gate(reasoning="one", timeout=2.0),
            Emit((ReasoningDelta(" two"), TextDelta("ok"), End())),
        ),
        variant="reasoning_content",
    )
    mock_upstream.load(script)
    observer = get_dialect("openai-chat").observer()
    seen = []
    with httpx.stream(
        "POST",
        f"{mock_upstream.base_url}/v1/chat/completions",
        json={"model": "m", "stream": True, "messages": []},
    ) as resp:
        for chunk in resp.iter_raw():
            for ev in observer.feed(chunk):
                seen.append(ev)
                mock_upstream.client.observe(ev)  # tell the gate what your client has shown
    assert "".join(e.text for e in seen if isinstance(e, ReasoningDelta)) == "one two"
    assert mock_upstream.timeline.select("upstream", "gate-open")


# --- example: say what your wrapper claims, where it is defined -------------------------------------
@harness.claims(
    dialects=["openai-chat"],  # the wire it speaks: other dialects' cases are left out, not failed
    usage=False,  # it reports no token usage: the usage check is not run on it
    unsupported_variants=["openai-chat:reasoning"],  # known not to work: judged UNSUPPORTED
)
def my_claimed_wrapper(request):  # type: ignore[no-untyped-def]
    yield from reference_sdk(request)


def test_claims_scope_the_run() -> None:
    result = run(
        [
            "wire-variants/reasoning-then-answer[openai-chat:*/frames]",
            "wire-variants/reasoning-then-answer[gemini:*",
        ],
        sut=my_claimed_wrapper,
    )
    verdicts = {r.case_id.split("[")[1].split("/")[0]: r.stream.value for r in result.results}
    assert verdicts["openai-chat:reasoning"] == "UNSUPPORTED"
    assert verdicts["openai-chat:reasoning_content"] == "PASS"
    assert not any(v.startswith("gemini") for v in verdicts)  # left out, counted in result.left_out
    assert any("gemini" in reason for reason in result.left_out)
    assert not [f for r in result.results for f in r.findings if f.check == "usage"]
