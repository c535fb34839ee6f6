"""results.json: schema validation of real output, lossless round trip, loader errors naming the field."""

from __future__ import annotations

import copy
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
from harness.report._junit import junit_xml
from harness.runner import RunResult
from harness.verdict import CaseResult, Finding, Verdict

ROOT = Path(__file__).resolve().parents[2]


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
    assert doc["version"] == 3
    assert doc["exit_code"] == 1
    assert doc["counts"] == {"PASS": 2, "FAIL": 2, "TIMEOUT": 1, "UNSUPPORTED": 1}


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d.pop("results"), []),
        (lambda d: d.update(version=4), ["version"]),
        (
            lambda d: d["results"][3]["timeline_summary"]["rows"][0].update(n=0),
            ["results", 3, "timeline_summary", "rows", 0, "n"],
        ),
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


def test_round_trip_is_lossless(run_result: RunResult, tmp_path: Path) -> None:
    path = write_json(run_result, tmp_path / "r.json")
    back = load_results(path)
    assert back == run_result
    assert to_json(back) == to_json(run_result)
    assert render_html(back) == render_html(run_result)
    assert render_markdown(back) == render_markdown(run_result)
    assert junit_xml(back) == junit_xml(run_result)
    assert back.exit_code == 1
    assert [r.case_id for r in back.unexpected] == [r.case_id for r in run_result.unexpected]


def test_version_1_files_are_read(run_result: RunResult) -> None:
    doc = to_json(run_result)
    doc["version"] = 1
    for case in doc["results"]:
        case.pop("timeline_summary", None)
    back = from_json(doc)
    assert [r.case_id for r in back.results] == [r.case_id for r in run_result.results]
    assert all(r.timeline_summary is None for r in back.results)


def test_write_reports_writes_three_files(run_result: RunResult, tmp_path: Path) -> None:
    out = write_reports(run_result, tmp_path / "deep" / "dir")
    assert sorted(p.name for p in out.values()) == ["report.html", "results.json", "summary.md", "swimlanes"]
    assert all(p.stat().st_size > 0 for p in out.values() if p.is_file())
    assert len(list(out["swimlanes"].glob("*.svg"))) == 3  # FAIL, TIMEOUT, UNCLEAN
    assert load_results(out["json"]) == run_result


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
        "F: field 'version': this thinkwire reads versions 1, 2 and 3, got 9"
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
