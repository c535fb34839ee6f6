"""``run()``: cases x one SUT -> results. The CLI, the pytest plugin and users' own code call this.

Rule: one entry for every run: :func:`run` takes the settings as one :class:`RunOptions` (or as
keywords), resolves the SUT once, and runs its rounds (``_rounds.repeat``) serially here or over
``jobs`` pytest-xdist workers (``_parallel``; the preflight then runs once, here, and its gate timeout
travels to the workers). A serial round has one mock upstream (reset per case) and one SUT process kept
alive across cases; the preflight canary (``_preflight``) runs before the first case; each case is
``_case_run``'s (bounded by its deadline and byte cap, judged by the checks and the evidence rules); a
crash or hang of the SUT is a result (ERROR / TIMEOUT), never a hung run, and the SUT is restarted for
the next case when it died. A SUT that cannot start is tried twice; then every remaining case is ERROR
at once and ``sut_error`` says why. An interrupt (KeyboardInterrupt) stops every SUT process and raises
:class:`RunInterrupted` carrying the partial result (cases not run are absent).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from harness.drivers import CaseContext, Driver, DriverError, SUTCallable, SUTProfile, make_driver
from harness.drivers._base import DEFAULT_MAX_BYTES
from harness.suite._case import Case, expand_all, select
from harness.suite._case_run import Limits, failed, new_result, run_case, serialize_timeline, set_verdicts
from harness.suite._expectations import Expectations
from harness.suite._options import Keep, ResolvedSUT, RunOptions
from harness.suite._preflight import WARMED, canary_case, check_sut, preflight_profile
from harness.suite._rounds import Progress, RunInterrupted, RunResult, merge_repeats, repeat
from harness.suite._scenario import load_catalog
from harness.suite._sut import reproduce_line, resolve_sut
from harness.suite._verdict import CaseResult, Status
from harness.suite.checks import CaseView, pair_checks

__all__ = [
    "RunInterrupted",
    "RunOptions",
    "RunResult",
    "canary_case",
    "load_cases",
    "merge_repeats",
    "preflight",
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
    upstream: Any = None,
    drivers: dict[str, Driver] | None = None,
    **settings: Any,
) -> RunResult:
    """Run ``cases`` (Case objects, or id globs; all when None) with ``options``, or with the same
    settings as keywords (``run(cases, sut=..., strict=True, timeout=30, jobs=2)``: every field of
    :class:`RunOptions`; keywords override ``options``). ``sut`` is a profile, a profile path, a URL,
    a built-in name, ``module:callable`` or a Python callable (the reference gateway when None).

    Pass a started ``upstream`` (MockUpstream) to reuse one across runs, as the pytest plugin does,
    and a ``drivers`` dict to keep started SUTs alive across runs (the caller stops them); both are
    for serial runs (``jobs`` workers start their own). ``progress(n, total, result)`` is called after
    each case.

    Before the first case, a canary case goes through the front door (``preflight``): a SUT that is
    unreachable, never calls the upstream, cannot be imported or hangs raises :class:`PreflightError`
    instead of producing hundreds of results. Gateway and URL SUTs are then warmed up (profile
    ``warmup``) and the gates' timeout adapts to the first-byte latency measured then (unless
    ``gate_timeout`` or the profile's ``gate_timeout`` says). ``repeat``: every case runs that many
    times (rounds over the whole list); a case whose runs disagree is ``flaky``. ``scenarios``:
    directories of a team's own scenario files, added to the catalog (with the SUT profile's own
    ``scenarios`` directories) when ``cases`` are id globs or None."""
    opts = RunOptions.build(options, **settings)
    sut = opts.resolve()
    case_list = _case_list(cases, (*opts.scenarios, *sut.profile.scenarios))
    if not case_list:  # (no SUT started, no worker: nothing to judge)
        return RunResult(sut=sut.profile.name, strict=opts.strict)
    if opts.jobs > 1:
        return _run_jobs(case_list, opts, sut, progress)
    from harness.upstream import MockUpstream

    with contextlib.ExitStack() as stack:
        if upstream is None:
            upstream = stack.enter_context(MockUpstream())
        pool: dict[str, Driver] = {} if drivers is None else drivers
        if drivers is None:
            stack.callback(_stop_all, pool)
        return repeat(
            opts.repeat,
            len(case_list),
            progress,
            lambda p: run_serial(case_list, opts, sut, upstream=upstream, drivers=pool, progress=p),
        )


def _run_jobs(cases: list[Case], opts: RunOptions, sut: ResolvedSUT, progress: Progress | None) -> RunResult:
    """The rounds over ``opts.jobs`` workers: the preflight once, here (a SUT that cannot start is
    every case ERROR at once: tried twice, no worker tries again); its gate timeout goes to them."""
    from harness.suite._parallel import require_xdist, run_parallel

    require_xdist()  # before the preflight starts the SUT
    warmed = None
    if opts.preflight:
        try:
            warmed = preflight(sut)
        except DriverError as exc:
            out = RunResult(sut=sut.profile.name, strict=opts.strict)
            return start_failed(out, cases, sut.profile, exc, sut.expectations, opts, progress)
    for_workers = dataclasses.replace(opts, sut=sut.fn or sut.profile, faults=())  # resolved: once
    return repeat(
        opts.repeat,
        len(cases),
        progress,
        lambda p: run_parallel(cases, for_workers, warmed=warmed, progress=p),
    )


def _stop_all(pool: dict[str, Driver]) -> None:
    while pool:
        pool.popitem()[1].stop()


class _StartFailed:
    """Stands in a ``drivers`` pool for a SUT that could not start: later runs sharing the pool (the
    batches of one xdist worker, the rounds of ``repeat``) fail at once instead of trying again."""

    kind = "start-failed"

    def __init__(self, error: DriverError) -> None:
        self.error = error

    def start(self, upstream_url: str) -> None:
        raise self.error

    def run(self, ctx: CaseContext) -> None:
        raise self.error

    def stop(self) -> None:
        pass


def _start_driver(
    profile: SUTProfile, fn: SUTCallable | None, upstream_url: str, driver: Driver | None
) -> Driver:
    """A started driver, tried twice (a SUT that exits before readiness or misses it gets a second
    chance); raises the last DriverError. A pooled ``_StartFailed`` fails at once."""
    if isinstance(driver, _StartFailed):
        raise driver.error
    for attempt in (1, 2):
        driver = make_driver(profile, fn)
        try:
            driver.start(upstream_url)
            return driver
        except DriverError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def run_serial(
    cases: Sequence[Case],
    opts: RunOptions,
    sut: ResolvedSUT,
    *,
    upstream: Any,
    drivers: dict[str, Driver],
    progress: Progress | None = None,
    preflight: bool | None = None,
    warmed: float | None = None,
) -> RunResult:
    """One round of ``cases`` on one SUT in this process, against a started ``upstream``; the SUT is
    taken from (and left in) ``drivers``. ``preflight`` (default ``opts.preflight``) is skipped for a
    SUT from the pool, which passed it before; ``warmed``: the gate timeout a preflight elsewhere
    derived (an xdist worker's, from its controller)."""
    from harness.upstream import ClientSide

    profile = sut.profile
    out = RunResult(sut=profile.name, strict=opts.strict)
    limits = Limits(profile.timeout, profile.max_bytes or DEFAULT_MAX_BYTES, profile.gate_timeout, warmed)
    driver: Driver | None = drivers.pop(profile.name, None)
    checked = driver is not None or not (opts.preflight if preflight is None else preflight)
    if driver is not None:
        limits.derived_gate_timeout = WARMED.get(driver, warmed)
    views: dict[str, CaseView] = {}
    interrupted = False
    try:
        for n, case in enumerate(cases, 1):
            if driver is None or isinstance(driver, _StartFailed):
                try:
                    driver = _start_driver(profile, sut.fn, upstream.base_url, driver)
                except DriverError as exc:
                    driver = _StartFailed(exc)
                    start_failed(out, cases[n - 1 :], profile, exc, sut.expectations, opts, progress, n)
                    break
                if not checked:
                    checked = True
                    check_sut(profile, driver, upstream, limits)
                WARMED[driver] = limits.derived_gate_timeout
            keep = opts.keep_timelines
            result, view, alive = run_case(case, profile, driver, upstream, ClientSide, limits, keep)
            if view is not None and case.scenario.parity:  # the parity pass compares these later;
                views[case.id] = view  # keeping every case's timeline alive slowed each GC pass
            if not alive:
                driver.stop()
                driver = None
            _finish(out, result, sut.expectations, opts, progress, n, len(cases), profile)
        else:
            _parity_pass(out, cases, views, sut.expectations, opts.strict, opts.keep_timelines)
    except KeyboardInterrupt:  # the case in progress is dropped: not run, rather than a false ERROR
        interrupted = True
    except BaseException:  # e.g. PreflightError: the SUT is not kept for a next run
        if driver is not None:
            driver.stop()
            driver = None
        raise
    finally:
        _return_driver(driver, drivers, profile.name, interrupted)
    out.gate_timeout = limits.gate_timeout or limits.derived_gate_timeout
    if interrupted:
        out.interrupted = "SIGINT"
        raise RunInterrupted(out)
    return out


def _return_driver(driver: Driver | None, drivers: dict[str, Driver], name: str, interrupted: bool) -> None:
    """Back into the pool for the next round or run; stopped instead when the run was interrupted
    (then every SUT process goes: a CLI SUT interrupted mid-case is only known to its Process)."""
    if driver is not None:
        if interrupted:
            driver.stop()
        else:
            drivers[name] = driver
    if interrupted:
        from harness.drivers._process import stop_all

        stop_all()


def start_failed(
    out: RunResult,
    cases: Sequence[Case],
    profile: SUTProfile,
    exc: DriverError,
    expectations: Expectations,
    opts: RunOptions,
    progress: Progress | None = None,
    n: int = 1,
) -> RunResult:
    """Every case in ``cases`` ERROR at once (the SUT could not be started, tried twice), with the
    stderr tail; ``out.sut_error`` says why in one line. ``n``: the first one's place in the round."""
    why = f"the SUT could not be started (tried twice): {exc}"
    out.sut_error = why.split("\n", 1)[0]
    total = n - 1 + len(cases)
    for m, case in enumerate(cases, n):
        result = new_result(case, profile)
        result.status, result.error = Status.ERROR, why
        _finish(out, result, expectations, opts, progress, m, total, profile)
    return out


def preflight(sut: ResolvedSUT) -> float | None:
    """Only the preflight (and warm-up) of a run on ``sut`` (see ``_preflight``): what ``-j N`` does
    once before its workers start. Returns the derived gate timeout; raises PreflightError, or the
    DriverError of a SUT that could not be started (tried twice)."""
    profile, fn = sut.profile, sut.fn
    return preflight_profile(profile, fn, start=lambda url: _start_driver(profile, fn, url, None))


def load_cases(
    patterns: Sequence[str] | None = None, root: Path | None = None, scenarios: Sequence[str | Path] = ()
) -> list[Case]:
    """The catalog's cases matching ``patterns`` (all when None), with the scenarios of the
    directories ``scenarios`` names (a team's own cases) added."""
    return select(expand_all(load_catalog(root, scenarios)), patterns)


def _case_list(
    cases: Sequence[Case] | Sequence[str] | None, scenarios: Sequence[str | Path] = ()
) -> list[Case]:
    """Case objects as given, or the cases that id globs select (all when None), the ``scenarios``
    directories' cases with them. (The -j workers get the Case objects: no directory to read again.)"""
    if cases is None:
        return load_cases(scenarios=scenarios)
    globs = [c for c in cases if isinstance(c, str)]
    return load_cases(globs, scenarios=scenarios) if globs else [c for c in cases if isinstance(c, Case)]


def _finish(
    out: RunResult,
    result: CaseResult,
    expectations: Expectations,
    opts: RunOptions,
    progress: Progress | None,
    n: int,
    total: int,
    profile: SUTProfile,
) -> None:
    expectations.apply(result, strict=opts.strict)
    result.reproduce = reproduce_line(result.case_id, profile, opts.reproduce_flags())
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
