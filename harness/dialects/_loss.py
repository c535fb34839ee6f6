"""A silent loss the provider needs: passed-back reasoning that a provider answering 200 still requires,
by its own documentation, to keep reasoning across a tool loop. The comparison is a
:class:`~harness.dialects._base.Fidelity` that also names that documentation, so the loss is a FAIL
where an optional piece stays NON_STRICT."""

from __future__ import annotations

from dataclasses import dataclass

from harness.dialects._base import Fidelity

__all__ = ["NeededLoss"]


@dataclass(frozen=True, slots=True)
class NeededLoss(Fidelity):
    """A comparison whose differences the provider does not reject but needs: ``source`` is the
    provider's doc (or the public report of it) saying the reasoning must come back, cited in the
    finding."""

    source: str = ""
