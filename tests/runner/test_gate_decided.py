"""A gate after one that timed out in the same upstream answer is not waited for: the first timeout
decides the turn's ``incremental`` verdict (FAIL), so a SUT that buffers reasoning no longer waits out
every gate of a case. The verdicts are those of waiting them all out; a correct SUT opens every gate."""

from __future__ import annotations

import time

from harness.runner import run
from harness.upstream._gates import DECIDED
from harness.verdict import Status, Verdict

CASE = "incrementality/gated-reasoning[openai-chat:reasoning_content/frames]"  # two gates, one turn


def _gates(result: object) -> list[tuple[str, dict[str, object]]]:
    timeline = result.timeline  # type: ignore[attr-defined]
    return [(e["act"], e.get("info", {})) for e in timeline if e["act"] in ("gate-open", "gate-timeout")]


def test_a_buffering_sut_waits_out_the_first_gate_only() -> None:
    t0 = time.monotonic()
    out = run([CASE], faults=("buffer-reasoning",), gate_timeout=0.5, keep_timelines="all")
    took = time.monotonic() - t0
    (result,) = out.results
    assert result.status == Status.OK
    assert result.stream == Verdict.FAIL
    (incremental,) = [f for f in result.findings if f.check == "incremental"]
    assert incremental.verdict == Verdict.FAIL
    assert "held the next frame for 0.5s" in incremental.message  # the first gate, waited out
    gates = _gates(result)
    assert [kind for kind, _ in gates] == ["gate-timeout", "gate-timeout"]
    assert gates[0][1]["timeout"] == 0.5
    assert "note" not in gates[0][1]
    assert gates[1][1]["timeout"] == 0.0
    assert gates[1][1]["note"] == DECIDED
    assert result.duration_s < 0.5 + 0.4, result.duration_s  # not 2 x 0.5 s
    assert took < 30


def test_a_correct_sut_opens_both_gates() -> None:
    out = run([CASE], gate_timeout=0.5, keep_timelines="all")
    (result,) = out.results
    assert result.stream == Verdict.PASS
    assert [kind for kind, _ in _gates(result)] == ["gate-open", "gate-open"]
