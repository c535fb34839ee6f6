"""Claims scope the catalog: a case the SUT does not claim is left out before the run and counted by reason
for the summary. Leaving out is never a verdict, so it happens here, before any case runs; what a claim
changes inside a case (in-content markup a SUT parses or relays: its gates, what its client is owed) and
the ``parses`` claim a discovery run supports are derived here too."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from harness.catalog._case import Case
from harness.dialects import senders_of
from harness.drivers import SUTProfile

__all__ = [
    "Observed",
    "judged_claims",
    "left_out_reason",
    "observed_parses",
    "relayed_gates",
    "scope",
    "setting_warnings",
]


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
    if doors and not profile.abilities.at_url:
        return f"no front door on the wire (its events are read as events): the case is for {doors[0]}"
    if profile.dialects is not None and case.dialect not in profile.dialects:
        return f"{case.dialect}: dialect not claimed (claimed: {', '.join(profile.dialects)})"
    mode = "stream" if case.stream else "nonstream"
    if profile.modes is not None and mode not in profile.modes:
        return f"{mode} mode not claimed (modes = {list(profile.modes)})"
    if profile.providers is not None:
        row = senders_of(case.dialect, case.variant)
        senders = row.providers
        if not senders:  # an alias spelling only other servers send: no claimed provider sends it
            servers = f" (sent by {', '.join(row.servers)})" if row.servers else ""
            return (
                f"{case.dialect}:{case.variant}: no provider sends it{servers}, so none of the claimed "
                f"ones does (providers = {list(profile.providers)})"
            )
        if case.provider.name not in profile.providers and not set(senders) & set(profile.providers):
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


def judged_claims(case: Case, profile: SUTProfile) -> dict[str, Any]:
    """What the SUT claims that its checks read (``judge.build_view``'s keywords): the longest silence it
    claims toward its client (``stream_keepalive``), and whether the case's reasoning markup is one it
    does not claim to parse (``parses``), so that its client is owed the content verbatim (None: no claim
    either way, judged by what its client got)."""
    claim = profile.markup_claim(case.dialect, case.variant)
    relayed = None if claim == "either" else claim == "relays"  # None: by what the client got
    return {"keepalive_every": profile.keepalive_every, "relayed": relayed}


def relayed_gates(case: Case, profile: SUTProfile, conversation: Any) -> Any:
    """The conversation the mock plays for ``case``: where the case's reasoning rides in markup the SUT
    does not claim to parse (``SUTProfile.markup_claim``: ``relays``, or ``either`` for a quick run), a
    gate waiting for reasoning also opens on the same text in the answer content, where a relay delivers
    it (the mock still sends the markup; a SUT that splits it anyway is channel-separation's, not a gate
    timeout)."""
    if profile.markup_claim(case.dialect, case.variant) not in ("relays", "either"):
        return conversation
    from harness.upstream import Gate

    def as_content(step: Any) -> Any:
        if not isinstance(step, Gate) or step.reasoning is None:
            return step
        return replace(step, as_content=True)

    scripts = tuple(replace(s, steps=tuple(as_content(st) for st in s.steps)) for s in conversation.scripts)
    return replace(conversation, scripts=scripts)


class Observed(Protocol):
    """One variant of a discovery run (``thinkwire init``'s ``VariantProbe``): its request reached the
    upstream (``claimed``), and its evidence line says what reached the client."""

    @property
    def dialect(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def claimed(self) -> bool: ...
    @property
    def evidence(self) -> str: ...


def observed_parses(probes: Iterable[Observed]) -> str:
    """The ``parses`` claim line a discovery run supports: a markup is parsed where the client of one of
    its variants got the reasoning split out of the content (evidence "the client got reasoning ..."),
    and not where it got the markup verbatim in the content. A markup no reached variant showed is not
    claimed (its variants are unsupported anyway), and a half parse stays a FAIL of the full run."""
    from harness.drivers import MARKUP

    parsed = {
        name
        for p in probes
        if p.claimed and "the client got reasoning " in p.evidence
        for name, variants in MARKUP.items()
        if f"{p.dialect}:{p.variant}" in variants
    }
    return "parses = [" + ", ".join(f'"{name}"' for name in MARKUP if name in parsed) + "]"
