"""results.json version 5 names what a timeline entry did ``act`` and a Notice event's word ``code``;
version 4 and older said ``kind`` for both. Every reader reads an old file under the new names: a version-4
document made from a version-5 one by spelling the keys the old way renders exactly as its twin."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest

from harness._explain import timeline_lines
from harness.cli import main
from harness.report import (
    from_json,
    junit_xml,
    load_results,
    render_html,
    render_markdown,
    timeline_svg,
    to_json,
    write_json,
)
from harness.report._console import print_failures, print_summary
from harness.report._diff import diff_runs
from harness.report._diff_render import diff_text
from harness.report._show import render_show
from harness.runner import RunResult, summarise_serialized
from tools import verdict_diff


def _run(run: RunResult) -> RunResult:
    """The report tests' run, its failing case's timeline with a Notice event and a summary besides."""
    fail = run.results[1]
    notice = {
        "t_ms": 70.0, "side": "client", "act": "event", "turn": 0,
        "event": {"type": "Notice", "code": "unknown-event", "detail": "x-ping"},
    }  # fmt: skip
    timeline = [*fail.timeline, notice]
    fail = dataclasses.replace(fail, timeline=timeline, timeline_summary=summarise_serialized(timeline))
    return dataclasses.replace(run, results=[run.results[0], fail, *run.results[2:]])


def _as_version_4(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as thinkwire's version-4 writer had it: ``kind`` for an entry's act, a summary row's and a
    Notice's code, each key in its place."""

    def old(d: dict[str, Any], new: str) -> dict[str, Any]:
        return {("kind" if k == new else k): v for k, v in d.items()}

    out = copy.deepcopy(doc)
    out["version"] = 4
    for case in out["results"]:
        entries = []
        for e in case.get("timeline", []):
            e = old(e, "act")
            if e.get("event", {}).get("type") == "Notice":
                e["event"] = old(e["event"], "code")
            entries.append(e)
        case["timeline"] = entries
        if "timeline_summary" in case:
            case["timeline_summary"]["rows"] = [old(r, "act") for r in case["timeline_summary"]["rows"]]
    return out


def _renders(run: RunResult) -> dict[str, Any]:
    """What every reader makes of ``run``."""
    console = io.StringIO()
    print_summary(run, console)
    print_failures(run, console)
    return {
        "html": render_html(run),
        "markdown": render_markdown(run),
        "junit": junit_xml(run),
        "console": console.getvalue(),
        "show": [render_show(r) for r in run.results],
        "svg": [timeline_svg(r) for r in run.results if r.timeline],
        "explain": [timeline_lines(r.timeline) for r in run.results],
        "summaries": [summarise_serialized(r.timeline) for r in run.results],
        "json": to_json(run),
    }


def test_a_version_4_file_reads_and_renders_as_its_version_5_twin(
    run_result: RunResult, tmp_path: Path
) -> None:
    v5 = to_json(_run(run_result))
    v4 = _as_version_4(v5)
    assert v4 != v5
    text = json.dumps(v4)
    assert '"act"' not in text
    assert '"code"' not in text
    assert '"kind": "event"' in text
    assert '"kind": "unknown-event"' in text
    assert '"kind": "write"' in text
    new, old = from_json(v5), from_json(v4)
    assert old == new
    assert _renders(old) == _renders(new)
    assert "unknown-event" in render_show(new.results[1])
    assert to_json(old)["version"] == 5  # written again under the new names
    assert diff_text(diff_runs(old, new)) == diff_text(diff_runs(new, new))
    for name, doc in (("v4", v4), ("v5", v5)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    assert verdict_diff.load(tmp_path / "v4") == verdict_diff.load(tmp_path / "v5")
    assert verdict_diff.main([str(tmp_path / "v4"), "--after", str(tmp_path / "v5")]) == 0


def test_the_commands_read_a_version_4_report_as_its_version_5_twin(
    run_result: RunResult, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``thinkwire report`` prints and writes the same for both; ``thinkwire diff`` finds no change."""
    v5 = to_json(_run(run_result))
    outputs: list[tuple[int, str, str, str, str]] = []
    for name, doc in (("v5", v5), ("v4", _as_version_4(v5))):
        path = tmp_path / name / "results.json"
        path.parent.mkdir()
        path.write_text(json.dumps(doc), encoding="utf-8")
        capsys.readouterr()
        code = main(["report", str(path)])
        said = capsys.readouterr()
        html, xml = tmp_path / name / "report.html", tmp_path / name / "junit.xml"
        assert main(["report", str(path), "--html", str(html), "--junit", str(xml)]) == code
        page, junit = (f.read_text(encoding="utf-8").replace(str(path.parent), "DIR") for f in (html, xml))
        outputs.append((code, said.out, said.err, page, junit))  # (JUnit names each swimlane by its folder)
    assert outputs[0] == outputs[1]
    assert "incremental/reasoning-flush" in outputs[0][1]
    capsys.readouterr()
    assert main(["diff", str(tmp_path / "v4"), str(tmp_path / "v5")]) == 0


def test_a_version_5_file_says_act_and_code(run_result: RunResult, tmp_path: Path) -> None:
    doc = to_json(_run(run_result))
    entries = [e for c in doc["results"] for e in c.get("timeline", [])]
    assert entries
    assert all("act" in e and "kind" not in e for e in entries)
    assert {"type": "Notice", "code": "unknown-event", "detail": "x-ping"} in [
        e.get("event") for e in entries
    ]
    rows = [r for c in doc["results"] for r in (c.get("timeline_summary") or {}).get("rows", [])]
    assert rows
    assert all("act" in r and "kind" not in r for r in rows)
    assert to_json(load_results(write_json(from_json(doc), tmp_path / "results.json"))) == doc
