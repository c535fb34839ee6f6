"""A long-lived MockUpstream stays flat: without a case timeline it keeps a ring of entries and the last
requests only; with one (a case's) it keeps everything; a Timeline(limit=N) keeps the last N."""

from __future__ import annotations

import pytest

from harness.events import End, ReasoningDelta, TextDelta
from harness.timeline import Timeline
from harness.upstream import Conversation, Emit, MockUpstream, Script
from tests.upstream._rawclient import raw_request

CHAT = "/v1/chat/completions"
TURN = (ReasoningDelta("r1 "), ReasoningDelta("r2"), TextDelta("t"), End())


def _overflow() -> Conversation:
    return Conversation((), overflow=Script("openai-chat", (Emit(TURN),), variant="reasoning_content"))


def test_ring_keeps_the_last_entries() -> None:
    tl = Timeline(limit=5)
    for i in range(12):
        tl.add("harness", "note", text=str(i)) if i % 2 else tl.add_write("upstream", b"x", turn=i)
        if i == 6:
            assert len(tl.entries()) == 5  # a read in between: the ring holds, settled or pending
    kept = tl.entries()
    assert [e.turn if e.act == "write" else int(e.info["text"]) for e in kept] == [7, 8, 9, 10, 11]
    assert len(tl) == 5
    with pytest.raises(ValueError, match="limit"):
        Timeline(limit=0)


def test_reused_upstream_without_a_timeline_stays_bounded() -> None:
    with MockUpstream() as up:
        up.load(_overflow(), keep=3)
        for _ in range(10):
            r = raw_request(up.base_url, CHAT, {"stream": True, "messages": []})
            assert (r.status, r.complete) == (200, True)
        assert up.timeline.limit == 300
        assert [r.turn for r in up.requests] == [7, 8, 9]
        assert len(up._state.emitted) <= 3
        big = up.timeline
        up.load(_overflow())  # the default: a ring too
        assert up.timeline is not big
        assert up.timeline.limit is not None


def test_case_timeline_keeps_everything() -> None:
    with MockUpstream() as up:
        tl = Timeline()
        up.load(_overflow(), timeline=tl)
        for _ in range(10):
            raw_request(up.base_url, CHAT, {"stream": True, "messages": []})
        assert len(up.requests) == 10
        assert len(tl.select("upstream", "request")) == 10
        assert len(tl.select("upstream", "response-end")) == 10
        assert tl.limit is None
