"""The shared mock (``thinkwire serve --catalog``) for other test suites: its control plane (cases,
journal, reset) from Python, and the Node example of docs/shared-mock.md run with ``node --test``
against a real ``thinkwire serve`` process (skipped only where node is absent)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from harness.catalog._serve_catalog import shared_cases
from harness.upstream import MockUpstream
from harness.upstream._shared import SharedCatalog

EXAMPLE = Path(__file__).with_name("shared_mock.test.mjs")
PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
GATED = "incrementality/gated-reasoning[openai-chat:reasoning_content/frames]"


@pytest.fixture(scope="module")
def shared() -> Iterator[MockUpstream]:
    with MockUpstream() as up:
        up.share(SharedCatalog(shared_cases([PLAIN, GATED])))
        yield up


def ask(up: MockUpstream, case: str, content: str = "Say hi.") -> httpx.Response:
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": content}]}
    return httpx.post(up.base_url + "/v1/chat/completions", json=body, headers={"x-thinkwire-case": case})


def control(up: MockUpstream, what: str, method: str = "GET", **params: str) -> httpx.Response:
    return httpx.request(method, f"{up.base_url}/_thinkwire/{what}", params=params)


def test_cases_list_what_a_client_needs(shared: MockUpstream) -> None:
    listed = {c["id"]: c for c in control(shared, "cases").json()}
    assert set(listed) == {PLAIN, GATED}
    plain = listed[PLAIN]
    assert plain["path"] == "/v1/chat/completions"
    assert plain["stream"] is True
    assert plain["token"] in plain["user"]


def test_journal_records_each_request_and_answer_and_reset_clears_it(shared: MockUpstream) -> None:
    control(shared, "reset", "POST")
    first = ask(shared, PLAIN)
    assert first.status_code == 200
    assert "The user greets" in first.text
    overflow = ask(shared, PLAIN)  # a one-turn case: its second request has no script
    assert overflow.status_code == 500
    requests = control(shared, "journal", case=PLAIN).json()["requests"]
    assert [r["answer"]["status"] for r in requests] == [200, 500]
    assert requests[0]["body"]["messages"][0]["content"] == "Say hi."
    assert "The user greets" in requests[0]["answer"]["body"]
    assert "no overflow" in requests[1]["answer"]["error"]
    assert control(shared, "reset", "POST", case=PLAIN).json() == {"reset": 1}
    assert control(shared, "journal", case=PLAIN).json()["requests"] == []
    assert ask(shared, PLAIN).status_code == 200  # its first request again


def test_gates_are_not_served_and_unknown_names_are_one_line(shared: MockUpstream) -> None:
    t0 = time.monotonic()
    assert ask(shared, GATED).status_code == 200
    assert time.monotonic() - t0 < 5  # would wait on a gate nobody can open (a bound, not a benchmark)
    (request,) = control(shared, "journal", case=GATED).json()["requests"][-1:]
    assert not [e for e in request["answer"]["events"] if e["act"].startswith("gate")]
    missing = control(shared, "journal", case="nope")
    assert missing.status_code == 404
    assert "no case 'nope'" in missing.json()["error"]
    assert ask(shared, "nope").status_code == 500  # a request naming no case: a stray, as for a SUT


def test_a_journal_event_names_its_act_and_keeps_the_old_key_for_one_release() -> None:
    from types import SimpleNamespace

    from harness.timeline import Timeline
    from harness.upstream._shared import _exchange

    tl = Timeline()
    tl.add("upstream", "fault", turn=0, fault="abort-after:3")
    tl.add("upstream", "response-end", turn=0, status=200)
    request = SimpleNamespace(
        turn=0, method="POST", target="/v1/chat/completions", headers={}, json={}, body=b""
    )
    answer = _exchange(request, tl.entries())["answer"]
    assert answer["status"] == 200
    assert answer["events"] == [{"act": "fault", "fault": "abort-after:3", "kind": "fault"}]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_example_passes_against_thinkwire_serve(tmp_path: Path) -> None:
    port_file = tmp_path / "port"
    serve = subprocess.Popen(
        [sys.executable, "-m", "harness.cli", "serve", "--catalog", "--port-file", str(port_file)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()  # the URL line, flushed once listening
        assert "serving" in line, line + (serve.stderr.read() if serve.stderr else "")
        url = f"http://127.0.0.1:{port_file.read_text().strip()}"
        node = subprocess.run(
            [str(shutil.which("node")), "--test", str(EXAMPLE)],
            env={**os.environ, "THINKWIRE_URL": url},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert node.returncode == 0, node.stdout + node.stderr
        assert "# pass 4" in node.stdout
        assert "# fail 0" in node.stdout
    finally:
        serve.send_signal(signal.SIGTERM)
        out, _ = serve.communicate(timeout=30)
    assert serve.returncode == 0
    assert "stopped (SIGTERM)" in out
