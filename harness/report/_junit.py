"""JUnit XML for CI: one <testcase> per case, h2spec-style failure text, expected failures skipped. A CI
system's red or green must match ``thinkwire run``'s exit code, so only unexpected results are failures or
errors."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path

from harness.report._causes import Cause, group_causes, normalise_message
from harness.report._common import finding_lines, first_line, outcome, xml_safe
from harness.report._svg import SWIMLANES, write_swimlanes
from harness.runner import RunResult
from harness.verdict import CaseResult, Verdict

__all__ = ["junit_xml", "write_junit"]


def write_junit(run: RunResult, path: str | Path, swimlanes: str | Path | None = None) -> Path:
    """Write the JUnit XML file, and the swimlane SVG of each case that did not pass into
    ``swimlanes`` (default: ``swimlanes/`` beside the file), which the XML links; returns the path."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    svgs = write_swimlanes(run, Path(swimlanes) if swimlanes is not None else p.parent / SWIMLANES)
    p.write_text(junit_xml(run, svgs), encoding="utf-8")
    return p


def junit_xml(run: RunResult, swimlanes: Mapping[str, Path] | None = None) -> str:
    """The JUnit XML document as text (``swimlanes``: case id -> its SVG file, linked).

    Harness errors and timeouts nobody expected count as errors. The suite's ``<properties>`` list the
    unexpected failures by cause as ``thinkwire.cause``: count, cause, cases. Each failure names its cause.
    """
    suites = ET.Element("testsuites", name="thinkwire")
    suite = ET.SubElement(suites, "testsuite", name=f"thinkwire[{xml_safe(run.sut)}]")
    causes = group_causes(run.unexpected)
    if causes:
        props = ET.SubElement(suite, "properties")
        for c in causes:
            ids = ", ".join(r.case_id for r in c.cases[:20]) + (" ..." if c.count > 20 else "")
            value = f"{c.count} x {c.line()}: {ids}"
            ET.SubElement(props, "property", name="thinkwire.cause", value=xml_safe(value))
    counts = {c.key: c for c in causes}
    tally = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for r in run.results:
        tally["tests"] += 1
        counted = _testcase(suite, r, counts, (swimlanes or {}).get(r.case_id))
        if counted:
            tally[counted] += 1
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


def _testcase(
    suite: ET.Element, r: CaseResult, causes: Mapping[tuple[str, str], Cause], svg: Path | None
) -> str:
    case = ET.SubElement(
        suite,
        "testcase",
        classname=xml_safe(r.scenario_id.replace("/", ".")),
        name=xml_safe(r.case_id),
        time=f"{r.duration_s:.3f}",
    )
    word = outcome(r)
    counted = ""
    if word == "XFAIL":
        reason = r.expected_reason or "listed in the expectations file"
        el = ET.SubElement(case, "skipped", message=xml_safe(f"expected failure: {reason}"))
        el.text = xml_safe(_failure_text(r))
        counted = "skipped"
    elif word in ("ERROR", "TIMEOUT"):
        el = ET.SubElement(
            case,
            "error",
            type=word.lower(),
            message=xml_safe(f"{word}: {first_line(r.error) or 'no error text'}"),
        )
        el.text = xml_safe(_failure_text(r))
        counted = "errors"
    elif r.unexpected or r.fails(strict=False):
        failing = r.failing()
        head = failing[0] if failing else None
        message = f"{word}: " + (f"[{head.check}] {head.message}" if head else r.requirement)
        el = ET.SubElement(case, "failure", type=word, message=xml_safe(first_line(message, 500)))
        el.text = xml_safe(_failure_text(r, causes))
        counted = "failures"
    elif r.stream == Verdict.UNSUPPORTED:
        why = next((f.message for f in r.findings if f.verdict == Verdict.UNSUPPORTED), "")
        ET.SubElement(case, "skipped", message=xml_safe(f"UNSUPPORTED: {why}".rstrip(": ")))
        counted = "skipped"
    out = _system_out(r, svg)
    if out:
        ET.SubElement(case, "system-out").text = xml_safe(out)
    return counted


def _failure_text(r: CaseResult, causes: Mapping[tuple[str, str], Cause] | None = None) -> str:
    lines = [f"× {r.case_id}", f"  -> {r.requirement}"]
    if r.error:
        lines.append(f"  {r.status.value}: {r.error.strip()}")
    for f in r.failing():
        head, *rest = finding_lines(f)
        cause = (causes or {}).get((f.check, normalise_message(f.message or f.verdict.value)))
        n = cause.count if cause is not None else 0
        shared = [f"    cause shared by {n} unexpected case(s): {cause.line()}"] if cause and n > 1 else []
        lines += [head, *shared, *rest]
    if r.expected_reason:
        exp = ", ".join(f"{k}={v}" for k, v in r.expected.items())
        lines.append(f"  expectation: {exp} ({r.expected_reason})")
    lines.append(f"  reproduce: {r.reproduce}")
    return "\n".join(lines) + "\n"


def _system_out(r: CaseResult, svg: Path | None) -> str:
    """A case that did not pass links its swimlane SVG as ``[[ATTACHMENT|path]]``, the convention of Jenkins'
    and GitLab's JUnit readers."""
    lines = [f"{r.case_id}: {r.duration_s * 1000:.1f} ms"]
    lines += [f"[{f.check}] INFO: {f.message}" for f in r.findings if f.verdict == Verdict.INFO]
    if svg is not None:
        lines += [f"swimlane (evidence marked): {svg}", f"[[ATTACHMENT|{svg}]]"]
    return "\n".join(lines) + "\n"
