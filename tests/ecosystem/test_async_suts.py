"""Async Python SUTs: an ``async def`` callable (async generator, or a coroutine returning an async
iterator) runs on the driver's own loop with ``SUTRequest.async_http``; a passback bug is caught; a
hang ends at the deadline as TIMEOUT with the coroutine cancelled and nothing left running; a client
cancel reaches the coroutine (``aclose()``) and its upstream connection closes."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import psutil

from harness.drivers import parse_profile
from harness.runner import run
from harness.verdict import Status, Verdict

HERE = str(Path(__file__).parent)
PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"
CANCEL = "errors-cancellation/client-cancel[openai-chat:reasoning_content/frames]"
PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"


def toy(name: str, **extra: Any) -> Any:
    data: dict[str, Any] = {"kind": "python", "callable": f"_toy_async:{name}", "sys_path": [HERE]}
    data.update(extra)
    return parse_profile(data)


def closed() -> list[str]:
    import _toy_async

    return _toy_async.CLOSED


def snapshot() -> tuple[set[str], int, set[int]]:
    me = psutil.Process()
    conns = {c.raddr.port for c in me.net_connections("tcp") if c.raddr and c.status == "ESTABLISHED"}
    return {t.name for t in threading.enumerate()}, len(me.children(recursive=True)), conns


def test_async_framework_passes_passback_and_plain_cases() -> None:
    result = run([PASSBACK, PLAIN], sut=toy("correct"))
    for r in result.results:
        assert r.stream is Verdict.PASS, (r.case_id, r.error, [(f.check, f.message) for f in r.failing()])


def test_async_framework_with_a_passback_bug_is_caught() -> None:
    result = run([PASSBACK], sut=toy("lossy"))
    (r,) = result.results
    assert r.stream is Verdict.FAIL
    assert any(f.check == "passback" and "rejected" in f.message for f in r.findings)


def test_a_hanging_async_sut_times_out_and_leaves_nothing_running() -> None:
    before = snapshot()
    closed().clear()
    result = run([PASSBACK], sut=toy("hanging", timeout=2), preflight=False)
    (r,) = result.results
    assert r.status is Status.TIMEOUT
    assert "cancelled on the driver's loop" in r.error
    assert closed() == ["cancelled"]  # the deadline reached the coroutine
    deadline = time.monotonic() + 5
    while snapshot() != before and time.monotonic() < deadline:
        time.sleep(0.05)  # pacing a check of threads/sockets winding down, not a verdict
    threads, children, conns = snapshot()
    assert threads <= before[0], threads - before[0]  # the loop thread is gone with the driver
    assert children <= before[1]
    assert conns <= before[2]


def test_client_cancel_reaches_the_coroutine() -> None:
    closed().clear()
    result = run([CANCEL], sut=toy("correct"))
    (r,) = result.results
    assert r.status is Status.OK, r.error
    assert r.stream is Verdict.PASS, [(f.check, f.message) for f in r.failing()]
    assert r.cleanup is Verdict.PASS
    assert closed() == ["closed"]  # aclose(): GeneratorExit inside the async generator
