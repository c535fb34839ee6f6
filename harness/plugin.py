"""The thinkwire pytest plugin, registered by entry point and importing thinkwire lazily. Its fixtures and
marker call the same ``run()`` users call by hand, so a test suite and the command line judge a SUT the
same way."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from harness.runner import RunResult
    from harness.timeline import Timeline
    from harness.verdict import CaseResult

__all__ = ["MockUpstreamHandle"]

_RESULTS_KEY = pytest.StashKey[list["RunResult"]]()
_ITEM_RUNS = pytest.StashKey[list["RunResult"]]()
_SVG_DIR = pytest.StashKey[Path]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Options: ``--thinkwire-cases``, ``--thinkwire-strict``, ``--thinkwire-expectations``,
    ``--thinkwire-report``. The marker ``@pytest.mark.thinkwire(**kwargs)`` passes its kwargs to ``run()``."""
    group = parser.getgroup("thinkwire", "thinkwire reasoning-stream conformance")
    group.addoption(
        "--thinkwire-cases",
        action="append",
        default=None,
        metavar="GLOB",
        help="case or scenario id globs for thinkwire_case / thinkwire_run (repeatable)",
    )
    group.addoption(
        "--thinkwire-strict", action="store_true", default=False, help="treat NON_STRICT verdicts as failures"
    )
    group.addoption(
        "--thinkwire-expectations",
        default=None,
        metavar="FILE",
        help="expectations TOML: case id -> expected verdict",
    )
    group.addoption(
        "--thinkwire-scenarios",
        action="append",
        default=None,
        metavar="DIR",
        help="a directory of your own scenarios, added to the catalog (repeatable)",
    )
    group.addoption(
        "--thinkwire-report",
        default=None,
        metavar="DIR",
        help="write results.json / summary.md / report.html of every thinkwire run here",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "thinkwire(**kwargs): keyword arguments for harness.run() (cases, sut, strict, ...)"
    )
    config.stash[_RESULTS_KEY] = []


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "thinkwire_case" not in metafunc.fixturenames:
        return
    from harness.runner import load_cases

    marker = metafunc.definition.get_closest_marker("thinkwire")
    patterns = metafunc.config.getoption("--thinkwire-cases") or (
        marker.kwargs.get("cases") if marker else None
    )
    if isinstance(patterns, str):
        patterns = [patterns]
    dirs = metafunc.config.getoption("--thinkwire-scenarios") or (
        marker.kwargs.get("scenarios") if marker else ()
    )
    cases = load_cases(patterns, scenarios=dirs or ())
    metafunc.parametrize("thinkwire_case", cases, ids=[c.id for c in cases])


@dataclass
class MockUpstreamHandle:
    """The session's mock upstream, reset for one test: ``load(conversation)``, ``base_url``,
    ``timeline``, ``client`` (report client-side events with ``client.observe(event)``)."""

    server: Any
    timeline: Timeline
    client: Any
    loaded: list[Any] = field(default_factory=list)

    @property
    def base_url(self) -> str:
        return str(self.server.base_url)

    def load(self, conversation: Any) -> None:
        from harness.upstream import Conversation, Script

        if isinstance(conversation, Script):
            conversation = Conversation((conversation,))
        self.server.load(conversation, timeline=self.timeline, client=self.client)
        self.loaded.append(conversation)

    @property
    def requests(self) -> list[Any]:
        return list(self.server.requests)


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
    from harness.timeline import Timeline
    from harness.upstream import ClientSide

    handle = MockUpstreamHandle(thinkwire_upstream, Timeline(), ClientSide())
    thinkwire_upstream.load(_empty_conversation(), timeline=handle.timeline, client=handle.client)
    return handle


def _empty_conversation() -> Any:
    from harness.upstream import Conversation

    return Conversation(())


@pytest.fixture
def thinkwire_run(
    request: pytest.FixtureRequest, thinkwire_upstream: Any, tmp_path_factory: pytest.TempPathFactory
) -> Callable[..., RunResult]:
    """``thinkwire_run(cases=..., sut=..., **kw)`` -> RunResult, with the command-line options and the
    ``thinkwire`` marker's kwargs applied (call arguments win).

    ``thinkwire_case`` is parametrised over ``--thinkwire-cases`` for the same purpose.
    """
    from harness.runner import run

    marker = request.node.get_closest_marker("thinkwire")
    config = request.config
    runs: list[RunResult] = []
    request.node.stash[_ITEM_RUNS] = runs
    report_dir = config.getoption("--thinkwire-report")
    base = Path(report_dir) if report_dir else tmp_path_factory.getbasetemp() / "thinkwire"
    request.node.stash[_SVG_DIR] = base / "swimlanes"

    def _run(cases: Any = None, **kwargs: Any) -> RunResult:
        opts: dict[str, Any] = dict(marker.kwargs) if marker else {}
        if config.getoption("--thinkwire-strict"):
            opts["strict"] = True
        if config.getoption("--thinkwire-expectations"):
            opts["expectations"] = config.getoption("--thinkwire-expectations")
        if config.getoption("--thinkwire-scenarios"):
            opts["scenarios"] = config.getoption("--thinkwire-scenarios")
        opts.update(kwargs)
        cases = (
            cases if cases is not None else (config.getoption("--thinkwire-cases") or opts.pop("cases", None))
        )
        opts.pop("cases", None)
        if isinstance(cases, str):
            cases = [cases]
        result = run(cases, upstream=thinkwire_upstream, **opts)
        if report_dir:  # (without a report nothing is kept past the test: a long session stays flat)
            config.stash[_RESULTS_KEY].append(_for_report(result))
        runs.append(result)
        return result

    return _run


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
        pytest.fail("thinkwire_snapshot needs syrupy's snapshot fixture: its plugin is disabled "
                    "(drop -p no:syrupy)", pytrace=False)
    from harness.snapshot import TimelineSnapshotExtension

    return snapshot.use_extension(TimelineSnapshotExtension)


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: Any, right: Any) -> list[str] | None:
    if op != "==":
        return None
    from harness._explain import explain_difference

    return explain_difference(left, right)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A failing test that ran thinkwire cases: write the swimlane of each case that did not pass and
    name the files in the failure message.

    The message gets two sections: the test's unexpected cases, with case, each reason and the reproduce
    line, and one swimlane SVG per case that did not pass. The SVGs go under ``--thinkwire-report``
    DIR/swimlanes, else under pytest's base temp dir.
    """
    outcome = yield
    report = outcome.get_result()
    runs = item.stash.get(_ITEM_RUNS, None)
    if report.when != "call" or not runs:
        return
    item.stash[_ITEM_RUNS] = []  # the item outlives its test: it keeps no run (and no timeline) past it
    if not report.failed:
        return
    from harness.report import write_swimlanes

    _section(report, "thinkwire unexpected results", _unexpected_lines(runs))
    lines = []
    for result in runs:
        for case_id, path in write_swimlanes(result, item.stash[_SVG_DIR]).items():
            lines.append(f"{case_id}: {path}")
    _section(report, "thinkwire swimlanes (SVG, evidence marked)", lines)


def _unexpected_lines(runs: list[RunResult], limit: int = 20) -> list[str]:
    """Each unexpected case of the test's runs: case, each reason (check, verdict, message), reproduce
    line; the first ``limit`` of them."""
    from harness._explain import case_lines

    bad = [r for result in runs for r in result.unexpected]
    lines = [line for r in bad[:limit] for line in case_lines(r)]
    return lines + ([f"... and {len(bad) - limit} more"] if len(bad) > limit else [])


def _section(report: Any, title: str, lines: list[str]) -> None:
    if not lines:
        return
    text = "\n".join(lines)
    longrepr = report.longrepr
    if hasattr(longrepr, "addsection"):
        longrepr.addsection(title, text)
    else:
        report.sections.append((title, text))


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = session.config.getoption("--thinkwire-report", None)
    results = session.config.stash.get(_RESULTS_KEY, [])
    if not out or not results:
        return
    from harness.report import write_reports
    from harness.runner import RunResult

    merged = RunResult(sut=", ".join(sorted({r.sut for r in results})))
    for r in results:
        merged.results.extend(r.results)
        merged.duration_s += r.duration_s
    write_reports(merged, Path(out))
