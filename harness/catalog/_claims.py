"""Claims scope the catalog: a case the SUT does not claim is left out before the run and counted by reason
for the summary. Leaving out is never a verdict, so it happens here, before any case runs."""

from __future__ import annotations

from collections.abc import Sequence

from harness.catalog._case import Case
from harness.dialects import senders_of
from harness.drivers import SUTProfile

__all__ = ["left_out_reason", "scope", "setting_warnings"]


def left_out_reason(case: Case, profile: SUTProfile) -> str:
    """Why ``case`` is outside what the SUT claims ("" when it is inside): said once per group.

    What a SUT claims is its profile's ``front_door`` (a scenario's ``front_doors`` is for SUTs that
    speak one of them), ``dialects``, ``modes`` and ``providers``, with flags and a Python
    callable's own declaration filled in by ``RunOptions.resolve``; a variant's providers are
    ``dialects._senders``'s. What is claimed but known not to work stays a case, judged UNSUPPORTED by
    ``_case_run``: ``unsupported_variants``, a scenario not for the SUT's kind, a strict provider's rules
    outside ``providers``.
    """
    doors = case.scenario.front_doors
    if doors and profile.front_door not in doors:
        return f"front door {profile.front_door}: the case is for {', '.join(doors)} front doors only"
    if doors and not profile.caps.at_url:
        return f"no front door on the wire (its events are read as events): the case is for {doors[0]}"
    if profile.dialects is not None and case.dialect not in profile.dialects:
        return f"{case.dialect}: dialect not claimed (claimed: {', '.join(profile.dialects)})"
    mode = "stream" if case.stream else "nonstream"
    if profile.modes is not None and mode not in profile.modes:
        return f"{mode} mode not claimed (modes = {list(profile.modes)})"
    if profile.providers is not None:
        senders = senders_of(case.dialect, case.variant).providers
        if (
            senders
            and case.provider.name not in profile.providers
            and not set(senders) & set(profile.providers)
        ):
            return (
                f"{case.dialect}:{case.variant}: sent by {', '.join(senders)}, none of them claimed "
                f"(providers = {list(profile.providers)})"
            )
    return ""


def scope(cases: Sequence[Case], profile: SUTProfile) -> tuple[list[Case], dict[str, int]]:
    """The cases the SUT claims, and what was left out: reason -> number of cases."""
    kept: list[Case] = []
    left: dict[str, int] = {}
    for case in cases:
        why = left_out_reason(case, profile)
        if why:
            left[why] = left.get(why, 0) + 1
        else:
            kept.append(case)
    return kept, left


def setting_warnings(profile: SUTProfile) -> list[str]:
    """Warnings about the SUT's settings, for the console and the report: a ``models."*"`` that names
    every case's model shadows the realistic per-provider names the mock plays (a stale pin kept a false
    PASS alive once). Not for thinkwire's own reference SUTs, which route by that name on purpose."""
    from harness.dialects import PROVIDERS

    star = profile.models.get("*")
    builtin = profile.origin is not None and profile.origin.form == "builtin"
    if star is None or builtin or "{default_model}" in star or "{provider}" in star:
        return []
    hidden = [p for p in PROVIDERS if p not in profile.models]
    if not hidden:
        return []
    shown = ", ".join(f"{p} ({PROVIDERS[p].model})" for p in hidden[:4])
    more = f" and {len(hidden) - 4} more" if len(hidden) > 4 else ""
    return [
        f'models."*" = {star!r} shadows the per-provider model names of {shown}{more}: every case is '
        "called by it; give those providers keys of their own, or use {default_model} in it"
    ]
