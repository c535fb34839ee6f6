"""The cleanup check: child processes reaped and session or temp dirs removed, in that order. Whatever a SUT
leaves behind is judged here, on the cleanup axis."""

from __future__ import annotations

from harness.judge._base import check, na
from harness.judge._view import CaseView
from harness.verdict import Axis, Finding, Verdict

__all__: list[str] = []


# A leftover process or dir is UNCLEAN. A dir removed while a child still ran is FAIL: the ENOTEMPTY race
# of the alias regression.
@check(
    "cleanup", "Child processes are reaped and the session dir is removed after they exit.", axis=Axis.CLEANUP
)
def cleanup(view: CaseView) -> Finding:
    sut = view.sut_entries
    if view.abilities.at_url and not view.abilities.starts_a_process:
        why = "thinkwire did not start the SUT (it runs at its URL): no process of it to watch"
        return na("cleanup", why, Axis.CLEANUP)
    if not view.abilities.cleanup_watched or not sut:
        return na("cleanup", "no process or session dir of the SUT to watch", Axis.CLEANUP)
    for e in sut:
        if e.act == "dir-removed" and e.info.get("children_alive"):
            return Finding(
                "cleanup",
                Verdict.FAIL,
                Axis.CLEANUP,
                message="session dir removed while a child process still ran",
                expected="children exit, then the dir is removed",
                actual=f"dir removed with pids {e.info['children_alive']} alive",
                evidence=(view.index_of(e),),
            )
    left = [e for e in sut if e.act in ("process-left", "dir-left")]
    if left:
        what = "; ".join(
            f"child pid {e.info.get('pid')} ({e.info.get('cmdline', '')[:60]}) still running"
            if e.act == "process-left"
            else f"dir {e.info.get('path')} left behind"
            for e in left
        )
        return Finding(
            "cleanup",
            Verdict.UNCLEAN,
            Axis.CLEANUP,
            message=what,
            expected="no process or dir left after exit",
            actual=what,
            evidence=tuple(view.index_of(e) for e in left),
        )
    return Finding("cleanup", Verdict.PASS, Axis.CLEANUP)
