"""``--concurrency N``: many cases in flight through one SUT give, case by case, the verdicts a serial
run gives (the reference gateway over the whole catalog, the reference SDK, the in-repo test
gateways; the whole-catalog runs also show that the correct reference SUTs pass it, so that each SUT
runs the catalog serially once); a gateway that crosses two conversations under load is caught by the
isolation check and passes when run serially; the scheduler (``Lanes``) runs alone what needs the SUT
to itself (on a second instance of the SUT alongside the shared cases, when there is one), runs again
alone what failed beside others, restarts a SUT that died, and leaves nothing on an interrupt."""

from __future__ import annotations

import itertools
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from harness.drivers import KIND_TABLE, parse_profile
from harness.report import write_reports
from harness.runner import RunResult, load_cases, run
from harness.runner._concurrent import ASIDE_NOTE, Lanes, alone_reason, default_concurrency
from harness.runner._state import LoadLatency
from harness.verdict import CaseResult, Status, Verdict
from tests.runner._lane_host import Host

ROOT = Path(__file__).resolve().parents[1]
INTEGRITY = str(ROOT / "integrity" / "_gateway.py")
TB = str(ROOT / "ecosystem" / "_tb_gateway.py")
CHAT = "*[openai-chat:reasoning_content/*"


def verdicts(result: RunResult) -> dict[str, tuple[str, str, str, tuple[str, ...]]]:
    """Case id -> status, stream and cleanup verdicts, and the checks that failed."""
    return {
        r.case_id: (
            r.status.value,
            r.stream.value,
            r.cleanup.value,
            tuple(sorted({f.check for f in r.failing()})),
        )
        for r in result.results
    }


def assert_same(serial: RunResult, concurrent: RunResult, *, subset: bool = False) -> None:
    """``subset``: the concurrent run took some of the serial run's cases (a serial run is shared)."""
    a, b = verdicts(serial), verdicts(concurrent)
    if subset:
        a = {cid: v for cid, v in a.items() if cid in b}
    assert list(a) == list(b)  # the same cases, in the same order
    differ = {cid: (a[cid], b[cid]) for cid in a if a[cid] != b[cid]}
    assert not differ, differ


def integrity(mode: str) -> object:
    return parse_profile(
        {
            "kind": "gateway",
            "name": f"gateway-{mode}",
            "command": [sys.executable, INTEGRITY, mode, "{port}", "{upstream}"],
            "dialects": ["openai-chat"],
            "timeout": 15,
        }
    )


def passes_the_whole_catalog(result: RunResult, tmp_path: Path) -> None:
    """A correct reference SUT over the whole catalog, not only the detection matrix's cases: no
    unexpected result and no FAIL anywhere, and the reports of that passing run keep to their size
    budget (report.html and results.json at most 2 KB each per passing case, with the default: passing
    cases kept compact). (The reference CLI claims the pi dialect only and takes minutes over
    the catalog: the matrix covers it.) The cases for another front door than the SUT's are left out, by
    that reason."""
    doors_only = sum(n for why, n in result.left_out.items() if why.startswith("front door "))
    assert doors_only == len([c for c in load_cases() if c.scenario.front_doors])  # the Responses bridges
    assert len(result.results) == len(load_cases()) - doors_only
    bad = [(r.case_id, r.status.value, [f.message for f in r.failing()]) for r in result.unexpected]
    assert not bad, f"{len(bad)} unexpected: {bad[:5]}"
    assert not [r.case_id for r in result.results if r.stream == Verdict.FAIL]
    assert sum(r.stream == Verdict.PASS for r in result.results) > 400
    written = write_reports(result, tmp_path)
    sizes = {name: written[name].stat().st_size for name in ("html", "json")}
    budget = 2 * 1024 * len(result.results)  # 2 KB per passing case (and every case here passed)
    assert max(sizes.values()) <= budget, (sizes, budget)  # tests/report/test_weight.py, docs/benchmarks.md


# -- verdicts identical to serial -------------------------------------------------------------------


@pytest.mark.slow
def test_reference_gateway_whole_catalog_same_verdicts_at_concurrency_8(tmp_path: Path) -> None:
    """The run at concurrency 8 (the gateway's default) is kept as `thinkwire run` keeps it, and passes."""
    serial = run(sut="reference", concurrency=1, keep_timelines="none")
    concurrent = run(sut="reference", concurrency=8, keep_timelines="failures")
    passes_the_whole_catalog(concurrent, tmp_path)
    assert concurrent.concurrency == 8
    assert serial.concurrency == 1
    assert_same(serial, concurrent)
    alone = {r.case_id: r.alone for r in concurrent.results if r.alone}
    assert alone  # cancellation and connection faults ran with nothing else in flight, and say so
    assert all(alone_reason(c, KIND_TABLE["gateway"]) for c in load_cases(list(alone)))


@pytest.mark.slow
def test_slow_gateway_same_verdicts_and_alone_cases_on_a_second_instance_gone_when_the_run_ends() -> None:
    """A gateway that makes every case wait (0.3 s an answer): at concurrency 6 its verdicts are the
    serial ones; it is worth a second instance: its alone cases run there while the shared ones run;
    the plain reference gateway (a few ms a case) is not. One serial run is the baseline of both."""
    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    serial = run([CHAT], sut=integrity("slow"), concurrency=1, keep_timelines="none")
    at6 = run([CHAT], sut=integrity("slow"), concurrency=6, keep_timelines="none")
    assert at6.concurrency == 6
    assert_same(serial, at6)
    scenarios = ("errors-cancellation", "wire-variants", "incrementality", "tools-passback")
    cases = [f"{s}/*[openai-chat:reasoning_content/frames]" for s in scenarios]
    came: list[tuple[float, CaseResult]] = []  # (when its result came, the result)
    concurrent = run(cases, sut=integrity("slow"), concurrency=4, keep_timelines="none",
                     progress=lambda _n, _total, r: came.append((time.monotonic(), r)))  # fmt: skip
    claimed = [c.id for c in load_cases(cases) if not c.scenario.front_doors]  # (the bridges: left out)
    assert [r.case_id for r in concurrent.results] == claimed
    assert_same(serial, concurrent, subset=True)
    aside = [t - r.duration_s for t, r in came if r.alone.endswith(ASIDE_NOTE)]  # when each started
    assert len(aside) == 1  # the upstream cutting its connection (a cancel shares the gateway)
    # the second instance's first case started while the shared ones ran: before the last one ended
    assert min(aside) < max(t for t, r in came if not r.alone)
    assert {p.pid for p in me.children(recursive=True)} - before == set()  # both instances stopped
    quick = run(cases, sut="reference", concurrency=4, keep_timelines="none")
    assert [r.alone for r in quick.results if r.alone.endswith(ASIDE_NOTE)] == []


@pytest.mark.slow
def test_reference_sdk_passes_the_whole_catalog_and_the_same_verdicts_at_concurrency_4(
    tmp_path: Path,
) -> None:
    """Its serial run of the whole catalog passes, and is the baseline of four of its scenarios run at
    concurrency 4 (serial asked for: the reference SDK declares itself thread-safe, so its default is
    cases in flight)."""
    serial = run(sut="reference-sdk", keep_timelines="failures", concurrency=1)  # kept as thinkwire run does
    assert serial.concurrency == 1
    passes_the_whole_catalog(serial, tmp_path)
    cases = ["wire-variants/*", "tools-passback/*", "incrementality/*", "errors-cancellation/*"]
    concurrent = run(cases, sut="reference-sdk", concurrency=4, keep_timelines="none")
    assert concurrent.concurrency == 4
    claimed = [c.id for c in load_cases(cases) if not c.scenario.front_doors]  # (the bridges: left out)
    assert [r.case_id for r in concurrent.results] == claimed
    assert_same(serial, concurrent, subset=True)
    sockets = [r for r in concurrent.results if "openai-responses-ws:" in r.case_id]
    assert len(sockets) == 4  # a chained response.create is routed by the response it continues:
    # in flight, the cancel too: the reference SDK declares it carries conversations at once
    assert [r.case_id for r in sockets if r.alone] == []


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["relay", "fakestream"])  # "slow": with the second instance's test above
def test_integrity_gateways_same_verdicts(mode: str) -> None:
    serial = run([CHAT], sut=integrity(mode), concurrency=1, keep_timelines="none")
    concurrent = run([CHAT], sut=integrity(mode), concurrency=6, keep_timelines="none")
    assert concurrent.concurrency == 6
    assert_same(serial, concurrent)


@pytest.mark.slow
def test_thinking_blocks_gateway_same_verdicts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TB_KEY", "k-test")
    profile = parse_profile(
        {
            "kind": "gateway",
            "name": "tb-ok",
            "command": [sys.executable, TB, "ok", "{port}", "{upstream}"],
            "env": {"TB_KEY": "k-test"},
            "dialects": ["anthropic-messages"],
            "echo_fields": ["thinking_blocks"],
            "request": {"headers": {"authorization": "Bearer {env:TB_KEY}"}},
            "timeout": 15,
        }
    )
    cases = ["*[anthropic-messages:*"]
    serial = run(cases, sut=profile, concurrency=1, keep_timelines="none")
    concurrent = run(cases, sut=profile, concurrency=4, keep_timelines="none")
    assert concurrent.concurrency == 4
    assert_same(serial, concurrent)


@pytest.mark.slow
def test_repeat_5_at_concurrency_8_has_no_flaky_case() -> None:
    result = run(
        ["incrementality/*", "sse-framing/*"], sut="reference", concurrency=8, repeat=5, keep_timelines="none"
    )
    assert result.concurrency == 8
    assert result.flaky == []
    assert result.exit_code == 0


# -- cross-talk --------------------------------------------------------------------------------------

CROSSTALK = [
    "wire-variants/reasoning-then-answer[openai-chat:reasoning*/frames]",
    "sse-framing/split-utf8[openai-chat:*",
]


@pytest.mark.slow
def test_crosstalk_gateway_caught_by_isolation_when_concurrent_and_passes_serially() -> None:
    serial = run(CROSSTALK, sut=integrity("crosstalk"), concurrency=1, keep_timelines="none")
    assert len(serial.results) >= 4
    assert all(r.stream is Verdict.PASS for r in serial.results), verdicts(serial)
    for r in serial.results:
        (iso,) = [f for f in r.findings if f.check == "isolation"]
        assert iso.verdict is Verdict.PASS
    concurrent = run(CROSSTALK, sut=integrity("crosstalk"), concurrency=4, keep_timelines="none")
    ids = {r.case_id for r in concurrent.results}
    crossed = [
        (r.case_id, f)
        for r in concurrent.results
        for f in r.findings
        if f.check == "isolation"
        if f.verdict is Verdict.FAIL
    ]
    assert crossed, verdicts(concurrent)
    for cid, f in crossed:
        named = [other for other in ids if other in f.message]
        assert cid in named, f.message
        assert len(named) == 2, f.message  # this case and the other one
    # the cause is reported once: a crossed turn is no content check's
    for r in concurrent.results:
        if any(f.check == "isolation" and f.verdict is Verdict.FAIL for f in r.findings):
            assert {f.check for f in r.failing()} == {"isolation"}, r.findings


@pytest.mark.slow
def test_a_shared_last_request_is_caught_by_isolation_when_concurrent_and_passes_serially() -> None:
    """The request side: a gateway keeping "the last request" in one shared variable sends one
    conversation's request with another's user message in it."""
    serial = run(CROSSTALK, sut=integrity("lastrequest"), concurrency=1, keep_timelines="none")
    assert serial.results
    assert all(r.stream is Verdict.PASS for r in serial.results), verdicts(serial)
    concurrent = run(CROSSTALK, sut=integrity("lastrequest"), concurrency=4, keep_timelines="none")
    ids = {r.case_id for r in concurrent.results}
    crossed = [
        (r.case_id, f)
        for r in concurrent.results
        for f in r.findings
        if f.check == "isolation" and f.verdict is Verdict.FAIL
    ]
    assert crossed, verdicts(concurrent)
    for cid, f in crossed:
        named = [other for other in ids if other in f.message]
        assert cid in named, f.message
        assert len(named) == 2, f.message


def test_a_sut_that_drops_the_token_runs_one_at_a_time_and_says_why() -> None:
    from harness.reference.sdk import reference_sdk

    def forgetful(request):  # type: ignore[no-untyped-def]
        # the reference SDK, but its upstream never sees the user's own words (nor their token)
        from dataclasses import replace

        from harness.events import Message

        return reference_sdk(replace(request, messages=[Message.user("Hello?")]))

    result = run(
        ["wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"],
        sut=forgetful,
        concurrency=4,
    )
    assert result.concurrency == 1
    assert "routing token" in result.concurrency_note
    assert result.results[0].stream is Verdict.PASS


# -- the scheduler -------------------------------------------------------------------------------------


def test_default_concurrency_is_8_through_a_process_that_answered_the_preflight() -> None:
    assert default_concurrency(None, KIND_TABLE["gateway"]) == 1  # the preflight measured nothing
    assert default_concurrency(0.001, KIND_TABLE["gateway"]) == 8  # as fast as thinkwire: 8 is as fast as 4
    assert default_concurrency(0.300, KIND_TABLE["url"]) == 8
    assert default_concurrency(0.300, KIND_TABLE["python"]) == 1  # in-process: nothing to overlap


def test_a_watched_cleanup_or_a_process_fault_needs_the_sut_alone_where_cleanup_is_watched() -> None:
    """The kind's capability (cleanup watched) and the reference's own fault property decide, not names."""
    cleanup = load_cases(["cleanup/tool-round-trip[openai-chat:reasoning_content/frames]"])[0]
    plain = load_cases(["wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"])[0]
    cli, gateway = KIND_TABLE["cli"], KIND_TABLE["gateway"]
    assert "process tree" in alone_reason(cleanup, cli)
    assert alone_reason(cleanup, gateway) == ""
    reason = alone_reason(plain, cli, ("leak-child", "drop-reasoning"))
    assert reason == "process-level fault switch (leak-child)"
    assert alone_reason(plain, cli, ("drop-reasoning",)) == ""
    assert alone_reason(plain, gateway, ("leak-child",)) == ""


class _Fake:
    """A case is an int; ``run_one`` blocks each shared case until ``lanes`` are in flight (so the
    lanes are provably used), records how many were in flight, and fails or kills as told."""

    def __init__(self, lanes: int, *, error: set[int] = frozenset(), dead: set[int] = frozenset()):
        self.lanes, self.error, self.dead = lanes, set(error), set(dead)
        self.lock = threading.Lock()
        self.flight = 0
        self.max_flight = 0
        self.alone_flight: list[int] = []
        self.full = threading.Barrier(lanes, timeout=10)
        self.restarts = 0
        self.runs: list[int] = []

    def run_one(self, case: object) -> tuple[CaseResult, None, bool]:
        n = case.n  # type: ignore[attr-defined]
        with self.lock:
            self.flight += 1
            self.max_flight = max(self.max_flight, self.flight)
            first = n not in self.runs
            self.runs.append(n)
            in_flight = self.flight
        if case.alone:  # type: ignore[attr-defined]
            self.alone_flight.append(in_flight)
        elif first and n < self.lanes:
            self.full.wait()
        r = CaseResult(case_id=str(n), scenario_id="s", requirement="", category="c", sut="fake")
        if n in self.error and first:
            r.status = Status.ERROR
        with self.lock:
            self.flight -= 1
        return r, None, not (n in self.dead and first)


class _Case:
    turns = ()  # (no script: nothing makes it wait)

    def __init__(self, n: int, alone: bool = False) -> None:
        self.n, self.alone = n, alone


def lanes_for(fake: _Fake, finished: list[tuple[int, CaseResult]], restart_ok: bool = True) -> Lanes:
    def restart() -> bool:
        fake.restarts += 1
        return restart_ok

    host = Host(
        fake.run_one,
        alone=lambda c: "needs it alone" if c.alone else "",
        finish=lambda i, r, v: finished.append((i, r)),
        restart=restart,
    )
    return Lanes(fake.lanes, host)


def test_lanes_run_cases_together_and_the_alone_ones_with_nothing_else_in_flight() -> None:
    fake = _Fake(4)
    cases = [_Case(i, alone=i in (5, 9)) for i in range(12)]
    finished: list[tuple[int, CaseResult]] = []
    assert lanes_for(fake, finished).round(cases) == []  # type: ignore[arg-type]
    assert sorted(i for i, _ in finished) == list(range(12))
    assert fake.max_flight == 4
    assert fake.alone_flight == [1, 1]
    alone = {r.case_id: r.alone for _, r in finished if r.alone}
    assert alone == {"5": "needs it alone", "9": "needs it alone"}


def test_a_case_that_failed_beside_others_runs_again_alone_and_says_so() -> None:
    fake = _Fake(3, error={1})
    finished: list[tuple[int, CaseResult]] = []
    lanes_for(fake, finished).round([_Case(i) for i in range(6)])  # type: ignore[arg-type]
    (again,) = [r for i, r in finished if i == 1]
    assert again.status is Status.OK  # the alone run's result counts
    assert "run again alone: ERROR while other cases were in flight" in again.alone
    assert fake.runs.count(1) == 2


def test_a_dead_sut_is_restarted_once_the_lanes_drain_and_a_failed_restart_stops_the_round() -> None:
    fake = _Fake(2, dead={0})
    finished: list[tuple[int, CaseResult]] = []
    assert lanes_for(fake, finished).round([_Case(i) for i in range(5)]) == []  # type: ignore[arg-type]
    assert fake.restarts == 1
    assert len(finished) == 5
    fake = _Fake(1, dead={0})
    finished = []
    left = lanes_for(fake, finished, restart_ok=False).round([_Case(i) for i in range(5)])  # type: ignore[arg-type]
    assert [i for i, _ in left] == [1, 2, 3, 4]  # not run: the caller reports them ERROR
    assert [i for i, _ in finished] == [0]


def test_an_interrupt_stops_the_sut_and_joins_every_lane() -> None:
    release = threading.Event()
    stopped: list[bool] = []

    def run_one(case: object) -> tuple[CaseResult, None, bool]:
        if case.n:  # type: ignore[attr-defined]
            release.wait(10)  # in flight until the SUT is stopped
        return CaseResult(case_id="x", scenario_id="s", requirement="", category="c", sut="f"), None, True

    def finish(i: int, r: CaseResult, v: object) -> None:
        raise KeyboardInterrupt  # the first case to end: Ctrl-C, while the others are in flight

    def stop() -> None:
        stopped.append(True)
        release.set()

    lanes = Lanes(3, Host(run_one, finish=finish, stop=stop))
    with pytest.raises(KeyboardInterrupt):
        lanes.round([_Case(i) for i in range(6)])  # type: ignore[arg-type]
    assert stopped == [True]
    assert not [t for t in threading.enumerate() if t.name == "thinkwire-lane"]


def test_a_shared_run_raises_derived_gate_timeouts_to_the_sut_s_latency_under_load() -> None:
    """Cases in flight slow the SUT down: a gate's derived timeout follows its relay time under that
    load (ten times the median of the ungated cases), not only the idle warm-up's, so a slowed SUT
    is not judged to buffer; before enough cases are in, the warm-up's times the lanes."""
    load = LoadLatency(lanes=8)
    assert load.gate_timeout(1.0) == 8.0  # nothing measured under load yet
    for s in (0.05, 0.30, 0.40, 0.35):
        load.add(s)
    assert load.gate_timeout(1.0) == pytest.approx(3.5)  # 10 x the median of 0.05, 0.30, 0.35, 0.40
    assert load.gate_timeout(5.0) == 5.0  # never below the warm-up's figure


def test_gated_cases_are_spread_among_the_others_not_started_in_one_block() -> None:
    """A buffering SUT makes each gated case wait its gates out: spread over the first three quarters
    of the start order (each group keeping its own order), so that waiting overlaps the SUT's work on
    the others; every case is started exactly once."""
    from harness.runner._concurrent import gated as waits
    from harness.runner._concurrent import spread

    cases = load_cases(["incrementality/gated-reasoning", "wire-variants/reasoning-then-answer"])
    jobs = list(enumerate(cases))
    gated = {i for i, c in jobs if c.scenario.id == "incrementality/gated-reasoning"}
    assert gated == {i for i, c in jobs if waits(c)}
    assert 0 < len(gated) < len(jobs)
    out = spread(jobs, waits)
    assert sorted(out, key=lambda j: j[0]) == jobs
    at = [k for k, (i, _) in enumerate(out) if i in gated]
    assert [out[k][0] for k in at] == sorted(gated)  # their own order kept
    others = [i for i, _ in out if i not in gated]
    assert others == sorted(others)
    assert at[-1] < len(out) - (len(jobs) - len(gated)) // 5  # none left for the tail
    gaps = [b - a for a, b in itertools.pairwise(at)]
    assert max(gaps) <= 2 * min(gaps) + 1  # evenly, not in a block
    only_gated = [j for j in jobs if j[0] in gated]
    assert spread(only_gated, waits) == only_gated  # nothing to spread them among: as given


def test_the_cases_whose_script_waits_longest_start_first() -> None:
    """A keepalive case's scripted silence and a Retry-After are waits no lane can shorten: begun
    first, they overlap the other cases instead of ending the round alone; the others keep their order."""
    from harness.runner._concurrent import gated as waits
    from harness.runner._concurrent import scripted_wait, spread

    cases = load_cases(["*[openai-chat:reasoning_content/*"])
    jobs = list(enumerate(cases))
    out = [c for _, c in spread(jobs, waits, head=8)]  # (the lanes' head: the first to start)
    long = sorted((c for c in cases if scripted_wait(c) >= 1.0), key=lambda c: -scripted_wait(c))
    assert {c.scenario.id for c in long} == {
        "keepalive/silent-reasoning",
        "keepalive/silent-start",
        "errors-cancellation/retry-after-429",
    }
    assert out[: len(long)] == long
    plain = [c.id for c in out if scripted_wait(c) == 0 and not waits(c)]
    assert plain == [c.id for c in cases if scripted_wait(c) == 0 and not waits(c)]


def test_relay_time_is_upstream_write_to_the_client_s_last_delta_longest_over_turns() -> None:
    """What a gate waits for: the SUT handing on what the upstream wrote. Measured from the upstream's
    first write of a turn to the last reasoning or text the client got in it (usage and the end are
    not what a gate waits for), the longest turn; a turn the client saw nothing of, or answered
    before the upstream wrote (a canned answer), gives no figure."""
    from harness.events import End, ReasoningDelta, TextDelta, Usage
    from harness.judge import build_view
    from harness.runner._gate_budget import relay_time
    from harness.timeline import Timeline

    ms = 1_000_000
    case = load_cases(["tools-passback/deepseek-reasoning-content"])[0]
    tl = Timeline()
    tl.add("client", "request", turn=0, t=0)
    tl.add("upstream", "write", turn=0, data=b"a", t=40 * ms)
    tl.add("upstream", "write", turn=0, data=b"b", t=41 * ms)
    tl.add("client", "event", turn=0, event=ReasoningDelta("r"), t=70 * ms)
    tl.add("client", "event", turn=0, event=TextDelta("t"), t=80 * ms)
    tl.add("client", "event", turn=0, event=Usage(1, 1, None, 2), t=300 * ms)
    tl.add("client", "event", turn=0, event=End("stop"), t=400 * ms)
    tl.add("client", "request", turn=1, t=500 * ms)
    tl.add("upstream", "write", turn=1, data=b"c", t=600 * ms)
    tl.add("client", "event", turn=1, event=TextDelta("u"), t=650 * ms)
    view = build_view(case, tl, KIND_TABLE["gateway"])
    assert relay_time(view) == pytest.approx(0.050)  # turn 0: 80 - 40 ms; turn 1: 650 - 600 ms
    canned = Timeline()
    canned.add("client", "event", turn=0, event=TextDelta("t"), t=10 * ms)
    canned.add("upstream", "write", turn=0, data=b"a", t=40 * ms)
    assert relay_time(build_view(case, canned, KIND_TABLE["gateway"])) is None
    assert relay_time(build_view(case, Timeline(), KIND_TABLE["gateway"])) is None


def test_run_case_uses_the_load_figure_for_derived_gate_timeouts_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The gate timeout a case gets: the derived one raised by the load (capped by the case's
    timeout); an explicit --gate-timeout stays as given; a gated case's first byte is not a sample."""
    from harness.runner import _gate_budget
    from harness.runner._builtin import builtin_profile
    from harness.runner._case_run import run_case
    from harness.runner._state import Limits, Live, Measured, Settings

    seen: list[float] = []
    real = _gate_budget.with_gate_timeout

    def spy(conversation: object, seconds: float, *, at_least: bool = False) -> object:
        seen.append(seconds)
        return real(conversation, seconds, at_least=at_least)

    monkeypatch.setattr(_gate_budget, "with_gate_timeout", spy)
    cases = load_cases(["incrementality/gated-reasoning"])
    gated = next(c for c in cases if c.variant == "reasoning_content")
    profile = builtin_profile("reference")

    from harness.drivers import Driver

    class Stub(Driver):
        """A driver that never answers: run_case records a harness error, which is all this needs."""

        def run(self, ctx: object) -> None:
            raise RuntimeError("stub")

    from harness.upstream import ClientSide, MockUpstream

    with MockUpstream() as up:
        load = LoadLatency(lanes=4)
        for s in (0.5, 0.5, 0.5, 0.5):
            load.add(s)
        derived = Limits(Settings(30.0, 1 << 20, None), Measured(gate_timeout=1.0), Live(load=load))
        run_case(gated, profile, Stub(), up, ClientSide, derived, "none")  # type: ignore[arg-type]
        explicit = Limits(Settings(30.0, 1 << 20, 2.0), Measured(gate_timeout=1.0), Live(load=load))
        run_case(gated, profile, Stub(), up, ClientSide, explicit, "none")  # type: ignore[arg-type]
        capped = Limits(Settings(3.0, 1 << 20, None), Measured(gate_timeout=1.0), Live(load=load))
        run_case(gated, profile, Stub(), up, ClientSide, capped, "none")  # type: ignore[arg-type]
    assert seen == [5.0, 2.0, 3.0]
    assert load.gate_timeout(0.1) == 5.0  # the gated cases added no sample


class _FakeAside:
    """A second instance for the fake cases: its first case waits until the lanes' first shared cases
    are in flight (so that it provably runs alongside them); it cannot start (``starts=False``), or
    dies at the case ``dies`` and cannot be restarted (``restarts=False``); ``block`` holds every case
    until stopped."""

    def __init__(self, fake: _Fake, *, starts: bool = True, dies: int | None = None,
                 restarts: bool = True, block: bool = False) -> None:  # fmt: skip
        self.fake, self.starts, self.dies, self.restarts, self.block = fake, starts, dies, restarts, block
        self.ran: list[int] = []
        self.stops = 0
        self.released = threading.Event()

    def ready(self) -> bool:
        return self.starts

    def run_one(self, case: object) -> tuple[CaseResult, None, bool]:
        n = case.n  # type: ignore[attr-defined]
        if self.block:
            self.released.wait(10)
        elif not self.ran:
            self.fake.full.wait()  # a party with the lanes' first shared cases: they are in flight
        self.ran.append(n)
        r = CaseResult(case_id=str(n), scenario_id="s", requirement="", category="c", sut="fake")
        return r, None, n != self.dies

    def restart(self) -> bool:
        return self.restarts

    def stop(self) -> None:
        self.stops += 1
        self.released.set()


def _aside_lanes(fake: _Fake, aside: _FakeAside, finished: list[tuple[int, CaseResult]]) -> Lanes:
    host = Host(
        fake.run_one,
        alone=lambda c: "needs it alone" if c.alone else "",
        finish=lambda i, r, v: finished.append((i, r)),
    )
    return Lanes(fake.lanes, host, aside=aside)


def test_alone_cases_go_to_the_second_instance_while_the_shared_ones_run() -> None:
    fake = _Fake(3)
    fake.full = threading.Barrier(4, timeout=10)  # the 3 lanes' first cases and the aside's first
    aside = _FakeAside(fake)
    finished: list[tuple[int, CaseResult]] = []
    cases = [_Case(i, alone=i in (4, 7)) for i in range(10)]
    assert _aside_lanes(fake, aside, finished).round(cases) == []  # type: ignore[arg-type]
    assert sorted(i for i, _ in finished) == list(range(10))
    assert aside.ran == [4, 7]
    assert fake.alone_flight == []  # none ran on the first instance
    assert {r.case_id: r.alone for _, r in finished if r.alone} == {
        "4": f"needs it alone; {ASIDE_NOTE}",
        "7": f"needs it alone; {ASIDE_NOTE}",
    }
    assert aside.stops == 1  # stopped after its last case
    assert not [t for t in threading.enumerate() if t.name == "thinkwire-aside"]


def test_a_second_instance_that_cannot_start_or_restart_gives_its_cases_back() -> None:
    fake = _Fake(2)
    finished: list[tuple[int, CaseResult]] = []
    cases = [_Case(i, alone=i in (3, 5)) for i in range(6)]
    assert _aside_lanes(fake, _FakeAside(fake, starts=False), finished).round(cases) == []  # type: ignore[arg-type]
    assert fake.alone_flight == [1, 1]  # both ran after the shared ones, alone on the first instance
    assert {r.case_id: r.alone for _, r in finished if r.alone} == {
        "3": "needs it alone",
        "5": "needs it alone",
    }

    fake, finished = _Fake(2), []
    fake.full = threading.Barrier(3, timeout=10)
    aside = _FakeAside(fake, dies=3, restarts=False)
    assert _aside_lanes(fake, aside, finished).round(cases) == []  # type: ignore[arg-type]
    assert aside.ran == [3]  # it died there and could not be restarted: 5 went back
    assert fake.alone_flight == [1]
    assert sorted(i for i, _ in finished) == list(range(6))


def test_an_interrupt_stops_the_second_instance_and_joins_its_lane() -> None:
    fake = _Fake(2)
    aside = _FakeAside(fake, block=True)  # its case runs until the instance is stopped

    def finish(i: int, r: CaseResult, v: object) -> None:
        raise KeyboardInterrupt  # the first shared case to end: Ctrl-C while the aside case runs

    lanes = Lanes(2, Host(fake.run_one, alone=lambda c: "x" if c.alone else "", finish=finish), aside=aside)
    with pytest.raises(KeyboardInterrupt):
        lanes.round([_Case(i, alone=i == 2) for i in range(4)])  # type: ignore[arg-type]
    assert aside.stops >= 1
    assert not [t for t in threading.enumerate() if t.name in ("thinkwire-aside", "thinkwire-lane")]


def test_a_second_instance_that_raises_while_starting_is_a_harness_error_not_a_hang() -> None:
    fake = _Fake(2)
    aside = _FakeAside(fake)

    def broken() -> bool:
        raise OSError("no port for the second instance's upstream")

    aside.ready = broken  # type: ignore[method-assign]
    finished: list[tuple[int, CaseResult]] = []
    with pytest.raises(OSError, match="second instance"):
        _aside_lanes(fake, aside, finished).round([_Case(i, alone=i == 3) for i in range(6)])  # type: ignore[arg-type]
    assert not [t for t in threading.enumerate() if t.name in ("thinkwire-aside", "thinkwire-lane")]
