"""The thinkwire pytest plugin, registered by entry point and importing thinkwire lazily. Its fixtures and
marker call the same ``run()`` users call by hand, so a test suite and the command line judge a SUT the
same way; a test item that ran no case never passes."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness.plugin._cases import (
    LeftOut,
    claim_reasons,
    marker_kwargs,
    narrowed,
    run_settings,
    test_patterns,
)
from harness.plugin._failure import SECTION, assertion_lines, section_lines, sut_environment, with_environment
from harness.plugin._mock import MockUpstreamFactory, MockUpstreamHandle, fresh_handle

if TYPE_CHECKING:
    from harness.runner import RunResult
    from harness.verdict import CaseResult

__all__ = ["MockUpstreamFactory", "MockUpstreamHandle"]

_RESULTS_KEY = pytest.StashKey[list["RunResult"]]()
_LEFT_OUT = pytest.StashKey[LeftOut]()
_ITEM_RUNS = pytest.StashKey[list["RunResult"]]()
_SVG_DIR = pytest.StashKey[Path]()
_PICTURES = 20  # swimlanes drawn for one failing test: the first unexpected cases

OPTIONS = {
    "--thinkwire-cases": "case or scenario id globs (repeatable): narrow every thinkwire_case and "
    "thinkwire_run to the cases they also select",
    "--thinkwire-strict": "treat NON_STRICT verdicts as failures",
    "--thinkwire-expectations": "expectations TOML: case id -> expected verdict",
    "--thinkwire-write-expectations": "write the session's non-passing cases as an expectations TOML here "
    "(as thinkwire run --write-expectations)",
    "--thinkwire-scenarios": "a directory of your own scenarios, added to the catalog (repeatable)",
    "--thinkwire-report": "write results.json / summary.md / report.html of every thinkwire run here",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    """The options of :data:`OPTIONS`. The marker ``@pytest.mark.thinkwire(**kwargs)`` passes its kwargs to
    ``run()``."""
    group = parser.getgroup("thinkwire", "thinkwire reasoning-stream conformance")
    for flag, text in OPTIONS.items():
        if flag == "--thinkwire-strict":
            group.addoption(flag, action="store_true", default=False, help=text)
        elif flag in ("--thinkwire-cases", "--thinkwire-scenarios"):
            group.addoption(flag, action="append", default=None, metavar="GLOB", help=text)
        else:
            group.addoption(flag, default=None, metavar="FILE" if "expect" in flag else "DIR", help=text)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "thinkwire(**kwargs): keyword arguments for harness.run() (cases, sut, strict, ...)"
    )
    config.stash[_RESULTS_KEY] = []
    config.stash[_LEFT_OUT] = LeftOut()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``thinkwire_case``: one item per case of the test's pattern that ``--thinkwire-cases`` also selects;
    with a ``sut`` on the marker, those its claims leave out are deselected and an unsupported variant's
    are skipped with the reason."""
    if "thinkwire_case" not in metafunc.fixturenames:
        return
    kwargs = marker_kwargs(metafunc.definition)
    settings = run_settings(metafunc.config, kwargs)
    cases = narrowed(metafunc.config, test_patterns(kwargs), settings.get("scenarios") or ())
    left, unsupported = claim_reasons(cases, settings)
    metafunc.config.stash[_LEFT_OUT].reasons[metafunc.definition.nodeid] = left
    params = [
        pytest.param(
            c, id=c.id, marks=[pytest.mark.skip(reason=unsupported[c.id])] if c.id in unsupported else []
        )
        for c in cases
    ]
    if not params:
        why = "no catalog case matches the test's cases and --thinkwire-cases together"
        params = [pytest.param(None, id="no-case", marks=pytest.mark.skip(reason=why))]
    metafunc.parametrize("thinkwire_case", params)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    left_out = config.stash[_LEFT_OUT]
    kept, dropped = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        case = callspec.params.get("thinkwire_case") if callspec else None
        test = item.nodeid.split("[", 1)[0]
        why = left_out.reasons.get(test, {}).get(getattr(case, "id", ""))
        if why is None:
            kept.append(item)
            continue
        dropped.append(item)
        counts = left_out.deselected.setdefault(test, {})
        counts[why] = counts.get(why, 0) + 1
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    for line in config.stash[_LEFT_OUT].summary():
        terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def thinkwire_upstream() -> Iterator[Any]:
    """One mock upstream (asyncio + h11 on 127.0.0.1, port 0) for the whole test session."""
    from harness.upstream import MockUpstream

    server = MockUpstream()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def mock_upstream(thinkwire_upstream: Any) -> MockUpstreamHandle:
    """The session's upstream with a fresh timeline and client side (the per-test reset)."""
    return fresh_handle(thinkwire_upstream)


@pytest.fixture(scope="session")
def mock_upstream_factory(thinkwire_upstream: Any) -> MockUpstreamFactory:
    """``with mock_upstream_factory.fresh() as upstream:``, the per-example reset for hypothesis tests
    (session-scoped, so no health check needs switching off)."""
    return MockUpstreamFactory(thinkwire_upstream)


@pytest.fixture
def thinkwire_run(
    request: pytest.FixtureRequest, thinkwire_upstream: Any, tmp_path_factory: pytest.TempPathFactory
) -> Callable[..., RunResult]:
    """``thinkwire_run(cases=None, **kw)`` -> RunResult: the marker's kwargs and the session's options
    applied (call arguments win), the cases narrowed by ``--thinkwire-cases``; in a ``thinkwire_case``
    item, ``cases`` defaults to the item's case."""
    from harness.runner import run

    marked = marker_kwargs(request.node)
    config = request.config
    runs: list[RunResult] = []
    request.node.stash[_ITEM_RUNS] = runs
    report_dir = config.getoption("--thinkwire-report")
    keep = bool(report_dir or config.getoption("--thinkwire-write-expectations"))
    base = Path(report_dir) if report_dir else tmp_path_factory.getbasetemp() / "thinkwire"
    request.node.stash[_SVG_DIR] = base / "swimlanes"
    callspec = getattr(request.node, "callspec", None)
    item_case = callspec.params.get("thinkwire_case") if callspec else None

    def _run(cases: Any = None, **kwargs: Any) -> RunResult:
        opts = run_settings(config, marked) | kwargs
        opts.pop("cases", None)
        if cases is None and item_case is not None:
            cases = [item_case]
        elif cases is None or isinstance(cases, str) or all(isinstance(c, str) for c in cases):
            own = [cases] if isinstance(cases, str) else (cases or test_patterns(marked))
            cases = own  # globs: run() adds the profile's own scenario directories to what they match
            if config.getoption("--thinkwire-cases"):  # the intersection, as Case objects
                scenarios = opts.get("scenarios") or ()
                cases = narrowed(config, own, scenarios)
                if not cases and own and narrowed(config, own, scenarios, option=False):
                    pytest.skip(f"--thinkwire-cases leaves none of this test's cases ({', '.join(own)})")
        result = run(cases, upstream=thinkwire_upstream, **opts)
        with_environment(result, sut_environment(config, opts.get("sut")))
        if keep:  # (without a report nothing is kept past the test: a long session stays flat)
            config.stash[_RESULTS_KEY].append(_for_report(result))
        runs.append(result)
        if item_case is not None:
            _skip_if_not_run(result, item_case.id)
        return result

    return _run


def _skip_if_not_run(result: RunResult, case_id: str) -> None:
    """A ``thinkwire_case`` item whose case was left out (the SUT does not claim it) or judged unsupported
    is skipped with the reason: it never passes without running."""
    from harness.verdict import Verdict

    mine = [r for r in result.results if r.case_id == case_id]
    if not mine:
        why = "; ".join(result.left_out) or "the run did not run it"
        pytest.skip(f"{case_id}: not claimed by the SUT: {why}")
    if mine[0].stream == Verdict.UNSUPPORTED and not mine[0].unexpected:
        said = [f.message for f in mine[0].findings if f.verdict == Verdict.UNSUPPORTED and f.message]
        pytest.skip(f"{case_id}: UNSUPPORTED: {said[0] if said else 'an unsupported variant of the SUT'}")


def _for_report(result: RunResult) -> RunResult:
    """What the session report keeps of a run: as ``thinkwire run`` keeps it by default, a passing
    case's timeline as its summary (a case that did not pass keeps all of it, its evidence)."""
    import dataclasses

    from harness.runner import failed, summarise_serialized

    def slim(r: CaseResult) -> CaseResult:
        if failed(r) or not r.timeline:
            return r
        return dataclasses.replace(r, timeline=[], timeline_summary=summarise_serialized(r.timeline))

    return dataclasses.replace(result, results=[slim(r) for r in result.results])


_NEEDS_SYRUPY = (
    "thinkwire_snapshot needs syrupy, which is not installed: pip install 'thinkwire[pytest]' "
    "(or pip install syrupy)"
)


@pytest.fixture
def thinkwire_snapshot(request: pytest.FixtureRequest) -> Any:
    """syrupy's ``snapshot`` with thinkwire's normalised-timeline serializer (without syrupy: one line
    saying what to install, not "fixture 'snapshot' not found").

    It needs syrupy: ``pip install 'thinkwire[pytest]'``.
    """
    import importlib.util

    if importlib.util.find_spec("syrupy") is None:
        pytest.fail(_NEEDS_SYRUPY, pytrace=False)
    try:
        snapshot = request.getfixturevalue("snapshot")
    except pytest.FixtureLookupError:  # installed, but its plugin is off (-p no:syrupy)
        pytest.fail(
            "thinkwire_snapshot needs syrupy's snapshot fixture: its plugin is disabled (drop -p no:syrupy)",
            pytrace=False,
        )
    from harness.snapshot import TimelineSnapshotExtension

    return snapshot.use_extension(TimelineSnapshotExtension)


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: Any, right: Any) -> list[str] | None:
    """``assert result.unexpected == []``: each unexpected case with its check, message, expected, seen
    and reproduce line; two event sequences, timelines or results: their normalised diff."""
    if op != "==":
        return None
    from harness.verdict import CaseResult

    if isinstance(left, list) and left and right == [] and all(isinstance(r, CaseResult) for r in left):
        return assertion_lines(left, config, config.getoption("--thinkwire-report", None))
    from harness._explain import explain_difference

    return explain_difference(left, right)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A test item that ran no thinkwire case fails (it would pass on nothing); a failing one gets every
    unexpected case whole in a section, and the swimlane SVG of each (under ``--thinkwire-report``
    DIR/swimlanes, else pytest's base temp dir)."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call":
        return
    runs = item.stash.get(_ITEM_RUNS, None)
    uses_case = "thinkwire_case" in getattr(item, "fixturenames", ())
    if report.passed and (runs or uses_case) and not any(r.results for r in runs or ()):
        report.outcome = "failed"
        report.longrepr = "thinkwire: this test ran no case, so it proves nothing: " + (
            "call thinkwire_run() in it (it runs the item's case)"
            if uses_case
            else "its thinkwire_run glob matched no case, or the SUT claims none of them"
        )
    if not runs:
        return
    item.stash[_ITEM_RUNS] = []  # the item outlives its test: it keeps no run (and no timeline) past it
    if not report.failed:
        return
    _failure_sections(report, runs, item.stash[_SVG_DIR], item.config.getoption("--thinkwire-report"))


def _failure_sections(report: Any, runs: list[RunResult], svg_dir: Path, report_dir: str | None) -> None:
    import dataclasses

    from harness.report import write_swimlanes

    shown = str(report.longrepr)  # the cases pytest's assertion text already shows whole are not repeated
    _section(report, SECTION, section_lines(runs, report_dir, shown))
    lines: list[str] = []
    bad = sum(len(result.unexpected) for result in runs)
    for result in runs:  # pictures of the unexpected cases only: an expected failure is known already
        room = _PICTURES - len(lines)
        unexpected = dataclasses.replace(result, results=list(result.unexpected)[: max(room, 0)])
        for case_id, path in write_swimlanes(unexpected, svg_dir).items():
            lines.append(f"{case_id}: {path}")
    if bad > len(lines):
        more = bad - len(lines)
        lines.append(f"... {more} more unexpected case(s), not drawn: thinkwire show draws any")
    _section(report, "thinkwire swimlanes (SVG, evidence marked)", lines)


def _section(report: Any, title: str, lines: list[str]) -> None:
    if not lines:
        return
    text = "\n".join(lines)
    longrepr = report.longrepr
    if hasattr(longrepr, "addsection"):
        longrepr.addsection(title, text)
    else:
        report.sections.append((title, text))


def _worker(config: pytest.Config) -> str:
    """The pytest-xdist worker id of this process ("" when it is not a worker)."""
    return str(getattr(config, "workerinput", {}).get("workerid", ""))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write the session's report and expectations. Under ``pytest -n``, each worker writes its own
    beside them (DIR/.workers/<id>, FILE.<id>.part) and the controller joins those into DIR and FILE."""
    config = session.config
    out = config.getoption("--thinkwire-report", None)
    write_to = config.getoption("--thinkwire-write-expectations", None)
    worker = _worker(config)
    controller = not worker and config.pluginmanager.hasplugin("dsession")
    if controller and write_to:
        _join_expectations(config, Path(write_to))
    results = config.stash.get(_RESULTS_KEY, [])
    if controller and out:
        from harness.report import load_results

        parts = sorted((Path(out) / ".workers").glob("*/results.json"))
        results = results + [load_results(p) for p in parts]
    if not results:
        return
    merged = _merged(results)
    if out:
        from harness.report import write_reports

        write_reports(merged, Path(out) / ".workers" / worker if worker else Path(out))
        if controller:
            import shutil

            shutil.rmtree(Path(out) / ".workers", ignore_errors=True)
    if write_to and not controller:
        from harness.catalog import write_expectations

        path = Path(write_to)
        n = write_expectations(
            merged.results, path.with_name(f"{path.name}.{worker}.part") if worker else path
        )
        _say(config, f"thinkwire: wrote {n} expectation(s) to {write_to}")


def _merged(results: list[RunResult]) -> RunResult:
    from harness.runner import RunResult

    merged = RunResult(sut=", ".join(sorted({r.sut for r in results})))
    for r in results:
        merged.results.extend(r.results)
        merged.duration_s += r.duration_s
    return merged


def _join_expectations(config: pytest.Config, path: Path) -> None:
    parts = sorted(path.parent.glob(f"{path.name}.*.part"))
    if not parts:
        return
    texts = [p.read_text(encoding="utf-8") for p in parts]
    path.write_text(texts[0] + "".join(t.split("\n", 2)[-1] for t in texts[1:]), encoding="utf-8")
    for p in parts:
        p.unlink()
    n = sum(t.count("[cases.") for t in texts)
    _say(config, f"thinkwire: wrote {n} expectation(s) to {path} (from {len(parts)} pytest-xdist workers)")


def _say(config: pytest.Config, line: str) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(line)
