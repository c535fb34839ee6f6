"""A run's state (its settings, what it measured of its SUT, its cases' routing tokens) is created by the
run and passed down, never kept in a module global: two runs in one process, as the pytest plugin's or
``run()`` called twice, each see only their own; the rounds of one run share theirs (issue 38)."""

from __future__ import annotations

from typing import Any

import pytest

from harness.runner import _run, load_cases, run
from harness.runner._state import RunState
from harness.upstream import MockUpstream

FIRST = ["wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"]
SECOND = ["wire-variants/reasoning-then-answer[anthropic-messages:thinking/frames]"]


def test_two_runs_sharing_a_sut_each_measure_it_and_a_runs_rounds_share_one_measurement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    states: list[RunState] = []
    checks: list[tuple[Any, Any]] = []
    for_run, check_sut = RunState.for_run, _run.check_sut

    def new_state(cases: Any, profile: Any, max_bytes: int) -> RunState:
        states.append(for_run(cases, profile, max_bytes))
        return states[-1]

    def checked(profile: Any, driver: Any, upstream: Any, limits: Any) -> None:
        check_sut(profile, driver, upstream, limits)
        checks.append((driver, limits.measured))

    monkeypatch.setattr(RunState, "for_run", staticmethod(new_state))
    monkeypatch.setattr(_run, "check_sut", checked)
    pool: dict[str, Any] = {}  # the same started SUT (and its upstream) serves both runs
    with MockUpstream() as up:
        try:
            kw: dict[str, Any] = {"sut": "reference", "upstream": up, "drivers": pool}
            kw["keep_timelines"] = "none"
            first = run(load_cases(FIRST), repeat=2, **kw)
            second = run(load_cases(SECOND), **kw)
        finally:
            while pool:
                pool.popitem()[1].stop()
    assert [r.case_id for r in first.results] == FIRST
    assert [r.case_id for r in second.results] == SECOND
    assert len(states) == 2
    assert states[0] is not states[1]
    # one preflight a run: the first run's second round took the SUT from the pool with the first
    # run's measurement; the second run measured the same SUT again, into its own state
    assert len(checks) == 2
    (sut, one), (same, two) = checks
    assert sut is same
    assert one is not two
    assert one.latency is not None
    assert one.gate_timeout is not None
    assert states[0].measured[sut] == one
    assert states[1].measured[sut] == two
    assert states[0].measured[sut] is not states[1].measured[sut]
    assert first.gate_timeout == one.gate_timeout
    assert second.gate_timeout == two.gate_timeout
    # each run names its own cases' routing tokens, and no other run's
    assert dict(states[0].names) == {c.token: c.id for c in load_cases(FIRST)}
    assert dict(states[1].names) == {c.token: c.id for c in load_cases(SECOND)}


def test_building_a_case_writes_no_global_table() -> None:
    """A case's token is a pure function of its id: no module of harness keeps a table holding it."""
    import sys

    from harness._routing import token_for

    (case,) = load_cases(FIRST)
    assert case.token == token_for(case.id)
    holders = [
        f"{name}.{attr}"
        for name, module in list(sys.modules.items())
        if name.startswith("harness")
        for attr, value in list(vars(module).items())
        if isinstance(value, dict) and case.token in value
    ]
    assert holders == []
