"""The checks: pure functions of (case, timeline) -> findings, every one registered by name in
``CHECKS`` (per case: :class:`Check`; per streamed/non-streamed pair: :class:`PairCheck`, e.g. parity).

To add a check: write a function decorated with ``@check(name, description)`` (``@pair_check`` for a
pair) in the module of its concern (``_content``, ``_stream``, ``_errors``, ``_fidelity``,
``_cleanup``, ``_parity``, ``_isolation``, ``_tools``) or a new one imported here, and add a broken
SUT (a fault switch in ``harness/reference/_faults.py``, or a small in-repo SUT) that it catches.
"""

from harness.judge import (  # noqa: F401  (registration)
    _cleanup,
    _content,
    _errors,
    _fidelity,
    _grammar,
    _isolation,
    _parity,
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
