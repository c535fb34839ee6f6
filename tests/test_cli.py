"""The command line: list, list --variants, run (exit codes, reports), errors for bad input."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import pytest

from harness.cli import main

SEEDS = [
    "pi-thinking-delta",
    "inline-think-leading-only",
    "inline-think-structured-wins",
    "reasoning-delta-alias",
    "anthropic-thinking-signature",
    "responses-summary-requested",
    "deepseek-reasoning-content-passback",
    "deepseek-replay-400",
]


def test_list_prints_the_catalog_with_seed_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) >= 300
    text = "\n".join(lines)
    for seed in SEEDS:
        assert f"seeds={seed}" in text or f",{seed}" in text or f"{seed}," in text, seed


def test_list_variants_covers_the_catalog_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--variants"]) == 0
    out = capsys.readouterr().out
    for row in [
        "CC-RC",
        "CC-R ",
        "CC-RD",
        "CC-THINK",
        "CC-MISTRAL",
        "CC-USAGE",
        "RESP-SUM",
        "RESP-EMPTY",
        "RESP-TEXT",
        "RESP-ALIAS",
        "RESP-ERR",
        "ANT-THINK",
        "ANT-REDACTED",
        "ANT-OMITTED",
        "ANT-INTERLEAVED",
        "GEM-THOUGHT",
        "GEM-SIG",
        "OLL-NATIVE",
        "BR-CONVERSE",
        "BR-INVOKE",
        "PI-JSONL-V1",
        "PI-JSONL-V2",
    ]:
        assert row.strip() in out, row


def test_run_subset_writes_reports_and_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "run",
            "-q",
            "--cases",
            "tools-passback/deepseek-reasoning-content*",
            "--report",
            str(tmp_path / "rep"),
            "--junit",
            str(tmp_path / "j.xml"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "OK: 0 unexpected" in out
    data = json.loads((tmp_path / "rep" / "results.json").read_text())
    assert len(data["results"]) == 2
    assert (tmp_path / "j.xml").read_text().count("<testcase") == 2
    assert all(not r["timeline"] and r["timeline_summary"]["entries"] for r in data["results"])  # passed
    assert main(["report", str(tmp_path / "rep" / "results.json"), "--html", str(tmp_path / "r.html")]) == 0
    assert "timeline summarised: " in (tmp_path / "r.html").read_text()


def test_keep_timelines_keeps_passing_cases_timelines(tmp_path: Path) -> None:
    case = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
    argv = ["run", "-q", "--sut", "reference-sdk", "--cases", case, "--keep-timelines"]
    assert main([*argv, "--report", str(tmp_path)]) == 0
    (result,) = json.loads((tmp_path / "results.json").read_text())["results"]
    assert result["timeline"]
    assert "timeline_summary" not in result
    assert "<svg" in (tmp_path / "report.html").read_text()


def test_run_with_a_fault_fails_with_exit_one(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "run",
            "-q",
            "--fault",
            "lose-passback",
            "--cases",
            "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert (
        "[passback] FAIL" in out
    )
    assert (
        "reproduce: thinkwire run --sut reference --fault lose-passback" in out
    )


def test_bad_inputs_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "-q", "--cases", "no/such/case"]) == 2
    assert "no case matches" in capsys.readouterr().err
    bad = tmp_path / "p.toml"
    bad.write_text('kind = "gatway"\n')
    assert main(["run", "-q", "--sut", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err
    assert "'kind'" in err
    assert "gateway" in err


# -- issue 39: one flag name per idea, every flag explained, one placeholder style -------------------
def _subparsers(
    parser: argparse.ArgumentParser | None = None, prefix: str = ""
) -> dict[str, argparse.ArgumentParser]:
    """Every command's parser by its name (``corpus fetch``: nested sub-commands too)."""
    from harness.cli import build_parser

    out: dict[str, argparse.ArgumentParser] = {}
    for a in (parser or build_parser())._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, p in a.choices.items():
                out[prefix + name] = p
                out.update(_subparsers(p, f"{prefix}{name} "))
    return out


def test_every_flag_has_help_and_one_placeholder_style() -> None:
    """``serve --help`` said nothing for --dialect/--variant; ``run`` showed S, TIMEOUT and GATE_TIMEOUT
    for three numbers of seconds. Now every argument of every command has help text, a placeholder is
    one word chosen for it (never a dest-derived SUT_CMD), and every number of seconds reads SECONDS."""
    for name, parser in _subparsers().items():
        for a in parser._actions:
            skip = isinstance(a, argparse._HelpAction | argparse._SubParsersAction)
            if skip or a.help == argparse.SUPPRESS:
                continue
            where = f"thinkwire {name} {a.option_strings or a.dest}"
            assert a.help, f"{where}: no help text"
            if a.type is float:
                assert a.metavar == "SECONDS", f"{where}: {a.metavar}"
            takes_value = a.option_strings and a.nargs != 0 and not a.choices
            assert not (takes_value and a.metavar is None and "_" in a.dest), f"{where}: no placeholder"
            assert a.metavar not in ("S", "TIMEOUT", "GATE_TIMEOUT"), where


@pytest.mark.parametrize(
    ("argv", "new"),
    [
        (["run", "--scenarios", "{own}", "--sut", "reference-sdk", "--cases", "team/*", "-q"],
         "--scenarios-dir"),
        (["list", "--scenarios", "--cases", "cleanup/*"], "--by-scenario"),
    ],
)
def test_old_flag_spellings_work_and_say_the_new_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], new: str
) -> None:
    own = tmp_path / "team"
    own.mkdir()
    (own / "my-case.toml").write_text(
        'description = "d"\nrequirement = "The SUT MUST stream."\ncategory = "incrementality"\n'
        'dialects = ["openai-chat"]\nvariants = ["reasoning_content"]\n'
        '[[turns]]\nuser = "hi"\nsteps = [{ reasoning = "r" }, { text = "t" }]\n'
    )
    argv = [str(tmp_path) if a == "{own}" else a for a in argv]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err.splitlines()[0] == f"thinkwire: warning: --scenarios is deprecated; use {new}"
    new_argv = [new if a == "--scenarios" else a for a in argv]
    assert main(new_argv) == 0
    again, err = capsys.readouterr()
    timing = re.compile(r"in \d+\.\d+s")
    assert timing.sub("", again) == timing.sub("", out)
    assert "deprecated" not in err
    assert "--scenarios " not in _subparsers()[argv[0]].format_help()  # the old name is not advertised


@pytest.mark.parametrize("old", ["-j", "--jobs"])
def test_jobs_is_a_deprecated_alias_of_concurrency(
    old: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """-j N ran the cases on pytest-xdist workers, slower than --concurrency everywhere measured
    (benchmarks/workers.py): kept one release, it says so in one line and runs with --concurrency N."""
    from harness import cli
    from harness.runner import RunOptions

    seen: list[RunOptions] = []
    real = cli._check_run_args

    def check(args: Any) -> Any:
        options, cases = real(args)
        seen.append(options)
        return options, cases

    monkeypatch.setattr(cli, "_check_run_args", check)
    one = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
    assert main(["run", "--sut", "reference-sdk", "--cases", one, "-q", old, "3"]) == 0
    _, err = capsys.readouterr()
    assert err.splitlines() == [f"thinkwire: warning: {old} is deprecated; use --concurrency"]
    assert seen[0].concurrency == 3
    (alias,) = [a for a in _subparsers()["run"]._actions if old in a.option_strings]
    assert alias.help == argparse.SUPPRESS  # not advertised
    assert main(["run", "-q", old, "0"]) == 2  # refused as --concurrency 0 is
    assert "--concurrency: expected a number of cases in flight >= 1, got 0" in capsys.readouterr()[1]
    with pytest.warns(DeprecationWarning, match="'jobs' is deprecated; use concurrency"):
        assert RunOptions.build(jobs=2).concurrency == 2


def test_readme_says_where_the_report_goes_and_it_is_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Next to its two commands the README says that ``thinkwire run`` writes no report without
    ``--report DIR``, and where it goes with it; a run shows both."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    two = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    said = " ".join(two.split())
    assert "It writes no file: the report is the terminal's unless you add `--report DIR`" in said
    assert "which writes `report.html`, `summary.md` and `results.json` into `DIR`" in said
    monkeypatch.chdir(tmp_path)
    case = "wire-variants/reasoning-then-answer?openai-chat:reasoning_content/frames?"
    assert main(["run", "-q", "--sut", "reference-sdk", "--cases", case]) == 0
    assert list(tmp_path.iterdir()) == []
    assert main(["run", "-q", "--sut", "reference-sdk", "--cases", case, "--report", "out/r"]) == 0
    written = {p.name for p in (tmp_path / "out" / "r").iterdir()}
    assert written >= {"report.html", "summary.md", "results.json"}
    assert "report written to out/r" in capsys.readouterr().out


def test_sut_cmd_help_and_profile_doc_say_where_the_sut_runs() -> None:
    """The SUT runs in a temp dir: ``--help`` and the profile doc say so, name ``{tmp}``, and say what
    a relative path in ``--sut-cmd`` is relative to."""
    run = _subparsers()["run"]
    said = " ".join(next(a for a in run._actions if "--sut-cmd" in a.option_strings).help.split())
    assert "started in a fresh temp dir ({tmp})" in said
    assert "relative to the directory thinkwire was started in" in said
    doc = (Path(__file__).resolve().parents[1] / "docs" / "writing-a-sut-profile.md").read_text()
    doc = " ".join(doc.split())
    assert "The `--sut-cmd` gateway runs in a fresh temp dir (`{tmp}`, its working directory)" in doc
    assert "made absolute against the directory thinkwire was started in" in doc
    assert '"./bin/gateway"' not in doc  # a profile's relative program would be looked for in {tmp}


def test_timing_fields_come_in_order_and_end_is_the_last_turns() -> None:
    """A tool round trip: turn 0 ends with the tool call, the text comes in turn 1. ``end_ms`` was the
    first End (turn 0's), so it read ``ttft_text_ms=20.31, end_ms=8.03``; it is the last turn's end now,
    and a figure with nothing to measure is left out (never ``None``)."""
    from harness.runner import run

    case = "tools-passback/deepseek-reasoning-content?openai-chat:reasoning_content/frames?"
    (result,) = run([case], sut="reference-sdk").results
    (timing,) = [f for f in result.findings if f.check == "timing"]
    data = timing.data
    assert list(data) == ["ttft_reasoning_ms", "ttft_text_ms", "end_ms", "client_reads", "upstream_writes"]
    assert data["ttft_reasoning_ms"] <= data["ttft_text_ms"] <= data["end_ms"]
    assert timing.message.startswith(f"ttft_reasoning_ms={data['ttft_reasoning_ms']:.2f}, ")
    dropped = "wire-variants/reasoning-then-answer?openai-chat:reasoning_content/frames?"
    (result,) = run([dropped], sut="reference-sdk", faults=["drop-reasoning"]).results
    (timing,) = [f for f in result.findings if f.check == "timing"]
    assert "ttft_reasoning_ms" not in timing.data  # no reasoning reached the client: nothing to time
    assert "None" not in timing.message
    assert timing.message.startswith("ttft_text_ms=")


def test_upstream_listen_refuses_a_port_in_use_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        code = main(["run", "--sut-url", "http://127.0.0.1:1", "--upstream-listen", f"127.0.0.1:{port}"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        f"thinkwire: error: --upstream-listen 127.0.0.1:{port}: cannot listen there (address already in "
        "use); choose a free port, or stop what holds it\n"
    )


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--upstream-url", "http://gw:1"], "--upstream-url http://gw:1: needs --upstream-listen HOST:PORT"),
        (["--upstream-listen", "18080"], "--upstream-listen '18080': expected HOST:PORT"),
        (["--upstream-listen", "127.0.0.1:1", "--upstream-url", "gw:1"], "expected the http:// URL"),
    ],
)
def test_bad_upstream_flags_are_one_line(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--sut-url", "http://127.0.0.1:1", *flags]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert err.count("\n") == 1


def test_a_profile_fixes_the_upstream_address_and_the_url_its_sut_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``upstream_listen`` / ``upstream_url`` in a profile: the mock binds there, ``{upstream}`` is the
    URL (here another spelling of the same address), results.json says both."""
    import socket
    import sys

    relay = Path(__file__).parent / "suts" / "relay.py"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    profile = tmp_path / "relay.toml"
    profile.write_text(
        f'kind = "gateway"\nname = "relay"\n'
        f"command = [{json.dumps(sys.executable)}, {json.dumps(str(relay))}, "
        '"--listen", "{port}", "--upstream", "{upstream}"]\n'
        f'upstream_listen = "127.0.0.1:{port}"\nupstream_url = "http://localhost:{port}"\n'
        'dialects = ["openai-chat"]\n',
        encoding="utf-8",
    )
    report = tmp_path / "report"
    assert main(["run", "--sut", str(profile), "--cases", "timing/*", "-q", "--report", str(report)]) == 0
    err = capsys.readouterr().err
    assert f"mock upstream listening on 127.0.0.1:{port}; the SUT is told http://localhost:{port}" in err
    data = json.loads((report / "results.json").read_text(encoding="utf-8"))
    assert data["run_info"]["upstream"] == {"listen": f"127.0.0.1:{port}", "url": f"http://localhost:{port}"}
    assert data["results"]
    assert all(r["status"] == "OK" for r in data["results"])


def test_an_upstream_address_names_its_url() -> None:
    from harness.runner._listen import Address

    assert Address.of("0.0.0.0:18080", None).url == "http://0.0.0.0:18080"  # (a container's reach)
    assert Address.of("[::1]:18080", None).info() == {"listen": "[::1]:18080", "url": "http://[::1]:18080"}
    told = Address.of("0.0.0.0:18080", "http://172.17.0.1:18080")
    assert (told.host, told.port, told.url) == ("0.0.0.0", 18080, "http://172.17.0.1:18080")
