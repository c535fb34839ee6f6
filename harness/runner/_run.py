"""``run()``: cases x one SUT to results, the one entry for every run. The CLI, the pytest plugin and users'
own code call it; a crash or hang of the SUT is a result, never a hung run."""

from __future__ import annotations

import contextlib
import gc
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.catalog import (
    Case,
    Expectations,
    corpus_left_out,
    expand_all,
    load_catalog,
    scope,
    select,
    setting_warnings,
)
from harness.drivers import (
    DEFAULT_MAX_BYTES,
    Driver,
    DriverError,
    SUTProfile,
)
from harness.judge import CaseView, pair_checks
from harness.runner import _exit
from harness.runner._aside import AsideSUT, worth_aside
from harness.runner._case_run import (
    failed,
    new_result,
    run_case,
    serialize_timeline,
    set_verdicts,
    unsupported_reason,
)
from harness.runner._concurrent import Lanes, alone_reason, default_concurrency, stalls, waits
from harness.runner._listen import listen_upstream
from harness.runner._options import Keep, ResolvedSUT, RunOptions
from harness.runner._pool import StartFailed, return_driver, start_driver
from harness.runner._preflight import canary_case, check_sut
from harness.runner._rounds import Progress, RunInterrupted, RunResult, merge_repeats, repeat
from harness.runner._run_info import run_info
from harness.runner._shard import split
from harness.runner._state import Limits, LoadLatency, RunState
from harness.runner._sut import reproduce_line, resolve_sut
from harness.verdict import CaseResult, Status

if TYPE_CHECKING:
    from harness.upstream import LiveUpstream

__all__ = [
    "RunInterrupted",
    "RunOptions",
    "RunResult",
    "canary_case",
    "load_cases",
    "merge_repeats",
    "resolve_sut",
    "run",
    "run_serial",
    "serialize_timeline",
    "start_failed",
]


def run(
    cases: Sequence[Case] | Sequence[str] | None = None,
    options: RunOptions | None = None,
    *,
    progress: Progress | None = None,
    upstream: LiveUpstream | None = None,
    drivers: dict[str, Driver] | None = None,
    **settings: Any,
) -> RunResult:
    """Run ``cases`` (Case objects, or id globs; all when None) with ``options``, or with the same
    settings as keywords (``run(cases, sut=..., strict=True, timeout=30, concurrency=8)``: every field of
    :class:`RunOptions`; keywords override ``options``). ``sut`` is a profile, a profile path, a URL,
    a built-in name, ``module:callable`` or a Python callable (the reference gateway when None).

    Pass a started ``upstream`` (MockUpstream) to reuse one across runs, as the pytest plugin does
    (unless ``upstream_listen`` fixes another address: the mock then listens there for this run),
    and a ``drivers`` dict to keep started SUTs alive across runs (the caller stops them).
    ``progress(n, total, result)`` is called after each case.

    Before the first case, a canary case goes through the front door (``preflight``): a SUT that is
    unreachable, never calls the upstream, cannot be imported or hangs raises :class:`PreflightError`
    instead of producing hundreds of results. Gateway and URL SUTs are then warmed up (profile
    ``warmup``) and the gates' timeout adapts to the first-byte latency measured then (unless
    ``gate_timeout`` or the profile's ``gate_timeout`` says). ``repeat``: every case runs that many
    times (rounds over the whole list); a case whose runs disagree is ``flaky``. ``scenarios``:
    directories of a team's own scenario files, added to the catalog (with the SUT profile's own
    ``scenarios`` directories) when ``cases`` are id globs or None.

    It resolves the SUT once and runs its rounds through ``_rounds.repeat``. A round has one mock upstream,
    reset per case, and one SUT process kept alive across cases. The preflight canary runs before the first
    case. Each case is ``_case_run``'s, bounded by its deadline and byte cap and judged by the checks and
    the evidence rules; a SUT that died is restarted for the next case.

    A SUT that cannot start is tried twice; then every remaining case is ERROR at once and ``sut_error``
    says why. An interrupt stops every SUT process and raises :class:`RunInterrupted` carrying the partial
    result, where cases not run are absent.
    """
    opts = RunOptions.build(options, **settings)
    sut = opts.resolve()
    claimed, left_out = scope(_case_list(cases, (*opts.scenarios, *sut.profile.scenarios)), sut.profile)
    globs = [c for c in cases or () if isinstance(c, str)]
    if cases is None or len(globs) == len(cases):  # (the CLI passes Case objects: it adds these itself)
        left_out.update(corpus_left_out(globs))
    with contextlib.ExitStack() as stack:
        address = sut.address
        if claimed and address is not None and (upstream is None or upstream.port != address.port):
            upstream, address = listen_upstream(address)  # (a given one listens elsewhere)
            stack.callback(upstream.stop)
            opts, sut = opts.bound_sut(address, sut)
        case_list, info = sharded(claimed, opts, sut)
        try:
            result = _run_cases(case_list, opts, sut, progress, upstream, drivers)
        except RunInterrupted as stopped:
            _describe(stopped.result, left_out, info, sut)
            raise
    _describe(result, left_out, info, sut)
    return result


def fixed_upstream(
    opts: RunOptions, profile: SUTProfile, stack: contextlib.ExitStack
) -> tuple[LiveUpstream | None, RunOptions]:
    """The mock upstream at the address the options (or the profile) fix, started and stopped with
    ``stack``, and the options naming the address it got (port 0: the one picked); (None, ``opts``)
    when no address is fixed (``_run_cases`` then starts one on a free port)."""
    address = opts.address(profile)
    if address is None:
        return None, opts
    up, address = listen_upstream(address)
    stack.callback(up.stop)
    return up, opts.bound(address)


def _describe(result: RunResult, left_out: dict[str, int], info: dict[str, Any], sut: ResolvedSUT) -> None:
    """What the run was beside its results: the cases left out (not claimed), warnings, its run_info."""
    result.left_out, result.warnings, result.run_info = left_out, setting_warnings(sut.profile), info


def sharded(case_list: list[Case], opts: RunOptions, sut: ResolvedSUT) -> tuple[list[Case], dict[str, Any]]:
    """The run's cases (``opts.shard``'s share of ``case_list``, the cases the SUT claims) and its
    ``run_info``. The options hold the shard and the durations as their checks made them."""
    shard, durations = opts.shard, opts.durations
    assert not isinstance(shard, str)  # (RunOptions' checks parsed it)
    assert not isinstance(durations, str | Path)
    mine = case_list
    if shard is not None:
        profile = sut.profile

        def claimed(case: Case) -> bool:
            return not unsupported_reason(case, profile)

        mine = split(case_list, shard, durations=durations, claimed=claimed)
    return mine, run_info(case_list, opts, sut, shard, mine)


def _run_cases(
    case_list: list[Case],
    opts: RunOptions,
    sut: ResolvedSUT,
    progress: Progress | None,
    upstream: LiveUpstream | None,
    drivers: dict[str, Driver] | None,
) -> RunResult:
    if not case_list:  # (no SUT started: nothing to judge)
        return RunResult(sut=sut.profile.name, strict=opts.strict)
    from harness.upstream import MockUpstream

    with contextlib.ExitStack() as stack:
        stack.enter_context(_quiet_gc())
        if upstream is None:
            upstream = stack.enter_context(MockUpstream())
        pool: dict[str, Driver] = {} if drivers is None else drivers
        if drivers is None:
            stack.callback(_stop_all, pool)
        state = RunState.for_run(case_list, sut.profile, DEFAULT_MAX_BYTES)  # this run's alone

        def one_round(p: Progress | None) -> RunResult:
            return run_serial(case_list, opts, sut, upstream=upstream, drivers=pool, progress=p, state=state)

        return repeat(opts.repeat, len(case_list), progress, one_round)


def _stop_all(pool: dict[str, Driver]) -> None:
    """Stop every driver of a pool the run made for itself."""
    while pool:
        pool.popitem()[1].stop()


_GC_LOCK = threading.Lock()
_GC_RUNS: list[tuple[int, int, int]] = []  # the thresholds before the first run in flight, per run


@contextlib.contextmanager
def _quiet_gc() -> Iterator[None]:
    """Cyclic garbage collection rarely during a run: what lives at its start (the catalog, the
    modules) is frozen out of the collector's walks, and a collection waits for 20,000 new objects
    instead of 700. A case makes tens of thousands of short-lived tuples (one per socket write of a
    byte-wise stream), almost none of them cyclic; the default thresholds spent 0.4 s of a 6 s
    catalog run walking them (measured with ``gc.callbacks``). Restored when the last run in flight
    ends (runs in several threads at once share the process's collector)."""
    with _GC_LOCK:
        _GC_RUNS.append(_GC_RUNS[0] if _GC_RUNS else gc.get_threshold())
        gc.freeze()
        gc.set_threshold(20_000, *_GC_RUNS[0][1:])
    try:
        yield
    finally:
        with _GC_LOCK:
            before = _GC_RUNS.pop()
            if not _GC_RUNS:
                gc.set_threshold(*before)
                gc.unfreeze()


def run_serial(
    cases: Sequence[Case],
    opts: RunOptions,
    sut: ResolvedSUT,
    *,
    upstream: LiveUpstream,
    drivers: dict[str, Driver],
    progress: Progress | None = None,
    state: RunState | None = None,
) -> RunResult:
    """One round of ``cases`` on one SUT in this process, against a started ``upstream``; the SUT is
    taken from (and left in) ``drivers``. ``state``: the run's (a new one when None), which its rounds
    share. The preflight (if ``opts.preflight``) is skipped for a SUT from the pool that this run
    measured before (a SUT kept from another run is measured again). Cases go one at a time, or
    ``opts.concurrency`` at once (by default ``_concurrent.default_concurrency``)."""
    profile = sut.profile
    out = RunResult(sut=profile.name, strict=opts.strict)
    if state is None:
        state = RunState.for_run(cases, profile, DEFAULT_MAX_BYTES)
    live = _Live(drivers.pop(profile.name, None))
    live.checked = live.driver in state.measured or not opts.preflight
    limits = state.round_limits(live.driver)
    round_ = _Round(cases, opts, sut, live, upstream, limits, out, progress, state)
    interrupted = False
    try:
        lanes = round_.lanes() if opts.concurrency != 1 and cases else 1
        complete = round_.in_lanes(lanes) if lanes > 1 else round_.one_by_one()
        if complete:
            _parity_pass(out, cases, round_.views, sut.expectations, opts.strict, opts.keep_timelines)
    except KeyboardInterrupt:  # the case in progress is dropped: not run, rather than a false ERROR
        interrupted = True
    except BaseException:  # e.g. PreflightError: the SUT is not kept for a next run
        if live.driver is not None:
            live.driver.stop()
            live.driver = None
        raise
    finally:
        return_driver(live.driver, drivers, profile.name, interrupted)
    out.gate_timeout = limits.settings.gate_timeout or limits.measured.gate_timeout
    if interrupted:
        out.interrupted = "SIGINT"
        raise RunInterrupted(out)
    return out


@dataclass(slots=True)
class _Live:
    """A round's SUT: its driver (None: start one when a case needs it), and whether it passed its
    preflight."""

    driver: Driver | None
    checked: bool = False


class _Round:
    """One round's cases through the round's SUT: one by one, or in lanes (``_concurrent.Lanes``)."""

    def __init__(
        self,
        cases: Sequence[Case],
        opts: RunOptions,
        sut: ResolvedSUT,
        live: _Live,
        upstream: LiveUpstream,
        limits: Limits,
        out: RunResult,
        progress: Progress | None,
        state: RunState,
    ) -> None:
        self.cases, self.opts, self.sut, self.live = cases, opts, sut, live
        self.upstream, self.limits, self.out, self.progress = upstream, limits, out, progress
        self.state = state
        self.views: dict[str, CaseView] = {}
        self.done = 0
        self.gone: list[str] = []
        self.errors: list[DriverError] = []  # the restarts that failed, in lanes
        self.declared = False  # the SUT's callable says it carries several conversations at once

    def driver(self) -> Driver:
        """The started SUT (started and preflighted now when needed); raises the start's DriverError,
        after which the pool holds a ``StartFailed``. What the preflight measured goes into the run's
        state, for the next round that takes this SUT from the pool."""
        live, profile = self.live, self.sut.profile
        driver = live.driver
        if driver is None or isinstance(driver, StartFailed):
            t0 = time.monotonic()
            try:
                driver = start_driver(profile, self.sut.fn, self.upstream.base_url, driver)
            except DriverError as exc:
                live.driver = StartFailed(exc)
                raise
            live.driver, self.limits.measured.start_s = driver, time.monotonic() - t0
        elif live.checked:
            return driver
        if not live.checked:
            live.checked = True
            check_sut(profile, driver, self.upstream, self.limits)
        self.state.measured[driver] = dc_replace(self.limits.measured)  # (a copy: the round goes on)
        return driver

    def run_one(self, case: Case) -> tuple[CaseResult, CaseView | None, bool]:
        from harness.upstream import ClientSide

        driver = self.live.driver
        assert driver is not None
        keep, names = self.opts.keep_timelines, self.state.names
        return run_case(case, self.sut.profile, driver, self.upstream, ClientSide, self.limits, keep, names)

    def finish(self, case: Case, result: CaseResult, view: CaseView | None) -> None:
        twin = case.scenario.parity and result.status == Status.OK
        if view is not None and twin and _exit.exit_seen(result) is None:  # (not what an exit left) the
            self.views[case.id] = view  # parity pass compares these later; keeping every case's timeline
            # alive slowed each GC pass
        if result.status == Status.NOT_RUN and not self.out.sut_error:
            self.gone.append(case.id)  # (in flight when a SUT thinkwire did not start went away)
        self.done += 1
        _finish(self.out, result, self.sut, self.opts.strict, self.progress, self.done, len(self.cases))

    def failed_start(self, cases: Sequence[Case], exc: DriverError) -> None:
        start_failed(self.out, cases, self.sut, exc, self.opts.strict, self.progress, self.done + 1)

    def one_by_one(self) -> bool:
        """Every case in turn; False when the SUT could not be (re)started (the rest ERROR) or a SUT
        thinkwire did not start stopped answering (the rest NOT_RUN)."""
        served: CaseResult | None = None  # the last case that reached the SUT
        for n, case in enumerate(self.cases):
            self._exited_after(served)
            try:
                result, view, alive = self._serve(case, served)
            except DriverError as exc:
                self.failed_start(self.cases[n:], exc)
                return False
            if not alive:
                self._stop()
            self.finish(case, result, view)
            served = result if view is not None else None  # (``_serve`` returns no case found dead)
            if self.gone:
                self.ended(self.cases[n + 1 :])
                return False
        self._exited_after(served)
        return True

    def _serve(self, case: Case, served: CaseResult | None) -> tuple[CaseResult, CaseView | None, bool]:
        """``case`` on the SUT (started now when needed); run again on a restarted SUT when it found
        the SUT's process exited before anything of it got through (``_exit.settle``)."""
        self.driver()
        first = self.run_one(case)
        if first[2] or not _exit.found_dead(first[0]):  # (a case that found the SUT dead leaves it dead)
            return first
        self._stop()
        self.driver()
        again = self.run_one(case)
        if _exit.settle(first[0], again[0], served) and served is not None:
            self._rejudged(served)
        return again

    def _stop(self) -> None:
        if self.live.driver is not None:
            self.live.driver.stop()
            self.live.driver = None

    def _rejudged(self, served: CaseResult) -> None:
        """``served`` judged again, by an exit that came after it (no parity twin now)."""
        self.sut.expectations.apply(served, strict=self.opts.strict)
        self.views.pop(served.case_id, None)

    def _exited_after(self, served: CaseResult | None) -> None:
        """A SUT process that exited between cases goes to ``served``, the case it served last
        (``_exit.exited_between``), and is started again for the next case."""
        if self.live.driver is not None and _exit.exited_between(self.live.driver, served):
            if served is not None:
                self._rejudged(served)
            self._stop()

    def ended(self, cases: Sequence[Case]) -> None:
        """A SUT thinkwire did not start went away: one line names ``gone``; ``cases`` are NOT_RUN."""
        self.out.sut_error = line = _exit.not_run_line(list(self.gone), len(cases))
        for case in cases:
            self.finish(case, _exit.not_run(new_result(case, self.sut.profile), line), None)

    def lanes(self) -> int:
        """How many cases go in flight at once: ``--concurrency``, else from the preflight's latency;
        1 (and why, in ``concurrency_note``) where cases cannot share this SUT."""
        try:
            self.driver()  # the preflight measures what the default derives from
        except DriverError:
            return 1  # (one_by_one reports it, as for any start failure)
        profile, limits = self.sut.profile, self.limits
        declared = self.live.driver is not None and self.live.driver.concurrent  # (a python callable's say)
        want = self.opts.concurrency or default_concurrency(
            limits.measured.latency, profile.abilities, declared
        )
        note = ""
        if want > 1 and profile.abilities.one_conversation:
            note = f"a SUT of kind {profile.kind} carries one conversation at a time"
        elif want > 1 and not limits.measured.routable:
            note = (
                "the canary's upstream request did not carry its routing token (the SUT drops or "
                "rewrites the user message): cases ran one at a time"
            )
        lanes = 1 if note else want
        self.out.concurrency, self.out.concurrency_note = lanes, note
        return lanes

    def solo(self) -> None:
        """One case in flight from now on: routed and timed as in a serial run."""
        self.upstream.strict_routing = False
        self.limits.live.load = None

    def in_lanes(self, lanes: int) -> bool:
        """Every case, ``lanes`` at a time (``_concurrent.Lanes``, this round its host), results in case
        order; False when the SUT could not be restarted (the cases not run ERROR)."""
        cases, profile = self.cases, self.sut.profile
        order = {c.id: i for i, c in enumerate(cases)}
        driver = self.live.driver
        self.declared = driver is not None and driver.concurrent  # (a python callable's say)
        aside = None  # (a SUT configured with the fixed upstream address would call it, not the aside's)
        if self.opts.upstream_listen is None and worth_aside(profile, len(cases), lanes, self.limits):
            keep = self.opts.keep_timelines
            aside = AsideSUT(profile, self.sut.fn, self.limits, keep, start_driver, self.state.names)
        # the gates' timeout under load is measured before one waits (``head``)
        run = Lanes(lanes, self, aside=aside, head=lanes + LoadLatency.MIN)
        self.upstream.strict_routing = True
        self.limits.live.load = LoadLatency(min(lanes, len(cases)))  # (no more can be in flight)
        try:
            left = run.round(cases)
        finally:
            self.solo()
            if aside is not None:
                aside.stop()
        rest = [c for _, c in sorted(left, key=lambda x: x[0])]
        if self.gone:
            self.ended(rest)
        elif left:
            self.failed_start(rest, self.errors[-1])
        self.out.results.sort(key=lambda r: order.get(r.case_id, len(order)))
        return not left and not self.gone

    # what ``Lanes`` asks of its host (``_concurrent.LaneHost``)

    def alone(self, case: Case) -> str:
        """Why ``case`` needs the SUT to itself (a case the SUT does not support never reaches it)."""
        profile = self.sut.profile
        if unsupported_reason(case, profile):
            return ""
        return alone_reason(case, profile.abilities, profile.faults, self.declared)

    def finished(self, index: int, result: CaseResult, view: CaseView | None) -> None:
        self.finish(self.cases[index], result, view)

    def restart(self) -> bool:
        """The SUT started again after a case left it dead (False: it could not be, or a SUT thinkwire
        did not start stopped answering: the round ends)."""
        self._stop()
        if self.gone:
            return False
        try:
            self.driver()
        except DriverError as exc:
            self.errors.append(exc)
            return False
        return True

    def stop(self) -> None:
        """The SUT stopped on an interrupt (kept in ``live`` for ``return_driver``)."""
        if self.live.driver is not None:
            self.live.driver.stop()

    def may_wait(self, case: Case) -> bool:
        return waits(case)

    def starts_first(self, case: Case) -> bool:
        return stalls(case)


def start_failed(
    out: RunResult,
    cases: Sequence[Case],
    sut: ResolvedSUT,
    exc: DriverError,
    strict: bool,
    progress: Progress | None = None,
    n: int = 1,
) -> RunResult:
    """Every case in ``cases`` ERROR at once (the SUT could not be started, tried twice), with the
    stderr tail; ``out.sut_error`` says why in one line. ``n``: the first one's place in the round."""
    why = f"the SUT could not be started (tried twice): {exc}"
    out.sut_error, out.sut_stderr = why.split("\n", 1)[0], exc.stderr
    total = n - 1 + len(cases)
    for m, case in enumerate(cases, n):
        result = new_result(case, sut.profile)
        result.status, result.error = Status.ERROR, why
        _finish(out, result, sut, strict, progress, m, total)
    return out


def load_cases(
    patterns: Sequence[str] | None = None, root: Path | None = None, scenarios: Sequence[str | Path] = ()
) -> list[Case]:
    """The catalog's cases matching ``patterns`` (all when None), with the scenarios of the
    directories ``scenarios`` names (a team's own cases) added."""
    return select(expand_all(load_catalog(root, scenarios, only=patterns)), patterns)


def _case_list(
    cases: Sequence[Case] | Sequence[str] | None, scenarios: Sequence[str | Path] = ()
) -> list[Case]:
    """Case objects as given, or the cases that id globs select (all when None), the ``scenarios``
    directories' cases with them."""
    if cases is None:
        return load_cases(scenarios=scenarios)
    globs = [c for c in cases if isinstance(c, str)]
    return load_cases(globs, scenarios=scenarios) if globs else [c for c in cases if isinstance(c, Case)]


def _finish(
    out: RunResult,
    result: CaseResult,
    sut: ResolvedSUT,
    strict: bool,
    progress: Progress | None,
    n: int,
    total: int,
) -> None:
    sut.expectations.apply(result, strict=strict)
    result.reproduce = reproduce_line(result.case_id, sut.profile, sut.flags)
    out.results.append(result)
    if progress is not None:
        progress(n, total, result)


def _parity_pass(
    out: RunResult,
    cases: Iterable[Case],
    views: dict[str, CaseView],
    expectations: Expectations,
    strict: bool,
    keep: Keep,
) -> None:
    by_id = {r.case_id: r for r in out.results}
    for case in cases:
        if not case.scenario.parity or case.stream:
            continue
        twin = case.with_stream(True)
        if case.id not in views or twin.id not in views or case.id not in by_id:
            continue
        result = by_id[case.id]
        result.findings += [c(views[twin.id], views[case.id]) for c in pair_checks()]
        set_verdicts(result)
        expectations.apply(result, strict=strict)
        if keep == "failures" and not result.timeline and failed(result):
            result.timeline = serialize_timeline(views[case.id].entries)
            result.timeline_summary = None
