"""The exception tree, so users can catch precisely. The classes marked * are defined where they are raised,
because they carry that layer's data, and ``harness`` re-exports them.

ThinkwireError
 ├── DecodeError          bytes that a codec cannot decode (bad eventstream CRC, ...)
 ├── ScenarioError        a scenario file is wrong: names the file, the field, the value, the fix
 │    └── ProfileError    a SUT profile / expectations file is wrong (same file/field/fix message)
 ├── UnknownName          a name no registry holds (dialect, variant, check, driver kind, fault
 │                        switch): names the noun and the closest known names; also a KeyError
 ├── CassetteError        a recording is malformed or truncated: names the line
 │    └── CorpusAbsent    no fidelity corpus where it was looked for: says where, and how to get one
 ├── ResultsError *       a results file cannot be read (harness.report)
 ├── DriverError *        the SUT crashed, never became ready, answered garbage (harness.drivers)
 │    ├── DriverTimeout * the SUT did not finish within the case's deadline (the case is TIMEOUT)
 │    ├── CaseTooBig *    the SUT sent more than the case's byte cap (the case FAILs: size)
 │    └── AdapterError *  a Python adapter yielded a non-canonical event (the case is ERROR)
 ├── FlagError            a command-line flag has a bad value: names the flag, the value, the fix
 ├── PreflightError       the canary case showed the SUT cannot be tested at all (exit 2)
 └── HarnessError         thinkwire itself failed (a bug or an environment problem)

The command line prints any of them as one line, ``thinkwire: error: <message>``, and exits 2.
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Iterable

__all__ = [
    "CassetteError",
    "CorpusAbsent",
    "DecodeError",
    "FlagError",
    "HarnessError",
    "PreflightError",
    "ProfileError",
    "ScenarioError",
    "ThinkwireError",
    "UnknownName",
    "closest",
]


class ThinkwireError(Exception):
    """Base of every error thinkwire raises on purpose."""


class DecodeError(ThinkwireError):
    """Input bytes violate a framing that cannot be recovered (SSE never raises this: it is lenient)."""


class ScenarioError(ThinkwireError):
    """A scenario file is invalid. Fix the file named in the message; the message lists valid keys."""

    def __init__(self, file: str, field: str, problem: str, hint: str = "") -> None:
        self.file, self.field, self.problem, self.hint = file, field, problem, hint
        msg = f"{file}: field {field!r}: {problem}"
        if hint:
            msg += f" ({hint})"
        super().__init__(msg)


class ProfileError(ScenarioError):
    """A SUT profile or expectations file is invalid. Fix the field named in the message."""


class UnknownName(ThinkwireError, KeyError):
    """A name that no registry holds, with a "did you mean" hint. Fix the name, or pick one of those
    listed. A ``KeyError`` too (hypothesis's ``InvalidArgument`` is a ``TypeError`` the same way), so
    code that catches a failed lookup as ``KeyError`` keeps working."""

    def __init__(self, noun: str, name: str, known: Iterable[str], *, where: str = "") -> None:
        self.noun, self.name, self.known = noun, name, tuple(known)
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}unknown {noun} {name!r}: {closest(name, self.known)}")

    @property
    def kind(self) -> str:
        """Deprecated spelling of :attr:`noun` (what sort of name was unknown: a dialect, a check...)."""
        warnings.warn(
            "UnknownName.kind is deprecated: use UnknownName.noun", DeprecationWarning, stacklevel=2
        )
        return self.noun

    def __str__(self) -> str:  # KeyError's own __str__ would print the message's repr
        return str(self.args[0])


class CassetteError(ThinkwireError):
    """A cassette cannot be read. The message names the file and line; re-record or repair that line."""


class CorpusAbsent(CassetteError):
    """No fidelity corpus where it was looked for (the message says where, and how to get one)."""


class HarnessError(ThinkwireError):
    """thinkwire failed for a reason that is not the SUT's fault. Please report it with the message."""


class FlagError(ThinkwireError):
    """A command-line flag has a bad value. The message names the flag, the value, what was expected
    and the fix."""


class PreflightError(ThinkwireError):
    """The canary case showed the SUT cannot be tested at all (unreachable, never calls the mock
    upstream, cannot be imported, hangs): nothing was judged. Fix the SUT's address or configuration
    named in the message, then run again. ``detail`` holds the whole traceback and the canary's
    timeline (``thinkwire run -v`` prints it, ``--report DIR`` writes it to ``DIR/preflight.txt``)."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


def closest(value: str, options: Iterable[str], n: int = 3) -> str:
    """A "did you mean" hint naming the closest valid keys (or all of them when none is close)."""
    opts = sorted(set(options))
    near = difflib.get_close_matches(value, opts, n=n, cutoff=0.5)
    if near:
        return "did you mean " + " or ".join(repr(o) for o in near) + "?"
    shown = ", ".join(repr(o) for o in opts[:12])
    return f"valid: {shown}" + (", ..." if len(opts) > 12 else "")
