"""``run()``: cases x one SUT -> results. The CLI, the pytest plugin and users' own code call this.

Rule: one mock upstream for the whole run (reset per case), one SUT process kept alive across cases;
the preflight canary (``_preflight``) runs before the first case; each case is ``_case_run``'s (bounded
by its deadline and byte cap, judged by the checks and the evidence rules); a crash or hang of the SUT
is a result (ERROR / TIMEOUT), never a hung run, and the SUT is restarted for the next case when it
died. ``repeat`` runs rounds over the cases and ``merge_repeats`` marks the cases whose runs disagree.
A SUT that cannot start is tried twice; then every remaining case is ERROR at once and ``sut_error``
says why. An interrupt (KeyboardInterrupt) stops every SUT process and raises :class:`RunInterrupted`
carrying the partial result (cases not run are absent).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from pathlib import Path
from typing import Any, Literal

from harness.drivers import CaseContext, Driver, DriverError, SUTCallable, SUTProfile, make_driver
from harness.drivers._base import DEFAULT_MAX_BYTES
from harness.suite._builtin import builtin_profile
from harness.suite._case import Case, expand_all, select
from harness.suite._case_run import (
    Limits,
    failed,
    new_result,
    run_case,
    serialize_timeline,
    set_verdicts,
    with_gate_timeout,
)
from harness.suite._expectations import Expectations, load_expectations
from harness.suite._preflight import (
    WARMED,
    canary_case,
    check_sut,
    preflight_profile,
)
from harness.suite._scenario import load_catalog
from harness.suite._verdict import CaseResult, Status, rank
from harness.suite.checks import CaseView, pair_checks

__all__ = [
    "RunInterrupted",
    "RunResult",
    "canary_case",
    "load_cases",
    "merge_repeats",
    "preflight",
    "resolve_sut",
    "run",
    "serialize_timeline",
    "start_failed",
    "with_gate_timeout",
]

Progress = Callable[[int, int, CaseResult], None]


@dataclass(slots=True)
class RunResult:
    sut: str
    results: list[CaseResult] = field(default_factory=list)
    strict: bool = False
    duration_s: float = 0.0
    sut_error: str = ""
    gate_timeout: float | None = None  # the gates' timeout this run used (None: each scenario's own)
    repeat: int = 1
    interrupted: str = ""  # the signal that stopped the run early ("SIGINT", "SIGTERM"); "" when it ran out

    @property
    def unexpected(self) -> list[CaseResult]:
        return [r for r in self.results if r.unexpected]

    @property
    def flaky(self) -> list[CaseResult]:
        return [r for r in self.results if r.flaky]

    @property
    def exit_code(self) -> int:
        """0: every result as expected; 1: unexpected results; 2: the SUT never started, no case could
        run; 3: verdicts differed between repeats (``--repeat``), which a gate must not trust."""
        if self.sut_error and all(r.status == Status.ERROR for r in self.results):
            return 2
        if self.flaky:
            return 3
        return 1 if self.unexpected or self.sut_error else 0

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.results:
            key = r.status.value if r.status != Status.OK else r.stream.value
            out[key] = out.get(key, 0) + 1
        return out


def merge_repeats(runs: Sequence[RunResult]) -> RunResult:
    """N runs of the same cases -> one result per case: the worst of its runs, marked flaky when the
    runs disagreed (status, stream or cleanup verdict), with every run's verdict kept in ``repeats``."""
    if len(runs) == 1:
        return runs[0]
    first = runs[0]
    merged = RunResult(
        sut=first.sut,
        strict=first.strict,
        duration_s=sum(r.duration_s for r in runs),
        sut_error=next((r.sut_error for r in runs if r.sut_error), ""),
        gate_timeout=first.gate_timeout,
        repeat=len(runs),
        interrupted=next((r.interrupted for r in runs if r.interrupted), ""),
    )
    by_id: dict[str, list[CaseResult]] = {}
    for r in runs:
        for c in r.results:
            by_id.setdefault(c.case_id, []).append(c)
    for results in by_id.values():
        labels = [_label(c) for c in results]
        worst_one = max(results, key=_severity)
        worst_one.repeats = labels
        worst_one.flaky = len(set(labels)) > 1
        merged.results.append(worst_one)
    return merged


def _label(c: CaseResult) -> str:
    return c.status.value if c.status != Status.OK else f"{c.stream.value}/{c.cleanup.value}"


def _severity(c: CaseResult) -> tuple[int, int, int]:
    return (int(c.unexpected), int(c.status != Status.OK), rank(c.stream) + rank(c.cleanup))


class RunInterrupted(KeyboardInterrupt):
    """The run was interrupted (SIGINT, or a signal the caller turned into KeyboardInterrupt); every
    SUT process is stopped and ``result`` holds the cases that finished, marked ``interrupted``."""

    def __init__(self, result: RunResult) -> None:
        super().__init__(result.interrupted)
        self.result = result


class _StartFailed:
    """Stands in a ``drivers`` pool for a SUT that could not start: later runs sharing the pool (the
    batches of one xdist worker) fail at once instead of trying again."""

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


def start_failed(
    out: RunResult,
    cases: Sequence[Case],
    profile: SUTProfile,
    exc: DriverError,
    expectations: Expectations | None = None,
    strict: bool = False,
    progress: Progress | None = None,
    n: int = 1,
    total: int = 0,
) -> RunResult:
    """Every case in ``cases`` ERROR at once (the SUT could not be started, tried twice), with the
    stderr tail; ``out.sut_error`` says why in one line."""
    why = f"the SUT could not be started (tried twice): {exc}"
    out.sut_error = why.split("\n", 1)[0]
    for m, case in enumerate(cases, n):
        result = new_result(case, profile)
        result.status, result.error = Status.ERROR, why
        _finish(out, result, expectations, strict, progress, m, total or len(cases))
    return out


def load_cases(
    patterns: Sequence[str] | None = None, root: Path | None = None, scenarios: Sequence[str | Path] = ()
) -> list[Case]:
    """The catalog's cases matching ``patterns`` (all when None), with the scenarios of the
    directories ``scenarios`` names (a team's own cases) added."""
    return select(expand_all(load_catalog(root, scenarios)), patterns)


def resolve_sut(sut: SUTProfile | str | SUTCallable | None, faults: Sequence[str] = ()) -> SUTProfile:
    from harness.drivers import load_profile, parse_profile

    if sut is None:
        return builtin_profile("reference", tuple(faults))
    if isinstance(sut, SUTProfile):
        return sut
    if isinstance(sut, str):
        if sut.startswith("reference"):
            return builtin_profile(sut, tuple(faults))
        if sut.startswith(("http://", "https://")):
            return parse_profile({"kind": "url", "url": sut, "name": sut})
        return load_profile(Path(sut))
    return SUTProfile(name=getattr(sut, "__name__", "callable"), kind="python")  # driven through `sut`


def run(
    cases: Sequence[Case] | Sequence[str] | None = None,
    *,
    sut: SUTProfile | str | SUTCallable | None = None,
    faults: Sequence[str] = (),
    strict: bool = False,
    expectations: Expectations | str | Path | None = None,
    progress: Progress | None = None,
    timeout: float | None = None,
    keep_timelines: bool | Literal["failures"] = True,
    upstream: Any = None,
    drivers: dict[str, Driver] | None = None,
    preflight: bool = True,
    gate_timeout: float | None = None,
    max_bytes: int | None = None,
    repeat: int = 1,
    scenarios: Sequence[str | Path] = (),
) -> RunResult:
    """Run ``cases`` (Case objects, or id globs; all when None) against ``sut`` (a profile, a profile
    path, a URL, a built-in name, or a Python callable; the reference gateway when None). Pass a started
    ``upstream`` (MockUpstream) to reuse one across runs, as the pytest plugin does, and a ``drivers``
    dict to keep started SUTs alive across runs (the caller stops them). ``keep_timelines``: every
    result carries its serialised timeline (True: reports need them), none does (False), or only the
    results that did not pass (``"failures"``: what printing failures needs, at a fraction of the cost).

    Before the first case, a canary case goes through the front door (``preflight``): a SUT that is
    unreachable, never calls the upstream, cannot be imported or hangs raises :class:`PreflightError`
    instead of producing hundreds of results. Gateway and URL SUTs are then warmed up (profile
    ``warmup``) and the gates' timeout adapts to the first-byte latency measured then (unless
    ``gate_timeout`` or the profile's ``gate_timeout`` says). ``timeout`` is each case's wall-clock
    budget over all its turns; ``max_bytes`` what a case may read from the SUT. ``repeat``: every case
    runs that many times (rounds over the whole list); a case whose runs disagree is ``flaky``.
    ``scenarios``: directories of a team's own scenario files, added to the catalog (with the SUT
    profile's own ``scenarios`` directories) when ``cases`` are id globs or None."""
    from harness.upstream import ClientSide, MockUpstream

    fn: SUTCallable | None = sut if callable(sut) and not isinstance(sut, SUTProfile | str) else None
    profile = resolve_sut(sut, faults)
    case_list = _case_list(cases, (*scenarios, *profile.scenarios))
    if isinstance(expectations, str | Path):
        expectations = load_expectations(Path(expectations))
    elif expectations is None and profile.expectations:
        expectations = load_expectations(Path(profile.expectations))
    started = time.monotonic()
    rounds = [RunResult(sut=profile.name, strict=strict) for _ in range(max(1, repeat))]
    total = len(case_list) * len(rounds)
    limits = Limits(
        timeout=timeout or profile.timeout,
        max_bytes=max_bytes or profile.max_bytes or DEFAULT_MAX_BYTES,
        gate_timeout=gate_timeout or profile.gate_timeout,
    )
    own_upstream = upstream is None
    if own_upstream:
        upstream = MockUpstream()
        upstream.start()
    driver: Driver | None = drivers.pop(profile.name, None) if drivers is not None else None
    checked = driver is not None or not preflight  # a kept driver passed its preflight before
    interrupted = ""
    if driver is not None:
        limits.derived_gate_timeout = WARMED.get(driver)
    try:
        for n, out, case in _schedule(rounds, case_list):
            if (n - 1) % len(case_list) == 0:  # a new round
                views: dict[str, CaseView] = {}
            if driver is None or isinstance(driver, _StartFailed):
                try:
                    driver = _start_driver(profile, fn, upstream.base_url, driver)
                except DriverError as exc:
                    driver = _StartFailed(exc)
                    first = (n - 1) % len(case_list)
                    start_failed(
                        out, case_list[first:], profile, exc, expectations, strict, progress, n, total
                    )
                    break
                if not checked:
                    checked = True
                    check_sut(profile, driver, upstream, limits)
                    WARMED[driver] = limits.derived_gate_timeout
            result, view, alive = run_case(
                case, profile, driver, upstream, ClientSide, limits, keep_timelines
            )
            if view is not None and case.scenario.parity:  # the parity pass compares these later;
                views[case.id] = view  # keeping every case's timeline alive slowed each GC pass
            if not alive:
                driver.stop()
                driver = None
            _finish(out, result, expectations, strict, progress, n, total)
            if n % len(case_list) == 0:
                _parity_pass(out, case_list, views, expectations, strict, keep_timelines)
    except KeyboardInterrupt:  # the case in progress is dropped: not run, rather than a false ERROR
        interrupted = "SIGINT"
    except BaseException:  # e.g. PreflightError: the SUT is not kept for a next run
        if driver is not None:
            driver.stop()
            driver = None
        raise
    finally:
        if driver is not None:
            if drivers is not None and not interrupted:  # the caller keeps it for its next run()
                drivers[profile.name] = driver
            else:
                driver.stop()
        if interrupted:
            from harness.drivers._process import stop_all

            stop_all()  # a CLI SUT interrupted mid-case is only known to its Process
        if own_upstream:
            upstream.stop()
    for r in rounds:
        r.interrupted = r.interrupted or interrupted
    out = merge_repeats(rounds)
    out.duration_s = time.monotonic() - started
    out.gate_timeout = limits.gate_timeout or limits.derived_gate_timeout
    if out.interrupted:
        raise RunInterrupted(out)
    return out


def _schedule(rounds: list[RunResult], cases: list[Case]) -> Iterator[tuple[int, RunResult, Case]]:
    """(1-based position, the round's result, case) for every case of every round, in order."""
    n = 0
    for out in rounds:
        for case in cases:
            n += 1
            yield n, out, case


def preflight(
    sut: SUTProfile | str | SUTCallable | None = None,
    *,
    faults: Sequence[str] = (),
    timeout: float | None = None,
    ready_timeout: float | None = None,
) -> float | None:
    """Only the preflight (and warm-up) of :func:`run` on ``sut`` (see ``_preflight``): what ``-j N``
    does once before its workers start. Returns the derived gate timeout; raises PreflightError, or the
    DriverError of a SUT that could not be started (tried twice)."""
    fn: SUTCallable | None = sut if callable(sut) and not isinstance(sut, SUTProfile | str) else None
    profile = resolve_sut(sut, faults)
    if ready_timeout is not None:
        profile = dc_replace(profile, ready_timeout=ready_timeout)
    return preflight_profile(profile, fn, timeout, start=lambda url: _start_driver(profile, fn, url, None))


def _case_list(
    cases: Sequence[Case] | Sequence[str] | None, scenarios: Sequence[str | Path] = ()
) -> list[Case]:
    """Case objects as given, or the cases that id globs select (all when None)."""
    if cases is None:
        return load_cases(scenarios=scenarios)
    globs = [c for c in cases if isinstance(c, str)]
    return load_cases(globs, scenarios=scenarios) if globs else [c for c in cases if isinstance(c, Case)]


def _finish(
    out: RunResult,
    result: CaseResult,
    expectations: Expectations | None,
    strict: bool,
    progress: Progress | None,
    n: int,
    total: int,
) -> None:
    (expectations or Expectations()).apply(result, strict=strict)
    out.results.append(result)
    if progress is not None:
        progress(n, total, result)


def _parity_pass(
    out: RunResult,
    cases: Iterable[Case],
    views: dict[str, CaseView],
    expectations: Expectations | None,
    strict: bool,
    keep: bool | Literal["failures"],
) -> None:
    by_id = {r.case_id: r for r in out.results}
    for case in cases:
        if not case.scenario.parity or case.stream:
            continue
        twin = case.with_stream(True)
        if case.id not in views or twin.id not in views or case.id not in by_id:
            continue  # (an interrupted run: a case may have a view but no result)
        result = by_id[case.id]
        result.findings += [c(views[twin.id], views[case.id]) for c in pair_checks()]
        set_verdicts(result)
        (expectations or Expectations()).apply(result, strict=strict)
        if keep == "failures" and not result.timeline and failed(result):
            result.timeline = serialize_timeline(views[case.id].entries)
