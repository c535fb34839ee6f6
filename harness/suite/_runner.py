"""``run()``: cases x one SUT -> results. The CLI, the pytest plugin and users' own code call this.

Rule: one mock upstream for the whole run (reset per case), one SUT process kept alive across cases;
every wait is bounded; a crash or hang of the SUT is a result (ERROR / TIMEOUT), never a hung run, and
the SUT is restarted for the next case when it died. A SUT that cannot start is tried twice; then every
remaining case is ERROR at once and ``sut_error`` says why. An interrupt (KeyboardInterrupt) stops every
SUT process and raises :class:`RunInterrupted` carrying the partial result (cases not run are absent).
"""

from __future__ import annotations

import base64
import shlex
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from harness.drivers import (
    CaseContext,
    Driver,
    DriverError,
    DriverTimeout,
    SUTCallable,
    SUTProfile,
    make_driver,
)
from harness.events import Event
from harness.suite._builtin import builtin_profile
from harness.suite._case import Case, expand_all, select
from harness.suite._expectations import Expectations, load_expectations
from harness.suite._scenario import load_catalog
from harness.suite._verdict import Axis, CaseResult, Finding, Status, Verdict, worst
from harness.suite.checks import CHECKS, CaseView, build_view
from harness.suite.checks._errors import CANCEL_BOUND_S
from harness.suite.checks._parity import parity
from harness.timeline import Entry, Timeline

__all__ = ["RunInterrupted", "RunResult", "load_cases", "resolve_sut", "run", "serialize_timeline"]

Progress = Callable[[int, int, CaseResult], None]


@dataclass(slots=True)
class RunResult:
    sut: str
    results: list[CaseResult] = field(default_factory=list)
    strict: bool = False
    duration_s: float = 0.0
    sut_error: str = ""
    interrupted: str = ""  # the signal that stopped the run early ("SIGINT", "SIGTERM"); "" when it ran out

    @property
    def unexpected(self) -> list[CaseResult]:
        return [r for r in self.results if r.unexpected]

    @property
    def exit_code(self) -> int:
        """0: nothing unexpected; 1: unexpected results; 2: the SUT never started, no case could run."""
        if self.sut_error and all(r.status == Status.ERROR for r in self.results):
            return 2
        return 1 if self.unexpected or self.sut_error else 0

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.results:
            key = r.status.value if r.status != Status.OK else r.stream.value
            out[key] = out.get(key, 0) + 1
        return out


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


def load_cases(patterns: Sequence[str] | None = None, root: Path | None = None) -> list[Case]:
    return select(expand_all(load_catalog(root)), patterns)


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
    return parse_profile({"kind": "python", "callable": "x:y", "name": getattr(sut, "__name__", "callable")})


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
) -> RunResult:
    """Run ``cases`` (Case objects, or id globs; all when None) against ``sut`` (a profile, a profile
    path, a URL, a built-in name, or a Python callable; the reference gateway when None). Pass a started
    ``upstream`` (MockUpstream) to reuse one across runs, as the pytest plugin does, and a ``drivers``
    dict to keep started SUTs alive across runs (the caller stops them). ``keep_timelines``: every
    result carries its serialised timeline (True: reports need them), none does (False), or only the
    results that did not pass (``"failures"``: what printing failures needs, at a fraction of the cost)."""
    from harness.upstream import ClientSide, MockUpstream

    if cases is None or (cases and isinstance(cases[0], str)):
        case_list = load_cases(list(cases) if cases else None)  # type: ignore[arg-type]
    else:
        case_list = list(cases)  # type: ignore[arg-type]
    fn: SUTCallable | None = sut if callable(sut) and not isinstance(sut, SUTProfile | str) else None
    profile = resolve_sut(sut, faults)
    if isinstance(expectations, str | Path):
        expectations = load_expectations(Path(expectations))
    elif expectations is None and profile.expectations:
        expectations = load_expectations(Path(profile.expectations))
    started = time.monotonic()
    out = RunResult(sut=profile.name, strict=strict)
    own_upstream = upstream is None
    if own_upstream:
        upstream = MockUpstream()
        upstream.start()
    driver: Driver | None = drivers.pop(profile.name, None) if drivers is not None else None
    views: dict[str, CaseView] = {}
    try:
        for n, case in enumerate(case_list, 1):
            if driver is None or isinstance(driver, _StartFailed):
                try:
                    driver = _start_driver(profile, fn, upstream.base_url, driver)
                except DriverError as exc:
                    driver = _StartFailed(exc)
                    why = f"the SUT could not be started (tried twice): {exc}"
                    out.sut_error = why.split("\n", 1)[0]
                    for m, rest in enumerate(case_list[n - 1 :], n):  # every remaining case, at once
                        result = _result(rest, profile)
                        result.status, result.error = Status.ERROR, why
                        _finish(out, result, expectations, strict, progress, m, len(case_list))
                    break
            result, view, alive = _run_case(
                case, profile, driver, upstream, ClientSide, timeout, keep_timelines
            )
            if view is not None and case.scenario.parity:  # the parity pass compares these later;
                views[case.id] = view  # keeping every case's timeline alive slowed each GC pass
            if not alive:
                driver.stop()
                driver = None
            _finish(out, result, expectations, strict, progress, n, len(case_list))
    except KeyboardInterrupt:  # the case in progress is dropped: not run, rather than a false ERROR
        out.interrupted = out.interrupted or "SIGINT"
    finally:
        if driver is not None:
            if drivers is not None and not out.interrupted:  # the caller keeps it for its next run()
                drivers[profile.name] = driver
            else:
                driver.stop()
        if out.interrupted:
            from harness.drivers._process import stop_all

            stop_all()  # a CLI SUT interrupted mid-case is only known to its Process
        if own_upstream:
            upstream.stop()
    _parity_pass(out, case_list, views, expectations, strict, keep_timelines)
    out.duration_s = time.monotonic() - started
    if out.interrupted:
        raise RunInterrupted(out)
    return out


def _result(case: Case, profile: SUTProfile) -> CaseResult:
    return CaseResult(
        case_id=case.id,
        scenario_id=case.scenario.id,
        requirement=case.scenario.requirement,
        category=case.scenario.category,
        sut=profile.name,
        axes=case.axes(),
        reproduce=f"thinkwire run {_sut_arg(profile)} --cases {shlex.quote(case.id)}",
    )


def _sut_arg(profile: SUTProfile) -> str:
    """The ``--sut ...`` part of a reproduction command."""
    if profile.source.startswith("<builtin"):
        base = profile.source.split()[1].rstrip(">")
        return f"--sut {base}" + "".join(f" --fault {f}" for f in profile.faults)
    if profile.source == "<flags>":
        if profile.kind == "url":
            return f"--sut-url {shlex.quote(profile.url)} --front-door {profile.front_door}"
        return f"--sut-cmd {shlex.quote(shlex.join(profile.command))} --front-door {profile.front_door}"
    return f"--sut {shlex.quote(profile.source)}"


def _run_case(
    case: Case,
    profile: SUTProfile,
    driver: Driver,
    upstream: Any,
    client_cls: Any,
    timeout: float | None,
    keep: bool | Literal["failures"],
) -> tuple[CaseResult, CaseView | None, bool]:
    result = _result(case, profile)
    if not profile.claims(case.dialect, case.variant) or profile.kind not in case.scenario.sut_kinds:
        result.stream = Verdict.UNSUPPORTED
        result.cleanup = Verdict.NOT_APPLICABLE
        result.findings.append(
            Finding(
                "support",
                Verdict.UNSUPPORTED,
                message=f"the SUT does not claim {case.dialect}:{case.variant}"
                if not profile.claims(case.dialect, case.variant)
                else f"scenario does not apply to {profile.kind} SUTs",
            )
        )
        return result, None, True
    timeline = Timeline()
    client = client_cls()
    model = profile.model_for(case.dialect, case.variant)
    upstream.load(case.conversation(model), timeline=timeline, client=client)
    ctx = CaseContext(case, upstream.base_url, timeline, client, model, timeout or profile.timeout)
    t0 = time.monotonic()
    alive = True
    try:
        driver.run(ctx)
    except DriverTimeout as exc:
        result.status, result.error = Status.TIMEOUT, str(exc)
        alive = profile.kind not in ("gateway",)
    except DriverError as exc:
        result.status, result.error = Status.ERROR, str(exc)
        alive = False
    except Exception as exc:
        import traceback

        result.status = Status.ERROR
        result.error = "harness error: " + "".join(traceback.format_exception(exc))[-2000:]
    if result.status != Status.OK:
        tail = getattr(driver, "stderr_tail", lambda: "")()
        if tail and tail not in result.error:
            result.error += f"\n--- SUT stderr (tail) ---\n{tail}"
    cancels = timeline.select("client", "cancel")
    if cancels:
        timeline.wait_for("upstream", "disconnect", timeout=CANCEL_BOUND_S, after=cancels[0].t)
    result.duration_s = time.monotonic() - t0
    view = build_view(case, timeline, profile.kind)
    if result.status == Status.OK:
        result.findings = [c(view) for _, c in CHECKS.items()]
        errors = list(timeline.select("upstream", "server-error"))
        if errors:
            result.findings.append(
                Finding(
                    "harness",
                    Verdict.FAIL,
                    message="mock upstream error: " + str(errors[0].info.get("error", ""))[:500],
                )
            )
        _verdicts(result)
    if keep is True or (keep == "failures" and _failed(result)):
        result.timeline = serialize_timeline(view.entries)
    return result, view, alive


def _failed(result: CaseResult) -> bool:
    return (
        result.status != Status.OK
        or result.stream in (Verdict.FAIL, Verdict.NON_STRICT)
        or result.cleanup in (Verdict.FAIL, Verdict.UNCLEAN)
    )


def _verdicts(result: CaseResult) -> None:
    result.stream = worst([f.verdict for f in result.findings if f.axis == Axis.STREAM])
    result.cleanup = worst(
        [f.verdict for f in result.findings if f.axis == Axis.CLEANUP], default=Verdict.PASS
    )


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
        finding = parity(views[twin.id], views[case.id])
        result = by_id[case.id]
        result.findings.append(finding)
        _verdicts(result)
        (expectations or Expectations()).apply(result, strict=strict)
        if keep == "failures" and not result.timeline and _failed(result):
            result.timeline = serialize_timeline(views[case.id].entries)


def serialize_timeline(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    if not entries:
        return []
    t0 = entries[0].t
    out: list[dict[str, Any]] = []
    for e in entries:
        item: dict[str, Any] = {
            "t_ms": round((e.t - t0) / 1e6, 3),
            "side": e.side,
            "kind": e.kind,
            "turn": e.turn,
        }
        if e.data:
            raw = e.data[:4096]
            try:
                item["text"] = raw.decode()
            except UnicodeDecodeError:
                item["base64"] = base64.b64encode(raw).decode()
            if len(e.data) > 4096:
                item["truncated"] = len(e.data)
        if e.event is not None:
            item["event"] = _event_dict(e.event)
        if e.info:
            item["info"] = {k: _plain(v) for k, v in e.info.items() if k != "headers"}
        out.append(item)
    return out


def _event_dict(ev: Event) -> dict[str, Any]:
    from dataclasses import fields

    d: dict[str, Any] = {"type": type(ev).__name__}
    for f in fields(ev):
        if f.name == "channel":
            continue
        v = getattr(ev, f.name)
        if v not in (None, ""):
            d[f.name] = v
    return d


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _plain(v: Any) -> Any:
    """JSON-ready copy of a timeline ``info`` value (called ~300 times per case: exact types first)."""
    if type(v) in _ATOMS or isinstance(v, str | int | float | bool) or v is None:
        return v
    if isinstance(v, bytes):
        return v.decode(errors="replace")[:2000]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple | set | frozenset):
        return [_plain(x) for x in v]
    return repr(v)[:2000]
