"""The front-door-grammar check: what the SUT sends its client follows the grammar of its front door's
dialect, with the official SDKs' stream types as ground truth: openai ``ResponseStreamEvent`` and output
item types, anthropic ``RawMessageStreamEvent``. The observers read the front door leniently so that the
other checks can still judge content; this check turns the breaks they noticed into a FAIL."""

from __future__ import annotations

from harness.events import Notice
from harness.judge._base import check, judged_turns, na
from harness.judge._view import CaseView
from harness.verdict import Finding, Verdict

__all__ = ["GRAMMAR_BREAKS"]

GRAMMAR_BREAKS: dict[str, str] = {
    "delta-without-start": "a delta for a content block that was never started",
    "unknown-item-id": "a delta for an output item that no output_item.added announced",
    "delta-type-mismatch": "a delta whose type does not belong to its block's type",
    "done-mismatch": "a .done event whose text differs from the joined deltas",
    "completed-lacks-item": "a response.completed snapshot without an item that was streamed",
    "completed-lacks-field": "a response.completed snapshot whose reasoning item lost the encrypted_content "
    "its response.output_item.done carried",
    "missing-field": "an item without a field its SDK type requires",
    "done-type-mismatch": "a response.output_item.done whose item type differs from its "
    "response.output_item.added (openai types/responses/response_output_item_done_event.py: the SDK's "
    "ResponseStream puts the done item in the added one's slot)",
    "done-id-mismatch": "a response.output_item.done under another id than the item its output_index "
    "was added as (openai lib/streaming/responses/_responses.py raises 'Completed output item identity "
    "changed')",
    "usage-lacks-field": "a response's usage without a count its SDK type requires (openai "
    "types/responses/response_usage.py: ResponseUsage.output_tokens_details: OutputTokensDetails, "
    "reasoning_tokens: int; a client that reads it aborts)",
    "event-lacks-field": "an event without a field its SDK type requires",
    "field-type": "an event field of another JSON type than its SDK type declares",
    "before-message-start": "a message event before message_start (the message id, the model and the "
    "input tokens never came; the anthropic SDK's MessageStream accumulates nothing before it)",
}
"""Notice codes that are grammar breaks of the front door, and what each means."""


# Each protocol break an observer read past is a :class:`~harness.events.Notice`, the evidence here.
# Termination, UTF-8 and framing notices belong to their own checks and are not read here.
@check(
    "front-door-grammar",
    "What the SUT streams to its client follows its front door's grammar (the SDKs' stream types): no "
    "delta for an unannounced item or block, no message event before Anthropic's message_start, no "
    "delta of another block's type, .done text equal to the deltas, a final snapshot with every "
    "streamed item and its encrypted_content, every field each event's SDK type requires, of the type "
    "it declares, an output_item.done of its added item's type and id, a usage with every count "
    "ResponseUsage requires.",
)
def front_door_grammar(view: CaseView) -> Finding:
    turns = [t for t in judged_turns(view) if t.event_entries]
    if not turns:
        return na("front-door-grammar", "no turn whose front-door events can be judged")
    for t in turns:
        breaks = [
            e for e in t.events_of(Notice) if isinstance(e.event, Notice) and e.event.code in GRAMMAR_BREAKS
        ]
        if breaks:
            first = breaks[0].event
            assert isinstance(first, Notice)
            codes = sorted({e.event.code for e in breaks if isinstance(e.event, Notice)})
            return Finding(
                "front-door-grammar",
                Verdict.FAIL,
                message=f"turn {t.turn}: {GRAMMAR_BREAKS[first.code]} ({first.detail[:160]})",
                expected="events the front door's SDK types accept",
                actual=f"{len(breaks)} break(s): {', '.join(codes)}",
                evidence=view.cite(breaks),
            )
    return Finding("front-door-grammar", Verdict.PASS, message=f"{len(turns)} turn(s) read without a break")
