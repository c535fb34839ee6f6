"""The tool-ids check: every tool call the client sees carries the upstream's call id, and the ids the SUT
sends back upstream on the next request are those ids. The upstream's call id is the only id both ends
know."""

from __future__ import annotations

from collections.abc import Mapping

from harness._json import loads
from harness.dialects import get_dialect
from harness.events import ToolCallBlock, ToolCallDelta, ToolResultBlock
from harness.judge._base import check, judged_turns, na
from harness.judge._view import CaseView, TurnView
from harness.timeline import Entry
from harness.verdict import Finding, Verdict

__all__: list[str] = []


def _on_the_wire(t: TurnView) -> set[str]:
    """The scripted call ids the upstream actually wrote this turn (a dialect without call ids, such
    as Ollama's, writes none: the SUT then has to mint its own, which is right)."""
    if not t.expected.tool_calls:
        return set()
    wrote = b"".join(w.data for w in t.writes)
    return {c.id for c in t.expected.tool_calls if c.id and c.id.encode() in wrote}


def _client_side(view: CaseView, t: TurnView, sent: set[str]) -> Finding | None:
    """The first tool call the client got under an id that is not the upstream's (calls paired by
    position and name: a lost or renamed call is delivery's)."""
    wrote = b"".join(w.data for w in t.writes)
    for want, got in zip(t.expected.tool_calls, t.tool_calls, strict=False):
        if want.id not in sent or not got.id or want.name != got.name or want.id == got.id:
            continue
        # the upstream may have written the id in another field (a Responses item id, fc_...)
        which = (
            "an id the upstream sent in another field, not as the call id"
            if got.id.encode() in wrote
            else "an id the upstream never sent"
        )
        return Finding(
            "tool-ids",
            Verdict.FAIL,
            message=f"turn {t.turn}: the client got tool call {got.name!r} under {which}",
            expected=f"id {want.id!r} (the upstream's call id)",
            actual=f"id {got.id!r}",
            evidence=view.cite(t.writes_of("tool"), t.events_of(ToolCallDelta)),
        )
    return None


def _sent_back(view: CaseView, request: Entry) -> list[tuple[str, str]] | None:
    """``(what, id)`` for every tool call and tool result the request carries with an id; None when
    the body is not a JSON object (sut-error and the strict upstream judge such a request)."""
    try:
        body = loads(request.data)
    except ValueError:
        return None
    if not isinstance(body, Mapping):
        return None
    out: list[tuple[str, str]] = []
    for m in get_dialect(view.case.dialect).parse_request(body):
        for b in m.content:
            if isinstance(b, ToolResultBlock) and b.call_id:
                out.append(("tool result", b.call_id))
            elif isinstance(b, ToolCallBlock) and b.id:
                out.append(("tool call", b.id))
    return out


def _request_side(view: CaseView, t: TurnView, emitted: set[str]) -> Finding | None:
    """The first id in turn ``t``'s upstream request that names no call the upstream emitted."""
    for request in t.requests:
        for what, call_id in _sent_back(view, request) or ():
            if call_id in emitted:
                continue
            return Finding(
                "tool-ids",
                Verdict.FAIL,
                message=f"turn {t.turn}: the SUT sent a {what} upstream under an id the upstream never "
                "gave (the client answers a call that never existed)",
                expected=f"one of {sorted(emitted)}",
                actual=f"{what} id {call_id!r}",
                evidence=view.cite([request]),
            )
    return None


# The call id is Chat ``id``, Responses ``call_id``, Anthropic ``tool_use.id``, or Gemini
# ``functionCall.id`` where present. A SUT that mints its own or hands out the Responses item id,
# ``fc_...``, makes its client answer a call that never existed. Lost or altered calls themselves are
# delivery's, and a call whose front door carries no id is not judged here.
@check(
    "tool-ids",
    "Every tool call reaches the client under the upstream's call id (Chat id, Responses call_id, "
    "Anthropic tool_use.id, Gemini functionCall.id), and the next request sends those ids back.",
)
def tool_ids(view: CaseView) -> Finding:
    judged = {t.turn for t in judged_turns(view)}
    emitted: set[str] = set()
    compared = 0
    for t in view.turns:
        sent = _on_the_wire(t)
        if t.turn in judged and sent:
            compared += sum(1 for c in t.tool_calls if c.id)
            found = _client_side(view, t, sent)
            if found is not None:
                return found
        if emitted and t.reached and not t.foreign:
            compared += sum(len(_sent_back(view, r) or ()) for r in t.requests)
            found = _request_side(view, t, emitted)
            if found is not None:
                return found
        emitted |= sent
    if not compared:
        return na("tool-ids", "no tool call id reached the client or came back upstream")
    return Finding("tool-ids", Verdict.PASS, message=f"{compared} tool call id(s) compared")
