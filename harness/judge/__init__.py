"""The checks: pure functions of (case, timeline) -> findings, every one registered by name in
``CHECKS`` (per case: :class:`Check`; per streamed/non-streamed pair: :class:`PairCheck`, e.g. parity).

To add a check: write a function decorated with ``@check(name, description)`` (``@pair_check`` for a
pair) in the module of its concern (``_content``, ``_stream``, ``_errors``, ``_fidelity``,
``_cleanup``, ``_parity``, ``_isolation``, ``_tools``, ``_replay``, ``_keepalive``) or a new one
imported here, and add a broken SUT (a fault switch in ``harness/reference/_faults.py``, or a small
in-repo SUT) that it catches.
"""

from typing import TYPE_CHECKING

from harness._lazy import lazy_names
from harness.judge import (  # noqa: F401  (registration)
    _cleanup,
    _content,
    _errors,
    _fidelity,
    _grammar,
    _isolation,
    _keepalive,
    _parity,
    _replay,
    _stream,
    _tools,
)
from harness.judge._base import (
    CHECKS,
    Check,
    PairCheck,
    case_checks,
    check,
    judged_turns,
    na,
    pair_check,
    pair_checks,
)
from harness.judge._view import CaseView, Foreign, TurnView, build_view, fate

__all__ = [
    "CHECKS",
    "CaseView",
    "Check",
    "Foreign",
    "PairCheck",
    "TurnView",
    "build_view",
    "case_checks",
    "check",
    "fate",
    "judged_turns",
    "na",
    "pair_check",
    "pair_checks",
]

# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.judge._errors import CANCEL_BOUND_S
    from harness.judge._evidence import weigh
    from harness.judge._premise import premise_findings

_SHARED = {
    "CANCEL_BOUND_S": "_errors",
    "premise_findings": "_premise",
    "weigh": "_evidence",
}
__all__ += [
    "CANCEL_BOUND_S",
    "premise_findings",
    "weigh",
]
__getattr__ = lazy_names(__name__, _SHARED)
