"""A case is judged only once every write the SUT could have read is in its timeline.

The mock records a run of writes right after its socket send, on its own thread. If that thread is
preempted between the two, the SUT can answer its client and the case be judged before the record: the
``tool-ids`` check then saw no call on the wire and said N/A where the same run a moment later says PASS
(it flipped between two runs of the catalog). Here the mock's thread is held, deterministically, between
the send of the body carrying the tool call and its record: the judge must wait for it."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import pytest

from harness.net._server import Responder
from harness.runner import run
from harness.timeline import Timeline
from harness.verdict import Verdict

CASE = "ordering-duplication/reasoning-before-tool-call[openai-chat:reasoning/frames/nonstream]"


def test_the_judge_waits_for_a_write_sent_but_not_yet_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    judging = threading.Event()
    held = threading.Event()
    put_all, quiesce = Responder.put_all, Timeline.quiesce

    def put_all_then_stall(self: Responder, datas: Sequence[bytes], times: list[int]) -> Any:
        out = put_all(self, datas, times)
        if any(b"read_file" in d for d in datas) and not held.is_set():
            held.set()
            judging.wait(10)  # sent, not recorded: until the case is being judged (bounded)
        return out

    def quiesce_after_signal(self: Timeline, timeout: float = 2.0) -> bool:
        if held.is_set():
            judging.set()
        return quiesce(self, timeout=timeout)

    monkeypatch.setattr(Responder, "put_all", put_all_then_stall)
    monkeypatch.setattr(Timeline, "quiesce", quiesce_after_signal)
    out = run([CASE], sut="reference-sdk")
    (result,) = out.results
    assert held.is_set(), "the body with the tool call never went out"
    assert judging.is_set(), "the case was judged without waiting for the mock's record"
    (ids,) = [f for f in result.findings if f.check == "tool-ids"]
    assert ids.verdict == Verdict.PASS, ids.message
    assert ids.message == "1 tool call id(s) compared"
