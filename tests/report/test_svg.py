"""The SVG timeline: well-formed XML, two lanes of ticks coloured by channel, gates, markers, evidence."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.report import timeline_svg
from harness.report._svg import COLOURS
from harness.runner import RunResult
from harness.verdict import CaseResult, Finding, Verdict

NS = "{http://www.w3.org/2000/svg}"


def _groups(svg: str) -> dict[str, list[ET.Element]]:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    out: dict[str, list[ET.Element]] = {}
    for g in root.iter(NS + "g"):
        out.setdefault(g.get("class", ""), []).append(g)
    return out


def test_passing_case_marks(run_result: RunResult) -> None:
    groups = _groups(timeline_svg(run_result.results[0]))
    counts = {k: len(v) for k, v in groups.items()}
    assert counts == {
        "tick up meta": 1,  # the request
        "tick up reasoning": 2,
        "tick up text": 1,
        "tick up end": 2,  # [DONE] and response-end
        "tick client chunk": 2,
        "tick client reasoning": 2,
        "tick client text": 1,
        "tick client end": 1,
        "gate": 1,
    }
    gate = groups["gate"][0]
    assert gate.findtext(NS + "title") == "gate client saw reasoning waited 2.20 ms -> gate-open"
    reasoning = groups["tick up reasoning"][1]
    title = reasoning.findtext(NS + "title") or ""
    assert title.startswith("#6 3.50 ms upstream write: data: ")
    assert '" <about> & it"' in title  # escaped in the source, intact after parsing
    bar = reasoning.findall(NS + "rect")[-1]
    assert bar.get("fill") == COLOURS["reasoning"]
    assert "evidence" not in " ".join(groups)


def test_failing_case_highlights_evidence_and_timed_out_gate(run_result: RunResult) -> None:
    svg = timeline_svg(run_result.results[1])
    groups = _groups(svg)
    assert "gate" not in groups
    evidence = {k: len(v) for k, v in groups.items() if k.endswith(" evidence")}
    # evidence (2, 3, 8, 9): the gate-wait -> gate-timeout span, the two duplicated ReasoningDeltas
    assert evidence == {"gate timeout evidence": 1, "tick client reasoning evidence": 2}
    rect = groups["gate timeout evidence"][0].find(NS + "rect")
    assert rect is not None
    assert rect.get("stroke") == "#e17055"
    assert float(rect.get("width", "0")) == pytest.approx(860 * 50 / 60.5, abs=0.02)
    assert ">no timeline recorded<" not in svg


def test_cancel_and_disconnect_markers_and_sut_lane(run_result: RunResult) -> None:
    groups = _groups(timeline_svg(run_result.results[5]))
    assert len(groups["marker cancel"]) == 1
    assert len(groups["marker disconnect"]) == 1
    assert len(groups["tick sut process-left evidence"]) == 1
    assert len(groups["tick sut start"]) == 1
    chunk = groups["tick client chunk"][0]
    assert (chunk.findtext(NS + "title") or "").endswith("client chunk: data: \\xff\\xfe bad utf-8\n\n")
    line = groups["marker cancel"][0].find(NS + "line")
    assert line is not None
    # 2.5 ms of 12 ms on a plot from x=84 to x=944
    assert float(line.get("x1", "0")) == round(84 + 860 * 2.5 / 12, 2)


def test_empty_timeline_and_hostile_text() -> None:
    empty = timeline_svg(CaseResult("a<&>\"'", "s", "r", "c", "s"))
    assert ET.fromstring(empty).get("aria-label") == "timeline of a<&>\"'"
    assert ">no timeline recorded<" in empty
    hostile = "\x00\x07]]><script>alert(1)</script>\ud800"
    case = CaseResult(
        "x",
        "s",
        "r",
        "c",
        "s",
        findings=[Finding("k", Verdict.FAIL, evidence=(0, 99, -1))],
        timeline=[
            {"t_ms": 0, "side": "upstream", "act": "write", "text": hostile, "info": {"tags": ["error"]}}
        ],
    )
    svg = timeline_svg(case)
    assert "<script>" not in svg
    groups = _groups(svg)
    title = groups["tick up error evidence"][0].findtext(NS + "title") or ""
    assert title == "evidence of k · #0 0.00 ms upstream write: \\x00\\x07]]><script>alert(1)</script>\\ud800"


def test_unreleased_gate_is_drawn_to_the_end() -> None:
    case = CaseResult(
        "x",
        "s",
        "r",
        "c",
        "s",
        timeline=[
            {"t_ms": 0.0, "side": "upstream", "act": "gate-wait", "info": {"condition": "c"}},
            {"t_ms": 10.0, "side": "client", "act": "end"},
        ],
    )
    groups = _groups(timeline_svg(case))
    assert len(groups["gate timeout"]) == 1
    assert groups["gate timeout"][0].findtext(NS + "title") == "gate c waited 10.00 ms -> (still waiting)"


def test_evidence_names_its_checks_and_the_legend_says_which(run_result: RunResult) -> None:
    groups = _groups(timeline_svg(run_result.results[1]))
    cited = groups["tick client reasoning evidence"]
    assert [g.get("data-checks") for g in cited] == ["incremental duplication", "duplication"]
    assert (cited[0].findtext(NS + "title") or "").startswith("evidence of incremental, duplication · #8 ")
    (legend,) = groups["evidence-legend"]
    assert legend.findtext(NS + "text") == "evidence of incremental: #2 #3 #8; duplication: #8 #9"
    svg = timeline_svg(run_result.results[1])
    assert ">reasoning</text>" in svg
    assert ">answer</text>" in svg  # reasoning and answer: two colours, both in the legend
    assert COLOURS["reasoning"] != COLOURS["text"]


def test_write_swimlanes_one_standalone_file_per_failing_case(run_result: RunResult, tmp_path: Path) -> None:
    from harness.report._svg import svg_name, write_swimlanes

    written = write_swimlanes(run_result, tmp_path / "svg")
    # the FAIL, the TIMEOUT and the UNCLEAN case have timelines; the passing and the summarised ones not
    assert sorted(written) == sorted(r.case_id for r in run_result.results if r.case_id in written)
    assert set(written) == {run_result.results[i].case_id for i in (1, 2, 5)}
    for case_id, path in written.items():
        assert path.name == svg_name(case_id)
        text = path.read_text(encoding="utf-8")
        assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns=')
        ET.fromstring(text.split("\n", 1)[1])
    assert svg_name("a/b[c:d/e]") != svg_name("a/b[c:d/f]")
    assert "/" not in svg_name("a/b[c:d/e]")
