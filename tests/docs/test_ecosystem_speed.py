"""The ecosystem page's serial-against-concurrent line (issue 24): a gateway's catalog run again one
case at a time, timed beside the concurrent run, verdicts compared case by case, the cases that ran
alone (and where), and the CPU each run cost the SUT's processes and thinkwire."""

from __future__ import annotations

from pathlib import Path

from harness.runner import load_cases, run
from tools.docs._ecosystem_results import _cpu, _speed

GATEWAY = """
name = "gemini-reference"
kind = "gateway"
command = ["{python}", "-m", "harness.reference.gateway", "--port", "{port}", "--upstream", "{upstream}"]
url = "http://127.0.0.1:{port}"
front_door = "openai-chat"
dialects = ["gemini"]
models = { "*" = "{dialect}:{variant}/mock-model" }
"""


def test_a_gateway_gets_its_serial_time_and_the_verdicts_compared(tmp_path: Path) -> None:
    path = tmp_path / "gw.toml"
    path.write_text(GATEWAY, encoding="utf-8")
    from harness.drivers import load_profile

    profile = load_profile(path)
    cases = [c for c in load_cases() if profile.claims(c.dialect, c.variant)]
    start = _cpu()
    concurrent = run(cases, sut=profile, expectations=None, keep_timelines="none", concurrency=4)
    spent = (_cpu()[0] - start[0], _cpu()[1] - start[1])
    assert concurrent.concurrency == 4
    assert spent[1] > 0  # the gateway process was reaped: its CPU is this process's children's
    [line, blank, cpu, _] = _speed(path, concurrent, spent)
    assert line.startswith("Serial against concurrent")
    assert "with 4 cases in flight" in line
    assert "verdicts differing case by case: 0. " in line
    assert line.endswith("of them on a second instance of the SUT alongside the others (when its start is "
                         "short against the time the shared cases keep the first one busy).")  # fmt: skip
    assert " cases ran alone, " in line
    assert blank == ""
    assert cpu.startswith("CPU seconds serial / concurrent: the SUT's processes ")
    assert f" / {spent[1]:.1f} (its start included)" in cpu
    assert "is a ceiling of" in cpu
    from harness.verdict import Verdict

    first = concurrent.results[0]
    first.stream = Verdict.FAIL  # as if the concurrent run had judged this case otherwise
    [line, *_] = _speed(path, concurrent, (0.0, 0.0))
    assert f"verdicts differing case by case: 1 ({first.case_id}). " in line


def test_other_kinds_and_serial_runs_get_no_line(tmp_path: Path) -> None:
    gateway, url = tmp_path / "gw.toml", tmp_path / "url.toml"
    gateway.write_text(GATEWAY, encoding="utf-8")
    url.write_text(GATEWAY.replace('kind = "gateway"', 'kind = "url"'), encoding="utf-8")

    class Run:
        concurrency = 4

    class Serial:
        concurrency = 1

    none = (0.0, 0.0)
    assert _speed(url, Run(), none) == []  # a URL SUT is not started by thinkwire: nothing to compare fairly
    assert _speed(gateway, Serial(), none) == []  # the run was serial already (an unroutable SUT)
