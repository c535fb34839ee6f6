"""The isolation check: a case's conversation stays its own while other cases are in flight. Every case's
content carries its routing token, so another case's token in this case's traffic is cross-talk."""

from __future__ import annotations

from harness.judge._base import check, na
from harness.judge._view import CaseView
from harness.verdict import Finding, Verdict

__all__: list[str] = []


# The token comes from ``harness.catalog._salt``. Another case's token in this case's upstream request, its
# passback or its user message, which the mock records as ``crosstalk``, or in the reasoning and text this
# case's client got, is the SUT's cross-talk between conversations, shared state in a gateway: FAIL naming
# both cases. PASS needs evidence that the case's own token went through, in its upstream requests or its
# client's content; else N/A.
@check(
    "isolation",
    "Each conversation stays its own: no other case's content in this case's upstream requests or in "
    "what its client receives (cross-talk between conversations in flight together).",
)
def isolation(view: CaseView) -> Finding:
    own = getattr(view.case, "token", "")
    this = getattr(view.case, "id", "this case")
    for t in view.turns:
        if not t.foreign:
            continue
        f = t.foreign[0]
        other = f"case {f.case}" if f.case else "another conversation"
        if f.where == "request":
            message = (
                f"turn {t.turn}: the SUT's upstream request for {this} carried the content of {other} "
                f"({f.token})"
            )
            actual = f"the request also carried {f.token} ({f.case or 'unknown case'})"
        else:
            message = f"turn {t.turn}: the client of {this} received the content of {other} ({f.token})"
            actual = f"{f.token} ({f.case or 'unknown case'}) in the reasoning/text delivered"
        more = len({x.token for u in view.turns for x in u.foreign}) - 1
        return Finding(
            "isolation",
            Verdict.FAIL,
            message=message + (f"; {more} more foreign token(s)" if more > 0 else ""),
            expected=f"only this case's own content ({own})",
            actual=actual,
            evidence=(view.index_of(f.entry),) if f.entry is not None else (),
        )
    if not own:
        return na("isolation", "the case carries no routing token")
    sent = any(own.encode() in e.data for e in view.of("upstream", "request"))
    got = any(own in t.reasoning or own in t.text for t in view.turns)
    if not (sent or got):
        return na("isolation", "the case's own token was seen neither upstream nor at the client")
    return Finding("isolation", Verdict.PASS)
