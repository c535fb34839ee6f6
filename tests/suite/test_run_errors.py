"""A SUT that crashes on start, never becomes ready, or hangs stops the run at preflight with one
line (its stderr's last line included); past preflight (``preflight=False``, or a SUT that dies later)
each case gets ERROR / TIMEOUT with its stderr tail, and the run goes on to the next case."""

from __future__ import annotations

import asyncio
import sys

import pytest

from harness._errors import PreflightError
from harness.drivers import parse_profile
from harness.net import Request, Responder, Server
from harness.suite import Status, run

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


CRASH = "import sys; sys.stderr.write('gateway: bad config\\n'); sys.exit(3)"


def test_crash_on_start_stops_at_preflight_with_the_stderr_line() -> None:
    with pytest.raises(PreflightError, match=r"exited with code 3.*gateway: bad config"):
        run(CASES, sut=gateway(CRASH))


def test_crash_on_start_is_error_with_stderr_tail_and_the_run_goes_on() -> None:
    result = run(CASES, sut=gateway(CRASH), preflight=False)
    assert [r.status for r in result.results] == [Status.ERROR, Status.ERROR]
    assert "exited with code 3" in result.results[0].error
    assert "gateway: bad config" in result.results[0].error
    assert result.exit_code == 1


def test_never_ready_is_error() -> None:
    never = "import sys, time; sys.stderr.write('still booting'); sys.stderr.flush(); time.sleep(30)"
    with pytest.raises(PreflightError, match="not ready"):
        run(CASES[:1], sut=gateway(never))
    result = run(CASES[:1], sut=gateway(never), preflight=False)
    (r,) = result.results
    assert r.status == Status.ERROR
    assert "not ready" in r.error
    assert "still booting" in r.error


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
