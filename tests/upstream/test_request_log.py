"""One request log (issue 26, item 6): every server records into a :class:`RequestLog` and reads it
only through its one locked snapshot, a copy.

(A test that copies the log while another thread appends cannot fail on CPython, where copying a
deque holds the GIL: what is pinned here is that all three servers go through the one method.)"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import respx

from harness.events import End, TextDelta
from harness.upstream import Emit, MockUpstream, Script, mount_respx, respond_with_script
from harness.upstream._dispatch import RecordedRequest, RequestLog

SCRIPT = Script("openai-chat", (Emit((TextDelta("hi"), End())),), variant="reasoning_content", stream=False)
PATH = "/v1/chat/completions"


def test_turns_count_every_request_and_keep_bounds_what_is_remembered() -> None:
    log = RequestLog(keep=2)
    for i in range(5):
        log.record("POST", f"{PATH}?n={i}", (), b'{"n": %d}' % i, t=i)
    got = log.snapshot()
    assert [(r.turn, r.path, r.json) for r in got] == [(3, PATH, {"n": 3}), (4, PATH, {"n": 4})]
    got.clear()  # a copy: the log is untouched
    assert len(log.snapshot()) == 2


@pytest.fixture
def snapshots(monkeypatch: pytest.MonkeyPatch) -> list[RequestLog]:
    """The logs whose snapshot was taken, in order."""
    seen: list[RequestLog] = []
    real = RequestLog.snapshot

    def spy(self: RequestLog) -> list[RecordedRequest]:
        seen.append(self)
        return real(self)

    monkeypatch.setattr(RequestLog, "snapshot", spy)
    return seen


def _mock_upstream() -> Iterator[tuple[Any, Callable[[], httpx.Response]]]:
    with MockUpstream() as up:
        up.load(SCRIPT)
        yield up, lambda: httpx.post(up.base_url + PATH, json={"n": 1})


def _respx() -> Iterator[tuple[Any, Callable[[], httpx.Response]]]:
    with respx.mock(assert_all_called=False) as router:
        up = mount_respx(router, SCRIPT)
        yield up, lambda: httpx.post(up.base_url + PATH, json={"n": 1})


def _httpserver() -> Iterator[tuple[Any, Callable[[], httpx.Response]]]:
    from pytest_httpserver import HTTPServer

    server = HTTPServer()
    server.start()
    try:
        handler = respond_with_script(SCRIPT)
        server.expect_request(PATH).respond_with_handler(handler)
        yield handler, lambda: httpx.post(server.url_for(PATH), json={"n": 1})
    finally:
        server.clear()
        server.stop()


@pytest.mark.parametrize("serve", [_mock_upstream, _respx, _httpserver], ids=["mock", "respx", "httpserver"])
def test_every_server_reads_its_requests_through_the_one_snapshot(
    serve: Callable[[], Iterator[tuple[Any, Callable[[], httpx.Response]]]], snapshots: list[RequestLog]
) -> None:
    for server, send in serve():
        assert send().status_code == 200
        before = len(snapshots)
        (req,) = server.requests
        assert req.json == {"n": 1}
        assert len(snapshots) == before + 1
