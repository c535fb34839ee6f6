"""Verdict integrity: no PASS without evidence, harness faults are ERROR, SUT faults are evidence,
and the observer never repairs. Each test runs a small misbehaving SUT and asserts verdict and exit
code."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness._errors import PreflightError
from harness.drivers import SUTRequest, parse_profile
from harness.events import End, Event, ReasoningDelta, TextDelta, ToolCallDelta
from harness.reference.sdk import reference_sdk
from harness.runner import load_cases, run
from harness.verdict import Status, Verdict

GATEWAY = str(Path(__file__).with_name("_gateway.py"))
PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
GATED = "incrementality/gated-reasoning[openai-chat:reasoning_content/frames]"
INLINE = "wire-variants/inline-think-leading[openai-chat:think-tags/frames]"
INLINE_NONSTREAM = "wire-variants/inline-think-leading[openai-chat:think-tags/frames/nonstream]"


def gateway(mode: str, **extra: object) -> object:
    return parse_profile(
        {
            "kind": "gateway",
            "name": f"gateway-{mode}",
            "command": [sys.executable, GATEWAY, mode, "{port}", "{upstream}"],
            "timeout": 10,
            **extra,
        }
    )


def findings(result: object, check: str) -> list[object]:
    return [f for r in result.results for f in r.findings if f.check == check]  # type: ignore[attr-defined]


# -- nothing listening / canned answers: never PASS -------------------------------------------------


def test_nothing_listening_exits_2_with_one_line() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "harness.cli", "run", "--sut-url", "http://127.0.0.1:9", "-q"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "unreachable" in lines[0]
    assert "http://127.0.0.1:9" in lines[0]
    assert "PASS" not in proc.stdout


def test_canned_gateway_stops_at_preflight() -> None:
    with pytest.raises(PreflightError, match="without calling the mock upstream"):
        run([PLAIN], sut=gateway("canned"))


def test_canned_gateway_without_preflight_fails_every_case() -> None:
    result = run([PLAIN, GATED], sut=gateway("canned"), preflight=False)
    assert [r.stream for r in result.results] == [Verdict.FAIL, Verdict.FAIL]
    assert all("without calling the upstream" in f.message for f in findings(result, "evidence"))
    assert result.exit_code == 1


def canned(request: SUTRequest) -> Iterator[Event]:
    yield ReasoningDelta("Let me think.")
    yield TextDelta("Hello!")
    yield End("stop")


def test_canned_python_sut_stops_at_preflight_and_fails_without_it() -> None:
    with pytest.raises(PreflightError, match="without calling the mock upstream"):
        run([PLAIN], sut=canned)
    result = run([PLAIN], sut=canned, preflight=False)
    (r,) = result.results
    assert r.stream == Verdict.FAIL
    assert "without calling the upstream" in findings(result, "evidence")[0].message  # type: ignore[attr-defined]


def test_callable_that_cannot_be_imported_stops_the_run_with_exit_2() -> None:
    profile = parse_profile({"kind": "python", "callable": "no_such_module_xyz:stream"})
    result = run([PLAIN, GATED], sut=profile)
    assert [r.status for r in result.results] == [Status.ERROR, Status.ERROR]
    assert "no_such_module_xyz" in result.sut_error
    assert result.exit_code == 2


def needs_missing_sdk(request: SUTRequest) -> Iterator[Event]:
    import no_such_sdk_xyz  # noqa: F401  (the wrapped SDK is not installed)

    yield End("stop")


def test_callable_raising_importerror_stops_at_preflight() -> None:
    with pytest.raises(PreflightError, match=r"raised ModuleNotFoundError.*before calling the upstream"):
        run([PLAIN], sut=needs_missing_sdk)


# -- the observer never repairs ---------------------------------------------------------------------


def test_verbatim_relay_leaking_think_is_not_pass_by_default() -> None:
    result = run([INLINE, INLINE_NONSTREAM], sut=gateway("relay"))
    for r in result.results:
        assert r.status == Status.OK, r.error
        assert r.stream == Verdict.FAIL
        sep = next(f for f in r.findings if f.check == "channel-separation")
        assert sep.verdict == Verdict.FAIL


def test_verbatim_relay_with_declared_inline_think_is_non_strict() -> None:
    result = run([INLINE, INLINE_NONSTREAM], sut=gateway("relay", inline_think=True))
    for r in result.results:
        assert r.stream == Verdict.NON_STRICT, [(f.check, f.verdict, f.message) for f in r.findings]
        sep = next(f for f in r.findings if f.check == "channel-separation")
        assert "inline_think = true" in sep.message
    assert run([INLINE], sut=gateway("relay", inline_think=True), strict=True).exit_code == 1


# -- fake streaming ---------------------------------------------------------------------------------


def test_fake_streaming_gateway_fails_gated_cases() -> None:
    result = run([GATED], sut=gateway("fakestream"))
    (r,) = result.results
    assert r.stream == Verdict.FAIL
    (f,) = findings(result, "evidence")
    assert "fake-streams" in f.message  # type: ignore[attr-defined]
    incremental = next(f for f in r.findings if f.check == "incremental")
    assert incremental.verdict != Verdict.PASS


# -- findings say what really happened (issue 26, item 8) -------------------------------------------

PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"


def hides_tool_calls(request: SUTRequest) -> Iterator[Event]:
    """A wrapper whose client never sees the tool calls (reasoning and text go through)."""
    for ev in reference_sdk(request):
        if not isinstance(ev, ToolCallDelta):
            yield ev


def test_passback_is_not_pass_when_the_tool_call_never_reached_the_client() -> None:
    """The continuation then answers calls the client never saw: it is thinkwire's own, so the strict
    upstream accepting it proves nothing. passback says so (N/A), delivery names the lost call, and
    the case fails."""
    (r,) = run([PASSBACK], sut=hides_tool_calls, preflight=False).results
    by = {f.check: f for f in r.findings}
    assert by["passback"].verdict == Verdict.NOT_APPLICABLE
    assert "tool call(s) of turn 0 never reached the client" in by["passback"].message
    assert "thinkwire continued the conversation on its own" in by["passback"].message
    assert by["delivery"].verdict == Verdict.FAIL
    assert "turn 0: tool calls differ" in by["delivery"].message
    assert r.stream == Verdict.FAIL
    (ok,) = run([PASSBACK], sut=reference_sdk).results  # the correct wrapper: a real passback
    assert {f.check: f for f in ok.findings}["passback"].message == "1 continuation(s) accepted"
    assert ok.stream == Verdict.PASS


def drops_reasoning_and_tool_calls(request: SUTRequest) -> Iterator[Event]:
    for ev in reference_sdk(request):
        if not isinstance(ev, ToolCallDelta | ReasoningDelta):
            yield ev


def test_delivery_reports_every_difference_not_only_the_first() -> None:
    (r,) = run([PASSBACK], sut=drops_reasoning_and_tool_calls, preflight=False).results
    (f,) = [f for f in r.findings if f.check == "delivery"]
    assert f.verdict == Verdict.FAIL
    assert f.data["differences"] == [
        "turn 0: reasoning never reached the client",
        "turn 0: tool calls differ",
        "turn 1: reasoning never reached the client",  # the continuation's answer: every turn judged
    ]
    salt = f"[{load_cases([PASSBACK])[0].token}] "  # each case's content is its own (its routing token)
    assert f.expected.startswith(f"turn 0 reasoning: '{salt}I need the weather tool.'; turn 0 tool calls: [(")
    assert f.actual.startswith("turn 0 reasoning: (no reasoning); turn 0 tool calls: []; turn 1 reasoning")


# -- attribution ------------------------------------------------------------------------------------


def invalid_event(request: SUTRequest) -> Iterator[object]:
    yield from reference_sdk(request)
    yield ReasoningDelta(["not", "a", "string"])  # type: ignore[arg-type]


def test_adapter_yielding_an_invalid_event_is_error_naming_it() -> None:
    result = run([PLAIN], sut=invalid_event)  # type: ignore[arg-type]
    (r,) = result.results
    assert r.status == Status.ERROR
    assert "ReasoningDelta.text is list" in r.error
    assert "expected str" in r.error
    assert r.stream == Verdict.PASS or not r.findings  # no SUT verdict was made from it


class WrapperBug(Exception):
    pass


def raising(request: SUTRequest) -> Iterator[Event]:
    events = reference_sdk(request)
    yield next(iter(events))
    raise WrapperBug("'StreamedResponseSync' object has no attribute 'get'")


def test_adapter_raising_is_a_sut_failure_with_the_exception_as_evidence() -> None:
    result = run([PLAIN], sut=raising)
    (r,) = result.results
    assert r.status == Status.OK
    assert r.stream == Verdict.FAIL
    (f,) = [f for f in r.findings if f.verdict == Verdict.FAIL]
    assert f.check == "sut-error"
    assert "WrapperBug" in f.message
    assert "StreamedResponseSync" in f.message
    assert "Traceback" in f.actual
    assert "raise WrapperBug" in f.actual


def test_sut_slamming_its_upstream_connection_is_sut_behaviour() -> None:
    result = run([PLAIN, GATED], sut=gateway("slam"))
    for r in result.results:
        assert r.status == Status.OK, r.error
        assert r.stream == Verdict.FAIL
        assert not [f for f in r.findings if f.check in ("harness", "evidence")]


# -- slow is not buffering --------------------------------------------------------------------------


def test_cold_start_is_absorbed_by_preflight_and_warm_up() -> None:
    result = run([GATED], sut=gateway("coldstart"))
    (r,) = result.results
    assert r.stream == Verdict.PASS, [(f.check, f.message) for f in r.findings if f.failed]


def test_gate_timeout_derives_from_the_warm_up_latency() -> None:
    result = run([GATED], sut=gateway("slow"))
    assert result.gate_timeout is not None
    assert 3.0 <= result.gate_timeout <= 10.0  # 10 x (>= 0.3 s first byte), capped by the case timeout
    assert result.results[0].stream == Verdict.PASS


def test_gate_timeout_override_is_used_and_stated() -> None:
    from harness.reference.sdk import reference_sdk as ok

    result = run([GATED], sut=ok, gate_timeout=2.5)
    assert result.gate_timeout == 2.5


# -- bounded: deadline and byte cap ------------------------------------------------------------------


def test_trickling_gateway_is_timeout_at_the_case_deadline() -> None:
    # one byte per 0.3 s never trips a read timeout; the wall-clock deadline ends the case
    result = run([PLAIN], sut=gateway("trickle", timeout=2), preflight=False)
    (r,) = result.results
    assert r.status == Status.TIMEOUT
    assert "within 2s" in r.error


def test_flooding_gateway_fails_at_the_byte_cap() -> None:
    result = run([PLAIN], sut=gateway("flood"), preflight=False, max_bytes=2_000_000)
    (r,) = result.results
    assert r.status == Status.OK
    (f,) = [f for f in r.findings if f.failed]
    assert f.check == "size"
    assert "more than 2000000 bytes" in f.message
    assert "data: " in f.actual


def hangs(request: SUTRequest) -> Iterator[Event]:
    import threading

    yield from ()
    threading.Event().wait()  # a wrapper stuck in its own client, with no timeout of ours


def test_hanging_python_sut_is_timeout_and_the_run_goes_on() -> None:
    profile = parse_profile({"kind": "python", "callable": "tests.integrity.test_verdict_integrity:hangs"})
    from dataclasses import replace

    result = run([PLAIN, GATED], sut=replace(profile, timeout=1.0), preflight=False)
    assert [r.status for r in result.results] == [Status.TIMEOUT, Status.TIMEOUT]
    assert "abandoned" in result.results[0].error


# -- flake detection --------------------------------------------------------------------------------

_CALLS = {"n": 0}


def every_other_drops_reasoning(request: SUTRequest) -> Iterator[Event]:
    _CALLS["n"] += 1
    for ev in reference_sdk(request):
        if isinstance(ev, ReasoningDelta) and _CALLS["n"] % 2 == 0:
            continue
        yield ev


def test_repeat_reports_flaky_cases_with_exit_3() -> None:
    _CALLS["n"] = 1  # the preflight canary takes call 2; then PASS (3), FAIL (4), PASS (5)
    result = run([PLAIN], sut=every_other_drops_reasoning, repeat=3)
    (r,) = result.results
    assert r.flaky
    assert r.repeats == ["PASS/PASS", "FAIL/PASS", "PASS/PASS"]
    assert r.stream == Verdict.FAIL  # the worst run stands
    assert result.exit_code == 3


def test_repeat_of_a_stable_sut_is_not_flaky() -> None:
    result = run([PLAIN, GATED], sut=reference_sdk, repeat=3)
    assert not result.flaky
    assert all(r.repeats == ["PASS/PASS"] * 3 for r in result.results)
    assert result.exit_code == 0
