"""One context per case for async SUTs: the driver runs each turn's async generator in one task, in
one ``contextvars.Context`` shared by the case's turns, so a token set before a ``yield`` resets after
it, an OpenTelemetry attach/detach pair detaches without "Failed to detach context", and a client
cancel or the deadline still reaches the generator (its ``finally`` runs in the same context)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import _ctx_suts
import pytest

from harness.drivers import parse_profile
from harness.runner import run
from harness.verdict import Status, Verdict

HERE = str(Path(__file__).parent)
PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"
CANCEL = "errors-cancellation/client-cancel[openai-chat:reasoning_content/frames]"


def sut(name: str, **extra: Any) -> Any:
    return parse_profile({"kind": "python", "callable": f"_ctx_suts:{name}", "sys_path": [HERE], **extra})


def failing(r: Any) -> list[tuple[str, str]]:
    return [(f.check, f.message) for f in r.failing()]


@pytest.fixture(autouse=True)
def _clear_seen() -> None:
    _ctx_suts.SEEN.clear()


def test_a_token_set_before_a_yield_resets_after_it() -> None:
    result = run([PLAIN, PASSBACK], sut=sut("token_reset"), preflight=False)
    for r in result.results:
        assert r.status is Status.OK, r.error
        assert r.stream is Verdict.PASS, (r.case_id, failing(r))
    assert _ctx_suts.SEEN == ["reset"] * 3  # one per turn: 1 + 2


def test_an_opentelemetry_span_detaches_without_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    result = run([PLAIN, PASSBACK], sut=sut("otel_span"), preflight=False)
    for r in result.results:
        assert r.stream is Verdict.PASS, (r.case_id, failing(r))
    assert not [rec.getMessage() for rec in caplog.records if rec.name.startswith("opentelemetry")]


def test_the_case_s_turns_share_one_context() -> None:
    (r,) = run([PASSBACK], sut=sut("session"), preflight=False).results
    assert r.stream is Verdict.PASS, failing(r)


def test_a_client_cancel_closes_the_generator_in_its_own_context() -> None:
    (r,) = run([CANCEL], sut=sut("token_reset"), preflight=False).results
    assert r.status is Status.OK, r.error
    assert r.stream is Verdict.PASS, failing(r)
    assert _ctx_suts.SEEN == ["reset"]  # aclose() ran the finally in the task that set the token


def test_the_deadline_cancels_the_generator_in_its_own_context() -> None:
    (r,) = run([PASSBACK], sut=sut("hanging_span", timeout=2), preflight=False).results
    assert r.status is Status.TIMEOUT
    assert "cancelled on the driver's loop" in r.error
    assert _ctx_suts.SEEN == ["reset", "reset"]  # turn 0 ended; turn 1's await was cancelled
