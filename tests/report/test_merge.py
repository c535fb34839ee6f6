"""``thinkwire run --shard I/N`` x3 against the reference gateway, then ``thinkwire merge``: the same
cases and verdicts as one unsharded run; shards of different runs, missing or doubled shards and
missing or doubled cases are refused in one line (exit 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from harness.cli import main
from harness.report import SCHEMA_PATH

CASES = [
    *("--cases", "ordering-duplication/stream-nonstream-parity*"),
    *("--cases", "timing/*", "--cases", "cleanup/*"),
]
RUN = ["run", "-q", *CASES, "--fault", "nonstream-inline-think"]  # (a fault: some verdicts are FAIL)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One unsharded run ("whole") and its three shards ("s1".."s3"), each a report dir."""
    root = tmp_path_factory.mktemp("shards")
    assert main([*RUN, "--report", str(root / "whole")]) == 1
    for i in (1, 2, 3):
        assert main([*RUN, "--shard", f"{i}/3", "--report", str(root / f"s{i}")]) in (0, 1)
    return root


def _doc(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((path / "results.json").read_text(encoding="utf-8"))
    return data


def _verdicts(doc: dict[str, Any]) -> list[tuple[str, str, str, str, bool]]:
    return [(r["case_id"], r["status"], r["stream"], r["cleanup"], r["unexpected"]) for r in doc["results"]]


def test_merged_shards_equal_the_unsharded_run(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = _doc(runs / "whole")
    shards = [_doc(runs / f"s{i}") for i in (1, 2, 3)]
    assert all(0 < len(s["results"]) < len(whole["results"]) for s in shards)
    assert all(s["run_info"]["shard"]["total"] == 3 for s in shards)
    capsys.readouterr()
    code = main(["merge", *(str(runs / f"s{i}") for i in (3, 1, 2)), "--report", str(runs / "merged")])
    out = capsys.readouterr().out
    assert code == 1 == whole["exit_code"], out  # the fault's failures are unexpected: exit 1, as unsharded
    merged = _doc(runs / "merged")
    assert _verdicts(merged) == _verdicts(whole)  # same cases, same order, same verdicts
    assert any(v[2] == "FAIL" for v in _verdicts(whole))
    assert any(v[2] == "PASS" for v in _verdicts(whole))
    assert merged["counts"] == whole["counts"]
    strip = {"shard", "merged"}
    assert {k: v for k, v in merged["run_info"].items() if k not in strip} == {
        k: v for k, v in whole["run_info"].items() if k not in strip
    }
    assert merged["run_info"]["shard"] is None
    assert merged["run_info"]["merged"] == 3
    for name in ("report.html", "summary.md", "junit.xml"):
        assert (runs / "merged" / name).stat().st_size > 0
    junit = (runs / "merged" / "junit.xml").read_text(encoding="utf-8")
    assert junit.count("<testcase") == len(whole["results"])
    assert "merged 3 shard(s)" in out
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    for doc in (whole, merged, *shards):
        assert list(validator.iter_errors(doc)) == []


def test_run_info_names_the_run(runs: Path) -> None:
    info = _doc(runs / "s1")["run_info"]
    assert info["thinkwire"] == "0.1.0"
    assert info["catalog"].startswith("sha256:")
    assert len(info["catalog"]) == 71
    assert info["cases"] == len(_doc(runs / "whole")["results"])
    name = "reference-gateway+nonstream-inline-think"
    assert info["sut"] == {"name": name, "kind": "gateway", "version": "0.1.0"}
    assert info["options"]["faults"] == ["nonstream-inline-think"]
    assert info["shard"]["index"] == 1
    assert set(info["shard"]["cases"]) == {r["case_id"] for r in _doc(runs / "s1")["results"]}


def _refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["merge", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_a_shard_of_another_run_is_refused(
    runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Shard 3/3 run with other settings (--strict) is not a shard of the same run."""
    other = tmp_path / "s3-strict"
    assert main([*RUN, "--strict", "--shard", "3/3", "--report", str(other)]) in (0, 1)
    err = _refused([str(runs / "s1"), str(runs / "s2"), str(other), "--report", str(tmp_path / "m")], capsys)
    assert err == (
        f"thinkwire merge: {other}: run_info differs from {runs / 's1'}'s at run_info.options.strict: "
        "True vs False (shards of one run need the same thinkwire, cases, SUT and settings)\n"
    )
    assert not (tmp_path / "m").exists()


def test_another_selection_is_refused(runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edited = tmp_path / "s2"
    shutil.copytree(runs / "s2", edited)
    doc = _doc(edited)
    doc["run_info"]["catalog"] = "sha256:" + "0" * 64
    (edited / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    err = _refused([str(runs / "s1"), str(edited), str(runs / "s3"), "--report", str(tmp_path / "m")], capsys)
    assert "at run_info.catalog: 'sha256:000" in err


def test_missing_and_doubled_shards_are_refused(
    runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s1, s2, s3 = (str(runs / f"s{i}") for i in (1, 2, 3))
    out = str(tmp_path / "m")
    assert _refused([s1, s3, "--report", out], capsys) == (
        "thinkwire merge: missing shard(s) 2/3 (given: 2 of 3)\n"
    )
    assert _refused([s1, s2, s2, s3, "--report", out], capsys) == (
        f"thinkwire merge: duplicate shard 2/3: {s2} and {s2}\n"
    )
    assert _refused([str(runs / "whole"), s1, "--report", out], capsys) == (
        f"thinkwire merge: {runs / 'whole'}: not a shard "
        "(its run_info has no shard: run it with --shard I/N)\n"
    )


def test_missing_and_doubled_cases_are_refused(
    runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short = tmp_path / "short"  # shard 2 lost a case (e.g. interrupted)
    shutil.copytree(runs / "s2", short)
    doc = _doc(short)
    lost = doc["results"].pop()
    (short / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    s1, s3, out = str(runs / "s1"), str(runs / "s3"), str(tmp_path / "m")
    n = len(doc["run_info"]["shard"]["cases"])
    assert _refused([s1, str(short), s3, "--report", out], capsys) == (
        f"thinkwire merge: {short}: 1 of its {n} case(s) missing, e.g. {lost['case_id']}\n"
    )
    twice = tmp_path / "twice"  # shard 3 also holds one of shard 1's cases
    shutil.copytree(runs / "s3", twice)
    doc = _doc(twice)
    stolen = _doc(runs / "s1")["results"][0]
    doc["results"].append(stolen)
    doc["run_info"]["shard"]["cases"][stolen["case_id"]] = 0
    (twice / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    assert _refused([s1, str(runs / "s2"), str(twice), "--report", out], capsys) == (
        f"thinkwire merge: duplicate case {stolen['case_id']}: in {s1} and in {twice}\n"
    )


def test_version_3_shards_merge_into_a_version_4_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two shards written by the version-3 writer merge as they did: every case once, in the selection's
    order, with its verdicts; the merged file is version 4 (passing cases compact) and validates."""
    data = Path(__file__).parent / "data"
    olds = [json.loads((data / f"results-v3-shard{i}.json").read_text(encoding="utf-8")) for i in (1, 2)]
    assert {d["version"] for d in olds} == {3}
    shards = []
    for i in (1, 2):
        (tmp_path / f"s{i}").mkdir()
        shutil.copy(data / f"results-v3-shard{i}.json", tmp_path / f"s{i}" / "results.json")
        shards.append(str(tmp_path / f"s{i}"))
    capsys.readouterr()
    assert main(["merge", *shards, "--report", str(tmp_path / "merged")]) == 1  # the fault's two FAILs
    merged = _doc(tmp_path / "merged")
    assert merged["version"] == 5
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    assert list(validator.iter_errors(merged)) == []
    place = {cid: n for d in olds for cid, n in d["run_info"]["shard"]["cases"].items()}
    expected = sorted((v for d in olds for v in _verdicts(d)), key=lambda v: place[v[0]])
    assert _verdicts(merged) == expected
    assert [c["case_id"] for c in merged["results"] if "checks" not in c] == [
        v[0] for v in expected if v[2] == "FAIL"
    ]
    assert merged["counts"] == {"PASS": 8, "FAIL": 2, "UNSUPPORTED": 2}
    assert (tmp_path / "merged" / "report.html").exists()
