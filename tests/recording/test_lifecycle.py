"""serve, replay and record as scripts and process managers run them: the real command, stdout a pipe,
PYTHONUNBUFFERED unset. The URL line comes at once, --port-file holds the port while listening,
SIGTERM / SIGINT end with the summary line and exit 0 / 130, and nothing is left running or listening.
"""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import psutil
import pytest
from _rec_helpers import THINKWIRE, WAIT, Child, assert_gone, exchange, url_of

from harness.recording import Cassette, Chunk, Exchange
from harness.upstream import MockUpstream, demo_conversation

BODY = b'{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'
PATH = "/v1/chat/completions"


def test_serve_url_reaches_head_at_once_through_a_real_pipe(tmp_path: Path) -> None:
    """``thinkwire serve --port 0 | head -1``: the first line arrives while serve keeps running (it
    would only come at exit if stdout were block-buffered); after SIGTERM serve exits 0 without a
    traceback although its reader (head) is gone."""
    port_file = tmp_path / "port"
    shell = subprocess.Popen(
        ["bash", "-c", f"set -o pipefail; {THINKWIRE} serve --port 0 --port-file {port_file} | head -1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={k: v for k, v in __import__("os").environ.items() if k != "PYTHONUNBUFFERED"},
        start_new_session=True,
    )
    try:
        assert shell.stdout is not None
        line = shell.stdout.readline().decode()  # head exits after this line; bounded by the join below
        url = url_of(line)
        port = int(port_file.read_text())
        assert url.endswith(f":{port}")
        serve = next(p for p in psutil.Process(shell.pid).children() if "serve" in " ".join(p.cmdline()))
        assert exchange(url, PATH, BODY)[2]  # serving while its line already went through the pipe
        serve.send_signal(signal.SIGTERM)
        _, err = shell.communicate(timeout=WAIT)
    finally:
        if shell.poll() is None:
            shell.kill()
            shell.communicate(timeout=WAIT)
    assert shell.returncode == 0, err
    assert "Traceback" not in err.decode()
    assert not port_file.exists()
    assert_gone(serve.pid, port)


def _cassette(path: Path) -> Path:
    ex = Exchange("POST", PATH, [], BODY, 200, [("content-type", "text/event-stream")], end="complete")
    ex.chunks.append(Chunk(b'data: {"choices":[]}\n\n', 0, 0.0))
    Cassette([ex], "t", "openai-chat", "http://up").write(path)
    return path


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("command", ["serve", "replay", "record"])
def test_signals_end_gracefully_with_the_summary_line(tmp_path: Path, command: str, sig: int) -> None:
    port_file = tmp_path / "port"
    with MockUpstream() as up:
        up.load(demo_conversation("openai-chat"))
        args = {
            "serve": ["serve", "--port", "0"],
            "replay": ["replay", str(_cassette(tmp_path / "in.jsonl")), "--port", "0"],
            "record": ["record", "--upstream", up.base_url, "--out", str(tmp_path / "out.jsonl")],
        }[command]
        child = Child(*args, "--port-file", str(port_file))
        try:
            url = url_of(child.line())
            port = int(port_file.read_text())
            status, body, ended = exchange(url, PATH, BODY)
            assert (status, ended) == (200, True)
            assert body.startswith(b"data: ")
            code, out, err = child.finish(sig)
        finally:
            child.kill()
    assert code == (130 if sig == signal.SIGINT else 0), err
    summary = out.strip().splitlines()[-1]
    if command == "record":
        assert summary == f"thinkwire record: 1 exchange(s) written to {tmp_path / 'out.jsonl'}"
    else:
        name = "SIGINT" if sig == signal.SIGINT else "SIGTERM"
        assert summary == f"thinkwire {command}: stopped ({name}) after 1 request(s)"
    assert "Traceback" not in err
    assert not port_file.exists()
    assert_gone(child.pid, port)


@pytest.mark.parametrize("grace", [10.0, 0.0])
def test_a_stream_in_flight_at_the_stop_finishes_within_grace(grace: float) -> None:
    """serve_forever stopped (as by SIGTERM) while a stream pauses mid-way: with a grace the stream
    still ends properly; without one it is cut and the summary says so. The call returns 0."""
    import threading

    from harness.events import End, TextDelta
    from harness.net._lifecycle import Waker
    from harness.upstream import Conversation, Emit, Pause, Script
    from harness.upstream._standalone import serve_forever

    script = Script("openai-chat", (Emit((TextDelta("a"),)), Pause(0.3), Emit((TextDelta("b"), End()))))
    lines: list[str] = []
    started, waker = threading.Event(), Waker()
    out = lambda line: (lines.append(line), started.set())  # noqa: E731
    result: list[int] = []
    server = threading.Thread(
        target=lambda: result.append(
            serve_forever(Conversation((), overflow=script), grace=grace, out=out, waker=waker)
        )
    )
    server.start()
    assert started.wait(WAIT)
    url = url_of(lines[0])
    got: list[tuple[int, bytes, bool]] = []
    first = threading.Event()
    client = threading.Thread(target=lambda: got.append(exchange(url, PATH, BODY, first=first)))
    client.start()
    assert first.wait(WAIT)  # in flight: the first bytes arrived, the pause keeps it open
    waker.stop(signal.SIGTERM)
    client.join(WAIT)
    server.join(WAIT)
    assert got, "the client never finished"
    assert got[0][0] == 200
    assert b'"content":"a"' in got[0][1]
    assert result == [0]
    if grace:
        assert got[0][2], "the stream in flight was cut instead of finishing within the grace"
        assert b'"content":"b"' in got[0][1]
        assert lines[-1] == "thinkwire serve: stopped (SIGTERM) after 1 request(s)"
    else:
        assert not got[0][2]
        assert b'"content":"b"' not in got[0][1]
        assert lines[-1] == (
            "thinkwire serve: stopped (SIGTERM) after 1 request(s), 1 cut at the end of the grace period"
        )


def test_a_closing_server_answers_503() -> None:
    from harness.net._lifecycle import Waker
    from harness.upstream._standalone import _Standalone

    waker = Waker()
    up = _Standalone(0, waker)
    up.start()
    try:
        up.load(demo_conversation("openai-chat"))
        assert exchange(up.base_url, PATH, BODY)[0] == 200
        up.closing = True
        status, body, ended = exchange(up.base_url, PATH, BODY)
        assert (status, body, ended) == (503, b"thinkwire: shutting down\n", True)
        assert up.served == 1
    finally:
        up.stop()
        waker.close()


def test_out_onto_an_existing_cassette_refuses_and_keeps_it(tmp_path: Path) -> None:
    existing = _cassette(tmp_path / "c.jsonl")
    before = existing.read_bytes()
    child = Child("record", "--upstream", "http://127.0.0.1:9", "--out", str(existing))
    code, out, err = child.finish(None)
    assert code == 2
    assert err.strip().count("\n") == 0, err
    assert "exists; a cassette is never overwritten: pass --append" in err
    assert existing.read_bytes() == before
    assert out == ""


@pytest.mark.parametrize("mode", ["append", "force"])
def test_append_continues_and_force_replaces(tmp_path: Path, mode: str) -> None:
    existing = _cassette(tmp_path / "c.jsonl")
    with MockUpstream() as up:
        up.load(demo_conversation("openai-chat"))
        child = Child("record", "--upstream", up.base_url, "--out", str(existing), f"--{mode}")
        try:
            url = url_of(child.line())
            assert exchange(url, PATH, BODY)[2]
            code, _, err = child.finish()
        finally:
            child.kill()
    assert code == 0, err
    from harness.recording import read_cassette

    back = read_cassette(existing)
    assert back.warnings == []
    ids = [json.loads(line)["id"] for line in existing.read_text().splitlines()[1:]]
    if mode == "append":
        assert len(back.exchanges) == 2
        assert back.exchanges[0].body == b'data: {"choices":[]}\n\n'  # the old exchange untouched
        assert sorted(set(ids)) == [0, 1]
    else:
        assert len(back.exchanges) == 1
        assert back.exchanges[0].body.startswith(b'data: {"id":"chatcmpl')
        assert set(ids) == {0}


def test_replay_serves_a_torn_cassette_with_a_warning(tmp_path: Path) -> None:
    """A recorder killed mid-line leaves a torn last line and an exchange without its end: replay
    warns on stderr (one line each) and serves the exchange as a cut stream."""
    path = _cassette(tmp_path / "c.jsonl")
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + '\n{"type": "end", "id": 0, "rea')  # torn end line
    child = Child("replay", str(path), "--port", "0")
    try:
        url = url_of(child.line())
        status, body, ended = exchange(url, PATH, BODY)
        code, _, err = child.finish()
    finally:
        child.kill()
    assert (status, body, ended) == (200, b'data: {"choices":[]}\n\n', False)
    assert code == 0
    warnings = err.strip().splitlines()
    assert len(warnings) == 2, err
    assert warnings[0].startswith("thinkwire: warning: ")
    assert "torn last line ignored" in warnings[0]
    assert "exchange 0 has no end line" in warnings[1]


def test_replay_cut_during_a_recorded_pause_leaves_nothing_pending(tmp_path: Path) -> None:
    """``replay --timing recorded --grace 0`` stopped while a stream waits out a recorded pause: the
    stream is cut, the summary says so, and stderr stays empty (no task left pending at exit)."""
    import threading

    ex = Exchange("POST", PATH, [], b"{}", 200, [("content-type", "text/event-stream")], end="complete")
    ex.chunks += [Chunk(b"data: 1\n\n", 0, 0.0), Chunk(b"data: 2\n\n", 9, 60_000.0)]
    path = tmp_path / "slow.jsonl"
    Cassette([ex], "t", "openai-chat", "http://up").write(path)
    child = Child("replay", str(path), "--timing", "recorded", "--grace", "0")
    got: list[tuple[int, bytes, bool]] = []
    try:
        url = url_of(child.line())
        first = threading.Event()
        client = threading.Thread(target=lambda: got.append(exchange(url, PATH, b"{}", first=first)))
        client.start()
        assert first.wait(WAIT)
        code, out, err = child.finish()
        client.join(WAIT)
    finally:
        child.kill()
    assert got == [(200, b"data: 1\n\n", False)]
    assert code == 0
    assert out.strip().endswith("1 cut at the end of the grace period")
    assert err == ""


def test_a_second_signal_cuts_the_grace_short_and_the_last_request_ends_it() -> None:
    import threading

    from harness.net._lifecycle import Waker, drain

    waker = Waker()
    try:
        waker.stop(signal.SIGTERM)
        assert waker.wait_stop() == signal.SIGTERM
        result: list[int] = []
        hurry = threading.Thread(target=lambda: result.append(drain(waker, lambda: 1, grace=600.0)))
        hurry.start()
        waker.stop(signal.SIGINT)  # the second signal: what is in flight (1) is cut now
        hurry.join(WAIT)
        assert not hurry.is_alive()
        assert result == [1]
        busy = [1]
        done = threading.Thread(target=lambda: result.append(drain(waker, lambda: busy[0], grace=600.0)))
        done.start()
        busy[0] = 0
        waker.poke()  # what a server does when its last in-flight request ends
        done.join(WAIT)
        assert not done.is_alive()
        assert result == [1, 0]
        assert waker.exit_code == 0  # the first signal decides: SIGTERM
    finally:
        waker.close()
