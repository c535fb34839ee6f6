"""A crash is one verdict: a byte-transparent relay that exits (code 3) on every request carrying a tool
result gets, on each tool-result case, the one finding naming that exit; every other case keeps the
verdict the same relay without the crash gets, one at a time and with 8 in flight, and no process of
the relay is left. A SUT thinkwire did not start that stops answering ends the run: the case in flight
is named, the rest are NOT_RUN, none FAIL."""

from __future__ import annotations

import selectors
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from harness.catalog import Case
from harness.drivers import parse_profile
from harness.runner import RunResult, load_cases, run
from harness.runner._exit import SUT_EXIT, exit_seen
from harness.runner._sut import url_profile
from harness.verdict import CaseResult, Status, Verdict

RELAY = Path(__file__).parents[1] / "suts" / "relay.py"
SLICE = "*[openai-chat:reasoning_content/frames]"


def _cases() -> list[Case]:
    """One variant's streaming cases: tool round trips and others (not the keepalive cases' silences)."""
    return [c for c in load_cases([SLICE]) if not c.id.startswith("keepalive/")]


def _relay(*flags: str) -> object:
    command = [sys.executable, str(RELAY), "--listen", "{port}", "--upstream", "{upstream}", *flags]
    return parse_profile(
        {"kind": "gateway", "command": command, "front_door": "openai-chat", "name": "crashing-relay"}
    )


def _relay_children() -> list[psutil.Process]:
    out = []
    for p in psutil.Process().children(recursive=True):
        try:
            if str(RELAY) in " ".join(p.cmdline()) and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.Error:
            continue
    return out


def _verdicts(r: CaseResult) -> tuple[object, ...]:
    return (r.status, r.stream, r.cleanup, sorted((f.check, f.verdict) for f in r.findings))


@pytest.fixture(scope="module")
def clean() -> RunResult:
    """The relay without its crash, every timeline kept (which cases sent a tool result upstream)."""
    return run(_cases(), sut=_relay(), concurrency=1, keep_timelines="all")


def _sent_tool_result(r: CaseResult) -> bool:
    requests = [e.get("text", "") for e in r.timeline if e["side"] == "upstream" and e["act"] == "request"]
    return any('"role":"tool"' in t.replace(" ", "") for t in requests)


@pytest.mark.slow
@pytest.mark.parametrize("concurrency", [1, 8])
def test_the_case_that_kills_the_sut_gets_the_exit_and_no_other_verdict_moves(
    clean: RunResult, concurrency: int
) -> None:
    tools = {r.case_id for r in clean.results if _sent_tool_result(r)}
    assert 4 <= len(tools) < len(clean.results) - 10  # (the slice has both kinds)
    crashed = run(_cases(), sut=_relay("--exit-on-tool-result", "3"), concurrency=concurrency)
    assert not _relay_children()  # every relay process thinkwire started is gone, the dead ones too
    assert sorted(r.case_id for r in crashed.results) == sorted(r.case_id for r in clean.results)  # once each
    before = {r.case_id: r for r in clean.results}
    for r in crashed.results:
        if r.case_id in tools:
            (f,) = r.findings
            assert (f.check, f.verdict, r.stream) == (SUT_EXIT, Verdict.FAIL, Verdict.FAIL), r.case_id
            assert f.message == "the SUT exited with code 3 while serving this case"
            assert "relay: a tool result in the request" in f.actual  # its stderr's last lines
        else:
            assert exit_seen(r) is None, r.case_id
            assert _verdicts(r) == _verdicts(before[r.case_id]), r.case_id
    if concurrency > 1:  # cases in flight at a death ran again alone, and say so
        again = [
            r
            for r in crashed.results
            if "the SUT exited with code 3 while this case was in flight" in r.alone
        ]
        assert again
        assert any(r.case_id not in tools for r in again)
        assert crashed.concurrency == 8


@pytest.mark.slow
def test_a_death_after_the_answer_goes_to_the_case_served_not_the_next() -> None:
    """A gateway that answers, then exits: the case it served names the exit, the next case is
    judged on a restarted SUT."""
    cases = load_cases(["wire-variants/reasoning-then-answer[openai-chat:*"])[:3]
    code = (
        "import http.server, os, sys, threading\n"
        "class H(http.server.BaseHTTPRequestHandler):\n"
        "    def do_GET(self):\n"
        "        self.send_response(200); self.send_header('Content-Length', '0'); self.end_headers()\n"
        "    def do_POST(self):\n"
        "        self.rfile.read(int(self.headers['Content-Length']))\n"
        "        self.send_response(500); self.send_header('Content-Length', '0'); self.end_headers()\n"
        "        self.wfile.flush(); sys.stderr.write('bye\\n'); sys.stderr.flush(); os._exit(5)\n"
        "http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()\n"
    )
    profile = parse_profile(
        {"kind": "gateway", "command": [sys.executable, "-c", code, "{port}"], "front_door": "openai-chat",
         "name": "answer-then-exit", "warmup": False}
    )  # fmt: skip
    result = run(cases, sut=profile, concurrency=1, preflight=False)
    codes = [exit_seen(r) for r in result.results]
    assert codes[:2] == [5, 5]  # (the last one's exit may come after the run's last look)
    assert all(r.status == Status.OK for r in result.results)  # none is blamed with the last's ERROR
    assert not _relay_children()


@pytest.fixture
def outside_relay() -> Iterator[tuple[subprocess.Popen[str], object]]:
    """The crashing relay started outside thinkwire, pointed at a mock upstream the test owns."""
    from harness.upstream import MockUpstream

    with MockUpstream() as upstream:
        proc = subprocess.Popen(
            [sys.executable, str(RELAY), "--listen", "0", "--upstream", upstream.base_url,
             "--exit-on-tool-result", "3"],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert proc.stdout is not None
            with selectors.DefaultSelector() as sel:  # its "listening on PORT" line, bounded
                sel.register(proc.stdout, selectors.EVENT_READ)
                assert sel.select(30), "the relay never said it listens"
            line = proc.stdout.readline()
            assert line.startswith("listening on "), line
            proc.port = int(line.split()[-1])  # type: ignore[attr-defined]
            yield proc, upstream
        finally:
            proc.kill()
            proc.wait(10)
            assert proc.stdout is not None
            proc.stdout.close()


@pytest.mark.parametrize("concurrency", [1, 8])
def test_a_url_sut_that_stops_answering_ends_the_run_and_the_rest_are_not_run(
    outside_relay: tuple[subprocess.Popen[str], object], concurrency: int
) -> None:
    proc, upstream = outside_relay
    plain = load_cases(["wire-variants/reasoning-then-answer[openai-chat:*"])
    (tool,) = load_cases(["tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"])
    assert len(plain) >= 12
    cases = [*plain[:2], tool, *plain[2:12]]
    sut = url_profile(f"http://127.0.0.1:{proc.port}")  # type: ignore[attr-defined]
    result = run(cases, sut=sut, upstream=upstream, concurrency=concurrency)
    assert proc.wait(10) == 3  # the tool result killed it
    by_id = {r.case_id: r for r in result.results}
    assert list(by_id) == [c.id for c in cases]  # each case once, in order
    assert by_id[tool.id].status == Status.NOT_RUN
    not_run = [r for r in result.results if r.status == Status.NOT_RUN]
    assert all(r.status in (Status.OK, Status.NOT_RUN) for r in result.results)
    assert all(r.stream == Verdict.NOT_APPLICABLE and not r.findings for r in not_run)  # never FAIL
    assert all(r.stream != Verdict.FAIL for r in result.results)
    assert tool.id in result.sut_error
    assert "stopped answering" in result.sut_error
    assert "\n" not in result.sut_error
    if concurrency == 1:
        assert [r.status for r in result.results[:2]] == [Status.OK, Status.OK]
        assert len(not_run) == 11
        assert "10 case(s) not run" in result.sut_error
    assert result.exit_code == 1
