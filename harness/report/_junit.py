"""JUnit XML for CI: one <testcase> per case, h2spec-style failure text, expected failures skipped.

Rule: a CI system's red/green must match ``thinkwire run``'s exit code: only unexpected results (and
harness errors/timeouts nobody expected) are failures or errors.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from harness.report._common import first_line, outcome, xml_safe
from harness.suite import CaseResult, RunResult, Verdict

__all__ = ["junit_xml", "write_junit"]


def write_junit(run: RunResult, path: str | Path) -> Path:
    """Write the JUnit XML file; returns the path."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(junit_xml(run), encoding="utf-8")
    return p


def junit_xml(run: RunResult) -> str:
    """The JUnit XML document as text."""
    suites = ET.Element("testsuites", name="thinkwire")
    suite = ET.SubElement(suites, "testsuite", name=f"thinkwire[{xml_safe(run.sut)}]")
    tally = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for r in run.results:
        tally["tests"] += 1
        kind = _testcase(suite, r)
        if kind:
            tally[kind] += 1
    for el in (suites, suite):
        for k, v in tally.items():
            el.set(k, str(v))
        el.set("time", f"{run.duration_s:.3f}")
    if run.sut_error or run.interrupted:
        said = [run.sut_error] if run.sut_error else []
        if run.interrupted:
            said.append(f"interrupted by {run.interrupted}: the cases not listed were not run")
        ET.SubElement(suite, "system-err").text = xml_safe("\n".join(said))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _testcase(suite: ET.Element, r: CaseResult) -> str:
    case = ET.SubElement(
        suite,
        "testcase",
        classname=xml_safe(r.scenario_id.replace("/", ".")),
        name=xml_safe(r.case_id),
        time=f"{r.duration_s:.3f}",
    )
    word = outcome(r)
    kind = ""
    if word == "XFAIL":
        reason = r.expected_reason or "listed in the expectations file"
        el = ET.SubElement(case, "skipped", message=xml_safe(f"expected failure: {reason}"))
        el.text = xml_safe(_failure_text(r))
        kind = "skipped"
    elif word in ("ERROR", "TIMEOUT"):
        el = ET.SubElement(
            case,
            "error",
            type=word.lower(),
            message=xml_safe(f"{word}: {first_line(r.error) or 'no error text'}"),
        )
        el.text = xml_safe(_failure_text(r))
        kind = "errors"
    elif r.unexpected or r.fails(strict=False):
        failing = r.failing()
        head = failing[0] if failing else None
        message = f"{word}: " + (f"[{head.check}] {head.message}" if head else r.requirement)
        el = ET.SubElement(case, "failure", type=word, message=xml_safe(first_line(message, 500)))
        el.text = xml_safe(_failure_text(r))
        kind = "failures"
    elif r.stream == Verdict.UNSUPPORTED:
        why = next((f.message for f in r.findings if f.verdict == Verdict.UNSUPPORTED), "")
        ET.SubElement(case, "skipped", message=xml_safe(f"UNSUPPORTED: {why}".rstrip(": ")))
        kind = "skipped"
    out = _system_out(r)
    if out:
        ET.SubElement(case, "system-out").text = xml_safe(out)
    return kind


def _failure_text(r: CaseResult) -> str:
    lines = [f"× {r.case_id}", f"  -> {r.requirement}"]
    if r.error:
        lines.append(f"  {r.status.value}: {r.error.strip()}")
    for f in r.failing():
        lines.append(f"  [{f.check}] {f.verdict.value}: {f.message}")
        if f.expected:
            lines.append(f"    Expected: {f.expected}")
        if f.actual:
            lines.append(f"    Actual:   {f.actual}")
    if r.expected_reason:
        exp = ", ".join(f"{k}={v}" for k, v in r.expected.items())
        lines.append(f"  expectation: {exp} ({r.expected_reason})")
    lines.append(f"  reproduce: {r.reproduce}")
    return "\n".join(lines) + "\n"


def _system_out(r: CaseResult) -> str:
    lines = [f"{r.case_id}: {r.duration_s * 1000:.1f} ms"]
    lines += [f"[{f.check}] INFO: {f.message}" for f in r.findings if f.verdict == Verdict.INFO]
    return "\n".join(lines) + "\n"
