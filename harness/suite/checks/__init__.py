"""The checks: pure functions of (case, timeline) -> findings, registered by name in ``CHECKS``.

To add a check: write a function decorated with ``@check(name, description)`` in the module of its
concern (``_content``, ``_stream``, ``_errors``, ``_cleanup``) or a new one imported here, and add a
broken SUT (a fault switch in ``harness/reference/_faults.py``) that it catches.
"""

from harness.suite.checks import _cleanup, _content, _errors, _stream  # noqa: F401  (registration)
from harness.suite.checks._base import CHECKS, Check, check, judged_turns, na
from harness.suite.checks._view import CaseView, TurnView, build_view, fate

__all__ = ["CHECKS", "CaseView", "Check", "TurnView", "build_view", "check", "fate", "judged_turns", "na"]
