"""Driver for in-process SUTs: a Python callable (an SDK wrapper) that yields canonical events.

Rule: the callable gets a :class:`SUTRequest` and returns an iterable of canonical events (what its
users would see); an exception it raises is what its users would see on error. It runs on a worker
thread so that a hang becomes a TIMEOUT, never a hung run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from harness.drivers._base import CaseContext, DriverError, DriverTimeout, TurnOutcome, converse, gate_met
from harness.drivers._profile import SUTProfile
from harness.events import Event, Message, StreamError

if TYPE_CHECKING:
    from harness.upstream import Gate

__all__ = ["PythonDriver", "SUTCallable", "SUTRequest", "load_callable"]


@dataclass(frozen=True, slots=True)
class SUTRequest:
    """One turn for an in-process SUT: call the provider at ``base_url`` in ``dialect``."""

    base_url: str
    dialect: str
    variant: str | None
    model: str
    messages: list[Message]
    stream: bool
    http: httpx.Client
    faults: frozenset[str] = field(default_factory=frozenset)


SUTCallable = Callable[[SUTRequest], Iterable[Event]]


def load_callable(spec: str) -> SUTCallable:
    module, _, attr = spec.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise DriverError(f"cannot load SUT callable {spec!r}: {exc}") from None
    if not callable(obj):
        raise DriverError(f"SUT callable {spec!r} is not callable")
    fn: SUTCallable = obj
    return fn


class PythonDriver:
    kind = "python"

    def __init__(self, profile: SUTProfile, fn: SUTCallable | None = None) -> None:
        self.profile = profile
        self.fn = fn or load_callable(profile.callable or "")
        self.http = httpx.Client(timeout=httpx.Timeout(profile.timeout, connect=5.0))
        self.upstream_url = ""

    def start(self, upstream_url: str) -> None:
        self.upstream_url = upstream_url

    def stop(self) -> None:
        self.http.close()

    def stderr_tail(self) -> str:
        return ""

    def run(self, ctx: CaseContext) -> None:
        converse(ctx, lambda i, msgs, cancel: self._turn(ctx, i, msgs, cancel))

    def _turn(self, ctx: CaseContext, turn: int, messages: list[Message], cancel: Gate | None) -> TurnOutcome:
        case = ctx.case
        req = SUTRequest(
            ctx.upstream_url,
            case.dialect,
            case.variant,
            ctx.model,
            messages,
            case.stream,
            self.http,
            frozenset(self.profile.faults),
        )
        tl = ctx.timeline
        tl.add("client", "request", turn=turn, model=ctx.model)
        out = TurnOutcome()

        def record(ev: Event) -> None:
            tl.add("client", "event", event=ev, turn=turn)
            ctx.client.observe(ev)
            out.events.append(ev)

        # Iterated on this thread, like a user's ``for event in sdk.stream(...)``: a client cancel is
        # ``close()`` on the iterator, which must close the SUT's upstream response. Hangs are bounded
        # by the httpx timeouts of ``request.http``.
        iterator: Iterator[Event] | None = None
        try:
            iterator = iter(self.fn(req))
            for ev in iterator:
                record(ev)
                if cancel is not None and gate_met(out.events, cancel):
                    tl.add("client", "cancel", turn=turn)
                    out.cancelled = True
                    break
        except httpx.TimeoutException as exc:
            tl.add("client", "error", turn=turn, error=f"timeout: {exc!r}")
            raise DriverTimeout(f"the SUT callable timed out on turn {turn}: {exc!r}") from None
        except Exception as exc:  # the SUT's own error: what its users would see
            status = int(getattr(exc, "status_code", getattr(exc, "status", 0)) or 0)
            tl.add("client", "error", turn=turn, error=repr(exc))
            record(StreamError(f"{type(exc).__name__}: {exc}", status=status or None))
            out.status = status or 200
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                close()
        if not out.cancelled:
            tl.add("client", "end", turn=turn)
        return out
