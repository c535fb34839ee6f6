"""The client-side view of a cancel gate: met exactly when the joined text first contains the needle,
whatever the split; each event costs its own length (no re-join of everything seen)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.drivers._base import CancelWatch
from harness.events import Event, ReasoningDelta, TextDelta
from harness.upstream import Gate


def first_met(gate: Gate, events: list[Event]) -> int | None:
    watch = CancelWatch(gate)
    for i, ev in enumerate(events):
        if watch.see(ev):
            return i
    return None


def reference(gate: Gate, events: list[Event]) -> int | None:
    """The plain definition: the first prefix whose joined reasoning (or text, or count) satisfies."""
    for i in range(len(events)):
        seen = events[: i + 1]
        if gate.reasoning is not None:
            ok = gate.reasoning in "".join(e.text for e in seen if isinstance(e, ReasoningDelta))
        elif gate.text is not None:
            ok = gate.text in "".join(e.text for e in seen if isinstance(e, TextDelta))
        else:
            ok = gate.events is None or len(seen) >= gate.events
        if ok:
            return i
    return None


pieces = st.lists(
    st.one_of(
        st.builds(ReasoningDelta, st.text(alphabet="ab思", max_size=4)),
        st.builds(TextDelta, st.text(alphabet="ab", max_size=4)),
    ),
    max_size=12,
)


@given(pieces, st.text(alphabet="ab思", min_size=1, max_size=5))
def test_reasoning_gate_matches_the_plain_definition(events: list[Event], needle: str) -> None:
    gate = Gate(reasoning=needle)
    assert first_met(gate, events) == reference(gate, events)


@given(pieces, st.text(alphabet="ab", min_size=1, max_size=4))
def test_text_gate_matches_the_plain_definition(events: list[Event], needle: str) -> None:
    gate = Gate(text=needle)
    assert first_met(gate, events) == reference(gate, events)


def test_event_count_gate_and_no_gate() -> None:
    events: list[Event] = [TextDelta("x")] * 3
    assert first_met(Gate(events=2), events) == 1
    assert CancelWatch(None).see(TextDelta("x"))
