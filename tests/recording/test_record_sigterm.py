"""50 concurrent streams through the real ``thinkwire record`` process, SIGTERM at a seeded moment
(after the clients have seen a seeded number of chunks: an event, not a clock). Whatever the moment:
the recorder exits 0 with its summary line, the cassette reads without a warning, every exchange that
completed at its client is in the cassette complete and byte-identical, every other exchange is a
prefix of the stream and ends ``truncated`` (or with the client's own disconnect), and the real
``thinkwire replay`` serves the cassette: complete exchanges byte-identical, truncated ones cut. Two
seeds send SIGKILL instead: no shutdown runs, and the file on disk must still be a cassette."""

from __future__ import annotations

import json
import random
import signal
import threading
from pathlib import Path

import pytest
from _rec_helpers import WAIT, Child, assert_gone, exchange, url_of

from harness.recording import read_cassette
from harness.upstream import Conversation, MockUpstream, Pause, Raw, Script

CLIENTS = 50
FRAMES = 24
STAGGER = 10
PATH = "/v1/chat/completions"
STREAM = [
    ('data: {"choices":[{"index":0,"delta":{"reasoning_content":"step ' + str(i) + ' 思"}}]}\n\n').encode()
    for i in range(FRAMES)
] + [b"data: [DONE]\n\n"]
FULL = b"".join(STREAM)


def _script() -> Script:
    steps: list[Raw | Pause] = []
    for frame in STREAM:
        steps += [Raw((frame,)), Pause(0.01)]
    return Script(
        "openai-chat", tuple(steps[:-1]), stream=True, headers=(("content-type", "text/event-stream"),)
    )


def _body(i: int) -> bytes:
    return json.dumps(
        {"model": "m", "stream": True, "messages": [{"role": "user", "content": f"client-{i}"}]}
    ).encode()


class _Seen:
    """Chunks the clients observed, with a wait for "at least N" (or until ``release()``)."""

    def __init__(self) -> None:
        self.n = 0
        self.released = False
        self.cond = threading.Condition()

    def add(self) -> None:
        with self.cond:
            self.n += 1
            self.cond.notify_all()

    def release(self) -> None:
        with self.cond:
            self.released = True
            self.cond.notify_all()

    def wait_for(self, n: int) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.n >= n or self.released, WAIT)


def _client(url: str, i: int, seen: _Seen, results: dict[int, tuple[int, bytes, bool]]) -> None:
    """Client ``i`` starts once the others have seen ``STAGGER * i`` chunks (streams overlap but
    start and end at different moments), or when the test releases it after the signal."""
    import socket

    import h11

    seen.wait_for(STAGGER * i)
    conn = h11.Connection(h11.CLIENT)
    body = _body(i)
    status, got, ended = 0, bytearray(), False
    try:
        with socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), timeout=WAIT) as s:
            head = h11.Request(
                method="POST",
                target=PATH,
                headers=[("host", "x"), ("content-length", str(len(body)))],
            )
            s.sendall(conn.send(head) + conn.send(h11.Data(data=body)) + conn.send(h11.EndOfMessage()))
            while True:
                ev = conn.next_event()
                if ev is h11.NEED_DATA:
                    conn.receive_data(s.recv(65536))
                elif isinstance(ev, h11.Response):
                    status = ev.status_code
                elif isinstance(ev, h11.Data):
                    got += ev.data
                    seen.add()
                elif isinstance(ev, h11.EndOfMessage):
                    ended = True
                    break
                elif isinstance(ev, h11.ConnectionClosed):
                    break
    except (OSError, h11.ProtocolError):
        pass
    results[i] = (status, bytes(got), ended)


@pytest.mark.parametrize(
    ("seed", "grace", "sig"),
    [
        (1, "0", signal.SIGTERM),
        (2, "0", signal.SIGTERM),
        (3, "10", signal.SIGTERM),
        (4, "0", signal.SIGTERM),
        (5, "10", signal.SIGTERM),
        (6, "0", signal.SIGKILL),
        (7, "0", signal.SIGKILL),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_sigterm_during_50_streams_keeps_every_completed_exchange(
    tmp_path: Path, seed: int, grace: str, sig: signal.Signals
) -> None:
    """SIGKILL (no shutdown at all) is the "valid at every instant" case: exchanges without their
    end line read as truncated, with warnings, and a client-complete exchange is still complete."""
    rng = random.Random(seed)
    moment = rng.randrange(0, CLIENTS * (FRAMES + 1))  # chunks seen by all clients together
    out = tmp_path / "c.jsonl"
    results: dict[int, tuple[int, bytes, bool]] = {}
    seen = _Seen()
    with MockUpstream() as up:
        up.load(Conversation((), overflow=_script()))
        rec = Child("record", "--upstream", up.base_url, "--out", str(out), "--grace", grace)
        try:
            url = url_of(rec.line())
            port = int(url.rsplit(":", 1)[1])
            threads = [threading.Thread(target=_client, args=(url, i, seen, results)) for i in range(CLIENTS)]
            for t in threads:
                t.start()
            assert seen.wait_for(moment), f"clients saw only {seen.n} of {moment} chunks"
            rec.popen.send_signal(sig)
            seen.release()  # clients not started yet try now: refused, never half-recorded
            code, stdout, err = rec.finish(None)
            for t in threads:
                t.join(WAIT)
                assert not t.is_alive()
        finally:
            rec.kill()
    assert_gone(rec.pid, port)
    cassette = read_cassette(out)
    if sig == signal.SIGKILL:
        assert code == -signal.SIGKILL
        assert all("replayed as a cut stream" in w or "torn last line" in w for w in cassette.warnings)
        summary = ""
    else:
        assert code == 0, err
        assert "Traceback" not in err
        summary = stdout.strip().splitlines()[-1]
        assert summary.startswith("thinkwire record: ")
        assert f"exchange(s) written to {out}" in summary
        assert cassette.warnings == []  # a graceful stop leaves no exchange without its end line
    by_client: dict[int, int] = {}
    for n, ex in enumerate(cassette.exchanges):
        i = int(json.loads(ex.request_body)["messages"][0]["content"].removeprefix("client-"))
        by_client[i] = n
        assert FULL.startswith(ex.body), f"exchange {n}: not a prefix of the upstream stream"
        assert ex.end in ("complete", "truncated", "client-disconnect"), ex.end
        if ex.end == "complete":
            assert ex.body == FULL
    completed = [i for i, (status, body, ended) in results.items() if status == 200 and ended]
    for i in completed:
        assert results[i][1] == FULL
        ex = cassette.exchanges[by_client[i]]
        assert ex.end == "complete", f"client {i} completed, its exchange did not"
        assert ex.body == FULL
    truncated = sum(ex.end == "truncated" for ex in cassette.exchanges)
    if summary:
        assert int(summary.split()[2]) == len(cassette.exchanges)
        assert (f"({truncated} truncated)" in summary) == bool(truncated)
    if grace == "10":  # every stream in flight at the signal had time to finish
        assert truncated == 0

    # the real replay accepts the cassette and serves it in order: complete ones byte-identical
    replay = Child("replay", str(out), "--port", "0")
    try:
        rurl = url_of(replay.line())
        for ex in cassette.exchanges:
            status, body, ended = exchange(rurl, PATH, b'{"model":"m","stream":true}')
            # status 0: the recording stopped before the upstream answered: a head, then the cut
            assert status == (ex.status or 200)
            assert body == ex.body
            assert ended == (ex.end == "complete")
        code, _, err = replay.finish(signal.SIGTERM)
    finally:
        replay.kill()
    assert code == 0, err
