"""A RunDiff as console text, as Markdown for a PR comment and as JUnit XML for a CI gate on regressions. It
only formats; what changed, and whether it regressed, is ``_diff``'s."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from harness.report._causes import group_causes
from harness.report._common import outcome, xml_safe
from harness.report._diff import CaseChange, RunDiff, VerdictChange
from harness.report._markdown import causes_table
from harness.verdict import CaseResult

__all__ = ["diff_junit", "diff_markdown", "diff_text"]

_FOLD = 5


def _word(r: CaseResult | None) -> str:
    return outcome(r) if r is not None else "absent"


def _cause(c: tuple[str, str], r: CaseResult | None) -> str:
    """Cause ``c`` (its key: check, normalised message) as case ``r`` said it, its figures shown."""
    found = [cause for cause in group_causes([r] if r is not None else []) if cause.key == c]
    return found[0].line() if found else f"[{c[0]}] {c[1]}"


def _head(d: RunDiff) -> str:
    return (
        f"thinkwire diff: {d.old_label} ({d.old.sut}, {len(d.old.results)} cases) -> "
        f"{d.new_label} ({d.new.sut}, {len(d.new.results)} cases)"
    )


def _verdict(d: RunDiff) -> str:
    worse = sum(v.worse for v in d.verdicts)
    moved = f"{len(d.verdicts)} verdict change(s): {worse} worse, {len(d.verdicts) - worse} better"
    if not d.regressed:
        return (
            f"OK: nothing regressed ({len(d.fixed)} fixed, {d.still_failing} still failing as before; "
            f"{moved})"
        )
    gained = sum(1 for c in d.changed if c.gained)
    return (
        f"REGRESSED: {len(d.new_failures)} new failure(s), {gained} failing case(s) with new findings "
        f"({len(d.fixed)} fixed; {moved})"
    )


def _move(v: VerdictChange) -> str:
    return f"{v.axis} {v.was} -> {v.now}"


def diff_text(d: RunDiff) -> str:
    """The diff for a terminal.

    New failures are listed by cause first, one line per cause with its cases folded, as the run reports
    do.
    """
    out = [_head(d)]
    if d.new_failures:
        causes = group_causes(c.new for c in d.new_failures if c.new is not None)
        out += ["", f"new failures ({len(d.new_failures)}), by cause:"]
        for cause in causes:
            out.append(f"  {cause.count:4} × {cause.line()}")
            out += [f"         {r.case_id}" for r in cause.cases[:_FOLD]]
            if cause.count > _FOLD:
                out.append(f"         ... and {cause.count - _FOLD} more")
    if d.changed:
        out += ["", f"changed findings ({len(d.changed)}):"]
        for c in d.changed:
            out.append(f"  ~ {c.case_id}")
            out += [f"      + {_cause(x, c.new)}" for x in c.gained]
            out += [f"      - {_cause(x, c.old)}" for x in c.lost]
    if d.fixed:
        out += ["", f"fixed ({len(d.fixed)}):"]
        for c in d.fixed:
            was = "; ".join(_cause(x, c.old) for x in c.lost[:2])
            out.append(f"  ✓ {c.case_id} (was {_word(c.old)}: {was})")
    for title, changes in (("cases added", d.added), ("cases removed", d.removed)):
        if changes:
            out += ["", f"{title} ({len(changes)}):"]
            out += [f"  {c.case_id} ({_word(c.new if c.new is not None else c.old)})" for c in changes]
    if d.verdicts:
        out += ["", f"verdict changes ({len(d.verdicts)}; + worse, - better):"]
        out += [f"  {'+' if v.worse else '-'} {v.case_id}: {_move(v)}" for v in d.verdicts]
    out += ["", _verdict(d)]
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def diff_markdown(d: RunDiff, limit: int = 50) -> str:
    """The diff as GitHub-flavoured Markdown."""
    mark = "❌ regressed" if d.regressed else "✅ nothing regressed"
    out = [f"## thinkwire diff: {mark}", "", _cell(_head(d)), "", _cell(_verdict(d)), ""]
    if d.new_failures:
        table = causes_table(group_causes(c.new for c in d.new_failures if c.new is not None), limit)
        out += ["### New failures", "", *table[2:]]
    sections: list[tuple[str, list[CaseChange], str]] = [
        ("Changed findings", d.changed, "changed"),
        ("Fixed", d.fixed, "fixed"),
        ("Cases added", d.added, "added"),
        ("Cases removed", d.removed, "removed"),
    ]
    for title, changes, noun in sections:
        if not changes:
            continue
        out += [f"### {title}", "", "| case | was | now | findings |", "|---|---|---|---|"]
        for c in changes[:limit]:
            said = "<br>".join(
                [f"+ {_cell(_cause(x, c.new))}" for x in c.gained]
                + [f"− {_cell(_cause(x, c.old))}" for x in c.lost]
            )
            out.append(f"| `{_cell(c.case_id)}` | {_word(c.old)} | {_word(c.new)} | {said or '-'} |")
        if len(changes) > limit:
            out += ["", f"… and {len(changes) - limit} more {noun}"]
        out.append("")
    if d.verdicts:
        out += ["### Verdict changes", "", "| case | axis | was | now | |", "|---|---|---|---|---|"]
        for v in d.verdicts[:limit]:
            way = "worse" if v.worse else "better"
            out.append(f"| `{_cell(v.case_id)}` | {v.axis} | {v.was} | {v.now} | {way} |")
        if len(d.verdicts) > limit:
            out += ["", f"… and {len(d.verdicts) - limit} more verdict changes"]
        out.append("")
    return "\n".join(out)


def _pairs(d: RunDiff) -> list[CaseChange]:
    """Every case in both runs, as a CaseChange without causes (for the verdict changes JUnit lists)."""
    before = {r.case_id: r for r in d.old.results}
    return [CaseChange(r.case_id, before[r.case_id], r) for r in d.new.results if r.case_id in before]


def diff_junit(d: RunDiff) -> str:
    """JUnit XML: a failing test per regressed case (new failure, or new findings), a passing one per
    fix or other change, a skipped one per removed case."""
    suites = ET.Element("testsuites", name="thinkwire-diff")
    suite = ET.SubElement(suites, "testsuite", name=xml_safe(f"thinkwire diff[{d.old.sut} -> {d.new.sut}]"))
    tally = {"tests": 0, "failures": 0, "skipped": 0}

    def case(c: CaseChange, outcome: str, message: str) -> None:
        tally["tests"] += 1
        either = c.new or c.old
        scenario = either.scenario_id.replace("/", ".") if either is not None else ""
        el = ET.SubElement(suite, "testcase", classname=xml_safe(scenario), name=xml_safe(c.case_id))
        lines = [f"{_word(c.old)} -> {_word(c.new)}"]
        lines += [f"+ {_cause(x, c.new)}" for x in c.gained] + [f"- {_cause(x, c.old)}" for x in c.lost]
        if outcome in ("failure", "skipped"):
            tally["failures" if outcome == "failure" else "skipped"] += 1
            child = ET.SubElement(el, outcome, message=xml_safe(message))
            child.text = xml_safe("\n".join(lines) + "\n")
        else:
            ET.SubElement(el, "system-out").text = xml_safe(message + "\n" + "\n".join(lines) + "\n")

    for c in d.new_failures:
        first = c.gained[0] if c.gained else ("", _word(c.new))
        case(c, "failure", f"new failure: {_cause(first, c.new)}")
    for c in d.changed:
        said = "new findings" if c.gained else "findings changed (none new)"
        case(c, "failure" if c.gained else "pass", said)
    for c in d.fixed:
        case(c, "pass", "fixed")
    for c in d.removed:
        case(c, "skipped", "case removed")
    listed = {c.case_id for c in (*d.new_failures, *d.changed, *d.fixed)}
    for case_id in dict.fromkeys(v.case_id for v in d.verdicts if v.case_id not in listed):
        moves = [v for v in d.verdicts if v.case_id == case_id]
        change = next(c for c in _pairs(d) if c.case_id == case_id)
        case(change, "pass", "verdict changed (not a failure): " + "; ".join(_move(v) for v in moves))
    for el in (suites, suite):
        for k, v in tally.items():
            el.set(k, str(v))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
