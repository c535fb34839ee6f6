"""The pytest plugin, exercised with pytester: each fixture, the marker, every option, assert diffs,
syrupy snapshots and case parametrisation."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CASE = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q", *args)


def test_mock_upstream_fixture(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import httpx
        from harness.dialects import get_dialect
        from harness.events import End, ReasoningDelta, TextDelta
        from harness.upstream import Emit, Script

        def test_it(mock_upstream, thinkwire_upstream):
            mock_upstream.load(Script("openai-chat", (Emit((ReasoningDelta("r"), TextDelta("t"), End())),),
                                      variant="reasoning_content"))
            body = httpx.post(mock_upstream.base_url + "/v1/chat/completions",
                              json={"model": "m", "stream": True, "messages": []}).content
            obs = get_dialect("openai-chat").observer()
            events = obs.feed(body) + obs.end()
            assert [e.text for e in events if isinstance(e, ReasoningDelta)] == ["r"]
            assert mock_upstream.base_url == thinkwire_upstream.base_url
            assert len(mock_upstream.requests) == 1
            assert mock_upstream.timeline.select("upstream", "write")
    """)
    run(pytester).assert_outcomes(passed=1)


def test_marker_kwargs_reach_run_and_options_apply(pytester: pytest.Pytester) -> None:
    exp = pytester.makefile(".toml", exp=f'[cases."{CASE}"]\nstream = "FAIL"\nreason = "known"\n')
    pytester.makepyfile(f"""
        import pytest

        @pytest.mark.thinkwire(sut="reference-sdk", faults=["lose-passback"])
        def test_known_failure_is_expected(thinkwire_run):
            result = thinkwire_run({CASE!r})
            assert result.strict
            assert result.results[0].stream.value == "FAIL"
            assert not result.unexpected, "the expectations file covers it"
    """)
    run(pytester, "--thinkwire-strict", f"--thinkwire-expectations={exp}").assert_outcomes(passed=1)


def test_cases_option_parametrises_thinkwire_case(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        def test_case(thinkwire_case):
            assert thinkwire_case.scenario.id.startswith("tools-passback/deepseek")
    """)
    result = run(pytester, "--thinkwire-cases=tools-passback/deepseek-reasoning-content*", "--collect-only")
    assert f"::test_case[{CASE}]" in result.stdout.str()  # ids are the case ids
    result.stdout.fnmatch_lines(["*2 tests collected*"])


def test_report_option_writes_merged_results(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(f"""
        def test_a(thinkwire_run):
            assert not thinkwire_run({CASE!r}, sut="reference-sdk").unexpected
    """)
    out = pytester.path / "rep"
    run(pytester, f"--thinkwire-report={out}").assert_outcomes(passed=1)
    data = json.loads((out / "results.json").read_text())
    assert [r["case_id"] for r in data["results"]] == [CASE]
    assert (out / "report.html").exists()
    # as `thinkwire run` keeps it: a passing case compact (its checks by name), no timeline
    (kept,) = data["results"]
    assert "timeline" not in kept
    assert "timeline_summary" not in kept
    assert kept["checks"]["PASS"]


def test_assert_diff_of_event_streams(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        from harness.events import ReasoningDelta, TextDelta

        def test_diff():
            got = [ReasoningDelta("a"), ReasoningDelta("b"), TextDelta("x")]
            assert got == [ReasoningDelta("ab"), TextDelta("y")]
    """)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*thinkwire streams differ*", "*TextDelta: text='x'*"])


def test_syrupy_snapshot_of_a_normalised_timeline(pytester: pytest.Pytester) -> None:
    test = """
        from harness.events import End, ReasoningDelta, TextDelta

        def test_snap(thinkwire_snapshot):
            events = [ReasoningDelta("think "), ReasoningDelta("call_abc123"), TextDelta("{text}"), End()]
            assert thinkwire_snapshot == events
    """
    pytester.makepyfile(test.replace("{text}", "Hello"))
    run(pytester, "--snapshot-update").assert_outcomes(passed=1)
    stored = next(pytester.path.rglob("*.ambr")).read_text()
    assert "reasoning ReasoningDelta: text='think call_<id>'" in stored  # coalesced, id masked
    run(pytester).assert_outcomes(passed=1)
    pytester.makepyfile(test.replace("{text}", "Changed"))
    run(pytester).assert_outcomes(failed=1)


def test_a_snapshot_stored_with_the_old_notice_spelling_still_matches() -> None:
    """A snapshot stored before Notice.kind became Notice.code matches the same stream; another doesn't."""
    pytest.importorskip("syrupy")
    from harness.events import Notice, TextDelta
    from harness.snapshot import TimelineSnapshotExtension, snapshot_text
    from harness.timeline import Timeline

    def text(code: str) -> str:
        timeline = Timeline()
        timeline.add("client", "event", event=Notice(code, "seen"))
        timeline.add("client", "event", event=TextDelta("x"))
        return snapshot_text(timeline)

    now = text("alias")
    assert "client Notice: code='alias', detail='seen'" in now
    stored = now.replace(" Notice: code=", " Notice: kind=")  # as the last release stored it
    extension = TimelineSnapshotExtension.__new__(TimelineSnapshotExtension)
    assert extension.matches(serialized_data=now, snapshot_data=stored)
    assert not extension.matches(serialized_data=text("mirrored"), snapshot_data=stored)


def test_failing_thinkwire_run_names_the_swimlane_svg_of_each_failing_case(pytester: pytest.Pytester) -> None:
    case = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
    pytester.makepyfile(f"""
        def test_wrapper(thinkwire_run):
            result = thinkwire_run({case!r}, sut="reference-sdk", faults=["drop-reasoning"])
            assert not result.unexpected
    """)
    out = pytester.path / "rep"
    result = run(pytester, f"--thinkwire-report={out}")
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "thinkwire swimlanes (SVG, evidence marked)" in text
    (line,) = [ln for ln in text.splitlines() if ln.startswith(case + ": ")]
    path = pytester.path / line.split(": ", 1)[1].strip()
    assert path.parent == out / "swimlanes"
    svg = path.read_text(encoding="utf-8")
    assert 'data-checks="delivery"' in svg  # the failing check's evidence is marked on it
    assert "evidence of delivery: #" in svg
    (kept,) = json.loads((out / "results.json").read_text())["results"]
    assert kept["timeline"]  # a case that did not pass keeps its whole timeline in the report


@pytest.mark.slow
def test_thinkwire_run_takes_a_module_callable_string(pytester: pytest.Pytester) -> None:
    """The README's example, as a new user writes it: ``sut="mypkg.adapter:stream"``."""
    pkg = pytester.mkpydir("mypkg")
    (pkg / "adapter.py").write_text(
        "from harness.reference.sdk import reference_sdk\n\n\ndef stream(request):\n"
        "    return reference_sdk(request)\n"
    )
    pytester.makepyfile("""
        def test_my_wrapper(thinkwire_run):
            result = thinkwire_run("incrementality/*", sut="mypkg.adapter:stream")   # or a profile / URL
            assert result.sut == "mypkg.adapter:stream"
            assert len(result.results) > 10
            assert not result.unexpected
    """)
    run(pytester).assert_outcomes(passed=1)


def test_a_sut_string_neither_file_nor_callable_says_both_were_tried(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest
        from harness import FlagError

        def test_it(thinkwire_run):
            with pytest.raises(FlagError) as failed:
                thinkwire_run("incrementality/*", sut="nopkg.adapter:stream")
            said = str(failed.value)
            assert "neither a profile file" in said and "nor an importable module:callable" in said
            assert "nopkg" in said and "\\n" not in said
    """)
    run(pytester).assert_outcomes(passed=1)


# -- issue 39: the pytest route works as written -----------------------------------------------------
ROOT = Path(__file__).resolve().parents[1]


def _snippet(doc: str, after: str) -> str:
    """The first ```python block after ``after`` in ``doc``, as written."""
    text = (ROOT / doc).read_text(encoding="utf-8").split(after, 1)[1]
    return text.split("```python\n", 1)[1].split("```", 1)[0]


def _wrapper(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *, doubled: bool) -> None:
    """``mypkg.adapter:stream``, the README's wrapper: the reference SDK, or one that sends every
    reasoning delta twice (a duplication its users would see)."""
    pkg = pytester.mkpydir("mypkg")
    (pkg / "adapter.py").write_text(
        "from harness.events import ReasoningDelta\n"
        "from harness.reference.sdk import reference_sdk\n\n\n"
        "def stream(request):\n"
        "    for event in reference_sdk(request):\n"
        "        yield event\n"
        f"        if {doubled} and isinstance(event, ReasoningDelta):\n"
        "            yield event\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(pytester.path))


@pytest.mark.parametrize("doc", ["README.md"])  # docs/pytest.md's are included files: tests/pytest_route
def test_docs_pytest_snippet_runs_as_written(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, doc: str
) -> None:
    snippet = _snippet(doc, "Or from your own pytest suite")
    assert 'thinkwire_run("incrementality/*", sut="mypkg.adapter:stream")' in snippet
    pytester.makepyfile(test_mine=snippet)
    _wrapper(pytester, monkeypatch, doubled=False)
    run(pytester).assert_outcomes(passed=1)


def test_a_failing_unexpected_assert_reads_case_check_message_reproduce(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``assert not result.unexpected`` failed with a cut-off ``CaseResult(...)`` dump. Now the assert
    line names the cases with a reason and reproduce line each, and a section lists every case, each
    failing check with its message, and the command that runs it again."""
    pytester.makepyfile(test_mine=_snippet("README.md", "Or from your own pytest suite"))
    _wrapper(pytester, monkeypatch, doubled=True)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "CaseResult(" not in out
    assert re.search(r"RunResult\(sut='mypkg\.adapter:stream', \d+ case\(s\), \d+ unexpected\)", out)
    assert re.search(r"assert not \[\d+ case\(s\): incrementality/\S+: \[no-duplication\] FAIL: ", out)
    section = out.split("thinkwire unexpected results", 1)[1].splitlines()
    assert section[1].startswith("× incrementality/")
    assert section[2].startswith("  [no-duplication] FAIL: ")
    reproduce = next(line for line in section if line.startswith("  reproduce: "))
    # the SUT is imported from the rootdir: the line carries it, so it runs from a shell
    line = r"  reproduce: (PYTHONPATH=\S+ )?thinkwire run --sut mypkg\.adapter:stream --cases "
    assert re.match(line, reproduce)


def test_results_repr_is_short_and_names_the_reason() -> None:
    from harness.runner import RunResult
    from harness.verdict import CaseResult, Finding, Status, Verdict

    bad = CaseResult(
        "a/b[x]", "a/b", "r", "c", "s", findings=[Finding("delivery", Verdict.FAIL, message="lost\nmore")],
        stream=Verdict.FAIL, unexpected=True, reproduce="thinkwire run --cases 'a/b[x]'",
        timeline=[{"t_ms": 0.0}] * 1000,
    )
    boom = CaseResult(
        "a/c", "a/c", "r", "c", "s", status=Status.ERROR, error="Boom\ntraceback", unexpected=True
    )
    run_result = RunResult("s", [bad, boom, CaseResult("a/d", "a/d", "r", "c", "s")])
    assert repr(run_result) == "RunResult(sut='s', 3 case(s), 2 unexpected)"
    shown = "[2 case(s): a/b[x]: [delivery] FAIL: lost; and 1 more, listed below]"
    assert repr(run_result.unexpected) == shown
    one = RunResult("s", [bad]).unexpected
    said = "[1 case(s): a/b[x]: [delivery] FAIL: lost (reproduce: thinkwire run --cases 'a/b[x]')]"
    assert repr(one) == said
    long = CaseResult("a/" + "x" * 80, "a/x", "r", "c", "s", unexpected=True, stream=Verdict.FAIL,
                      findings=[Finding("delivery", Verdict.FAIL, message="word " * 100)])
    shown = repr(RunResult("s", [long, long]).unexpected)
    assert len(shown) <= 240  # pytest cuts a longer repr in its middle
    assert shown.endswith("word…; and 1 more, listed below]")  # cut at a word, saying where the rest is
    assert repr(RunResult("s").unexpected) == "[]"
    assert run_result.unexpected == [bad, boom]  # still a list


def test_snapshot_fixture_without_syrupy_says_what_to_install(pytester: pytest.Pytester) -> None:
    """Without syrupy, ``thinkwire_snapshot`` said "fixture 'snapshot' not found"."""
    pytester.makeconftest(
        "import sys\nsys.modules['syrupy'] = None  # as if it were not installed\n"
    )
    pytester.makepyfile("""
        def test_snap(thinkwire_snapshot):
            assert thinkwire_snapshot == []
    """)
    result = run(pytester, "-p", "no:syrupy")
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert "thinkwire_snapshot needs syrupy, which is not installed: pip install 'thinkwire[pytest]' " in out
    assert "fixture 'snapshot' not found" not in out


def test_pytest_extra_brings_what_the_plugin_and_the_examples_import() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {re.split(r"[<>=\[]", d, maxsplit=1)[0] for d in extras["pytest"]}
    assert names >= {"pytest", "hypothesis", "syrupy", "pytest-xdist"}  # the docs suggest pytest -n auto


@pytest.mark.slow
def test_docs_examples_run_in_a_new_venv_with_the_pytest_extra(tmp_path: Path) -> None:
    """A new project: a fresh venv, ``pip install '<checkout>[pytest]'``, the README's snippet and the
    docs' recipe file as written. The recipe passes (its fuzzing example needs hypothesis); the
    snippet passes against a correct wrapper and, against one that doubles reasoning, fails with the
    readable list."""
    import shutil
    import subprocess
    import sys

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    pip = subprocess.run(
        [python, "-m", "pip", "install", "-q", f"{ROOT}[pytest]"], capture_output=True, text=True, timeout=900
    )
    assert pip.returncode == 0, pip.stderr[-3000:]
    project = tmp_path / "project"
    (project / "mypkg").mkdir(parents=True)
    (project / "mypkg" / "__init__.py").write_text("")
    (project / "test_mine.py").write_text(_snippet("README.md", "Or from your own pytest suite"))
    recipe = (ROOT / "tests" / "examples" / "test_pytest_recipe.py").read_text()
    (project / "test_recipe.py").write_text(recipe)

    def pytest_run(doubled: bool, *args: str) -> subprocess.CompletedProcess[str]:
        (project / "mypkg" / "adapter.py").write_text(
            "from harness.events import ReasoningDelta\n"
            "from harness.reference.sdk import reference_sdk\n\n\n"
            "def stream(request):\n"
            "    for event in reference_sdk(request):\n"
            "        yield event\n"
            f"        if {doubled} and isinstance(event, ReasoningDelta):\n"
            "            yield event\n"
        )
        env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "PYTHONPATH": str(project), "HOME": str(tmp_path)}
        return subprocess.run(
            [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
            cwd=project, capture_output=True, text=True, timeout=600, env=env,
        )

    ok = pytest_run(False)
    assert ok.returncode == 0, ok.stdout[-3000:] + ok.stderr[-2000:]
    assert "6 passed" in ok.stdout
    # docs/pytest.md's project as written, on two pytest-xdist workers (the extra brings them)
    wrapper = tmp_path / "wrapper"
    shutil.copytree(ROOT / "tests" / "pytest_route" / "project", wrapper)
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    proj = subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", "--snapshot-update"],
        cwd=wrapper, capture_output=True, text=True, timeout=600, env=env,
    )
    assert proj.returncode == 0, proj.stdout[-3000:] + proj.stderr[-2000:]
    assert "9 passed" in proj.stdout
    bad = pytest_run(True, "test_mine.py")
    assert bad.returncode == 1, bad.stdout[-3000:]
    assert "thinkwire unexpected results" in bad.stdout
    # (mypkg is imported from the project dir: the line carries it for a shell)
    line = r"  reproduce: (PYTHONPATH=\S+ )?thinkwire run --sut mypkg\.adapter:stream --cases "
    assert re.search(line, bad.stdout)


# -- issue 49: a pytest citizen ----------------------------------------------------------------------
def test_an_item_that_ran_no_case_never_passes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(f"""
        import pytest

        @pytest.mark.thinkwire(cases={CASE!r})
        def test_looks_at_the_case_only(thinkwire_case):
            assert thinkwire_case.id

        def test_glob_matches_nothing(thinkwire_run):
            assert not thinkwire_run("no-such-scenario/*", sut="reference-sdk").unexpected
    """)
    result = run(pytester, "-rf")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*thinkwire: this test ran no case, so it proves nothing: call thinkwire_run() in it*",
        "*thinkwire: this test ran no case, so it proves nothing: its thinkwire_run glob matched no case*",
    ])


def test_unsupported_variants_are_skipped_items_and_other_dialects_deselected(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(adapter="""
        import harness
        from harness.reference.sdk import reference_sdk

        @harness.claims(dialects=["openai-chat"], unsupported_variants=["openai-chat:reasoning"])
        def stream(request):
            yield from reference_sdk(request)
    """)
    pytester.makepyfile(test_it="""
        import pytest

        @pytest.mark.thinkwire(sut="adapter:stream", cases="wire-variants/reasoning-then-answer[*/frames]")
        def test_case(thinkwire_case, thinkwire_run):
            assert thinkwire_run().unexpected == []
    """)
    result = run(pytester, "-rs", "-p", "no:randomly", "--rootdir", str(pytester.path))
    out = result.stdout.str()
    outcomes = result.parseoutcomes()
    assert outcomes["skipped"] == 1, outcomes
    assert outcomes["passed"] >= 2, outcomes
    assert outcomes["deselected"] >= 5, outcomes
    assert "openai-chat:reasoning is an unsupported variant of the SUT" in out
    summary = r"thinkwire: test_it\.py::test_case: \d+ case\(s\) the SUT does not claim deselected"
    assert re.search(summary, out)


def test_the_docs_table_names_every_option_and_fixture() -> None:
    from harness.plugin import OPTIONS

    text = (ROOT / "docs" / "pytest.md").read_text(encoding="utf-8")
    table = text.split("## Fixtures, marker and options", 1)[1].split("\n## ", 1)[0]
    for flag in OPTIONS:
        assert f"| `{flag}" in table, flag
    for fixture in ("thinkwire_run", "thinkwire_case", "thinkwire_snapshot", "mock_upstream",
                    "mock_upstream_factory", "thinkwire_upstream"):
        assert f"| `{fixture}`" in table, fixture


def test_a_snapshot_of_nothing_is_refused_in_one_line() -> None:
    from harness.runner import RunResult
    from harness.snapshot import NothingToSnapshot, snapshot_text
    from harness.timeline import Timeline
    from harness.verdict import CaseResult

    unkept = CaseResult("a/b[x]", "a/b", "r", "c", "s")
    for nothing, said in [
        (unkept, "case a/b[x] kept no timeline: run it with keep_timelines='all'"),
        (RunResult("s", [unkept]), "kept no timeline"),
        (RunResult("s"), "the run has no case result"),
        ([], "an empty timeline or event list"),
        (Timeline(), "an empty timeline or event list"),
    ]:
        with pytest.raises(NothingToSnapshot) as refused:
            snapshot_text(nothing)
        assert said in str(refused.value)
        assert "\n" not in str(refused.value)


def test_a_snapshot_changes_when_the_stream_changes() -> None:
    from harness.runner import run as run_cases
    from harness.snapshot import snapshot_text

    good = snapshot_text(run_cases([CASE], sut="reference-sdk"))
    assert good == snapshot_text(run_cases([CASE], sut="reference-sdk"))  # ids and times masked
    lost = snapshot_text(run_cases([CASE], sut="reference-sdk", faults=["lose-passback"]))
    assert lost != good
    assert '"reasoning_content":"[tw-' in good.split("turn 1", 1)[1].split("\n")[1]  # what the SUT sent back
    assert "client ReasoningDelta: text=" in good  # and what its client saw


class _Config:
    """What the assertion text reads of pytest's config: verbosity and the truncation limits."""

    def __init__(self, verbosity: int = 0) -> None:
        self.verbosity = verbosity

    def get_verbosity(self, kind: str) -> int:
        return self.verbosity

    def getini(self, name: str) -> object:
        return None


def test_the_assertion_text_keeps_pytests_budget_and_cuts_at_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.plugin._failure import assertion_lines
    from harness.verdict import CaseResult, Finding, Verdict

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("BUILD_NUMBER", raising=False)
    bad = [
        CaseResult(f"a/b[x{i}]", "a/b", "r", "c", "s", unexpected=True, stream=Verdict.FAIL,
                   reproduce=f"thinkwire run --cases 'a/b[x{i}]'",
                   findings=[Finding("passback", Verdict.FAIL, message="the reasoning was lost " * 20,
                                     expected="messages[1].reasoning_content = 'x'",
                                     actual="messages[1].reasoning_content = None")])
        for i in range(3)
    ]
    lines = assertion_lines(bad, _Config(), "rep")  # type: ignore[arg-type]
    assert len(lines) <= 10
    assert sum(map(len, lines)) <= 680
    assert lines[0] == "[3 unexpected case(s)] == []"
    assert lines[1] == "× a/b[x0]"
    assert re.search(r" (the|reasoning|was|lost)…$", lines[2])
    assert "    expected: messages[1].reasoning_content = 'x'" in lines
    assert "    seen: messages[1].reasoning_content = None" in lines
    assert "  reproduce: thinkwire run --cases 'a/b[x0]'" in lines
    assert lines[-1].startswith("... 2 more case(s), every case whole: 'thinkwire unexpected results' below")
    assert "rep/results.json" in lines[-1]
    everything = assertion_lines(bad, _Config(verbosity=2), None)  # type: ignore[arg-type]
    assert sum(line.startswith("× ") for line in everything) == 3
    assert ("the reasoning was lost " * 20).strip() in everything[2]


@pytest.mark.slow
def test_under_xdist_the_report_and_the_expectations_are_one(pytester: pytest.Pytester) -> None:
    """``pytest -n 2`` (the docs' ``-n auto``): each worker's cases end up in one report and one
    expectations file, written by the controller."""
    pytester.makepyfile("""
        import pytest

        @pytest.mark.thinkwire(sut="reference-sdk", faults=["lose-passback"],
                               cases="tools-passback/deepseek-reasoning-content*")
        def test_case(thinkwire_case, thinkwire_run):
            assert thinkwire_run().unexpected == []
    """)
    exp, rep = pytester.path / "known.toml", pytester.path / "rep"
    result = run(pytester, "-n", "2", f"--thinkwire-write-expectations={exp}", f"--thinkwire-report={rep}")
    result.assert_outcomes(failed=2)
    assert exp.read_text().count("[cases.") == 2
    assert not list(pytester.path.glob("known.toml.*.part"))
    assert len(json.loads((rep / "results.json").read_text())["results"]) == 2
    assert not (rep / ".workers").exists()
    run(pytester, "-n", "2", f"--thinkwire-expectations={exp}").assert_outcomes(passed=2)
