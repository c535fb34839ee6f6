"""A scenario's ``expect`` verdicts, Autobahn's expected outcomes: validated when the file loads; the judge
holds them against each case's findings (``harness.judge.expect_findings``). It knows a scenario only as
its ``path`` and ``expect``, because ``_scenario`` imports it to validate the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from harness._errors import closest
from harness._fields import Err

__all__ = ["Expecting", "expect_findings", "expected_verdicts"]

_KEYS = ("outcome", "stream", "cleanup", "findings")


class Expecting(Protocol):
    """What :func:`expect_findings` reads of a scenario."""

    @property
    def path(self) -> str: ...

    @property
    def expect(self) -> Mapping[str, str]: ...


def expected_verdicts(expect: Mapping[str, Any], err: Err) -> dict[str, str]:
    """``expect.stream`` / ``expect.cleanup`` / ``expect.findings.<check>``: verdicts a correct SUT
    earns, validated against the verdicts of that axis and the registered check names (``outcome``,
    the table's other key, is the scenario's to read).

    A verdict named here is one of its axis's verdicts, and a check named here is a registered check.
    """
    from harness.judge import CHECKS
    from harness.verdict import Verdict

    for key in expect:
        if key not in _KEYS:
            raise err(f"expect.{key}", "unknown field", closest(key, _KEYS))

    stream = ("PASS", "NON_STRICT", "INFO", "UNSUPPORTED", "FAIL")
    cleanup = ("PASS", "UNCLEAN", "FAIL")
    out: dict[str, str] = {}
    for axis, valid in (("stream", stream), ("cleanup", cleanup)):
        if axis in expect:
            v = expect[axis]
            if not isinstance(v, str) or v not in valid:
                raise err(f"expect.{axis}", f"unknown {axis} verdict {v!r}", closest(str(v), valid))
            out[axis] = v
    findings = expect.get("findings", {})
    if not isinstance(findings, dict):
        raise err("expect.findings", f"expected a table of check = verdict, got {findings!r}")
    checks = [*CHECKS.names(), "parity"]
    verdicts = [v.value for v in Verdict]
    for check, verdict in findings.items():
        if check not in checks:
            raise err(f"expect.findings.{check}", "unknown check", closest(check, checks))
        if not isinstance(verdict, str) or verdict not in verdicts:
            raise err(
                f"expect.findings.{check}", f"unknown verdict {verdict!r}", closest(str(verdict), verdicts)
            )
        out[check] = verdict
    return out


def expect_findings(scenario: Expecting, findings: Sequence[Any]) -> list[Any]:
    """The scenario's ``expect`` verdicts held against a case's findings: the judge's
    (:func:`harness.judge.expect_findings`), where the catalog's callers found it."""
    from harness.judge import expect_findings as held

    return held(scenario, findings)
