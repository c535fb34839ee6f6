"""The checks: pure functions of a case and its timeline to findings, each registered by name in ``CHECKS``,
per case as a :class:`Check` or per streamed and non-streamed pair as a :class:`PairCheck`. Judging lives
here and nowhere else; drivers and the mock only record."""

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
    from harness.judge._entry import (
        Expecting,
        Ruling,
        expect_findings,
        judge,
        roll_up,
        support,
        unsupported_reason,
        usage_off,
    )
    from harness.judge._errors import CANCEL_BOUND_S
    from harness.judge._evidence import weigh
    from harness.judge._premise import premise_findings

# To add a check, write a function decorated with ``@check(name, description)``, or ``@pair_check`` for a
# pair, in the module of its concern or a new one imported here. Add a broken SUT that it catches: a fault
# switch in ``harness/reference/_faults.py``, or a small in-repo SUT.
_SHARED = {
    "CANCEL_BOUND_S": "_errors",
    "Expecting": "_entry",
    "Ruling": "_entry",
    "expect_findings": "_entry",
    "judge": "_entry",
    "roll_up": "_entry",
    "support": "_entry",
    "unsupported_reason": "_entry",
    "usage_off": "_entry",
    "premise_findings": "_premise",
    "weigh": "_evidence",
}
__all__ += [
    "CANCEL_BOUND_S",
    "Expecting",
    "Ruling",
    "expect_findings",
    "judge",
    "premise_findings",
    "roll_up",
    "support",
    "unsupported_reason",
    "usage_off",
    "weigh",
]
__getattr__ = lazy_names(__name__, _SHARED)
