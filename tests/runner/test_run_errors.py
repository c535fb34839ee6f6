"""A SUT that crashes on start or never becomes ready is tried twice, then every case is ERROR at once
with its stderr tail (exit 2: nothing could run); one that hangs stops the run at preflight with one
line; past preflight (``preflight=False``, or a SUT that hangs later) each case is TIMEOUT and the run
goes on to the next case."""

from __future__ import annotations

import asyncio
import sys

import pytest

from harness._errors import PreflightError
from harness.drivers import parse_profile
from harness.net import Request, Responder, Server
from harness.runner import run
from harness.verdict import Status

CASES = [
    "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]",
    "wire-variants/reasoning-then-answer[openai-chat:reasoning/frames]",
]


def gateway(code: str, **extra: object) -> object:
    return parse_profile(
        {
            "kind": "gateway",
            "command": [sys.executable, "-c", code],
            "ready_timeout": 2,
            "timeout": 2,
            **extra,
        }
    )


def test_crash_on_start_is_tried_twice_then_every_case_is_error_with_stderr_tail() -> None:
    result = run(CASES, sut=gateway("import sys; sys.stderr.write('gateway: bad config\\n'); sys.exit(3)"))
    assert [r.status for r in result.results] == [Status.ERROR, Status.ERROR]
    for r in result.results:
        assert "exited with code 3" in r.error
        assert "gateway: bad config" in r.error
    assert result.sut_error.startswith("the SUT could not be started (tried twice)")
    assert result.exit_code == 2  # nothing could run


def test_never_ready_is_error() -> None:
    never = "import sys, time; sys.stderr.write('still booting'); sys.stderr.flush(); time.sleep(30)"
    result = run(CASES[:1], sut=gateway(never))
    (r,) = result.results
    assert r.status == Status.ERROR
    assert "not ready" in r.error
    assert "still booting" in r.error
    assert result.exit_code == 2


def test_hanging_sut_is_timeout_and_next_case_runs() -> None:
    hold = asyncio.Event()

    async def never_answers(request: Request, responder: Responder) -> None:
        await asyncio.wait_for(hold.wait(), 30)

    with Server(never_answers) as sut:
        profile = parse_profile({"kind": "url", "url": sut.base_url, "timeout": 1})
        with pytest.raises(PreflightError, match="did not answer the canary case"):
            run(CASES, sut=profile)
        result = run(CASES, sut=profile, preflight=False)
    assert [r.status for r in result.results] == [Status.TIMEOUT, Status.TIMEOUT]
    assert "within 1s" in result.results[0].error


_STARTED: list[bool] = []


def cold_start_sdk(request: object) -> object:
    """The reference SDK behind a first call that takes longer than a case's budget (a wrapper whose
    SDK import is slow on a loaded machine): the sleep paces this fake SUT, nothing waits on it."""
    import time

    from harness.reference.sdk import reference_sdk

    if not _STARTED:
        _STARTED.append(True)
        time.sleep(1.5)
    return reference_sdk(request)  # type: ignore[arg-type]


def test_a_python_sut_s_first_call_has_its_ready_timeout_on_top() -> None:
    _STARTED.clear()
    callable_ = f"{__name__}:cold_start_sdk"
    profile = parse_profile({"kind": "python", "callable": callable_, "timeout": 1, "ready_timeout": 3})
    result = run(CASES[:1], sut=profile)  # preflight's canary: 1 s + 3 s; the case itself: 1 s
    assert [r.status for r in result.results] == [Status.OK]
    _STARTED.clear()
    slow = parse_profile({"kind": "python", "callable": callable_, "timeout": 1, "ready_timeout": 0.2})
    with pytest.raises(PreflightError, match=r"did not answer the canary case .* within 1\.2s"):
        run(CASES[:1], sut=slow)
