"""The SUT profiles thinkwire ships: the reference gateway, the default, an SDK wrapper and an agent CLI. A
reference profile plus fault switches is a mutant, which the detection matrix runs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from harness._errors import ProfileError, closest
from harness.drivers import MARKUP, SUTOrigin, SUTProfile, parse_profile
from harness.reference import CLI_FAULTS, GATEWAY_FAULTS, SDK_FAULTS, check_faults

__all__ = ["BUILTIN", "builtin_behind_door", "builtin_profile", "expectations_path"]

_DIR = Path(__file__).resolve().parent.parent / "reference"
_FAULTS = {"reference": GATEWAY_FAULTS, "reference-sdk": SDK_FAULTS, "reference-cli": CLI_FAULTS}
"""The fault switches each built-in SUT understands."""

BUILTIN = {
    "reference": {
        "name": "reference-gateway",
        "kind": "gateway",
        "command": [
            "{python}",
            "-m",
            "harness.reference.gateway",
            "--port",
            "{port}",
            "--upstream",
            "{upstream}",
        ],
        "front_door": "openai-chat",
        "front_variant": "reasoning_details",
        "inline_think": False,
        "stream_keepalive": 0.5,  # the gateway's --keepalive default (reference/_keepalive.py)
        "models": {"*": "{dialect}:{variant}/mock-model"},
        "parses": list(MARKUP),  # its observer splits every in-content markup (dialects' READ_ALL)
        "timeout": 10.0,
    },
    "reference-sdk": {
        "name": "reference-sdk",
        "kind": "python",
        "callable": "harness.reference.sdk:reference_sdk",
        "models": {"*": "mock-model"},
        "parses": list(MARKUP),
        "timeout": 10.0,
    },
    "reference-cli": {
        "name": "reference-cli",
        "kind": "cli",
        "command": [
            "{python}",
            "-m",
            "harness.reference.agent",
            "--upstream",
            "{upstream}",
            "--dialect",
            "{dialect}",
            "--variant",
            "{variant}",
            "--model",
            "{model}",
            "--session-dir",
            "{session}",
            "--rpc",
        ],
        "input": "rpc",
        "front_door": "pi-json",
        "front_variant": "v2",
        "models": {"*": "mock-model"},
        "parses": list(MARKUP),
        "timeout": 10.0,
    },
}


def expectations_path(name: str) -> Path | None:
    p = _DIR / f"{name}.expectations.toml"
    return p if p.exists() else None


def builtin_profile(name: str, faults: tuple[str, ...] = ()) -> SUTProfile:
    """The built-in SUT ``name`` with ``faults`` switched on; an unknown fault switch is an
    :class:`~harness._errors.UnknownName` raised here, before any case runs."""
    if name not in BUILTIN:
        raise ProfileError("<builtin>", "sut", f"unknown built-in SUT {name!r}", closest(name, BUILTIN))
    check_faults(faults, _FAULTS[name], where=f"--fault of the built-in SUT {name!r}")
    profile = parse_profile(BUILTIN[name], source=f"<builtin {name}>")
    profile = replace(profile, origin=SUTOrigin("builtin", name, tuple(faults)))
    if faults:
        command = profile.command
        if profile.abilities.starts_a_process:
            command = (*command, *[x for f in faults for x in ("--fault", f)])
        profile = replace(
            profile, command=command, faults=tuple(faults), name=f"{profile.name}+{'+'.join(faults)}"
        )
    exp = expectations_path(name)
    if exp is not None and not faults:
        profile = replace(profile, expectations=str(exp))
    return profile


def builtin_behind_door(name: str, door: str, faults: tuple[str, ...] = ()) -> SUTProfile:
    """The built-in SUT ``name`` with ``faults``, spoken to through its front door ``door`` (a dialect):
    the reference gateway has one per entry of its ``FRONT_DOORS``; a built-in without a door on the
    wire, or a door it does not have, is a :class:`~harness._errors.FlagError` naming the doors."""
    from harness._errors import FlagError
    from harness.reference.gateway import FRONT_DOORS

    profile = builtin_profile(name, faults)
    if door == profile.front_door:
        return profile
    doors = {d.dialect: (path, d.variant) for path, d in FRONT_DOORS.items()}
    if not profile.abilities.at_url or door not in doors:
        have = ", ".join(sorted(doors)) if profile.abilities.at_url else profile.front_door
        raise FlagError(
            f"--front-door {door}: the built-in SUT {name!r} has no such front door (it has: {have})"
        )
    path, variant = doors[door]
    origin = replace(profile.origin, front_door=door) if profile.origin is not None else None
    name = f"{profile.name}[{door}]"
    return replace(profile, front_door=door, front_variant=variant, path=path, name=name, origin=origin)
