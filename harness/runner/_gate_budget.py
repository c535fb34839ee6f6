"""A case's gate wait, decided once before it is driven: from what the user set, what the preflight measured,
the run's load and what the round learned. After the case it feeds back what the case showed, and a finding
a shortened wait decided says so."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.runner._gate_wait import shortened_note
from harness.runner._state import Limits, Live
from harness.verdict import Finding, Verdict

if TYPE_CHECKING:
    from harness.judge import CaseView
    from harness.upstream import Conversation, Step

__all__ = ["GateBudget", "longest_gate", "relay_time", "with_gate_timeout"]


@dataclass(frozen=True, slots=True)
class GateBudget:
    """How long a case's gates wait. ``conversation``: the case's, each gate's wait set; ``wait``: the
    longest a gate of it waits (None: it has no gate); ``full``: that wait before any shortening;
    ``short``: the shortened wait (None: in full).

    The wait is the user's ``gate_timeout`` when set. Else it is the one the warm-up measured, raised to
    what the run's load asks (never above the case's timeout), and never below the scenario's own. Once the
    round learned that the SUT buffers, it is shortened (``GateLearning.short``)."""

    conversation: Conversation
    wait: float | None
    full: float | None
    short: float | None
    live: Live

    @classmethod
    def of(cls, conversation: Conversation, limits: Limits) -> GateBudget:
        asked, live = limits.settings, limits.live
        gates = asked.gate_timeout if asked.gate_timeout is not None else limits.measured.gate_timeout
        if gates is not None and asked.gate_timeout is None and live.load is not None:
            gates = min(live.load.gate_timeout(gates), asked.timeout)
        if gates is not None:
            conversation = with_gate_timeout(conversation, gates, at_least=asked.gate_timeout is None)
        full = longest_gate(conversation)
        short = None
        if full is not None and live.learning is not None and asked.gate_timeout is None:
            load = live.load.median() if live.load is not None else None
            short = live.learning.short(full, limits.measured.relay, load)
        if short is not None:
            conversation = with_gate_timeout(conversation, short)
        return cls(conversation, longest_gate(conversation), full, short, live)

    def learn(self, view: CaseView, findings: list[Finding]) -> None:
        """What the driven case shows the round: an ungated case's relay time under load, and its
        gates (``GateLearning.learn``); and its ``findings`` (its judge's) told of a shortened wait."""
        live = self.live
        if live.load is not None and not any(t.gates_scripted for t in view.turns):
            relay = relay_time(view)
            if relay is not None:
                live.load.add(relay)
        if live.learning is not None:
            live.learning.learn(view, shortened=self.short is not None)
        self._say_shortened(findings)

    def _say_shortened(self, findings: list[Finding]) -> None:
        """The ``incremental`` FAIL a gate decided after a shortened wait says so (same verdict)."""
        short, full, learning = self.short, self.full, self.live.learning
        if short is None or full is None or learning is None:
            return
        for k, f in enumerate(findings):
            if (
                f.check == "incremental"
                and f.verdict == Verdict.FAIL
                and "gate timed out" in (f.actual or "")
            ):
                findings[k] = dataclasses.replace(
                    f, message=f.message + shortened_note(short, full, learning.buffered)
                )


def relay_time(view: CaseView) -> float | None:
    """Seconds from the upstream's first write of a turn to the last reasoning or text the client got
    in that turn, the longest over the turns (None: no turn has both). In an ungated case the upstream
    writes its whole stream at once, so this is how long the SUT took to hand all of it on: at least
    what it takes to hand on the one delta a gate waits for."""
    from harness.events import ReasoningDelta, TextDelta

    writes: dict[int, int] = {}
    for w in view.of("upstream", "write"):
        writes.setdefault(w.turn, w.t)
    got: dict[int, int] = {}
    for e in view.of("client", "event"):
        if isinstance(e.event, ReasoningDelta | TextDelta):
            got[e.turn] = e.t
    spans = [got[turn] - t for turn, t in writes.items() if turn in got and got[turn] >= t]
    return max(spans) / 1e9 if spans else None


def with_gate_timeout(conversation: Conversation, seconds: float, *, at_least: bool = False) -> Conversation:
    """The conversation with every gate's timeout set to ``seconds`` (``at_least``: raised to it,
    never lowered below what the scenario asked for)."""
    from harness.upstream import Gate

    def fix(step: Step) -> Step:
        if not isinstance(step, Gate):
            return step
        value = max(step.timeout, seconds) if at_least else seconds
        return dataclasses.replace(step, timeout=value)

    scripts = tuple(
        dataclasses.replace(s, steps=tuple(fix(st) for st in s.steps)) for s in conversation.scripts
    )
    return dataclasses.replace(conversation, scripts=scripts)


def longest_gate(conversation: Conversation) -> float | None:
    """The longest timeout of the conversation's gates, as they will wait (None: no gate)."""
    from harness.upstream import Gate

    waits = [st.timeout for s in conversation.scripts for st in s.steps if isinstance(st, Gate)]
    return max(waits, default=None)
