"""What every driver does: start a SUT, carry a case's conversation through its front door, stop it. Drivers
only record, into the case's Timeline and the upstream's ClientSide; they never judge."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from harness._errors import ThinkwireError
from harness.events import Event, Message, StreamError, ToolCallBlock, assemble
from harness.timeline import Timeline

if TYPE_CHECKING:
    from harness._gate import Gate

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ERROR_BODY_CAP",
    "CancelWatch",
    "CaseContext",
    "CaseTooBig",
    "Driver",
    "DriverError",
    "DriverTimeout",
    "TurnOutcome",
    "converse",
]


class DriverError(ThinkwireError):
    """The SUT crashed, never became ready, or answered something unusable. Carries the stderr tail."""

    def __init__(self, message: str, stderr: str = "") -> None:
        self.stderr = stderr
        super().__init__(message + (f"\n--- SUT stderr (tail) ---\n{stderr}" if stderr else ""))


class DriverTimeout(DriverError):
    """The SUT did not answer within the case timeout; the run moves on."""


DEFAULT_MAX_BYTES = 64 * 1024 * 1024  # what one case may read from the SUT (``--max-bytes``)
ERROR_BODY_CAP = 1024 * 1024  # what an error answer's body may take (it is evidence, not a stream)


class CaseTooBig(DriverError):
    """The SUT sent more than the case's byte cap: the run keeps what it read as evidence, stops
    reading, and the case FAILs (memory stays bounded whatever the SUT streams)."""

    def __init__(self, limit: int, head: bytes) -> None:
        self.limit = limit
        self.head = head
        super().__init__(f"the SUT sent more than {limit} bytes")


@dataclass(frozen=True, slots=True)
class CaseContext:
    """What a driver needs for one case: where the upstream is and how to address it. ``timeout`` is
    the case's wall-clock budget over all its turns; ``deadline`` the monotonic time it ends (set by
    the runner from ``timeout`` when not given); ``max_bytes`` what the case may read from the SUT."""

    case: Any  # harness.catalog.Case (typed loosely: drivers sit below the suite layer)
    upstream_url: str
    timeline: Timeline
    client: Any  # harness.upstream ClientSide: .observe(event), .satisfied(gate)
    model: str
    timeout: float
    values: dict[str, str] = field(default_factory=dict)
    deadline: float = 0.0
    max_bytes: int = DEFAULT_MAX_BYTES
    provider: str = ""  # the provider the case's upstream plays (deepseek, kimi, anthropic...)

    def __post_init__(self) -> None:
        if not self.deadline:
            object.__setattr__(self, "deadline", time.monotonic() + self.timeout)

    def left(self) -> float:
        """Seconds left before the case's deadline (never negative)."""
        return max(0.0, self.deadline - time.monotonic())


@dataclass(slots=True)
class TurnOutcome:
    events: list[Event] = field(default_factory=list)
    status: int = 200
    cancelled: bool = False

    @property
    def errored(self) -> bool:
        return self.status >= 400 or any(isinstance(e, StreamError) for e in self.events)


class Driver:
    """What the runner asks of every driver, each seam declared here with its default, so nothing
    probes a driver for an attribute. A hang raises :class:`DriverTimeout`, and a SUT that cannot start
    raises :class:`DriverError` with its stderr tail; the runner turns those into TIMEOUT and ERROR."""

    kind: str = ""
    concurrent: bool = False
    """It carries several conversations at once (a Python callable's ``thinkwire_concurrent``)."""
    base_url: str = ""
    """Where the SUT is reached, once started ("" for a SUT with no URL)."""
    values: Mapping[str, str] = MappingProxyType({})
    """The run-wide placeholders it was started with (``{port}``, ``{tmp}``...)."""

    def start(self, upstream_url: str) -> None:
        raise NotImplementedError

    def run(self, ctx: CaseContext) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def stderr_tail(self) -> str:
        """The last lines the SUT wrote to stderr ("" where it has none of its own)."""
        return ""

    def exited(self, wait: float = 0.0) -> int | None:
        """The exit code of the SUT's process once it has exited (waiting up to ``wait`` seconds);
        None while it runs, and for a SUT without a process thinkwire started."""
        return None

    def answering(self) -> bool | None:
        """For a SUT thinkwire did not start, reached at an address: does that address still take a
        connection? None where that is not how its going away is seen (no address, or a process of
        its own whose exit tells)."""
        return None


class CancelWatch:
    """The client-side view of a cancel gate, fed one event at a time: has the client seen what the
    gate names (its ``reasoning`` text, else its ``text``, else ``events`` events)? Each event costs
    only its own length (re-joining everything seen per event was quadratic on long streams)."""

    def __init__(self, gate: Gate | None) -> None:
        self.gate = gate
        self.met = gate is None
        self._count = 0
        self._tail = ""

    def see(self, ev: Event) -> bool:
        """Feed one event; True once the gate's condition holds (and from then on)."""
        from harness.events import ReasoningDelta, TextDelta

        gate = self.gate
        if self.met or gate is None:
            return self.met
        self._count += 1
        needle, delta_type = (
            (gate.reasoning, ReasoningDelta) if gate.reasoning is not None else (gate.text, TextDelta)
        )
        if needle is None:
            self.met = gate.events is None or self._count >= gate.events
        elif isinstance(ev, delta_type):
            text = self._tail + ev.text
            self.met = needle in text
            self._tail = text[-(len(needle) - 1) :] if len(needle) > 1 else ""
        return self.met


SendTurn = Callable[[int, list[Message], "Gate | None"], TurnOutcome]


def converse(ctx: CaseContext, send_turn: SendTurn) -> None:
    """Run the case's turns: each turn's reply is echoed back (as the SUT returned it) with the tool
    results, then the next user message, if any. Stops after a turn that errored, or that was cancelled
    unless the next turn starts with a new user message: then the conversation goes on, keeping the
    partial reply as the client got it (its tool calls, never answered, left out), as chat clients do."""
    messages: list[Message] = []
    turns = ctx.case.turns
    i = 0
    while i < len(turns):
        spec = turns[i]
        if ctx.left() <= 0:
            raise DriverTimeout(f"the case did not finish within {ctx.timeout:g}s (before turn {i})")
        if spec.user is not None:
            messages.append(Message.user(spec.user))
        outcome = send_turn(i, list(messages), spec.cancel)
        last = _continued(ctx, i)
        if last > i:  # the SUT carried the conversation on by itself (ran its tool, asked again)
            if outcome.errored or outcome.cancelled or last + 1 >= len(turns):
                return
            messages.append(assemble(outcome.events))
            i = last + 1
            continue
        i += 1  # (the next turn, from here on)
        if outcome.cancelled and not outcome.errored and i < len(turns) and turns[i].user is not None:
            partial = assemble(outcome.events)
            kept = tuple(b for b in partial.content if not isinstance(b, ToolCallBlock))
            if kept:
                messages.append(Message("assistant", kept))
            continue
        if outcome.errored or outcome.cancelled:
            return
        reply = assemble(outcome.events)
        messages.append(reply)
        for call in reply.tool_calls:
            messages.append(Message.tool(call.id, spec.tool_result, call.name))


def _continued(ctx: CaseContext, turn: int) -> int:
    """The last turn whose upstream request the SUT sent while thinkwire's ``turn`` ran: a SUT that
    runs its tools itself, or asks the model again after a tool call it could not parse, reaches the
    next turns on its own. Its client entries are moved to the turn whose request preceded them (the
    turns are read from what reached the upstream); ``turn`` when it reached none."""
    firsts: dict[int, int] = {}
    for e in ctx.timeline.select("upstream", "request"):
        if e.turn > turn and e.turn not in firsts:
            firsts[e.turn] = e.t
    for later in sorted(firsts):
        for back in range(later - 1, turn - 1, -1):  # (entries already moved to an earlier later turn)
            ctx.timeline.retag("client", back, firsts[later], later)
    return max(firsts, default=turn)
