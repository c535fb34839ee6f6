"""A broken SUT fails fast (issue 39 item 5): once a run has seen the SUT buffer (gates of two cases
timed out after their full wait), later gates wait a shortened time; the verdicts stay those of the
full wait, and a FAIL decided by a shortened wait says so and keeps the reproduce line that runs it
alone, with the full wait. Cancellation cases through a process SUT run in flight with the others; an
in-process callable that declares it is thread-safe gets several cases in flight by default."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

from harness.catalog._case import Case
from harness.drivers import KIND_TABLE
from harness.runner import load_cases, run
from harness.runner._concurrent import Lanes, alone_reason, default_concurrency, spread, stalls, waits
from harness.runner._gate_wait import GateLearning
from harness.verdict import CaseResult, Status, Verdict
from tests.runner._lane_host import Host

GATED = "incrementality/gated-reasoning[openai-chat:*/frames]"


def _incremental(result: Any) -> Any:
    (finding,) = [f for f in result.findings if f.check == "incremental"]
    return finding


def _entry(t_s: float, **info: Any) -> Any:
    return SimpleNamespace(t=int(t_s * 1e9), info=info)


def _view(waits_at: list[float] = (), opens_at: list[float] = (), timeouts: list[float] = ()) -> Any:  # type: ignore[assignment]
    """A case's view with one turn: gate-wait entries at ``waits_at`` s, gate-open ones at
    ``opens_at``, and gate-timeouts after the given waits."""
    turn = SimpleNamespace(
        gate_waits=[_entry(t) for t in waits_at],
        gate_opens=[_entry(t) for t in opens_at],
        gate_timeouts=[_entry(0.0, timeout=w) for w in timeouts],
    )
    return SimpleNamespace(turns=[turn])


def test_one_honest_slow_relay_keeps_the_full_wait() -> None:
    learning = GateLearning()
    assert learning.short(1.0, 0.001) is None  # nothing learned: the full wait
    learning.learn(_view([0.0], [], [1.0]), shortened=False)  # one gate timed out after its full wait
    assert learning.buffered == 1
    assert learning.short(1.0, 0.001) is None  # one slow relay is no proof of buffering


def test_two_cases_that_waited_out_their_gates_shorten_the_later_waits() -> None:
    learning = GateLearning()
    for _ in range(GateLearning.BUFFERED_MIN):
        learning.learn(_view([0.0], [], [1.0]), shortened=False)
    assert learning.short(1.0, 0.001) == GateLearning.FLOOR_S  # 10 x 1 ms is below the floor
    assert learning.short(1.0, 0.03, None) == 0.3  # ten times the relay measured
    assert learning.short(0.2, 0.03) is None  # never at or above the full wait
    learning.learn(_view([0.0], [0.15]), shortened=False)  # a gate that took 150 ms to open
    assert learning.short(1.0, 0.001) == 0.5  # three times the longest a gate took to open, 0.1 s up


def test_a_gate_that_timed_out_after_a_shortened_wait_proves_nothing() -> None:
    learning = GateLearning()
    for _ in range(5):
        learning.learn(_view([0.0], [], [0.1]), shortened=True)
    learning.learn(_view([0.0], [], [0.0]), shortened=False)  # not waited for (DECIDED): 0 s
    assert learning.buffered == 0
    assert learning.short(1.0) is None


def test_a_buffering_sut_is_failed_by_shortened_waits_with_the_same_verdicts() -> None:
    """In process, one case at a time: the first two gated cases wait their gates out (1 s), the
    others a shortened wait; every one FAILs ``incremental`` as before, the shortened ones say so."""
    out = run([GATED], sut="reference-sdk", faults=("buffer-reasoning",), concurrency=1)
    results = out.results
    assert len(results) >= 4
    assert all(r.status == Status.OK and r.stream == Verdict.FAIL for r in results)
    full = results[0].gate_wait_s
    assert full is not None
    assert full >= 1.0
    assert [r.gate_wait_s for r in results[: GateLearning.BUFFERED_MIN]] == [full] * GateLearning.BUFFERED_MIN
    later = results[GateLearning.BUFFERED_MIN :]
    for r in later:
        assert r.gate_wait_s is not None
        assert r.gate_wait_s < full
        finding = _incremental(r)
        assert finding.verdict == Verdict.FAIL
        assert "gate timed out" in finding.actual
        assert f"a shortened wait, {r.gate_wait_s:g}s instead of {full:g}s" in finding.message
        assert "runs the case alone, with the full wait" in finding.message
        assert r.reproduce.endswith(f"--cases {r.case_id} --keep-timelines") or r.case_id in r.reproduce
    for r in results[: GateLearning.BUFFERED_MIN]:
        assert "shortened" not in _incremental(r).message
    # the reproduce line's run: the case alone, nothing learned, the full wait, the same FAIL
    (again,) = run([later[0].case_id], sut="reference-sdk", faults=("buffer-reasoning",)).results
    assert again.gate_wait_s == full
    assert again.stream == Verdict.FAIL
    assert "shortened" not in _incremental(again).message


def test_a_correct_sut_never_has_a_wait_shortened() -> None:
    out = run([GATED], sut="reference-sdk", concurrency=1)
    assert out.results
    assert all(r.stream == Verdict.PASS for r in out.results)
    assert {r.gate_wait_s for r in out.results} == {out.results[0].gate_wait_s}
    assert all("shortened" not in _incremental(r).message for r in out.results)


def _cases(*ids: str) -> list[Case]:
    return load_cases(list(ids))


def test_cancellation_and_stall_cases_share_a_process_sut_but_not_an_in_process_one() -> None:
    """A gateway or URL SUT reaches the upstream on connections of its own per conversation: a case
    that cancels, or whose upstream holds its connection, is judged on its own connection, with
    other cases in flight. In process (unless the callable declared it is thread-safe) and for a
    CLI, they still run alone; an upstream that cuts its connection runs alone everywhere."""
    cancels = _cases("errors-cancellation/client-cancel[openai-chat:*]")
    cuts = _cases("errors-cancellation/upstream-disconnect[openai-chat:*]")
    assert cancels
    assert cuts
    for kind in ("gateway", "url"):
        assert [alone_reason(c, KIND_TABLE[kind]) for c in cancels] == [""] * len(cancels)
        assert all(alone_reason(c, KIND_TABLE[kind]) for c in cuts)
    for kind in ("python", "cli"):
        assert all(alone_reason(c, KIND_TABLE[kind]) for c in cancels)
    # an in-process callable that declared it carries several conversations at once: as a process
    assert [alone_reason(c, KIND_TABLE["python"], declared=True) for c in cancels] == [""] * len(cancels)
    assert all(alone_reason(c, KIND_TABLE["python"], declared=True) for c in cuts)


def test_the_first_cases_started_wait_on_nothing() -> None:
    """The gates' timeout under load is measured on the first cases that finish: no case that may
    wait (a gate, a stall) starts among the first ``head``."""
    cases = _cases("incrementality/gated-reasoning", "wire-variants/reasoning-then-answer",
                   "errors-cancellation/client-cancel")  # fmt: skip
    jobs = list(enumerate(cases))
    head = 12
    out = spread(jobs, waits, head, first=stalls)
    assert sorted(out, key=lambda j: j[0]) == jobs
    assert not any(waits(c) for _, c in out[:head])
    assert any(waits(c) for _, c in out[head : 2 * head])  # then spread, not left for the end
    held = [k for k, (_, c) in enumerate(out) if c.scenario.id == "errors-cancellation/client-cancel"]
    assert held
    assert all(waits(out[k][1]) for k in held)
    assert max(held) < len(out) - 5  # spread among the others, not left for the end
    waiting = [c for _, c in out if waits(c)]
    assert waiting[: len(held)] == [out[k][1] for k in held]  # the longest waits begin first


def test_an_in_process_callable_that_declares_it_is_thread_safe_gets_cases_in_flight() -> None:
    assert default_concurrency(0.001, KIND_TABLE["python"]) == 1
    assert default_concurrency(0.001, KIND_TABLE["python"], declared=True) == 8
    assert default_concurrency(None, KIND_TABLE["python"], declared=True) == 1  # nothing measured
    out = run([GATED], sut="reference-sdk")
    assert out.concurrency == 8
    assert all(r.stream == Verdict.PASS for r in out.results)


class _Job:
    turns = ()  # (no script: nothing makes it wait)

    def __init__(self, n: int, waits: bool) -> None:
        self.n, self.waits = n, waits


def test_cases_that_wait_have_lanes_of_their_own() -> None:
    """With one lane, a case that waits (a gate a buffering SUT makes it sit out) holds up no other
    case: the waiting case stays in flight until every other case has run beside it. On main the one
    lane is the waiting case's until it ends (it then gives up after 10 s, unreleased)."""
    others = threading.Event()
    released: list[bool] = []
    flight: list[int] = []
    lock = threading.Lock()
    in_flight = 0

    def run_one(job: Any) -> tuple[CaseResult, None, bool]:
        nonlocal in_flight
        with lock:
            in_flight += 1
            flight.append(in_flight)
        if job.waits:
            released.append(others.wait(10))
        elif job.n == 3:  # the last of the others
            others.set()
        with lock:
            in_flight -= 1
        return (
            CaseResult(case_id=str(job.n), scenario_id="s", requirement="", category="c", sut="f"),
            None,
            True,
        )

    finished: list[int] = []
    host = Host(run_one, finish=lambda i, r, v: finished.append(i), waits=lambda j: j.waits)
    lanes = Lanes(1, host, head=1)
    jobs = [_Job(0, False), _Job(1, True), _Job(2, False), _Job(3, False)]
    assert lanes.round(jobs) == []  # type: ignore[arg-type]
    assert sorted(finished) == [0, 1, 2, 3]
    assert released == [True]
    assert max(flight) == 2  # a lane of its own for the waiting case beside the others' one


def test_a_round_of_only_waiting_cases_starts_them_without_a_head_in_the_idle_lanes_too() -> None:
    """``head`` holds the waiting cases back only while other cases are left to start first; once
    none is, the waiting cases take the others' idle lanes too: with one lane a side, two waiting
    cases are in flight together (each waits, bounded, for the other to be)."""
    both = threading.Barrier(2, timeout=10)
    met: list[bool] = []

    def run_one(job: Any) -> tuple[CaseResult, None, bool]:
        try:
            both.wait()
            met.append(True)
        except threading.BrokenBarrierError:
            met.append(False)
        result = CaseResult(case_id=str(job.n), scenario_id="s", requirement="", category="c", sut="f")
        return result, None, True

    lanes = Lanes(1, Host(run_one, waits=lambda j: j.waits), head=12)
    assert lanes.round([_Job(0, True), _Job(1, True)]) == []  # type: ignore[arg-type]
    assert met == [True, True]
