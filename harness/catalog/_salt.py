"""Per-case content: a case's routing token in its user messages and in what its upstream emits. Each case's
content is then its own, so another case's reasoning in this stream, or its passback in this request, names
that case."""

from __future__ import annotations

from dataclasses import replace

from harness.catalog._scenario import ProviderHttpError, TurnSpec
from harness.events import Event, ReasoningDelta, TextDelta
from harness.upstream import Emit, Step

_Steps = tuple[Step | ProviderHttpError, ...]

__all__ = ["salted"]


def salted(turns: tuple[TurnSpec, ...], token: str) -> tuple[TurnSpec, ...]:
    """``turns`` with ``token`` in each user message and in each turn's emitted content.

    The token is ``harness._routing.token_for(case id)``. It goes in every user message, so the
    mock can route the case's requests through any gateway that forwards the conversation, and in the first
    reasoning of every turn, else at the end of its last answer text. The salt is the same in every run,
    serial or concurrent: the bytes, and so the verdicts, do not depend on what else is in flight.

    A leading ``<think>`` stays leading because text is salted at its end, and a gate's or cancel's needle
    stays contiguous because reasoning is salted at its start. Recorded, replayed bytes are never touched.
    """
    return tuple(_turn(t, token) for t in turns)


def _turn(spec: TurnSpec, token: str) -> TurnSpec:
    user = f"{spec.user} [{token}]" if spec.user is not None else None
    steps = spec.steps if spec.replay is not None else _steps(spec.steps, token)
    return replace(spec, user=user, steps=steps)


def _steps(steps: _Steps, token: str) -> _Steps:
    found = _find(steps, ReasoningDelta, first=True) or _find(steps, TextDelta, first=False)
    if found is None:
        return steps
    i, j = found
    emit = steps[i]
    assert isinstance(emit, Emit)
    ev = emit.events[j]
    assert isinstance(ev, ReasoningDelta | TextDelta)
    text = f"[{token}] {ev.text}" if isinstance(ev, ReasoningDelta) else f"{ev.text} [{token}]"
    events = (*emit.events[:j], replace(ev, text=text), *emit.events[j + 1 :])
    return (*steps[:i], Emit(events), *steps[i + 1 :])


def _find(steps: _Steps, delta_type: type[Event], *, first: bool) -> tuple[int, int] | None:
    """(step, event) index of the first (else last) non-empty ``delta_type`` delta of the turn."""
    spots = [
        (i, j)
        for i, st in enumerate(steps)
        if isinstance(st, Emit)
        for j, ev in enumerate(st.events)
        if isinstance(ev, delta_type) and isinstance(ev, ReasoningDelta | TextDelta) and ev.text
    ]
    if not spots:
        return None
    return spots[0] if first else spots[-1]
