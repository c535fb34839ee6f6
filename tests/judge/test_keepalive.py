"""Long silent reasoning (issue 40): the keepalive check judges the gaps between the bytes a SUT's client
got while the upstream was silent against the scenario's ``client_read_timeout``; a profile's
``stream_keepalive = false`` makes such a case UNSUPPORTED; the front-door observers read keepalives
(SSE comment lines, Anthropic's ping) as nothing, so the other checks are not disturbed by them."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from harness import ScenarioError
from harness.catalog._scenario import TurnSpec, parse_scenario
from harness.catalog._scenario_turns import SILENCE_PAST_TIMEOUT
from harness.codec import encode_frames
from harness.dialects import dialect_names, get_dialect
from harness.drivers import KIND_TABLE, parse_profile
from harness.events import End, Event, Notice, ReasoningDelta, TextDelta, ToolCallDelta, Usage
from harness.judge import CHECKS, build_view
from harness.runner import load_cases
from harness.runner._builtin import builtin_profile
from harness.runner._case_run import unsupported_reason
from harness.timeline import Timeline
from harness.upstream import Emit, Pause
from harness.verdict import Verdict
from tests.judge._fake_case import FakeCase

S = 1_000_000_000  # ns per second
TURN = TurnSpec(steps=(Emit((ReasoningDelta("A"), TextDelta("B"), End("stop"))),), user="hi")


def _judge(
    client_at: list[float],
    *,
    timeout: float | None = 1.5,
    ctype: str = "text/event-stream",
    upstream_at: tuple[float, ...] = (0.01, 4.01),
    pings_at: tuple[float, ...] = (),
    claimed: float | None = 0.5,
) -> Any:
    """The keepalive finding of a hand-built turn: the upstream writes at ``upstream_at`` (its own
    keepalives at ``pings_at``), the client got a response head at 5 ms and bytes at ``client_at``
    (seconds after the request); the SUT claims a keepalive every ``claimed`` seconds."""
    tl = Timeline()
    t0 = tl.add("client", "request", turn=0).t
    tl.add("upstream", "request", turn=0, t=t0 + 1)
    for at in upstream_at:
        tl.add("upstream", "write", data=b"data: {}\n\n", turn=0, t=t0 + int(at * S), tags=["reasoning"])
    for at in pings_at:
        tl.add("upstream", "write", data=b"event: ping\n\n", turn=0, t=t0 + int(at * S), tags=["keepalive"])
    tl.add("client", "status", turn=0, t=t0 + int(0.005 * S), status=200, headers={"Content-Type": ctype})
    for at in client_at:
        tl.add("client", "chunk", data=b": keepalive\n\n", turn=0, t=t0 + int(at * S))
    last = t0 + int(max([*client_at, *upstream_at]) * S) + 1
    for i, ev in enumerate(TURN.events()):
        tl.add("client", "event", event=ev, turn=0, t=last + i)
    tl.add("client", "end", turn=0, t=last + 10)
    scenario = SimpleNamespace(outcome="answer", client_read_timeout=timeout)
    case = FakeCase((TURN,), scenario=scenario)
    return CHECKS.get("keepalive")(build_view(case, tl, KIND_TABLE["gateway"], keepalive_every=claimed))


def _every(step: float, start: float = 0.011, stop: float = 4.02) -> list[float]:
    out, at = [], start
    while at <= stop:
        out.append(round(at, 3))
        at += step
    return out


def test_a_stream_kept_alive_below_the_read_timeout_passes_with_its_longest_gap() -> None:
    f = _judge(_every(0.5))
    assert f.verdict is Verdict.PASS, f.message
    assert "0.50 s" in f.message
    assert "read timeout 1.5 s" in f.message
    assert f.data["gap_ms"] == pytest.approx(500, abs=2)
    assert len(f.evidence) == 4  # the silence's two upstream writes, the longest gap's two client reads


def test_a_client_left_without_a_byte_fails_naming_the_gap_and_the_silence() -> None:
    f = _judge([0.011, 4.012])
    assert f.verdict is Verdict.FAIL
    assert "no byte for 4.00 s (from +11.0 ms to +4012.0 ms)" in f.message
    assert "silent for 4.00 s (from +10.0 ms to +4010.0 ms)" in f.message
    assert "claims a byte at least every 0.5 s" in f.message
    assert len(f.evidence) == 4  # both upstream writes around the silence, both client reads around the gap


def test_without_a_claimed_interval_a_silent_client_is_non_strict_never_a_fail() -> None:
    """The case's read timeout is scaled for CI: a SUT keeping alive every 15 s shows the same gap, so
    without the SUT's own interval the gap is a SHOULD-level finding that says how to claim one."""
    f = _judge([0.011, 4.012], claimed=None)
    assert f.verdict is Verdict.NON_STRICT
    assert "1.5 s read timeout (scaled for CI)" in f.message
    assert "stream_keepalive = SECONDS" in f.message
    assert _judge(_every(0.5), claimed=None).verdict is Verdict.PASS


def test_a_claimed_interval_the_silence_does_not_exceed_cannot_be_judged() -> None:
    f = _judge([0.011, 4.012], claimed=15.0)
    assert f.verdict is Verdict.NOT_APPLICABLE
    assert "within the 15 s the SUT claims" in f.message


def test_keepalives_that_stop_halfway_fail_on_the_gap_they_leave() -> None:
    f = _judge([*_every(0.5, stop=1.6), 4.012])
    assert f.verdict is Verdict.FAIL
    assert f.data["gap_ms"] == pytest.approx(4012 - 1511, abs=2)


def test_a_head_then_nothing_until_the_end_fails() -> None:
    f = _judge([4.012])  # the response head (5 ms) is the last byte before the silence ends
    assert f.verdict is Verdict.FAIL
    assert "from +5.0 ms" in f.message


def test_the_upstreams_own_pings_relayed_count_and_dropped_do_not() -> None:
    pings = tuple(_every(1.0, start=1.0, stop=3.5))
    relayed = _judge([0.011, *[p + 0.001 for p in pings], 4.012], pings_at=pings, claimed=1.2)
    assert relayed.verdict is Verdict.PASS, relayed.message
    dropped = _judge([0.011, 4.012], pings_at=pings, claimed=1.2)
    assert dropped.verdict is Verdict.FAIL  # the upstream was never silent to its content; the client was


def test_a_whole_upstream_answer_after_a_long_think_is_a_silence_too() -> None:
    late = (4.01,)  # the SUT asked its upstream without streaming; the body came after 4 s
    assert _judge([0.011, 4.012], upstream_at=late).verdict is Verdict.FAIL
    assert _judge(_every(0.5), upstream_at=late).verdict is Verdict.PASS


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"timeout": None}, "declares no client read timeout"),
        ({"ctype": "application/x-ndjson"}, "no SSE stream over HTTP"),
        ({"upstream_at": (0.01, 1.0, 2.0, 3.0, 4.0)}, "never silent for longer than the 1.5 s"),
    ],
)
def test_nothing_to_judge_is_not_applicable(kwargs: dict[str, Any], why: str) -> None:
    f = _judge([0.011, 4.012], **kwargs)
    assert f.verdict is Verdict.NOT_APPLICABLE
    assert why in f.message


# -- the scenario field and the profile's claim -------------------------------------------------------


def _scenario(**extra: Any) -> dict[str, Any]:
    steps = [{"reasoning": "A"}, {"pause": 2.0}, {"text": "B"}]
    return {
        "description": "d",
        "requirement": "The SUT MUST x.",
        "category": "timing",
        "dialects": ["openai-chat"],
        "turns": [{"user": "u", "steps": steps}],
        **extra,
    }


def test_an_open_step_sends_the_streams_opening_frames_alone() -> None:
    steps = [{"open": True}, {"pause": 2.0}, {"text": "B"}]
    scenario = parse_scenario(
        _scenario(client_read_timeout=1.5, turns=[{"user": "u", "steps": steps}]), sid="s", file="s.toml"
    )
    first, pause, rest = scenario.turns[0].steps
    assert first == Emit(())
    assert pause.seconds == 2.0
    assert isinstance(rest, Emit)
    with pytest.raises(ScenarioError, match=r"turns\[0\]\.steps\[0\]\.open.*expected true"):
        parse_scenario(_scenario(turns=[{"user": "u", "steps": [{"open": 1}]}]), sid="s", file="s.toml")


def test_a_read_timeout_needs_a_longer_silence_to_test() -> None:
    ok = parse_scenario(_scenario(client_read_timeout=1.5), sid="s", file="s.toml")
    assert ok.client_read_timeout == 1.5
    assert parse_scenario(_scenario(), sid="s", file="s.toml").client_read_timeout is None
    with pytest.raises(ScenarioError, match=r"client_read_timeout.*no pause step is longer") as info:
        parse_scenario(_scenario(client_read_timeout=3), sid="s", file="s.toml")
    assert "s.toml" in str(info.value)
    with pytest.raises(ScenarioError, match="client_read_timeout"):
        parse_scenario(_scenario(client_read_timeout=0), sid="s", file="s.toml")


def test_a_silence_step_follows_the_read_timeout_past_it() -> None:
    """``{ silence = true }`` lasts 1.5 times the scenario's read timeout: scaling the timeout scales
    the silence, so the premise (a silence longer than the timeout) holds at any scale."""
    steps = [{"reasoning": "A"}, {"silence": True}, {"text": "B"}]
    for timeout in (0.4, 0.8, 30):
        raw = _scenario(client_read_timeout=timeout, turns=[{"user": "u", "steps": steps}])
        s = parse_scenario(raw, sid="s", file="s.toml")
        (pause,) = [st for st in s.turns[0].steps if not isinstance(st, Emit)]
        assert pause.seconds == pytest.approx(timeout * SILENCE_PAST_TIMEOUT)
        assert pause.seconds > timeout
    with pytest.raises(ScenarioError, match=r"steps\[1\]\.silence.*none is set"):
        parse_scenario(_scenario(turns=[{"user": "u", "steps": steps}]), sid="s", file="s.toml")
    bad = _scenario(client_read_timeout=1, turns=[{"user": "u", "steps": [{"silence": 2.0}]}])
    with pytest.raises(ScenarioError, match=r"silence.*expected true"):
        parse_scenario(bad, sid="s", file="s.toml")


def test_the_catalogs_keepalive_cases_are_silent_past_their_read_timeout() -> None:
    claimed = builtin_profile("reference").keepalive_every
    assert claimed is not None
    for c in load_cases(["keepalive/*"]):
        timeout = c.scenario.client_read_timeout
        assert timeout is not None
        longest = max(st.seconds for t in c.scenario.turns for st in t.steps if isinstance(st, Pause))
        assert longest == pytest.approx(timeout * SILENCE_PAST_TIMEOUT), c.id
        assert longest > claimed + max(0.2, claimed / 5)  # past the reference's claim: a claim to judge


def test_a_sut_that_declares_no_keepalive_is_unsupported_never_judged() -> None:
    cases = load_cases(["keepalive/*"])
    assert len(cases) == 6
    assert {c.dialect for c in cases} == {"openai-chat", "openai-responses", "anthropic-messages"}
    profile = builtin_profile("reference")
    assert all(unsupported_reason(c, profile) == "" for c in cases)
    silent = replace(profile, stream_keepalive=False)
    assert all("stream_keepalive = false" in unsupported_reason(c, silent) for c in cases)
    other = load_cases(["wire-variants/reasoning-then-answer"])
    assert all(unsupported_reason(c, silent) == "" for c in other if silent.claims(c.dialect, c.variant))
    parsed = parse_profile({"kind": "url", "url": "http://x", "stream_keepalive": False})
    assert parsed.stream_keepalive is False


# -- keepalives on the wire are nothing to the observers (item 5 of the brief) ------------------------


EVENTS: tuple[Event, ...] = (
    ReasoningDelta("Let me think."),
    ReasoningDelta(" More."),
    TextDelta("Answer."),
    ToolCallDelta(0, "call_1", "f", "{}"),
    Usage(3, 1, 4, 7),
    End("tool_calls"),
)


def _kept_alive(dialect: str, keep: bytes) -> list[tuple[list[Event], list[Event]]]:
    """Per variant: what the observer reads of an emitted stream, and of the same stream with ``keep``
    before its first frame and between every two (a gateway's keepalives: never after the end)."""
    d = get_dialect(dialect)
    out = []
    for variant in d.variants:
        em = d.emitter(variant)
        pieces = encode_frames(em.feed(list(EVENTS)) + em.close(), d.transport)
        kept = keep + b"".join(p + keep for p in pieces[:-1]) + pieces[-1]
        want, got = d.observer(variant), d.observer(variant)
        out.append((want.feed(b"".join(pieces)) + want.end(), got.feed(kept) + got.end()))
    return out


_SSE = [d for d in dialect_names() if get_dialect(d).routed and get_dialect(d).transport == "sse"]
_KEPT = [d for d in _SSE if get_dialect(d).keepalive() is not None]


def test_every_sse_dialect_but_gemini_has_a_keepalive() -> None:
    assert set(_SSE) - set(_KEPT) == {"gemini"}  # google-genai parses a comment line as JSON
    assert {"openai-chat", "openai-responses", "anthropic-messages"} <= set(_KEPT)
    assert get_dialect("anthropic-messages").keepalive() == b'event: ping\ndata: {"type": "ping"}\n\n'
    assert get_dialect("openai-chat").keepalive() == b": keepalive\n\n"
    assert get_dialect("ollama").keepalive() is None  # NDJSON has no comment


@pytest.mark.parametrize("dialect", _KEPT)
@pytest.mark.parametrize("alive", ["dialect", "comment", "bare"])
def test_keepalives_between_frames_change_nothing_an_observer_reads(dialect: str, alive: str) -> None:
    keep = {"dialect": get_dialect(dialect).keepalive(), "comment": b": keepalive\n\n", "bare": b":\n\n"}
    for want, got in _kept_alive(dialect, keep[alive] or b""):
        assert got == want


def test_gemini_notes_a_comment_line_and_reads_the_same_content() -> None:
    for want, got in _kept_alive("gemini", b": keepalive\n\n"):
        assert [e for e in got if not isinstance(e, Notice)] == want
        assert {e.code for e in got if isinstance(e, Notice)} == {"sse-comment"}


# -- the reference SUTs on the catalog's case (1.2 s of silence each: slow) -----------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sut", "judged"), [("reference", Verdict.PASS), ("reference-sdk", None), ("reference-cli", None)]
)
def test_the_reference_suts_pass_the_silent_reasoning_cases(sut: str, judged: Verdict | None) -> None:
    from harness.runner import run

    result = run(["keepalive/*"], sut=sut, expectations=None)
    assert len(result.results) == 6
    for r in result.results:
        assert r.stream is Verdict.PASS, (r.case_id, [(f.check, f.message) for f in r.failing()], r.error)
        (f,) = [f for f in r.findings if f.check == "keepalive"]
        if judged is None:  # no client stream over HTTP to keep alive: the answer still came through
            assert f.verdict is Verdict.NOT_APPLICABLE, f.message
        else:
            assert f.verdict is judged, f.message
            assert f.data["gap_ms"] < 800


@pytest.mark.slow
def test_keepalives_between_every_two_frames_disturb_no_check() -> None:
    """The reference gateway with a keepalive after 2 ms of silence: comment lines between nearly
    every two frames of the front door; every case still passes as it does without them."""
    from harness.runner import run

    p = builtin_profile("reference")
    dense = replace(p, command=(*p.command, "--keepalive", "0.002"), name="reference-dense-keepalive")
    result = run(["incrementality/*", "sse-framing/*"], sut=dense)
    bad = [(r.case_id, [(f.check, f.message) for f in r.failing()]) for r in result.results if r.failing()]
    assert not bad
    assert all(r.stream in (Verdict.PASS, Verdict.UNSUPPORTED) for r in result.results)
    kept = [
        r
        for r in result.results
        if any(e["act"] == "chunk" and ": keepalive" in str(e.get("text", "")) for e in r.timeline)
    ]
    assert len(kept) > len(result.results) // 2  # the comments were there to be read
