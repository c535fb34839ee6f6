"""Profile placeholders: which exist, where each is known, and how a string is filled in. One set of
placeholders serves every templated place of a profile: command, env, files, url, ready, session dir,
request headers and body."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["CASE", "RUN", "check", "fill", "placeholders"]

RUN = ("upstream", "port", "tmp", "python", "profile_dir")
"""Known when the SUT starts: the mock upstream's base URL, a free port, a fresh temp dir (a gateway's
and a CLI's working directory), this interpreter, the directory of the profile file."""
CASE = ("model", "dialect", "variant", "provider", "front_door", "prompt", "session")
"""Known per case: its model name, upstream dialect and variant, the provider the upstream plays, the
SUT's front door; a CLI's prompt and session dir."""

_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z_][A-Za-z0-9_]*))?\}")


def placeholders(text: str) -> list[str]:
    """The placeholders ``text`` uses (``env:NAME`` as such), in order."""
    return [
        m.group(1) + (f":{m.group(2)}" if m.group(2) else "") for m in _TOKEN.finditer(text) if m.group(1)
    ]


def fill(text: str, values: Mapping[str, str]) -> str:
    """``text`` with every placeholder filled (unknown ones left as they are: :func:`check` refused
    them when the profile loaded).

    Filling is one pass: a value is never filled again. ``{{`` and ``}}`` stand for literal braces.
    """

    def one(m: re.Match[str]) -> str:
        whole = m.group(0)
        if whole in ("{{", "}}"):
            return whole[0]
        name, env = m.group(1), m.group(2)
        if env is not None:
            return os.environ.get(env, "") if name == "env" else whole
        return values.get(name, whole)

    return _TOKEN.sub(one, text)


def strings(value: Any, path: str = "") -> Iterable[tuple[str, str]]:
    """(where, text) for every string inside a TOML value (tables and lists walked; a table's keys are
    strings too: ``files`` names are templated)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield f"{path}.{k}", str(k)
            yield from strings(v, f"{path}.{k}")
    elif isinstance(value, list):
        for n, v in enumerate(value):
            yield from strings(v, f"{path}[{n}]")


def check(value: Any, allowed: Iterable[str], err: Any, fld: str) -> None:
    """Raise ``err(fld, problem, hint)`` for the first placeholder in ``value`` that is not allowed
    there (``env:NAME`` always is, when NAME is set).

    ``{env:NAME}`` reads the environment. The run-wide placeholders, :data:`RUN`, are known when the SUT
    starts; the per-case ones, :data:`CASE`, only where a case is known, in request shaping and a CLI's
    command and env, since a gateway is started once per run. A placeholder that is unknown, or per-case
    where only run-wide ones exist, is a ProfileError naming it when the profile loads, with exit 2, and is
    never sent literally.
    """
    allowed = tuple(allowed)
    for where, text in strings(value):
        fld_at = fld + where
        for name in placeholders(text):
            if name.startswith("env:"):
                var = name[4:]
                if var not in os.environ:
                    raise err(
                        fld_at,
                        f"uses {{{name}}} but the environment variable {var} is not set",
                        f"export {var}=... before running thinkwire",
                    )
                continue
            if name in allowed:
                continue
            if name in CASE:
                raise err(
                    fld_at,
                    f"{{{name}}} is known per case only, not here (a gateway starts once per run)",
                    f"the placeholders here are {_names(allowed)}",
                )
            from harness._errors import closest

            near = closest(name, (*RUN, *CASE))
            hint = (near + "; " if near.startswith("did you mean") else "") + "the placeholders here are "
            raise err(fld_at, f"unknown placeholder {{{name}}}", hint + _names(allowed))


def _names(allowed: Iterable[str]) -> str:
    return ", ".join(f"{{{n}}}" for n in (*allowed, "env:NAME"))
