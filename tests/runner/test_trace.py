"""The path of one case from ``run()`` to its verdict enters each runner module at most twice (issue 47),
measured by ``tools.runner_trace``, whose counting rules are pinned here too."""

from __future__ import annotations

from tools.runner_trace import Trace, trace, trace_case


def test_one_case_enters_each_runner_module_at_most_twice() -> None:
    record, result = trace_case()
    assert [r.status for r in result.results] == ["OK"]
    over = {module: n for module, n in record.counts().items() if n > 2}
    assert not over, f"entered more than twice: {over}\n{record.entries}"


def test_a_call_inside_a_module_is_no_entry_and_a_generator_counts_when_it_starts() -> None:
    from harness.runner._run import _quiet_gc
    from harness.runner._shard import parse_shard

    def quiet() -> None:
        with _quiet_gc():  # (contextlib starts the generator, then resumes it at the end)
            pass

    record, _ = trace(lambda: parse_shard("--shard", "1/2"))  # (parse_shard calls Shard(...) in _shard)
    assert record.entries == [("harness.runner._shard", "tools.runner_trace")]
    record, _ = trace(quiet)
    assert record.entries == [("harness.runner._run", "tools.runner_trace")]
    assert Trace().module_of(__file__) is None  # (tests are not project code: a call from here has none)
