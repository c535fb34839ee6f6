"""The script's provider profile's say on a request, sans-IO: its validation (a :class:`Rejection`,
the provider's exact error) and its passback comparison (a :class:`Fidelity`) against what the
upstream emitted earlier in the conversation.

Rule: an unknown profile is an :class:`UnknownName` (bad input, one line), never a silent lenient one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness._errors import UnknownName
from harness.dialects import Fidelity, ProviderProfile, Rejection, get_dialect
from harness.events import Message
from harness.upstream._script import Script

__all__ = ["check_fidelity", "validate_request"]


def _profile(script: Script) -> ProviderProfile:
    """The script's provider profile (an unknown profile is an UnknownName)."""
    profiles = get_dialect(script.dialect).profiles()
    if script.profile not in profiles:
        raise UnknownName(f"{script.dialect} provider profile", script.profile, profiles)
    return profiles[script.profile]


def validate_request(
    script: Script, body: Mapping[str, Any] | None, emitted: Sequence[Message]
) -> Rejection | None:
    """The script's provider profile checks the request first (an unknown profile is an UnknownName)."""
    return _profile(script).validate(body or {}, emitted)


def check_fidelity(
    script: Script, body: Mapping[str, Any] | None, emitted: Sequence[Message]
) -> Fidelity | None:
    """What the profile found comparing the passed-back reasoning with what it emitted (None: the
    profile makes no such comparison, or the request carries nothing to compare)."""
    profile = _profile(script)
    compare = getattr(profile, "fidelity", None)
    return None if compare is None or not emitted else compare(body or {}, emitted)
