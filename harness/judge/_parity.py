"""The parity check: the same upstream turn through the SUT streaming and non-streaming delivers the same
reasoning, answer and tool calls. It judges a pair of cases, a registered :class:`PairCheck`, so the runner
calls it after both."""

from __future__ import annotations

from harness._routing import unsalted
from harness.judge._base import judged_turns, pair_check
from harness.judge._view import CaseView
from harness.verdict import Finding, Verdict

__all__ = ["parity"]


@pair_check(
    "parity", "Streaming and non-streaming requests deliver the same reasoning, answer and tool calls."
)
def parity(streamed: CaseView, whole: CaseView) -> Finding:
    """Each case's own salt, its routing token, is taken out first."""
    a, b = judged_turns(streamed), judged_turns(whole)
    if not a or not b:
        return Finding("parity", Verdict.NOT_APPLICABLE, message="one of the two modes has no turn to judge")
    ka, kb = getattr(streamed.case, "token", ""), getattr(whole.case, "token", "")
    for ta, tb in zip(a, b, strict=False):
        pairs = (
            ("reasoning", unsalted(ta.reasoning, ka), unsalted(tb.reasoning, kb)),
            ("text", unsalted(ta.text, ka), unsalted(tb.text, kb)),
            (
                "tool calls",
                str([(c.name, c.arguments) for c in ta.tool_calls]),
                str([(c.name, c.arguments) for c in tb.tool_calls]),
            ),
        )
        for what, sa, sb in pairs:
            if sa != sb:
                return Finding(
                    "parity",
                    Verdict.FAIL,
                    message=f"turn {ta.turn}: {what} differs between modes",
                    expected=f"streaming: {sa[:120]!r}",
                    actual=f"non-streaming: {sb[:120]!r}",
                    evidence=whole.cite(tb.event_entries),  # the finding is the non-streaming case's
                )
    return Finding("parity", Verdict.PASS)
