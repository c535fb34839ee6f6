"""A SUT that goes away in a run: a process thinkwire started that exits is the one verdict of the case it
was serving (never of the next one), and a SUT thinkwire did not start that stops taking connections ends
the run, the cases not run NOT_RUN. Which case a death belongs to is decided here, from the timeline."""

from __future__ import annotations

from collections.abc import Sequence

from harness.drivers import Driver
from harness.timeline import Timeline
from harness.verdict import CaseResult, Finding, Status, Verdict

__all__ = [
    "DEAD_BEFORE",
    "EXIT_WAIT_S",
    "SUT_EXIT",
    "dead_before",
    "ended_by_sut",
    "exit_seen",
    "exit_verdict",
    "exited_between",
    "found_dead",
    "not_run",
    "not_run_line",
    "own_exit",
    "settle",
    "sut_exit",
]


EXIT_WAIT_S = 2.0
"""How long a case whose connection to the SUT broke waits for the SUT's process to be seen exiting: a
process that dies closes its sockets a moment before it can be reaped (a live SUT that broke the
connection itself costs this wait; the reference gateway breaks none in the catalog)."""

DEAD_BEFORE = "the SUT had exited with code"
"""How the ERROR of a case that found the SUT already dead begins (it was not run: :func:`dead_before`)."""

SUT_EXIT = "sut-exit"
"""The check name of the finding a case gets when the SUT's process exited while serving it."""


def sut_exit(driver: Driver, wait: float = 0.0) -> int | None:
    """The exit code of the SUT's process when one that thinkwire started has exited (waiting up to
    ``wait`` seconds for that); None while it runs, and for a SUT without a process of its own."""
    return driver.exited(wait)


def _broke(timeline: Timeline) -> bool:
    """Did the client's connection to the SUT break (a transport error: not thinkwire's deadline,
    timeout or byte cap)?"""
    own = ("deadline:", "timeout:", "more than ")
    return any(not str(e.info.get("error", "")).startswith(own) for e in timeline.select("client", "error"))


def _untouched(timeline: Timeline) -> bool:
    """Did nothing of the case get through the SUT: no request reached the upstream, no answer (not
    even a status line) the client? (A process that is exiting may still complete a connection.)"""
    return not timeline.select("upstream", "request") and not timeline.select("client", "status")


def ended_by_sut(driver: Driver, timeline: Timeline, result: CaseResult) -> bool:
    """Did the SUT go away while serving this case? Its process exited (the case gets that one
    finding, :func:`exit_verdict`; ERROR, not judged, when nothing of the case got through it: it
    may have died before, :func:`dead_before`), or a SUT thinkwire did not start stopped taking
    connections after the client's broke (the case is NOT_RUN: the run ends there)."""
    if found_dead(result):
        return True
    broke = _broke(timeline)
    code = sut_exit(driver, EXIT_WAIT_S if broke else 0.0)
    stderr = driver.stderr_tail() if code is not None else ""
    if code is not None and _untouched(timeline):  # gone before this case, or gone of its first request
        dead_before(result, code, stderr)
        return True
    if code is not None:
        exit_verdict(result, code, stderr)
        return True
    if broke and driver.answering() is False:
        result.status, result.findings = Status.NOT_RUN, []
        result.stream = result.cleanup = Verdict.NOT_APPLICABLE
        result.error = (
            f"the SUT at {driver.base_url} stopped answering (its address refuses "
            "connections after it worked) while serving this case"
        )
        return True
    return False


def exit_verdict(result: CaseResult, code: int, stderr: str, after: bool = False) -> None:
    """``result`` judged by the SUT's exit alone: one FAIL finding naming the exit code, with the last
    lines of its stderr (the case's other findings are that exit's consequences). ``after``: it
    exited after the case's last exchange, before the next case began."""
    tail = "\n".join(stderr.strip().splitlines()[-12:])
    when = "after serving this case (before the next began)" if after else "while serving this case"
    result.status, result.error = Status.OK, ""
    result.findings = [
        Finding(
            SUT_EXIT,
            Verdict.FAIL,
            message=f"the SUT exited with code {code} {when}",
            expected="the SUT keeps running: no request ends its process",
            actual=f"exit code {code}; " + (f"its stderr ends:\n{tail}" if tail else "no stderr"),
            data={"exit_code": code},
        )
    ]
    result.stream = Verdict.FAIL
    result.cleanup = Verdict.NOT_APPLICABLE  # (its process is gone: nothing of this case to judge)


def dead_before(result: CaseResult, code: int, stderr: str) -> None:
    """``result`` is that of a case that found the SUT's process exited (code ``code``) before its
    request reached the upstream or got an answer: it had died before, or died of that request. ERROR,
    not judged: the case runs again on a restarted SUT, which settles it (:func:`own_exit`)."""
    result.status = Status.ERROR
    result.error = f"{DEAD_BEFORE} {code} when this case's first request reached it (it runs again)"
    result.findings = [
        Finding(
            SUT_EXIT,
            Verdict.NOT_APPLICABLE,
            message=f"the SUT had exited with code {code} before this case's request was served",
            data={"exit_code": code, "stderr": stderr},
        )
    ]


def found_dead(result: CaseResult) -> bool:
    """Did the case find the SUT's process exited before its request was served (:func:`dead_before`)?"""
    return result.status == Status.ERROR and any(
        f.check == SUT_EXIT and f.verdict == Verdict.NOT_APPLICABLE for f in result.findings
    )


def own_exit(result: CaseResult) -> None:
    """A case that found the SUT dead again when it ran again alone on a restarted SUT: nothing else
    reached that process, so the exit is this case's (:func:`exit_verdict`)."""
    for f in result.findings if found_dead(result) else ():
        exit_verdict(result, f.data["exit_code"], f.data["stderr"])


def settle(first: CaseResult, again: CaseResult, served: CaseResult | None) -> bool:
    """A case that found the SUT dead (``first``, :func:`dead_before`) ran ``again`` alone on a
    restarted SUT. Dead again before anything got through: the exit is its own (:func:`own_exit`).
    Else it got through this time, so the exit it first found came before it: it goes to ``served``,
    the case the SUT served before it, as after serving it. Returns whether ``served`` was judged
    again so."""
    if found_dead(again) or served is None:
        own_exit(again)
        return False
    for f in first.findings if found_dead(first) else ():
        exit_verdict(served, f.data["exit_code"], f.data["stderr"], after=True)
        return True
    return False


def exit_seen(result: CaseResult) -> int | None:
    """The exit code the SUT's process ended with while serving ``result``'s case (None: it did not)."""
    for f in result.findings:
        if f.check == SUT_EXIT and f.verdict == Verdict.FAIL:
            code: int | None = f.data.get("exit_code")
            return code
    return None


def exited_between(driver: Driver, served: CaseResult | None) -> bool:
    """Has the SUT's process exited since the last case's exchanges ended, before the next case
    began? Then ``served``, the case it served last (None: none reached it since it started), gets
    that exit, said as after serving it: no other conversation was in it."""
    code = sut_exit(driver)
    if code is not None and served is not None:
        exit_verdict(served, code, driver.stderr_tail(), after=True)
    return code is not None


def not_run_line(flight: Sequence[str], left: int) -> str:
    """The one line that ends a run whose SUT (one thinkwire did not start) stopped answering while the
    cases ``flight`` were in flight, ``left`` cases not run."""
    names = ", ".join(flight)  # (every case in flight: which of them it died on is not known)
    return (
        f"the SUT stopped answering (its address refuses connections) while serving {names}: "
        f"the run ended there, {left} case(s) not run"
    )


def not_run(result: CaseResult, line: str) -> CaseResult:
    """``result``, fresh, made that of a case the run ended before (``line``: why): NOT_RUN, no verdict
    on either axis."""
    result.status, result.error = Status.NOT_RUN, "not run: " + line
    result.stream = result.cleanup = Verdict.NOT_APPLICABLE
    return result
