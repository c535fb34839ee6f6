"""Several cases in flight at once through one running SUT, for ``--concurrency N``. Each case keeps its own
token, timeline, gates, deadline and byte cap, so a case's verdict is what a serial run gives."""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from harness.catalog import Case
from harness.drivers import Abilities
from harness.judge import CaseView
from harness.reference import own_process_faults
from harness.runner._exit import exit_seen, found_dead, own_exit
from harness.upstream import Disconnect, Gate, Pause, ProviderHttpError, Stall
from harness.verdict import CaseResult, Status

__all__ = [
    "MAX_LANES",
    "Aside",
    "Lanes",
    "alone_reason",
    "default_concurrency",
    "gated",
    "spread",
    "stalls",
    "waits",
]

MAX_LANES = 8
"""The cases a default puts in flight through a SUT in a process of its own (``--concurrency`` may ask
for more). Measured (docs/benchmarks.md, docs/ecosystem-results.md): the reference gateway, which
answers as fast as thinkwire works, is as fast at 8 as at 4 (a case goes back and forth between
thinkwire and the SUT several times, so with few in flight both sides often wait on the same one);
a SUT that makes cases wait (a gateway adding 20 ms a request, the LiteLLM proxy, whose failed gates
each wait out their timeout) is much faster at 8 than at 4."""


def default_concurrency(latency_s: float | None, abilities: Abilities, declared: bool = False) -> int:
    """Cases in flight by default: ``MAX_LANES`` through a SUT that works in a process of its own
    (gateway, URL) and answered the warm-up (``latency_s``, its first-byte latency); 1 through an
    in-process SUT, which shares the interpreter with the harness, unless its callable
    ``declared`` that it carries several conversations at once (``thinkwire_concurrent = True``:
    thinkwire cannot know that a callable is thread-safe); then ``MAX_LANES`` too, which overlaps
    the gates a buffering SUT makes wait (a correct one runs as fast at 8 as at 1); 1 through a SUT
    the preflight measured nothing of."""
    if latency_s is None or (abilities.in_process and not declared):
        return 1
    return MAX_LANES


def alone_reason(case: Case, abilities: Abilities, faults: Sequence[str] = (), declared: bool = False) -> str:
    """Why ``case`` needs the SUT to itself (``""``: it may share it with other cases in flight).
    ``declared``: an in-process callable said it carries several conversations at once (each call
    then has upstream connections of its own, as a process SUT's conversations do)."""
    if abilities.cleanup_watched and case.scenario.category == "cleanup":
        return "cleanup: the SUT's process tree and session dir are watched"
    if abilities.cleanup_watched and (own_faults := own_process_faults(faults)):
        return f"process-level fault switch ({', '.join(own_faults)})"
    own = abilities.own_connections or declared  # a held or closed connection: this case's
    if any(t.cancel is not None for t in case.turns) and not own:
        return "cancellation: the upstream connection must close after the client's cancel"
    steps = [s for t in case.turns for s in t.steps]
    if any(isinstance(s, Disconnect) or (isinstance(s, Stall) and not own) for s in steps):
        return "process-level fault: the upstream cuts or holds its connection"
    return ""


def spread(
    jobs: Sequence[tuple[int, Case]],
    waits: Callable[[Case], bool],
    head: int = 0,
    first: Callable[[Case], bool] | None = None,
) -> list[tuple[int, Case]]:
    """``jobs`` in the order to start them: the first ``head`` of the others, then the cases that may
    wait (``waits``: :func:`gated`) spread evenly over the first three quarters of the rest, among the
    others (each group in its own order; those ``first`` says first among those that wait). ``head``: the
    cases that finish before a gated one starts, so that the gates' timeout under load is measured,
    not guessed (``LoadLatency``). A SUT
    that buffers makes a gated case wait its gates' timeouts out, with nothing to do on either side;
    side by side, such cases fill every lane while the SUT sits idle, and then the other cases queue
    up for it, each slowed by seven neighbours (measured on the LiteLLM proxy: 54 gated cases of 2 s
    each, in one block, and the other 392 cases at 0.27 s each after them). Spread out, the waiting
    overlaps the SUT's work.
    The verdicts do not depend on the order (each case keeps its own conversation and timeline)."""
    waiting: list[tuple[int, Case]] = []
    rest: list[tuple[int, Case]] = []
    for job in jobs:
        (waiting if waits(job[1]) else rest).append(job)
    rest.sort(key=lambda job: -scripted_wait(job[1]))  # the longest begin first: the round ends sooner
    if first is not None:  # (the longest waits, a stall's, begin first)
        waiting.sort(key=lambda job: not first(job[1]))
    if not waiting or not rest or len(rest) <= head:
        return rest + waiting  # (one group: as given, those ``first`` says first)
    if head:
        return rest[:head] + spread([*rest[head:], *waiting], waits)
    span = max(1, (3 * len(rest)) // 4)  # the others among which the waiting cases go
    out: list[tuple[int, Case]] = []
    g = 0
    for k, job in enumerate(rest):
        while g < len(waiting) and g * span <= k * len(waiting):
            out.append(waiting[g])
            g += 1
        out.append(job)
    return out + waiting[g:]


def scripted_wait(case: Case) -> float:
    """Seconds the case's script makes every SUT wait: its pauses (a keepalive case's silence) and the
    Retry-After of its failed attempts."""
    steps = [s for t in case.turns for a in (t.steps, *t.attempts) for s in a]
    return sum(s.seconds for s in steps if isinstance(s, Pause)) + sum(
        s.retry_after or 0.0 for s in steps if isinstance(s, ProviderHttpError)
    )


def gated(case: Case) -> bool:
    """The case's upstream script holds a frame until the client has seen an earlier one."""
    return any(isinstance(s, Gate) for t in case.turns for s in t.steps)


def stalls(case: Case) -> bool:
    """The case's upstream holds its connection until the client leaves (or a stall's timeout)."""
    return any(isinstance(s, Stall) for t in case.turns for s in t.steps)


def waits(case: Case) -> bool:
    """The case may keep its lane waiting on the SUT: a gate (waited out when the SUT buffers) or a
    stall (held until the client leaves: a cancel that a buffering SUT makes late waits it out)."""
    return gated(case) or stalls(case)


class Aside(Protocol):
    """A second instance of the SUT for the cases that run alone (``_aside.AsideSUT``)."""

    def ready(self) -> bool:
        """Started (now, when it was not); False: it cannot be, and nothing of it is left."""
        ...

    def run_one(self, case: Case) -> tuple[CaseResult, CaseView | None, bool]: ...

    def restart(self) -> bool: ...

    def stop(self) -> None: ...


class LaneHost(Protocol):
    """What a round of lanes runs on (the runner's round, ``_run._Round``): its SUT, and what becomes
    of its cases."""

    def run_one(self, case: Case) -> tuple[CaseResult, CaseView | None, bool]:
        """The case run to its result: (result, view, the SUT is still alive)."""
        ...

    def alone(self, case: Case) -> str:
        """Why the case needs the SUT to itself ("": it may share it), :func:`alone_reason`."""
        ...

    def finished(self, index: int, result: CaseResult, view: CaseView | None) -> None:
        """A case's result, as it comes (in completion order; ``index``: its place in the round)."""
        ...

    def restart(self) -> bool:
        """A SUT that died restarted, with nothing in flight (False: it could not be: the round stops)."""
        ...

    def stop(self) -> None:
        """The SUT stopped on an interrupt (so that the cases in flight end)."""
        ...

    def solo(self) -> None:
        """Called once the shared cases are done, before those that run alone (one conversation in
        flight, as in a serial run)."""
        ...

    def may_wait(self, case: Case) -> bool:
        """The case may sit out a wait the SUT makes (a gate, a stall), :func:`waits`."""
        ...

    def starts_first(self, case: Case) -> bool:
        """Among the cases that may wait, the case begins first (the longest waits), :func:`stalls`."""
        ...


ASIDE_NOTE = "on a second instance of the SUT, alongside the shared cases"
"""What the result of a case that ran alone on the second instance adds to why it ran alone."""


@dataclass(slots=True)
class _Done:
    index: int
    case: Case
    shared: bool  # another case was in flight at some point during this one
    result: CaseResult | None = None
    view: CaseView | None = None
    alive: bool = True
    error: BaseException | None = None
    why: str | None = None
    """A message from the aside lane: why the case runs alone (no result: it did not run there)."""


def _again(done: _Done) -> str:
    """Why a case that ran in a lane runs again alone ("": its result stands): it ended ERROR or
    TIMEOUT while other cases were in flight (a neighbour's crash or the load is not its result),
    the SUT's process exited while others were in flight with it (which of them killed it is found by
    running each alone), or it found the SUT dead when it began."""
    result = done.result
    assert result is not None
    code = exit_seen(result)
    if found_dead(result):
        return "run again alone: the SUT had exited when its request reached it"
    if done.shared and code is not None:
        return f"run again alone: the SUT exited with code {code} while this case was in flight with others"
    if done.shared and result.status in (Status.ERROR, Status.TIMEOUT):
        return f"run again alone: {result.status.value} while other cases were in flight"
    return ""


class Lanes:
    """One round's cases, ``lanes`` at a time, on ``host`` (:class:`LaneHost`: it runs a case, says
    which need the SUT alone, takes each result, restarts or stops the SUT); ``aside``, a second instance
    of the SUT on which the cases that run alone go, one by one, while the shared ones run (those it
    cannot run run after them); ``head``, the cases started before the first that may wait
    (:func:`spread`). The cases that may wait (``host.may_wait``: a gate, a stall) have twice ``lanes``
    of their own beside the others' ``lanes``: a SUT that buffers makes them sit out their waits with
    nothing to do on either side, which then holds up no other case (and on a correct SUT they wait on
    nothing); once the others have all started, they may take the lanes the others leave idle.
    :meth:`round` returns the cases it did not run.

    A round's cases go through ``lanes`` worker threads sharing the one SUT and the one mock upstream,
    started in an order that spreads the gated ones among the others by :func:`spread`.

    A case that needs the SUT to itself, by :func:`alone_reason`, runs alone and its result says why: on a
    second instance of the SUT when there is one, in a lane of its own alongside the shared cases; else
    after them, on the one instance, routed as in a serial run. A case that ended ERROR or TIMEOUT while
    others were in flight runs again alone, after them, because a neighbour's crash or the load is not its
    result, and says so; so does every case in flight when the SUT's process exited (each alone, so the
    one that kills it gets the exit and the others their own verdicts), and one that found it dead.

    When a case leaves the SUT dead, no case starts until the lanes drain; then the SUT is restarted. On an
    interrupt the SUT and the second instance are stopped first, so that cases in flight end, and every
    lane is joined, bounded, before the interrupt goes on.
    """

    JOIN_S = 10.0
    """How long an interrupt waits for each lane to end once the SUT is stopped."""

    def __init__(self, lanes: int, host: LaneHost, *, aside: Aside | None = None, head: int = 0) -> None:
        self.lanes = max(1, lanes)
        self.host, self.head = host, head
        known: dict[int, tuple[Case, bool]] = {}  # id -> (the case, kept alive so its id stays its own)

        def waits_once(case: Case) -> bool:  # asked of every case left each time a lane frees
            hit = known.get(id(case))
            if hit is None or hit[0] is not case:
                hit = known[id(case)] = (case, host.may_wait(case))
            return hit[1]

        self.waits = waits_once
        self._done: queue.Queue[_Done] = queue.Queue()
        self._jobs: queue.Queue[_Done | None] = queue.Queue()
        self._workers: list[threading.Thread] = []
        self._flight: dict[int, _Done] = {}
        self.aside = aside
        self._aside_lane: threading.Thread | None = None
        self._aside_left = 0
        """Cases handed to the aside lane whose message has not come yet."""
        self._started = 0

    def round(self, cases: Sequence[Case]) -> list[tuple[int, Case]]:
        solo: list[tuple[int, Case, str]] = []
        shared: deque[tuple[int, Case]] = deque()
        for i, case in enumerate(cases):
            why = self.host.alone(case)
            if why:
                solo.append((i, case, why))
            else:
                shared.append((i, case))
        shared = deque(spread(shared, self.waits, self.head, self.host.starts_first))
        try:
            if self.aside is not None and solo:
                self._send_aside(solo)
                solo = []
            left = self._shared(shared, solo)
            self._close()
            if left:
                return left
            self.host.solo()
            return self._alone(sorted(solo, key=lambda s: s[0]))
        except BaseException:
            self._abandon()
            raise

    def _shared(
        self, jobs: deque[tuple[int, Case]], solo: list[tuple[int, Case, str]]
    ) -> list[tuple[int, Case]]:
        """Run ``jobs`` in the lanes; a rerun-alone goes into ``solo``. The cases not run when the
        SUT could not be restarted."""
        dead = False
        while jobs or self._flight or self._aside_left:
            while jobs and not dead and (job := self._next(jobs)) is not None:
                self._launch(*job)
            done = self._done.get()
            if done.why is not None:
                self._from_aside(done, solo)
            else:
                self._flight.pop(done.index, None)
                if done.error is not None:
                    raise done.error
                assert done.result is not None
                dead = dead or not done.alive
                why = _again(done)
                if why:
                    solo.append((done.index, done.case, why))
                else:
                    self.host.finished(done.index, done.result, done.view)
            if dead and not self._flight:
                if not self.host.restart():
                    while self._aside_left:  # its own instance: its cases still end as they do
                        self._from_aside(self._done.get(), solo)
                    return [*jobs, *((i, c) for i, c, _ in solo)]
                dead = False
        return []

    def _send_aside(self, cases: list[tuple[int, Case, str]]) -> None:
        """The cases that run alone go to the aside lane, which runs them in order on the second
        instance and posts a message for each; it stops the instance after the last."""
        aside = self.aside
        assert aside is not None

        def work() -> None:
            error: BaseException | None = None
            try:
                ok = aside.ready()
            except BaseException as exc:  # a harness fault: with the first message, raised there
                error, ok = exc, False
            for index, case, why in cases:
                done, error = _Done(index, case, shared=False, why=why, error=error), None
                if ok:
                    try:
                        done.result, done.view, alive = aside.run_one(case)
                        if found_dead(done.result) and aside.restart():  # (as in ``_alone``)
                            done.result, done.view, alive = aside.run_one(case)
                            own_exit(done.result)
                        done.result.alone = f"{why}; {ASIDE_NOTE}"
                        ok = alive or aside.restart()
                    except BaseException as exc:  # handed to the main thread, which raises it
                        done.error, ok = exc, False
                self._done.put(done)
            aside.stop()

        self._aside_left = len(cases)
        self._aside_lane = threading.Thread(target=work, name="thinkwire-aside", daemon=True)
        self._aside_lane.start()

    def _from_aside(self, done: _Done, solo: list[tuple[int, Case, str]]) -> None:
        """A message from the aside lane: a result, or a case it could not run (it runs after the
        shared ones, alone on the first instance)."""
        self._aside_left -= 1
        if done.error is not None:
            raise done.error
        if done.result is None:
            assert done.why is not None
            solo.append((done.index, done.case, done.why))
        else:
            self.host.finished(done.index, done.result, done.view)

    def _next(self, jobs: deque[tuple[int, Case]]) -> tuple[int, Case] | None:
        """The first of ``jobs`` (taken out) that a lane is free for: twice ``lanes`` for the cases
        that may wait (``waits``), once ``head`` cases have started (or only such cases are left: then
        the others' idle lanes too), and ``lanes`` for the others; None: none."""
        waiting = sum(self.waits(d.case) for d in self._flight.values())
        only = all(self.waits(c) for _, c in jobs)  # no other case is left to start
        cap = 2 * self.lanes + (self.lanes - (len(self._flight) - waiting) if only else 0)  # + idle lanes
        room = {True: (self._started >= self.head or only) and waiting < cap,
                False: len(self._flight) - waiting < self.lanes}  # fmt: skip
        if not room[True] and not room[False]:
            return None
        for k, job in enumerate(jobs):
            if room[self.waits(job[1])]:
                del jobs[k]
                return job
        return None

    def _launch(self, index: int, case: Case) -> None:
        for other in self._flight.values():
            other.shared = True
        done = _Done(index, case, shared=bool(self._flight))
        self._flight[index] = done
        self._started += 1
        if len(self._workers) < len(self._flight):  # a lane is a thread kept for the round
            worker = threading.Thread(target=self._work, name="thinkwire-lane", daemon=True)
            self._workers.append(worker)
            worker.start()
        self._jobs.put(done)

    def _work(self) -> None:
        while (done := self._jobs.get()) is not None:
            try:
                done.result, done.view, done.alive = self.host.run_one(done.case)
            except BaseException as exc:  # handed to the main thread, which raises it
                done.error = exc
            self._done.put(done)

    def _alone(self, solo: list[tuple[int, Case, str]]) -> list[tuple[int, Case]]:
        for k, (index, case, why) in enumerate(solo):
            result, view, alive = self.host.run_one(case)
            if found_dead(result):  # (dead before it, or of it: once more on a restarted SUT settles it)
                if not self.host.restart():
                    return [(i, c) for i, c, _ in solo[k:]]
                result, view, alive = self.host.run_one(case)
                own_exit(result)
            result.alone = why
            self.host.finished(index, result, view)
            if not alive and not self.host.restart():
                return [(i, c) for i, c, _ in solo[k + 1 :]]
        return []

    def _close(self) -> None:
        """The lanes end (nothing is in flight when this is called; the aside lane, once its last
        message came, only stops its instance)."""
        for _ in self._workers:
            self._jobs.put(None)
        for worker in (*self._workers, *filter(None, [self._aside_lane])):
            worker.join(self.JOIN_S)
        self._workers.clear()
        self._aside_lane = None

    def _abandon(self) -> None:
        """An interrupt (or a harness error): stop the SUT so that cases in flight end, then join
        their lanes (bounded by ``JOIN_S`` each); their results are dropped (not run)."""
        if self._flight:
            self.host.stop()
        if self.aside is not None:
            self.aside.stop()
        self._flight.clear()
        self._close()
