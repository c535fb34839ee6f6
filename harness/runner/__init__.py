"""The run: cases x one SUT to results, one at a time or in flight together. ``run()`` is the one entry the
CLI, the pytest plugin and users' code call; a new run setting is a field of :class:`RunOptions`, and a new
SUT kind is a driver in ``harness/drivers``, never a branch here."""

from typing import TYPE_CHECKING

from harness._lazy import lazy_names
from harness.runner._builtin import BUILTIN, builtin_behind_door, builtin_profile
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
    "builtin_behind_door",
    "builtin_profile",
    "canary_case",
    "load_cases",
    "merge_repeats",
    "resolve_sut",
    "run",
    "serialize_timeline",
]

# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.runner._case_run import failed
    from harness.runner._options import ResolvedSUT
    from harness.runner._preflight import stderr_tail
    from harness.runner._probe import draft_profile, probe
    from harness.runner._run import fixed_upstream
    from harness.runner._summary import summarise_serialized
    from harness.runner._sut import command_profile, url_profile

_SHARED = {
    "ResolvedSUT": "_options",
    "command_profile": "_sut",
    "draft_profile": "_probe",
    "failed": "_case_run",
    "fixed_upstream": "_run",
    "probe": "_probe",
    "stderr_tail": "_preflight",
    "summarise_serialized": "_summary",
    "url_profile": "_sut",
}
__all__ += [
    "ResolvedSUT",
    "command_profile",
    "draft_profile",
    "failed",
    "fixed_upstream",
    "probe",
    "stderr_tail",
    "summarise_serialized",
    "url_profile",
]
__getattr__ = lazy_names(__name__, _SHARED)
