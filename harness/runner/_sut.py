"""Naming a SUT: what ``sut=``, ``--sut``, ``--sut-cmd`` and ``--sut-url`` resolve to, and the command line
that names the same SUT again, a result's reproduce line. The reproduce line is built from the SUT's
recorded origin, never parsed back out of a display string."""

from __future__ import annotations

import importlib.util
import re
import shlex
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness._errors import FlagError
from harness.drivers import SUTCallable, SUTOrigin, SUTProfile, load_profile, local_paths, parse_profile
from harness.runner._builtin import BUILTIN, builtin_profile

__all__ = [
    "SUTSpec",
    "callable_spec",
    "command_profile",
    "reproduce_line",
    "resolve_sut",
    "start_dir_paths",
    "sut_argv",
    "url_profile",
]

SUTSpec = SUTProfile | str | SUTCallable | None
"""What ``sut=`` takes: a profile, a built-in name, a profile path, a URL, ``module:callable``, a
Python callable, or None (the reference gateway)."""

_CALLABLE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def resolve_sut(sut: SUTSpec, faults: Sequence[str] = ()) -> SUTProfile:
    """The profile ``sut`` names, with ``faults`` switched on (only the built-in SUTs have switches:
    ``faults`` with any other SUT is a :class:`FlagError`).

    A SUT is named in one of five forms, each kept on the profile as a :class:`SUTOrigin`: a built-in with
    fault switches, a profile file, a command line, a URL, a Python ``module:callable``. A string that is
    none of the forms is one error line saying what was tried.
    """
    if sut is None or (isinstance(sut, str) and sut in BUILTIN):
        return builtin_profile(sut or "reference", tuple(faults))
    if isinstance(sut, str) and sut.startswith("reference") and not Path(sut).exists():
        return builtin_profile(sut, tuple(faults))  # (an unknown built-in: the error names the real ones)
    if isinstance(sut, str):
        _refuse_near_builtin(sut)
    profile = _profile(sut)
    if faults:
        raise FlagError(
            f"--fault {' '.join(faults)}: the SUT {profile.name!r} has no fault switches; only the "
            f"built-in SUTs do ({', '.join(BUILTIN)}; see thinkwire list --faults)"
        )
    return profile


def _refuse_near_builtin(sut: str) -> None:
    """A name that is no file but close to a built-in SUT's (``refrence``) is a typo of it: one line
    with the did-you-mean, not "cannot read the profile file refrence"."""
    import difflib

    if "/" in sut or ":" in sut or sut.endswith(".toml") or Path(sut).exists():
        return
    near = difflib.get_close_matches(sut, list(BUILTIN), n=1, cutoff=0.7)
    if near:
        raise FlagError(
            f"--sut {sut}: no such profile file, nor a built-in SUT; did you mean {near[0]}? "
            f"(built-ins: {', '.join(BUILTIN)})"
        )


def _profile(sut: SUTProfile | str | SUTCallable) -> SUTProfile:
    if isinstance(sut, SUTProfile):
        return sut
    if isinstance(sut, str):
        if sut.startswith(("http://", "https://")):
            return url_profile(sut)
        if _CALLABLE.fullmatch(sut) and not Path(sut).exists():
            return _callable_profile(sut)
        return load_profile(Path(sut))
    spec = callable_spec(sut)
    name = getattr(sut, "__name__", "callable")
    return SUTProfile(name=name, kind="python", origin=SUTOrigin("callable", spec) if spec else None)


def _callable_profile(spec: str) -> SUTProfile:
    """A ``module:callable`` string: a python SUT when the module can be found (its import, and any
    error in it, happens when the SUT starts, where preflight reports it); else one line naming both
    readings that were tried."""
    module = spec.partition(":")[0]
    try:
        found = importlib.util.find_spec(module) is not None
        why = f"no module named {module!r}"
    except (ImportError, ValueError) as exc:  # a parent package that is missing or fails to import
        found, why = False, f"{type(exc).__name__}: {exc}"
    if not found:
        raise FlagError(
            f"--sut {spec}: neither a profile file (no such file) nor an importable module:callable "
            f"({why}); check the path, or the module's name and sys.path"
        )
    profile = parse_profile({"kind": "python", "callable": spec, "name": spec}, source=f"--sut {spec}")
    return replace(profile, origin=SUTOrigin("callable", spec))


def callable_spec(fn: object) -> str:
    """``module:qualname`` of a Python callable when importing that name gives the same object back
    (then the command line can name it), else ""."""
    module, qualname = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    if not module or not qualname or module == "__main__" or "<" in qualname:
        return ""
    import sys

    obj: object = sys.modules.get(module)
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    return f"{module}:{qualname}" if obj is fn else ""


def command_profile(command: str, front_door: str, ready: str | None = None) -> SUTProfile:
    """The gateway ``--sut-cmd`` starts (``{upstream}``, ``{port}``, ``{tmp}`` substituted); it claims
    its front door's dialect only (``--dialects`` says more). It runs in a fresh temp dir (``{tmp}``),
    so its relative paths are made absolute first, against the directory thinkwire was started in
    (:func:`start_dir_paths`); a program path that names no file there is a FlagError naming that
    directory."""
    data: dict[str, Any] = {
        "kind": "gateway", "command": command, "front_door": front_door, "name": command,
        "dialects": [front_door],
    }
    if ready:
        data["ready"] = ready
    profile = parse_profile(data, source="--sut-cmd")
    start = Path.cwd()
    words = start_dir_paths(profile.command, start)
    program, given = Path(words[0]), profile.command[0]
    if program != Path(given) and not program.is_file():
        raise FlagError(
            f"--sut-cmd: {given}: no such file in {start} (a relative path in --sut-cmd resolves against "
            "the directory thinkwire was started in; the SUT itself runs in a fresh temp dir, {tmp})"
        )
    return replace(
        profile,
        command=words,
        origin=SUTOrigin("command", command, front_door=front_door, ready=ready or ""),
    )


def start_dir_paths(words: Sequence[str], start: Path) -> tuple[str, ...]:
    """``words`` with the relative paths made absolute against ``start``: the first word when it has a
    ``/`` in it (a program path, as a shell reads it), every word that starts with ``./`` or ``../``,
    and a later word naming a file there (``{python} tests/gw.py``). A word with a placeholder
    (``{tmp}/x``), a flag or an absolute path is left as it is; so is a bare program name (``python``,
    on PATH) and a word naming no file (``drivers.local_paths``)."""
    return local_paths(words, start)


def url_profile(url: str, front_door: str = "openai-chat") -> SUTProfile:
    """The running SUT at ``url`` (``--sut-url``); it claims its front door's dialect only. A URL
    without its ``http://`` or ``https://`` is a FlagError (never a preflight that cannot reach it)."""
    if not url.startswith(("http://", "https://")):
        scheme = url.partition("://")[0] if "://" in url else ""
        problem = f"the scheme {scheme!r} is not http or https" if scheme else "it has no scheme"
        fixed = "http://" + url.partition("://")[2] if scheme else "http://" + url
        raise FlagError(f"--sut-url {url}: {problem}; did you mean {fixed}?")
    data = {"kind": "url", "url": url, "front_door": front_door, "name": url, "dialects": [front_door]}
    profile = parse_profile(data, source="--sut-url")
    return replace(profile, origin=SUTOrigin("url", url, front_door=front_door))


def sut_argv(profile: SUTProfile) -> list[str] | None:
    """The ``thinkwire run`` flags that name this SUT again; None when no command line can (a profile
    built in Python, a callable defined where it cannot be imported from)."""
    o = profile.origin
    if o is None:
        return None
    if o.form == "builtin":
        door = ["--front-door", o.front_door] if o.front_door else []
        return ["--sut", o.value, *door, *[x for f in o.faults for x in ("--fault", f)]]
    if o.form == "command":
        ready = ["--ready", o.ready] if o.ready else []
        return ["--sut-cmd", o.value, "--front-door", o.front_door, *ready]
    if o.given_url:
        return ["--sut-url", o.given_url, "--front-door", o.front_door]
    return ["--sut", o.value]  # a profile file, a module:callable


def reproduce_line(case_id: str, profile: SUTProfile, flags: Sequence[str] = ()) -> str:
    """The shell command that runs this one case again, as this run ran it (``flags``: the run's
    settings that bear on the verdict, e.g. ``--strict``, ``--timeout 5``), keeping its whole
    timeline (``--keep-timelines``: a passing case's too; ``thinkwire show`` prints it)."""
    sut = sut_argv(profile)
    if sut is None:
        return (
            f"(the SUT {profile.name!r} was given as a Python object: write it as a profile file or a "
            f"module:callable, then) thinkwire run --sut ... --cases {shlex.quote(case_id)} --keep-timelines"
        )
    return shlex.join(["thinkwire", "run", *sut, *flags, "--cases", case_id, "--keep-timelines"])
