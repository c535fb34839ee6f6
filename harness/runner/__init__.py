"""The run: cases x one SUT -> results, serially, in flight together or over workers.

``run()`` is the one entry the CLI, the pytest plugin and users' code call. A new run setting is a field
of :class:`RunOptions` (``_options``), which carries it from the CLI to ``run()`` and the workers; a new
SUT kind is a driver in ``harness/drivers``, never a branch here.
"""

from harness.runner._builtin import BUILTIN, builtin_profile
from harness.runner._options import Keep, RunOptions
from harness.runner._rounds import RunInterrupted, RunResult, merge_repeats
from harness.runner._run import canary_case, load_cases, run, serialize_timeline
from harness.runner._sut import resolve_sut

__all__ = [
    "BUILTIN",
    "Keep",
    "RunInterrupted",
    "RunOptions",
    "RunResult",
    "builtin_profile",
    "canary_case",
    "load_cases",
    "merge_repeats",
    "resolve_sut",
    "run",
    "serialize_timeline",
]
