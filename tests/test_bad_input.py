"""Bad input gives one line naming the file or flag, the field, what was expected and the fix (exit 2),
before anything runs: no traceback, no value silently taken for another (issue 14, item 7)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness import ScenarioError
from harness.catalog import load_expectations, load_scenario
from harness.cli import main
from harness.drivers import load_profile

URL = 'kind = "url"\nurl = "http://127.0.0.1:9"\n'

PROFILES = [
    # (id, profile text, what the one line must say)
    ("unclosed quote", 'kind = "gateway"\ncommand = "gw \'--port"\n', ["'command'", "No closing quotation"]),
    ("dialect not a string", URL + "dialects = [1]\n", ["'dialects'", "list of strings", "int (1)"]),
    ("model template", URL + 'models = {"*" = "{dialekt}"}\n', ["'models.*'", "dialekt", "{dialect}"]),
    (
        "model key both",
        URL + 'models = {gemini = "g"}\n',
        ["'models.gemini'", "provider:gemini", "dialect:gemini"],
    ),
    ("front variant", URL + 'front_variant = "nosuch"\n', ["'front_variant'", "'nosuch'", "reasoning"]),
    ("timeout true", URL + "timeout = true\n", ["'timeout'", "number of seconds", "bool (True)"]),
    ("timeout string", URL + 'timeout = "20"\n', ["'timeout'", "expected a number of seconds", "str ('20')"]),
    ("timeout negative", URL + "timeout = -1\n", ["'timeout'", "> 0"]),
    ("ready_timeout zero", URL + "ready_timeout = 0\n", ["'ready_timeout'", "> 0"]),
    ("env table", URL + "env = {A = {b = 1}}\n", ["'env.A'", "expected a string", "dict"]),
    ("keep_alive string", URL + 'keep_alive = "yes"\n', ["'keep_alive'", "true or false", "str ('yes')"]),
    ("command list of ints", 'kind = "gateway"\ncommand = ["gw", 1]\n', ["'command'", "list of strings"]),
    ("cli input", 'kind = "cli"\ncommand = ["a"]\ninput = "stdin"\n', ["'input'", "'stdin'", "rpc"]),
    ("rpc not a cli", URL + 'input = "rpc"\n', ["'input'", "only a cli profile", "url"]),
    (
        "rpc cli with an SSE front door",
        'kind = "cli"\ncommand = ["a"]\ninput = "rpc"\nfront_door = "openai-chat"\n',
        ["'input'", "pi-json", "openai-chat"],
    ),
]


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    _, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(("text", "says"), [p[1:] for p in PROFILES], ids=[p[0] for p in PROFILES])
def test_bad_profile_is_one_line_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: list[str]
) -> None:
    prof = tmp_path / "sut.toml"
    prof.write_text(text)
    report = tmp_path / "out"
    assert main(["run", "--sut", str(prof), "-q", "--report", str(report)]) == 2
    line = one_line(capsys)
    assert line.startswith(f"thinkwire: error: {prof}: field ")
    for s in says:
        assert s in line
    assert not report.exists()  # refused before the run


def test_profile_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prof = tmp_path / "sut.toml"
    prof.write_bytes(URL.encode() + b'name = "caf\xe9"\n')
    assert main(["run", "--sut", str(prof), "-q"]) == 2
    line = one_line(capsys)
    assert f"{prof}: field '<file>': is not UTF-8 text (byte 0xe9 at offset" in line
    assert "save it as UTF-8" in line


FLAGS = [
    (["--sut-cmd", "gw '--port"], ["--sut-cmd: field 'command'", "No closing quotation"]),
    (["--timeout", "-1"], ["--timeout: expected a number of seconds > 0, got -1", "--timeout 30"]),
    (["--timeout", "0"], ["--timeout: expected a number of seconds > 0, got 0"]),
    (["--timeout", "nan"], ["--timeout: expected a number of seconds > 0"]),
    (["--concurrency", "0"], ["--concurrency: expected a number of cases in flight >= 1, got 0"]),
    (["--cases", "nomatch"], ["--cases: no case matches nomatch"]),
    (["--cases", "nomatch", "--concurrency", "2"], ["--cases: no case matches nomatch"]),
    (["--junit", "/proc/nope/x.xml"], ["--junit: cannot write to /proc/nope/x.xml"]),
    (["--repeat", "0"], ["--repeat: expected a number of runs >= 1, got 0"]),
    (["--max-bytes", "0"], ["--max-bytes: expected a number of bytes >= 1, got 0"]),
    (["--gate-timeout", "-2"], ["--gate-timeout: expected a number of seconds > 0, got -2"]),
    (["--sut", "nopkg.adapter:stream"], ["--sut nopkg.adapter:stream: neither a profile file", "nopkg"]),
    (["--sut", "nopkg.toml"], ["nopkg.toml: field '<file>': cannot be read"]),
    (["--sut-url", "http://127.0.0.1:9", "--fault", "buffer"], ["--fault buffer: the SUT", "no fault"]),
    (["--sut-cmd", "gw --port {port}", "--fault", "buffer"], ["--fault buffer:", "no fault switches"]),
]


@pytest.mark.parametrize(("argv", "says"), FLAGS, ids=[" ".join(f[0]) for f in FLAGS])
def test_bad_run_flag_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: list[str]
) -> None:
    assert main(["run", "-q", *argv]) == 2
    line = one_line(capsys)
    assert line.startswith("thinkwire: error: ")
    for s in says:
        assert s in line


def test_bad_run_settings_are_flag_errors_from_python_too(tmp_path: Path) -> None:
    """The same FlagError (a ThinkwireError: one line from the CLI) for run()'s keywords, as
    serve/record/replay raise for theirs; an unknown keyword is a TypeError naming the closest."""
    from harness import FlagError
    from harness.runner import RunOptions, run

    bads = ({"timeout": 0}, {"concurrency": 0}, {"repeat": -1}, {"keep_timelines": "some"})
    for bad in (*bads, {"max_bytes": True}):
        with pytest.raises(FlagError):
            RunOptions(**bad)  # type: ignore[arg-type]
        with pytest.raises(FlagError):
            run(["timing/*"], **bad)
    with pytest.raises(TypeError, match="unknown run setting 'strictt': did you mean 'strict'"):
        run(["timing/*"], strictt=True)
    profile = tmp_path / "sut.toml"
    profile.write_text(URL)
    with pytest.raises(FlagError, match="no fault switches"):
        run(["timing/*"], sut=str(profile), faults=["buffer"])


def test_cases_nomatch_same_line_serial_and_concurrent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "-q", "--cases", "nomatch", "--concurrency", "1"]) == 2
    serial = one_line(capsys)
    assert main(["run", "-q", "--cases", "nomatch", "--concurrency", "8"]) == 2
    assert one_line(capsys) == serial


def test_report_and_junit_paths_checked_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert main(["run", "-q", "--report", str(afile)]) == 2
    assert f"--report: {afile} is an existing file; expected a directory" in one_line(capsys)
    assert main(["run", "-q", "--junit", str(tmp_path)]) == 2
    assert f"--junit: {tmp_path} is a directory; expected a file path" in one_line(capsys)
    assert main(["run", "-q", "--write-expectations", str(afile / "x.toml")]) == 2
    assert "--write-expectations: cannot write to" in one_line(capsys)
    # a writable new path passes the probe and is left as it was (not created by the check)
    from harness.cli import _check_output

    new = tmp_path / "a" / "b" / "report"
    _check_output("--report", new, directory=True)
    _check_output("--junit", tmp_path / "c" / "j.xml", directory=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_list_cases_nomatch(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--cases", "nomatch"]) == 2
    assert "--cases: no case matches nomatch" in one_line(capsys)


def test_list_into_a_closed_pipe_prints_no_traceback() -> None:
    """``thinkwire list | head -1``: the reader is gone before the writer is done. Here it is gone
    before the first write (the read end closed first), so the broken pipe is certain, not a race."""
    import os

    r, w = os.pipe()
    os.close(r)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "harness.cli", "list"], stdout=w, stderr=subprocess.PIPE, timeout=120
        )
    finally:
        os.close(w)
    assert proc.stderr == b""
    assert proc.returncode == 141


def test_results_json_with_bad_t_ms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    results = {
        "format": "thinkwire-results",
        "version": 1,
        "sut": "x",
        "results": [{"case_id": "c", "timeline": [{"t_ms": "x", "side": "client", "act": "event"}]}],
    }
    from harness.report._json import FORMAT, VERSION

    results["format"], results["version"] = FORMAT, VERSION
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    assert main(["report", str(path)]) == 2
    line = one_line(capsys)
    assert f"{path}: field 'results[0].timeline[0].t_ms': expected int or float, got str 'x'" in line


# -- scenarios --------------------------------------------------------------------------------------
GOOD = """
description = "d"
requirement = "The SUT MUST do it."
category = "errors-cancellation"
dialects = ["openai-chat"]
variants = ["reasoning_content"]
EXPECT

[[turns]]
user = "hi"
steps = [ STEP ]
"""
OK_STEP = '{ reasoning = "r" }, { text = "t" }'

SCENARIOS = [
    (
        "status string",
        "",
        '{ http_error = { status = "429", message = "m" } }',
        "http_error.status",
        "str ('429')",
    ),
    ("status out of range", "", "{ http_error = { status = 200 } }", "http_error.status", "from 400 to 599"),
    ("stall negative", "", "{ stall = -3 }", "steps[0].stall", "> 0, got -3"),
    ("pause string", "", '{ pause = "1" }', "steps[0].pause", "number of seconds"),
    (
        "gate timeout bool",
        "",
        "{ gate = { reasoning = 'r', timeout = true } }",
        "gate.timeout",
        "bool (True)",
    ),
    ("gate events zero", "", "{ gate = { events = 0 } }", "gate.events", ">= 1"),
    ("usage string", "", '{ usage = { input_tokens = "5" } }', "usage.input_tokens", "integer"),
    ("gate_timeout bool", "gate_timeout = true", OK_STEP, "gate_timeout", "got bool"),
    ("expect stream typo", 'expect = { stream = "PASZ" }', OK_STEP, "expect.stream", "'PASS'"),
    ("expect cleanup verdict", 'expect = { cleanup = "NON_STRICT" }', OK_STEP, "expect.cleanup", "UNCLEAN"),
    (
        "expect findings check",
        'expect = { findings = { no-such-check = "maybe" } }',
        OK_STEP,
        "expect.findings.no-such-check",
        "unknown check",
    ),
    (
        "expect findings verdict",
        'expect = { findings = { delivery = "PASZ" } }',
        OK_STEP,
        "expect.findings.delivery",
        "'PASS'",
    ),
    ("expect findings not table", 'expect = { findings = "PASS" }', OK_STEP, "expect.findings", "table"),
]


@pytest.mark.parametrize(
    ("expect", "step", "fld", "says"), [s[1:] for s in SCENARIOS], ids=[s[0] for s in SCENARIOS]
)
def test_bad_scenario_value(tmp_path: Path, expect: str, step: str, fld: str, says: str) -> None:
    p = tmp_path / "s.toml"
    p.write_text(GOOD.replace("EXPECT", expect).replace("STEP", step))
    with pytest.raises(ScenarioError) as info:
        load_scenario(p)
    msg = str(info.value)
    assert msg.startswith(f"{p}: field ")
    assert fld in info.value.field
    assert says in msg
    assert "\n" not in msg


def test_scenario_expect_keys_are_kept(tmp_path: Path) -> None:
    p = tmp_path / "s.toml"
    expect = 'expect = { stream = "NON_STRICT", cleanup = "PASS", findings = { delivery = "PASS" } }'
    p.write_text(GOOD.replace("EXPECT", expect).replace("STEP", OK_STEP))
    s = load_scenario(p)
    assert dict(s.expect) == {"stream": "NON_STRICT", "cleanup": "PASS", "delivery": "PASS"}


def test_scenario_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "s.toml"
    p.write_bytes(
        GOOD.replace("EXPECT", "").replace("STEP", OK_STEP).replace('"d"', '"caf\xe9"').encode("latin-1")
    )
    with pytest.raises(ScenarioError, match=r"field '<file>': is not UTF-8 text \(byte 0xe9"):
        load_scenario(p)


# -- scenario expect, enforced ----------------------------------------------------------------------
def test_expect_findings_reports_a_verdict_that_differs(tmp_path: Path) -> None:
    from harness.catalog._scenario_expect import expect_findings
    from harness.verdict import Axis, Finding, Verdict

    p = tmp_path / "s.toml"
    expect = 'expect = { stream = "NON_STRICT", findings = { timing = "INFO", delivery = "PASS" } }'
    p.write_text(GOOD.replace("EXPECT", expect).replace("STEP", OK_STEP))
    s = load_scenario(p)
    ok = [
        Finding("delivery", Verdict.PASS),
        Finding("timing", Verdict.INFO),
        Finding("x", Verdict.NON_STRICT),
    ]
    assert expect_findings(s, ok) == []
    passing = [Finding("delivery", Verdict.PASS), Finding("timing", Verdict.PASS)]
    (miss,) = expect_findings(s, passing)
    assert miss.check == "scenario-expect"
    assert miss.verdict == Verdict.FAIL
    assert "stream = NON_STRICT expected, got PASS" in miss.message
    assert "timing = INFO expected, got PASS" in miss.message
    # a verdict that is itself a failure is its own check's to report: no second finding
    failing = [
        Finding("delivery", Verdict.FAIL),
        Finding("timing", Verdict.INFO),
        Finding("c", Verdict.UNCLEAN, Axis.CLEANUP),
    ]
    assert expect_findings(s, failing) == []


def test_expect_is_enforced_in_a_run(tmp_path: Path) -> None:
    from harness.runner import load_cases, run

    root = tmp_path / "scn"
    (root / "x").mkdir(parents=True)
    steps = '{ reasoning = "r" }, { text = "t" }'
    (root / "x" / "holds.toml").write_text(
        GOOD.replace("EXPECT", 'expect = { findings = { delivery = "PASS" } }').replace("STEP", steps)
    )
    (root / "x" / "wrong.toml").write_text(
        GOOD.replace("EXPECT", 'expect = { findings = { timing = "PASS" } }').replace("STEP", steps)
    )
    result = run(load_cases(["x/*"], root=root), sut="reference-sdk")
    by = {r.scenario_id: r for r in result.results}
    assert not [f for f in by["x/holds"].findings if f.check == "scenario-expect"]
    (miss,) = [f for f in by["x/wrong"].findings if f.check == "scenario-expect"]
    assert "timing = PASS expected, got" in miss.message
    assert by["x/wrong"].unexpected
    assert not by["x/holds"].unexpected


# -- one loader and one field checker for every file users write (issue 26, item 4) ----------------

LOADERS = {"scenario": load_scenario, "profile": load_profile, "expectations": load_expectations}
BAD_FILES = [
    ("not utf-8", b'x = "caf\xe9"\n', "is not UTF-8 text (byte 0xe9 at offset 8) (save it as UTF-8)"),
    ("not toml", b"x = \n", "not valid TOML: "),
    ("missing", None, "cannot be read: [Errno 2] No such file or directory"),
]


@pytest.mark.parametrize("kind", sorted(LOADERS))
@pytest.mark.parametrize(("content", "says"), [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES])
def test_every_file_kind_says_a_bad_file_in_the_same_words(
    tmp_path: Path, kind: str, content: bytes | None, says: str
) -> None:
    path = tmp_path / "f.toml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ScenarioError) as info:
        LOADERS[kind](path)
    assert str(info.value).startswith(f"{path}: field '<file>': {says}")


EXPECTATION_FILES = [
    ("verdict typo", '[cases."a"]\nstream = "FAI"\n', "cases.a.stream", "unknown verdict 'FAI'", "'FAIL'"),
    ("unknown key", '[cases."a/b"]\nstrem = "FAIL"\n', "cases.a/b.strem", "unknown field", "'stream'"),
    ("wrong type", '[cases."a/b"]\nstream = 1\n', "cases.a/b.stream", "expected a string, got int (1)", ""),
    ("reason type", '[cases."a/b"]\nreason = ["x"]\n', "cases.a/b.reason", "expected a string, got list", ""),
    ("not a table", '[cases]\n"a/b" = "FAIL"\n', "cases.a/b", "expected a table, got str ('FAIL')", ""),
    ("top level", 'stream = "FAIL"\n', "stream", "unknown top-level table", 'cases."<id>"'),
]


@pytest.mark.parametrize(
    ("text", "fld", "problem", "hint"),
    [e[1:] for e in EXPECTATION_FILES],
    ids=[e[0] for e in EXPECTATION_FILES],
)
def test_bad_expectations_file_names_the_case_field_and_fix(
    tmp_path: Path, text: str, fld: str, problem: str, hint: str
) -> None:
    path = tmp_path / "x.expectations.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_expectations(path)
    assert info.value.field == fld
    assert problem in info.value.problem
    assert hint in info.value.hint


# -- issue 39: paths, placeholders, URLs and built-in names, one precise line each ------------------
MESSAGES = [
    (
        ["--sut-url", "localhost:8080"],
        "--sut-url localhost:8080: it has no scheme; did you mean http://localhost:8080?",
    ),
    (["--sut-url", "ftp://h:1/v1"], "--sut-url ftp://h:1/v1: the scheme 'ftp' is not http or https"),
    (
        ["--sut", "refrence"],
        "--sut refrence: no such profile file, nor a built-in SUT; did you mean reference?",
    ),
    (["--sut", "refernce-cli"], "did you mean reference-cli?"),
]


@pytest.mark.parametrize(("argv", "says"), MESSAGES, ids=[" ".join(m[0]) for m in MESSAGES])
def test_scheme_less_url_and_builtin_typo_are_flag_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    assert main(["run", "-q", *argv]) == 2
    assert says in one_line(capsys)


def test_junit_under_a_file_says_which_part_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for flag, target in (("--junit", afile / "j.xml"), ("--report", afile / "sub" / "r")):
        assert main(["run", "-q", flag, str(target)]) == 2
        line = one_line(capsys)
        assert (
            line == f"thinkwire: error: {flag}: cannot write to {target}: {afile} is a file, not a directory"
        )


def test_relative_sut_cmd_resolves_against_the_start_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--sut-cmd "./gw.py ..."`` runs the gw.py of the directory thinkwire was started in (the SUT
    runs in a temp dir: it failed with "No such file or directory"); a missing one names that dir."""
    from harness.runner._sut import command_profile

    monkeypatch.chdir(tmp_path)
    assert main(["run", "-q", "--sut-cmd", "./gw.py --port {port}"]) == 2
    assert one_line(capsys) == (
        f"thinkwire: error: --sut-cmd: ./gw.py: no such file in {tmp_path} (a relative path in --sut-cmd "
        "resolves against the directory thinkwire was started in; the SUT itself runs in a fresh temp "
        "dir, {tmp})"
    )
    gw = tmp_path / "gw.py"
    gw.write_text(
        f"#!{sys.executable}\nimport sys\nfrom harness.reference.gateway import main\nsys.exit(main())\n"
    )
    gw.chmod(0o755)
    (tmp_path / "sub").mkdir()
    profile = command_profile(
        "./gw.py --port {port} --upstream {upstream} --x ../y {tmp}/z bin/q", "openai-chat"
    )
    assert profile.command == (
        str(gw),
        "--port",
        "{port}",
        "--upstream",
        "{upstream}",
        "--x",
        str(tmp_path.parent / "y"),
        "{tmp}/z",
        "bin/q",
    )
    monkeypatch.chdir(tmp_path / "sub")
    command = "../gw.py --port {port} --upstream {upstream}"
    case = "incrementality/gated-reasoning?openai-chat:reasoning_content/frames?"
    assert main(["run", "-q", "--sut-cmd", command, "--cases", case]) == 0, capsys.readouterr()


def test_adapter_error_shows_its_command_filled_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The preflight line names the adapter as it was started, not ``'{python}' '{profile_dir}/a.py'``."""
    adapter = tmp_path / "a.py"
    adapter.write_text(
        "import json, sys\n"
        "print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'a'}), flush=True)\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m.get('type') == 'turn':\n"
        "        error = {'type': 'Boom', 'message': 'boom'}\n"
        "        print(json.dumps({'id': m['id'], 'error': error}), flush=True)\n"
        "        print(json.dumps({'id': m['id'], 'done': True}), flush=True)\n"
    )
    prof = tmp_path / "sut.toml"
    prof.write_text('name = "a"\nkind = "adapter"\ncommand = ["{python}", "{profile_dir}/a.py"]\n')
    assert main(["run", "-q", "--sut", str(prof), "--cases", "incrementality/*"]) == 2
    line = one_line(capsys)
    assert "{" not in line
    assert f"at {sys.executable} {adapter} raised Boom: boom before calling the upstream" in line
