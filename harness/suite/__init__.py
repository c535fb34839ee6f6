"""The conformance suite: scenarios -> cases -> run against a SUT -> checks -> verdicts.

Where things go: a new scenario is a TOML file under ``scenarios/``; a new check is a function in
``harness/suite/checks``; a new SUT kind is a driver in ``harness/drivers``; a new run setting is a
field of :class:`RunOptions` (``_options.py``), which carries it from the CLI to ``run()`` and the workers.
"""

from harness.suite._builtin import BUILTIN, builtin_profile
from harness.suite._case import Case, expand, expand_all, select
from harness.suite._catalog import load_catalog
from harness.suite._expectations import Expectation, Expectations, load_expectations, write_expectations
from harness.suite._options import Keep, RunOptions
from harness.suite._rounds import RunInterrupted, RunResult, merge_repeats
from harness.suite._runner import canary_case, load_cases, run, serialize_timeline
from harness.suite._scenario import CATEGORIES, Scenario, TurnSpec, catalog_dir, load_scenario
from harness.suite._sut import resolve_sut
from harness.suite._verdict import Axis, CaseResult, Finding, Status, Verdict, is_failure

__all__ = [
    "BUILTIN",
    "CATEGORIES",
    "Axis",
    "Case",
    "CaseResult",
    "Expectation",
    "Expectations",
    "Finding",
    "Keep",
    "RunInterrupted",
    "RunOptions",
    "RunResult",
    "Scenario",
    "Status",
    "TurnSpec",
    "Verdict",
    "builtin_profile",
    "canary_case",
    "catalog_dir",
    "expand",
    "expand_all",
    "is_failure",
    "load_cases",
    "load_catalog",
    "load_expectations",
    "load_scenario",
    "merge_repeats",
    "resolve_sut",
    "run",
    "select",
    "serialize_timeline",
    "write_expectations",
]
