"""``thinkwire init`` is a first run to trust: ``run``'s preflight first (a dead URL, or a SUT that answers
without calling the upstream: one line, exit 2, no draft), a draft named after the SUT's program, and
the command to run next. On a gateway that is already running, ``--upstream-listen`` puts the mock where
the gateway is configured to call, the draft keeps that address, and the run it names judges the
gateway there."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from harness.cli import main
from harness.drivers import load_profile
from harness.runner._probe import program_name
from harness.runner._sut import command_profile, url_profile
from tests.suts._relay import free_port, start_relay, stop
from tests.suts.test_relay import in_band

pytestmark = pytest.mark.slow


def test_init_on_a_dead_url_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "draft.toml"
    assert main(["init", "--sut-url", "http://127.0.0.1:1", "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    said = "thinkwire: error: preflight: the SUT at http://127.0.0.1:1 is unreachable"
    assert captured.err.startswith(said)
    assert captured.err.count("\n") == 1
    assert not out.exists()


class _Answers(BaseHTTPRequestHandler):
    """A front door that answers by itself: it never calls any upstream."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"choices": [{"message": {"role": "assistant", "content": "hi"}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def self_answering() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Answers)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_init_on_a_sut_that_never_calls_the_upstream_is_one_line_and_exit_2(
    self_answering: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "--sut-url", self_answering]) == 2
    err = capsys.readouterr().err
    assert "answered without calling the mock upstream" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("command", "name"),
    [
        ("{python} ./gw.py --port {port} --upstream {upstream}", "gw"),
        ("python3 -u /opt/x/relay.py --listen {port}", "relay"),
        ("{python} -m pkg.my_gateway --port {port}", "my_gateway"),
        ("/usr/local/bin/my-gateway --port {port}", "my-gateway"),
        ("node dist/server.js {port}", "server"),
        ("uv run gateway.py", "gateway"),
    ],
)
def test_a_draft_is_named_after_the_sut_program(command: str, name: str) -> None:
    assert program_name(command_profile(command, "openai-chat")) == name
    assert program_name(url_profile("http://127.0.0.1:8080")) == "http://127.0.0.1:8080"


def test_init_on_a_running_relay_then_its_draft_runs_the_front_door(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream = free_port()
    proc, port = start_relay(f"http://127.0.0.1:{upstream}", tmp_path)
    draft = tmp_path / "relay.toml"
    report = tmp_path / "report"
    try:
        listen = f"127.0.0.1:{upstream}"
        assert main(["init", "--sut-url", f"http://127.0.0.1:{port}", "--upstream-listen", listen,
                     "--out", str(draft)]) == 0  # fmt: skip
        err = capsys.readouterr().err
        assert err.splitlines()[-1] == f"next: thinkwire run --sut {draft}"
        profile = load_profile(draft)
        assert profile.upstream_listen == listen
        assert profile.dialects == ("openai-chat",)
        code = main(["run", "--sut", str(draft), "-q", "--report", str(report)])
    finally:
        stop(proc)
    results = json.loads((report / "results.json").read_text())["results"]
    assert len(results) > 200
    failing = [r["case_id"] for r in results if r["stream"] == "FAIL" or r["status"] != "OK"]
    assert [c for c in failing if not in_band(c)] == []
    assert code == (1 if failing else 0)
