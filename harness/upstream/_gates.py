"""ClientSide: what the client side, the driver, has observed, and how the upstream waits for it.
Drivers write to it from their threads and the server waits on it from its event loop, so it is the
one object both sides share."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

from harness.events import Event, ReasoningDelta, TextDelta
from harness.upstream._script import Gate

__all__ = ["DECIDED", "ClientSide", "describe_gate", "seen_summary", "timeout_note"]

DECIDED = "not waited for: an earlier gate of this answer timed out"
"""Why a gate's timeout was 0 s. Once a gate of an upstream answer (one turn) has timed out, the turn's
``incremental`` verdict is decided (FAIL, from that first timeout); a later gate of the same answer
decides nothing, so the upstream does not hold its frames for it: a SUT that buffers reasoning waited
out every gate of a case before (two gates of 1 s, or of 8 s under load, where the first decides)."""


def timeout_note(waited: float) -> dict[str, Any]:
    """A ``gate-timeout`` entry's ``note`` when the gate was not waited for (``waited`` 0: DECIDED)."""
    return {} if waited else {"note": DECIDED}


def describe_gate(gate: Gate) -> str:
    """The gate's condition in words (timeline ``condition``)."""
    parts = []
    if gate.reasoning is not None:
        where = "reasoning or text" if gate.as_content else "reasoning"
        parts.append(f"client saw {where} {gate.reasoning!r}")
    if gate.text is not None:
        parts.append(f"client saw text {gate.text!r}")
    if gate.events is not None:
        parts.append(f"client saw {gate.events} event(s)")
    return " and ".join(parts) or "always open"


def seen_summary(events: tuple[Event, ...]) -> dict[str, Any]:
    """What the client had seen, compactly (timeline ``seen``)."""
    return {
        "events": len(events),
        "reasoning": "".join(e.text for e in events if isinstance(e, ReasoningDelta)),
        "text": "".join(e.text for e in events if isinstance(e, TextDelta)),
    }


class ClientSide:
    """Thread-safe record of client-side observations. A gate is satisfied when *every* condition it
    names holds: the reasoning (resp. text) seen so far contains the string; at least ``events``
    events were seen. A gate naming nothing is always open.

    Drivers call :meth:`observe` for every canonical event the client saw, from any thread. The server
    awaits :meth:`wait` on its own loop, woken by ``call_soon_threadsafe``; nothing polls.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: list[Event] = []
        self._reasoning: list[str] = []
        self._text: list[str] = []
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._changed = threading.Condition(self._lock)
        self._search: dict[tuple[bool, str], tuple[int, str, bool]] = {}
        """Per (reasoning?, needle): pieces searched so far, the tail that may start a match, found.
        A gate is checked on every event while it waits; searching only the new text keeps a long
        stream linear (joining all of it per check was quadratic)."""

    def observe(self, event: Event) -> None:
        with self._lock:
            self._seen.append(event)
            if isinstance(event, ReasoningDelta):
                self._reasoning.append(event.text)
            elif isinstance(event, TextDelta):
                self._text.append(event.text)
            waiters = list(self._waiters)
            self._changed.notify_all()
        for loop, flag in waiters:
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
                loop.call_soon_threadsafe(flag.set)

    def seen(self) -> tuple[Event, ...]:
        with self._lock:
            return tuple(self._seen)

    def reset(self) -> None:
        with self._lock:
            self._seen.clear()
            self._reasoning.clear()
            self._text.clear()
            self._search.clear()

    def satisfied(self, gate: Gate) -> bool:
        """Non-blocking: does what the client saw so far meet the gate?"""
        with self._lock:
            return self._met(gate)

    def wait_blocking(self, gate: Gate) -> bool:
        """Block this thread until the gate is satisfied (True) or ``gate.timeout`` passes (False);
        for servers without a loop (pytest-httpserver's werkzeug thread)."""
        with self._changed:
            return self._changed.wait_for(lambda: self._met(gate), gate.timeout)

    def _met(self, gate: Gate) -> bool:  # caller holds the lock
        needle = gate.reasoning  # as content too: where a relay delivers in-content markup's reasoning
        as_text = gate.as_content and needle is not None and self._contains(False, needle)
        if needle is not None and not self._contains(True, needle) and not as_text:
            return False
        if gate.text is not None and not self._contains(False, gate.text):
            return False
        return not (gate.events is not None and len(self._seen) < gate.events)

    def _contains(self, reasoning: bool, needle: str) -> bool:  # caller holds the lock
        pieces = self._reasoning if reasoning else self._text
        done, carry, found = self._search.get((reasoning, needle), (0, "", False))
        if not found and done < len(pieces):
            window = carry + "".join(pieces[done:])
            found = needle in window
            carry = window[max(0, len(window) - len(needle) + 1) :]
            self._search[(reasoning, needle)] = (len(pieces), carry, found)
        return found

    async def wait(self, gate: Gate, loop: asyncio.AbstractEventLoop | None = None) -> bool:
        """Wait on ``loop`` (the running one by default) until the gate is satisfied (True) or
        ``gate.timeout`` seconds pass (False)."""
        loop = loop or asyncio.get_running_loop()
        flag = asyncio.Event()
        key = (loop, flag)
        with self._lock:
            self._waiters.add(key)
        try:
            deadline = loop.time() + gate.timeout
            while not self.satisfied(gate):
                left = deadline - loop.time()
                if left <= 0:
                    return False
                flag.clear()
                if self.satisfied(gate):  # observed between the check and clear()
                    break
                try:
                    async with asyncio.timeout(left):
                        await flag.wait()
                except TimeoutError:
                    return self.satisfied(gate)
            return True
        finally:
            with self._lock:
                self._waiters.discard(key)
