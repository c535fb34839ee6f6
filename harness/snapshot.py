"""syrupy integration: snapshot what a SUT produced as a normalised timeline, so a wrapper's regression suite
catches any change in what its users would see.

Use the ``thinkwire_snapshot`` fixture: ``assert thinkwire_snapshot == result``, where the result is a
RunResult, CaseResult, Timeline or event list."""

from __future__ import annotations

from typing import Any

from syrupy.extensions.amber import AmberSnapshotExtension

from harness._explain import explain_difference, normalise

__all__ = ["TimelineSnapshotExtension", "explain_difference", "normalise"]


class TimelineSnapshotExtension(AmberSnapshotExtension):
    """Stores ``normalise(data)`` (one line per coalesced event) instead of the raw object."""

    def serialize(self, data: Any, **kwargs: Any) -> Any:
        return super().serialize("\n".join(normalise(data)) + "\n", **kwargs)
