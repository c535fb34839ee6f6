"""``run()``: cases x one SUT -> results. The CLI, the pytest plugin and users' own code call this.

Rule: one mock upstream for the whole run (reset per case), one SUT process kept alive across cases;
every wait is bounded; a crash or hang of the SUT is a result (ERROR / TIMEOUT), never a hung run, and
the SUT is restarted for the next case when it died.
"""

from __future__ import annotations

import base64
import shlex
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from harness._errors import PreflightError
from harness.drivers import (
    CaseContext,
    Driver,
    DriverError,
    DriverTimeout,
    SUTCallable,
    SUTProfile,
    make_driver,
)
from harness.drivers._base import DEFAULT_MAX_BYTES, CaseTooBig
from harness.drivers._python import short_traceback
from harness.events import Event
from harness.suite._builtin import builtin_profile
from harness.suite._case import Case, expand_all, select
from harness.suite._evidence import weigh
from harness.suite._expectations import Expectations, load_expectations
from harness.suite._scenario import load_catalog
from harness.suite._verdict import Axis, CaseResult, Finding, Status, Verdict, worst
from harness.suite.checks import CaseView, build_view, case_checks, pair_checks
from harness.suite.checks._errors import CANCEL_BOUND_S
from harness.timeline import Entry, Timeline

__all__ = [
    "RunResult",
    "canary_case",
    "load_cases",
    "merge_repeats",
    "preflight",
    "resolve_sut",
    "run",
    "serialize_timeline",
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

    @property
    def unexpected(self) -> list[CaseResult]:
        return [r for r in self.results if r.unexpected]

    @property
    def flaky(self) -> list[CaseResult]:
        return [r for r in self.results if r.flaky]

    @property
    def exit_code(self) -> int:
        """0: every result as expected; 1: unexpected results; 3: verdicts differed between repeats
        (``--repeat``), which a gate must not trust whatever they were."""
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
    from harness.suite._verdict import rank

    return (int(c.unexpected), int(c.status != Status.OK), rank(c.stream) + rank(c.cleanup))


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
    runs that many times (rounds over the whole list); a case whose runs disagree is ``flaky``."""
    from harness.upstream import ClientSide, MockUpstream

    case_list = _case_list(cases)
    fn: SUTCallable | None = sut if callable(sut) and not isinstance(sut, SUTProfile | str) else None
    profile = resolve_sut(sut, faults)
    if isinstance(expectations, str | Path):
        expectations = load_expectations(Path(expectations))
    elif expectations is None and profile.expectations:
        expectations = load_expectations(Path(profile.expectations))
    started = time.monotonic()
    rounds = [RunResult(sut=profile.name, strict=strict) for _ in range(max(1, repeat))]
    total = len(case_list) * len(rounds)
    limits = _Limits(
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
    if driver is not None:
        limits.derived_gate_timeout = _WARMED.get(driver)
    try:
        for n, out, case in _schedule(rounds, case_list):
            if n % len(case_list) == 1 or len(case_list) == 1:
                views: dict[str, CaseView] = {}
            if driver is None:
                driver = make_driver(profile, fn)
                try:
                    driver.start(upstream.base_url)
                except DriverError as exc:
                    driver = None
                    if not checked:
                        raise PreflightError(
                            f"the SUT {profile.name!r} could not start: {_first_line(exc)}"
                            + _stderr_hint(exc)
                        ) from None
                    result = _result(case, profile)
                    result.status, result.error = Status.ERROR, str(exc)
                    _finish(out, result, expectations, strict, progress, n, total)
                    continue
                if not checked:
                    checked = True
                    _preflight(profile, driver, upstream, limits)
                    _WARMED[driver] = limits.derived_gate_timeout
            result, view, alive = _run_case(
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
    except BaseException:
        if driver is not None:
            driver.stop()
            driver = None
        raise
    finally:
        if driver is not None:
            if drivers is not None:  # the caller keeps the SUT alive for its next run()
                drivers[profile.name] = driver
            else:
                driver.stop()
        if own_upstream:
            upstream.stop()
    out = merge_repeats(rounds)
    out.duration_s = time.monotonic() - started
    out.gate_timeout = limits.gate_timeout or limits.derived_gate_timeout
    return out


def _schedule(rounds: list[RunResult], cases: list[Case]) -> Iterator[tuple[int, RunResult, Case]]:
    """(1-based position, the round's result, case) for every case of every round, in order."""
    n = 0
    for out in rounds:
        for case in cases:
            n += 1
            yield n, out, case


_WARMED: weakref.WeakKeyDictionary[Any, float | None] = weakref.WeakKeyDictionary()
"""A started driver -> the gate timeout its warm-up gave (kept drivers skip preflight next run)."""


def preflight(
    sut: SUTProfile | str | SUTCallable | None = None,
    *,
    faults: Sequence[str] = (),
    timeout: float | None = None,
) -> float | None:
    """Only the preflight (and warm-up) of :func:`run`, on a SUT of its own, stopped afterwards: what
    ``-j N`` does once before its workers start. Returns the gate timeout the warm-up derived; raises
    :class:`PreflightError` when the SUT cannot be tested."""
    from harness.upstream import MockUpstream

    fn: SUTCallable | None = sut if callable(sut) and not isinstance(sut, SUTProfile | str) else None
    profile = resolve_sut(sut, faults)
    limits = _Limits(timeout=timeout or profile.timeout, max_bytes=profile.max_bytes or DEFAULT_MAX_BYTES)
    with MockUpstream() as upstream:
        driver = make_driver(profile, fn)
        try:
            try:
                driver.start(upstream.base_url)
            except DriverError as exc:
                raise PreflightError(
                    f"the SUT {profile.name!r} could not start: {_first_line(exc)}" + _stderr_hint(exc)
                ) from None
            _preflight(profile, driver, upstream, limits)
        finally:
            driver.stop()
    return limits.derived_gate_timeout


@dataclass(slots=True)
class _Limits:
    """One run's bounds: each case's wall-clock budget, byte cap, and gate timeout (None: the
    scenario's own, raised to the warm-up's figure when one was measured)."""

    timeout: float
    max_bytes: int
    gate_timeout: float | None = None
    derived_gate_timeout: float | None = None


def _stderr_hint(exc: DriverError) -> str:
    """The last line the SUT wrote to stderr, for a one-line error."""
    lines = [ln for ln in (exc.stderr or "").splitlines() if ln.strip()]
    return f" (its stderr ends: {lines[-1].strip()[:200]})" if lines else ""


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def canary_case(profile: SUTProfile, catalog: Sequence[Case] | None = None) -> Case:
    """The case preflight and warm-up send: a plain one-turn streamed answer the SUT claims."""
    cases = list(catalog) if catalog is not None else expand_all(load_catalog())

    def plain(c: Case) -> bool:
        t = c.turns
        return (
            len(t) == 1
            and not t[0].faulted
            and t[0].cancel is None
            and t[0].replay is None
            and c.stream
            and c.chunking == "frames"
            and c.perturbation == "none"
            and c.profile == "lenient"
        )

    claimed = [
        c for c in cases if profile.claims(c.dialect, c.variant) and profile.kind in c.scenario.sut_kinds
    ]
    for c in claimed:
        if plain(c) and c.scenario.category == "wire-variants":
            return c
    for c in claimed:
        if plain(c):
            return c
    if claimed:
        return claimed[0]
    raise PreflightError(f"the SUT {profile.name!r} claims no case of the catalog (check its dialects)")


def _preflight(profile: SUTProfile, driver: Driver, upstream: Any, limits: _Limits) -> None:
    """One canary case through the front door; then, for gateway/url SUTs, a warm-up that measures
    the first-byte latency the gates' timeout derives from."""
    from harness.upstream import ClientSide

    canary = canary_case(profile)
    result, view, _ = _run_case(canary, profile, driver, upstream, ClientSide, limits, False)
    where = profile.url if profile.kind == "url" else (profile.callable or " ".join(profile.command[:3]))
    name = f"the SUT {profile.name!r}" if profile.name != where else "the SUT"
    first = view.turns[0] if view is not None and view.turns else None
    if result.status == Status.TIMEOUT:
        raise PreflightError(
            f"preflight: {name} at {where} did not answer the canary case {canary.id} within "
            f"{limits.timeout:g}s"
        )
    if first is None or not first.reached:
        if first is not None and first.raised:
            why = f"raised {first.raised[0].info.get('error')} before calling the upstream"
        elif first is not None and not first.observed:
            errors = "; ".join(str(e.info.get("error", "")) for e in first.client_errors)
            why = "is unreachable" + (f": {errors}" if errors else " (no answer)")
        elif result.status == Status.ERROR:
            why = f"failed: {_first_line(Exception(result.error))}"
        else:
            why = "answered without calling the mock upstream (is its upstream URL configured?)"
        raise PreflightError(f"preflight: {name} at {where} {why}")
    if result.status == Status.ERROR and "adapter" in result.error:
        raise PreflightError(f"preflight: {_first_line(Exception(result.error))}")
    if limits.gate_timeout is None and (
        profile.warmup if profile.warmup is not None else profile.kind in ("gateway", "url")
    ):
        warm, _, _ = _run_case(canary, profile, driver, upstream, ClientSide, limits, False)
        latency = warm.first_byte_s
        if latency is not None:
            limits.derived_gate_timeout = min(max(1.0, 10 * latency), limits.timeout)


def _case_list(cases: Sequence[Case] | Sequence[str] | None) -> list[Case]:
    """Case objects as given, or the cases that id globs select (all when None)."""
    if cases is None:
        return load_cases()
    globs = [c for c in cases if isinstance(c, str)]
    return load_cases(globs) if globs else [c for c in cases if isinstance(c, Case)]


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
    limits: _Limits,
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
    conversation = case.conversation(model)
    gates = limits.gate_timeout if limits.gate_timeout is not None else limits.derived_gate_timeout
    if gates is not None:
        conversation = with_gate_timeout(conversation, gates, at_least=limits.gate_timeout is None)
    upstream.load(conversation, timeline=timeline, client=client)
    ctx = CaseContext(
        case, upstream.base_url, timeline, client, model, limits.timeout, max_bytes=limits.max_bytes
    )
    t0 = time.monotonic()
    alive = True
    too_big: CaseTooBig | None = None
    try:
        driver.run(ctx)
    except CaseTooBig as exc:
        too_big = exc
        alive = profile.kind not in ("gateway",) or not profile.keep_alive
    except DriverTimeout as exc:
        result.status, result.error = Status.TIMEOUT, str(exc)
        alive = profile.kind not in ("gateway",)
    except DriverError as exc:
        result.status, result.error = Status.ERROR, str(exc)
        alive = False
    except Exception as exc:
        result.status = Status.ERROR
        result.error = "harness error (a thinkwire bug, not the SUT's):\n" + short_traceback(exc)
    if result.status != Status.OK:
        tail = getattr(driver, "stderr_tail", lambda: "")()
        if tail and tail not in result.error:
            result.error += f"\n--- SUT stderr (tail) ---\n{tail}"
    cancels = timeline.select("client", "cancel")
    if cancels:
        timeline.wait_for("upstream", "disconnect", timeout=CANCEL_BOUND_S, after=cancels[0].t)
    result.duration_s = time.monotonic() - t0
    view = build_view(case, timeline, profile.kind)
    result.first_byte_s = _first_byte(view)
    if too_big is not None:
        result.findings = [
            Finding(
                "size",
                Verdict.FAIL,
                message=f"the SUT sent more than {too_big.limit} bytes in one case (reading stopped)",
                expected=f"at most {too_big.limit} bytes (--max-bytes)",
                actual=f"first bytes: {too_big.head[:200]!r}",
            )
        ]
        _verdicts(result)
    elif result.status == Status.OK:
        findings = [c(view) for c in case_checks() if not _usage_off(c.name, profile)]
        judged = weigh(view, findings)
        if judged.error:
            result.status, result.error = Status.ERROR, judged.error
        else:
            result.findings = findings + judged.findings
            _verdicts(result)
    if keep is True or (keep == "failures" and _failed(result)):
        result.timeline = serialize_timeline(view.entries)
    return result, view, alive


def _usage_off(check: str, profile: SUTProfile) -> bool:
    """``usage`` applies only where the SUT reports usage (profile ``usage``; CLIs default to off)."""
    return check == "usage" and not profile.reports_usage


def _first_byte(view: CaseView) -> float | None:
    """Seconds from the first client request to the first bytes (or event) the client got back."""
    sent = next((e.t for e in view.entries if e.side == "client" and e.kind == "request"), None)
    got = next((e.t for e in view.entries if e.side == "client" and e.kind in ("chunk", "event")), None)
    return None if sent is None or got is None else (got - sent) / 1e9


def with_gate_timeout(conversation: Any, seconds: float, *, at_least: bool = False) -> Any:
    """The conversation with every gate's timeout set to ``seconds`` (``at_least``: raised to it,
    never lowered below what the scenario asked for)."""
    from dataclasses import replace as dc_replace

    from harness.upstream import Gate

    def fix(step: Any) -> Any:
        if not isinstance(step, Gate):
            return step
        value = max(step.timeout, seconds) if at_least else seconds
        return dc_replace(step, timeout=value)

    scripts = tuple(dc_replace(s, steps=tuple(fix(st) for st in s.steps)) for s in conversation.scripts)
    return dc_replace(conversation, scripts=scripts)


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
        if case.id not in views or twin.id not in views:
            continue
        result = by_id[case.id]
        result.findings += [c(views[twin.id], views[case.id]) for c in pair_checks()]
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
