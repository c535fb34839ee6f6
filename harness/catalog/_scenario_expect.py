"""A scenario's ``expect`` verdicts, Autobahn's expected outcomes: validated when the file loads, held against
each case's findings after it is judged. It knows a scenario only as its ``path`` and ``expect``, because
``_scenario`` imports it to validate the file."""

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
    """The scenario's ``expect`` verdicts held against a case's findings (Autobahn's expected outcomes):
    one FAIL finding ``scenario-expect`` naming each verdict that differs, unless the verdict found is
    itself a failure (its own check reports that). A check not among ``findings`` (parity, judged
    after the pair) is not compared here.

    A verdict that differs is one FAIL finding, never a second report of a failure its own check made.
    """
    from harness.verdict import Axis, Finding, Verdict, is_failure, worst

    if not scenario.expect:
        return []
    found: dict[str, Verdict] = {f.check: f.verdict for f in findings}
    for axis in Axis:
        found[axis.value] = worst([f.verdict for f in findings if f.axis == axis])
    misses = [
        f"{key} = {want} expected, got {found[key].value}"
        for key, want in scenario.expect.items()
        if key in found and found[key].value != want and not is_failure(found[key], strict=True)
    ]
    if not misses:
        return []
    return [
        Finding(
            "scenario-expect",
            Verdict.FAIL,
            message=f"{scenario.path}: the scenario's expect does not hold: " + "; ".join(misses),
            expected="; ".join(f"{k} = {v}" for k, v in scenario.expect.items()),
            actual="; ".join(misses),
        )
    ]
