"""results.json: schema validation of real output, a round trip that loses nothing but a passing case's PASS
and N/A messages, older versions read (a real version-3 file), loader errors naming the field."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.report import (
    SCHEMA_PATH,
    ResultsError,
    from_json,
    load_results,
    render_html,
    render_markdown,
    to_json,
    write_json,
    write_reports,
)
from harness.report._compact import compact_run
from harness.report._junit import junit_xml
from harness.runner import RunResult
from harness.verdict import Axis, CaseResult, Finding, Verdict

ROOT = Path(__file__).resolve().parents[2]
V3_SHARDS = [Path(__file__).parent / "data" / f"results-v3-shard{i}.json" for i in (1, 2)]
"""Two shards of one run written by thinkwire's version-3 writer (``thinkwire run --sut reference --cases
'timing/*' --cases 'ordering-duplication/stream-nonstream-parity[openai-chat*' --fault
nonstream-inline-think --shard I/2``): passing cases with timeline summaries, FAILs with timelines."""


def _schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _validator() -> jsonschema.Draft202012Validator:
    schema = _schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_published_schema_is_the_shipped_one() -> None:
    assert (ROOT / "docs" / "results.schema.json").read_bytes() == SCHEMA_PATH.read_bytes()
    assert _schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_real_output_validates(run_result: RunResult, tmp_path: Path) -> None:
    path = write_json(run_result, tmp_path / "results.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    errors = list(_validator().iter_errors(doc))
    assert errors == []
    assert doc["format"] == "thinkwire-results"
    assert doc["version"] == 5
    assert [("checks" in c) for c in doc["results"]] == [False, False, False, True, False, False]
    assert doc["exit_code"] == 1
    assert doc["counts"] == {"PASS": 2, "FAIL": 2, "TIMEOUT": 1, "UNSUPPORTED": 1}


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d.pop("results"), []),
        (lambda d: d.update(version=6), ["version"]),
        (lambda d: d["results"][3]["checks"].update(FAIL=["x"]), ["results", 3, "checks"]),
        (lambda d: d["results"][3].update(unexpected=True), ["results", 3, "unexpected"]),
        (lambda d: d["results"][3].update(timeline=[]), ["results", 3]),
        (lambda d: d["scenarios"]["wire/variants"].pop("category"), ["scenarios", "wire/variants"]),
        (lambda d: d["results"][1].update(stream="BROKEN"), ["results", 1, "stream"]),
        (
            lambda d: d["results"][1]["findings"][0].update(evidence=["2"]),
            ["results", 1, "findings", 0, "evidence", 0],
        ),
        (
            lambda d: d["results"][0]["timeline"][0].update(side="middle"),
            ["results", 0, "timeline", 0, "side"],
        ),
        (lambda d: d["results"][0].update(extra=1), ["results", 0]),
        (lambda d: d["results"][0]["timeline"][1].update(base64="AA=="), ["results", 0, "timeline", 1]),
    ],
)
def test_schema_rejects_broken_documents(run_result: RunResult, mutate: Any, path: list[Any]) -> None:
    doc = to_json(run_result)
    mutate(doc)
    errors = list(_validator().iter_errors(doc))
    assert [list(e.absolute_path) for e in errors] == [path]


def test_round_trip_loses_only_a_passing_case_s_quiet_messages(run_result: RunResult, tmp_path: Path) -> None:
    path = write_json(run_result, tmp_path / "r.json")
    back = load_results(path)
    assert back == compact_run(run_result)
    assert [r for r in back.results if r not in run_result.results] == [back.results[3]]  # the compact one
    assert to_json(back) == to_json(run_result)
    assert render_html(back) == render_html(run_result)
    assert render_markdown(back) == render_markdown(run_result)
    assert junit_xml(back) == junit_xml(run_result)
    assert back.exit_code == 1
    assert [r.case_id for r in back.unexpected] == [r.case_id for r in run_result.unexpected]


def test_version_1_files_are_read() -> None:
    doc = json.loads(V3_SHARDS[0].read_text(encoding="utf-8"))
    doc["version"] = 1
    for case in doc["results"]:
        case.pop("timeline_summary", None)
    doc.pop("run_info")
    back = from_json(doc)
    assert [r.case_id for r in back.results] == [c["case_id"] for c in doc["results"]]
    assert all(r.timeline_summary is None for r in back.results)
    assert back.run_info == {}


def test_a_version_3_file_is_read_and_written_again_as_the_current_version(tmp_path: Path) -> None:
    old = json.loads(V3_SHARDS[0].read_text(encoding="utf-8"))
    assert old["version"] == 3
    run = load_results(V3_SHARDS[0])
    assert [(r.case_id, r.status.value, r.stream.value, r.cleanup.value) for r in run.results] == [
        (c["case_id"], c["status"], c["stream"], c["cleanup"]) for c in old["results"]
    ]
    assert sum(r.timeline_summary is not None for r in run.results) == 4  # read as it was written
    new = write_json(run, tmp_path / "results.json")
    doc = json.loads(new.read_text(encoding="utf-8"))
    assert doc["version"] == 5
    assert list(_validator().iter_errors(doc)) == []
    assert [("checks" in c) for c in doc["results"]] == [True, False, True, True, True, True]
    assert new.stat().st_size < V3_SHARDS[0].stat().st_size / 2
    back = load_results(new)
    assert back == compact_run(run)
    assert render_markdown(back) == render_markdown(run)
    assert junit_xml(back) == junit_xml(run)
    assert render_html(back) == render_html(run)


def test_a_passing_case_keeps_its_verdicts_and_check_names_not_their_messages() -> None:
    """By exception: a passing case's PASS and N/A findings become names; INFO, UNSUPPORTED and
    NON_STRICT findings are kept whole; a case that did not pass, and a passing case whose whole
    timeline was kept (--keep-timelines), keep everything."""
    findings = [
        Finding("delivery", Verdict.PASS, message="every byte", evidence=(1,)),
        Finding("retry", Verdict.NOT_APPLICABLE, message="no failed attempt scripted"),
        Finding("timing", Verdict.INFO, message="ttft 3 ms", data={"ttft_ms": 3}),
        Finding("cancellation", Verdict.PASS, Axis.CLEANUP, message="closed 1.0 ms after cancel"),
        Finding("cleanup", Verdict.NOT_APPLICABLE, Axis.CLEANUP, message="no process"),
    ]
    base = CaseResult("a/b[x]", "a/b", "The SUT MUST b.", "a", "s", findings=findings, duration_s=0.25,
                      reproduce="thinkwire run --sut s --cases 'a/b[x]' --keep-timelines",
                      timeline_summary={"entries": 0, "duration_ms": 0, "rows": []})  # fmt: skip
    entry = {"t_ms": 0, "side": "client", "act": "x"}
    kept = dataclasses.replace(base, case_id="a/b[kept]", timeline=[entry])
    failed = dataclasses.replace(
        base,
        case_id="a/b[failed]",
        stream=Verdict.FAIL,
        unexpected=True,
        findings=[*findings, Finding("ordering", Verdict.FAIL, message="late")],
    )
    doc = to_json(RunResult("s", [base, kept, failed]))
    small, whole, bad = doc["results"]
    assert small == {
        "case_id": "a/b[x]", "scenario_id": "a/b", "status": "OK", "stream": "PASS", "cleanup": "PASS",
        "unexpected": False, "duration_s": 0.25, "axes": {},
        "checks": {"PASS": ["delivery"], "N/A": ["retry"]},
        "cleanup_checks": {"PASS": ["cancellation"], "N/A": ["cleanup"]},
        "findings": [
            {"check": "timing", "verdict": "INFO", "axis": "stream", "message": "ttft 3 ms",
             "data": {"ttft_ms": 3}}
        ],
    }  # fmt: skip
    assert doc["scenarios"] == {"a/b": {"requirement": "The SUT MUST b.", "category": "a"}}
    assert doc["reproduce"] == "thinkwire run --sut s --cases {case} --keep-timelines"
    assert [f["message"] for f in whole["findings"]] == [f.message for f in findings]
    assert len(bad["findings"]) == 6
    assert "checks" not in bad
    back = from_json(doc).results[0]
    assert (back.requirement, back.category, back.reproduce) == (base.requirement, "a", base.reproduce)
    assert {(f.check, f.verdict, f.axis, f.message) for f in back.findings} == {
        (f.check, f.verdict, f.axis, f.message if f.verdict == Verdict.INFO else "") for f in findings
    }


def test_a_compact_case_says_what_differs_from_its_run() -> None:
    """A compact case's own sut, requirement or reproduce line (one the run's template does not give)
    is written and read back."""
    cases = [
        CaseResult("a/b[1]", "a/b", "R.", "a", "s", findings=[Finding("d", Verdict.PASS)],
                   reproduce="x 'a/b[1]'"),
        CaseResult("a/b[2]", "a/b", "R2.", "a", "t", findings=[Finding("d", Verdict.PASS)],
                   reproduce="own line", gate_wait_s=0.0, alone="gated"),
    ]  # fmt: skip
    doc = to_json(RunResult("s", cases))
    assert doc["reproduce"] == "x {case}"
    assert {k: doc["results"][1][k] for k in ("sut", "requirement", "reproduce", "gate_wait_s", "alone")} == {
        "sut": "t", "requirement": "R2.", "reproduce": "own line", "gate_wait_s": 0.0, "alone": "gated"
    }  # fmt: skip
    assert from_json(json.loads(json.dumps(doc))).results == cases


def test_write_reports_writes_three_files(run_result: RunResult, tmp_path: Path) -> None:
    out = write_reports(run_result, tmp_path / "deep" / "dir")
    assert sorted(p.name for p in out.values()) == ["report.html", "results.json", "summary.md", "swimlanes"]
    assert all(p.stat().st_size > 0 for p in out.values() if p.is_file())
    assert len(list(out["swimlanes"].glob("*.svg"))) == 3  # FAIL, TIMEOUT, UNCLEAN
    assert load_results(out["json"]) == compact_run(run_result)


@given(
    message=st.text(max_size=40),
    data=st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3),
    evidence=st.lists(st.integers(0, 50), max_size=4),
)
def test_round_trip_property(message: str, data: dict[str, Any], evidence: list[int]) -> None:
    f = Finding("c", Verdict.FAIL, message=message, actual=message, evidence=tuple(evidence), data=data)
    run = RunResult("s", [CaseResult("id", "sc", message, "cat", "s", findings=[f], timeline=[])])
    assert from_json(json.loads(json.dumps(to_json(run)))) == run


def _bad(tmp_path: Path, doc: Any) -> str:
    p = tmp_path / "results.json"
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    with pytest.raises(ResultsError) as info:
        load_results(p)
    return str(info.value).replace(str(p), "F")


def test_load_errors_name_the_file_and_the_problem(run_result: RunResult, tmp_path: Path) -> None:
    good = to_json(run_result)

    def edited(fn: Any) -> dict[str, Any]:
        d = copy.deepcopy(good)
        fn(d)
        return d

    with pytest.raises(ResultsError, match="no such file"):
        load_results(tmp_path / "missing.json")
    assert _bad(tmp_path, '{"format": ') == "F: not JSON: Expecting value at line 1 column 12"
    assert _bad(tmp_path, []) == "F: expected a JSON object, got list"
    assert (
        _bad(tmp_path, {"format": "junit"}) == "F: field 'format': expected 'thinkwire-results', got 'junit'"
    )
    assert _bad(tmp_path, edited(lambda d: d.update(version=9))) == (
        "F: field 'version': this thinkwire reads versions 1, 2, 3, 4 and 5, got 9"
    )
    assert _bad(tmp_path, edited(lambda d: d["results"][3]["checks"].update(FAIL=["x"]))) == (
        "F: field 'results[3].checks.FAIL': only PASS and N/A checks are kept as names"
    )
    assert _bad(tmp_path, edited(lambda d: d["results"][3].update(scenario_id="nowhere"))) == (
        "F: field 'results[3].scenario_id': 'nowhere' is not in the run's scenarios"
    )
    assert _bad(tmp_path, edited(lambda d: d["results"][1].update(stream="GOOD"))) == (
        "F: field 'results[1].stream': unknown value 'GOOD' "
        "(valid: PASS, INFO, N/A, UNSUPPORTED, NON_STRICT, UNCLEAN, FAIL)"
    )
    assert _bad(tmp_path, edited(lambda d: d["results"][1]["findings"][0].update(evidence=[1, "x"]))) == (
        "F: field 'results[1].findings[0].evidence[1]': expected an integer, got 'x'"
    )
    assert _bad(tmp_path, edited(lambda d: d["results"][0].pop("case_id"))) == (
        "F: field 'results[0].case_id': missing"
    )
    assert _bad(tmp_path, edited(lambda d: d["results"][0].update(duration_s=True))) == (
        "F: field 'results[0].duration_s': expected int or float, got bool True"
    )
    assert _bad(tmp_path, edited(lambda d: d["results"][0]["timeline"].append(3))) == (
        "F: field 'results[0].timeline[14]': expected an object, got int"
    )


def test_text_with_unicode_line_breaks_stays_in_its_string(run_result: RunResult, tmp_path: Path) -> None:
    """A whole case is written a line per JSON line: a U+2028, U+2029 or U+0085 inside a string (the
    sse-framing cases send them) is not a line break there, so the file still parses (``splitlines`` took
    them for one and cut the string in two)."""
    failing = run_result.results[1]
    text = "Line\u2028separator\u2029paragraph\x85next"
    entry = {"t_ms": 99.0, "side": "client", "act": "chunk", "turn": 0, "text": text}
    run = dataclasses.replace(
        run_result,
        results=[run_result.results[0], dataclasses.replace(failing, timeline=[*failing.timeline, entry]),
                 *run_result.results[2:]],
    )  # fmt: skip
    back = load_results(write_json(run, tmp_path / "results.json"))
    assert back.results[1].timeline[-1]["text"] == text
    assert back == compact_run(run)
