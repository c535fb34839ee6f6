"""syrupy integration: snapshot what a SUT produced as a normalised timeline, so a wrapper's regression suite
catches any change in what its users would see. The stored text is both sides of each turn (the requests
the SUT sent, the frames it got, the events its client saw) and each check's verdict, ids and times masked.

Use the ``thinkwire_snapshot`` fixture: ``assert thinkwire_snapshot == result``, where the result is a
RunResult, CaseResult, Timeline, a case's kept timeline or an event list."""

from __future__ import annotations

from typing import Any

from syrupy.extensions.amber import AmberSnapshotExtension

from harness._explain import explain_difference, normalise

__all__ = [
    "NothingToSnapshot",
    "TimelineSnapshotExtension",
    "explain_difference",
    "normalise",
    "snapshot_text",
]

_KEEP = "run it with keep_timelines='all' (thinkwire_run's default) or --keep-timelines"


class NothingToSnapshot(ValueError):
    """A snapshot of nothing would pass whatever the SUT does: an empty timeline, a case that kept none."""


def snapshot_text(data: Any) -> str:
    """What a snapshot of ``data`` stores; NothingToSnapshot (one line, saying how to keep a timeline)
    when there is nothing in it to compare."""
    results = getattr(data, "results", None) if hasattr(data, "sut") else None
    if results is not None and not results:
        raise NothingToSnapshot("thinkwire_snapshot: the run has no case result (its glob matched no case)")
    cases = results if results is not None else ([data] if hasattr(data, "findings") else [])
    for r in cases:
        if not r.timeline:
            raise NothingToSnapshot(f"thinkwire_snapshot: case {r.case_id} kept no timeline: {_KEEP}")
    lines = normalise(data)
    if not lines or (not cases and not any(line.strip() for line in lines)):
        raise NothingToSnapshot(f"thinkwire_snapshot: an empty timeline or event list: {_KEEP}")
    return "\n".join(lines) + "\n"


class TimelineSnapshotExtension(AmberSnapshotExtension):
    """Stores :func:`snapshot_text` (one line per joined event, per frame, per request) instead of the
    raw object."""

    def serialize(self, data: Any, **kwargs: Any) -> Any:
        return super().serialize(snapshot_text(data), **kwargs)

    def matches(self, *, serialized_data: Any, snapshot_data: Any) -> bool:
        """A snapshot stored before ``Notice.kind`` became ``Notice.code`` (results format 5) still
        matches, so an upgrade does not fail a suite whose streams did not change;
        ``--snapshot-update`` stores the new spelling."""
        if super().matches(serialized_data=serialized_data, snapshot_data=snapshot_data):
            return True
        if not isinstance(snapshot_data, str) or _OLD_NOTICE not in snapshot_data:
            return False
        renewed = snapshot_data.replace(_OLD_NOTICE, _NEW_NOTICE)
        return super().matches(serialized_data=serialized_data, snapshot_data=renewed)


_OLD_NOTICE, _NEW_NOTICE = " Notice: kind=", " Notice: code="
