"""JUnit XML parsed back: counts, classnames, failure / error / skipped texts, timing system-out."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from harness.report import write_junit
from harness.runner import RunResult
from harness.verdict import CaseResult, Finding, Status, Verdict


def _parse(run: RunResult, tmp_path: Path) -> ET.Element:
    return ET.parse(write_junit(run, tmp_path / "out" / "junit.xml")).getroot()


def test_counts_and_one_testcase_per_case(run_result: RunResult, tmp_path: Path) -> None:
    root = _parse(run_result, tmp_path)
    suite = root.find("testsuite")
    assert suite is not None
    for el in (root, suite):
        assert {k: el.get(k) for k in ("tests", "failures", "errors", "skipped", "time")} == {
            "tests": "6",
            "failures": "2",
            "errors": "1",
            "skipped": "2",
            "time": "5.200",
        }
    cases = suite.findall("testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        (r.scenario_id.replace("/", "."), r.case_id) for r in run_result.results
    ]
    assert cases[0].get("classname") == "incremental.reasoning-flush"
    assert [[child.tag for child in c] for c in cases] == [
        ["system-out"],
        ["failure", "system-out"],
        ["error", "system-out"],
        ["skipped", "system-out"],
        ["skipped", "system-out"],
        ["failure", "system-out"],
    ]


def test_failure_text_has_requirement_expected_actual_and_reproduce(
    run_result: RunResult, tmp_path: Path
) -> None:
    cases = _parse(run_result, tmp_path).findall("testsuite/testcase")
    failure = cases[1].find("failure")
    assert failure is not None
    assert failure.get("type") == "FAIL"
    assert (
        failure.get("message")
        == "FAIL: [incremental] reasoning was buffered until the upstream gate timed out"
    )
    assert failure.text == (
        "× incremental/reasoning-flush@openai-chat:reasoning_content/one-chunk\n"
        "  -> Reasoning MUST reach the client before the upstream sends the answer.\n"
        "  [incremental] FAIL: reasoning was buffered until the upstream gate timed out\n"
        "    Expected: a ReasoningDelta before gate 'client saw reasoning' times out (50 ms)\n"
        "    Actual:   first ReasoningDelta at 60.1 ms, after the gate timed out at 51.1 ms\n"
        "  [duplication] FAIL: reasoning text delivered twice: 'Let me think'\n"
        "    Expected: 'Let me think'\n"
        "    Actual:   'Let me thinkLet me think'\n"
        "  reproduce: thinkwire run --sut reference --fault buffer --cases 'incremental/reasoning-flush@*'\n"
    )
    unclean = cases[5].find("failure")
    assert unclean is not None
    assert unclean.get("type") == "UNCLEAN"
    assert unclean.get("message") == "UNCLEAN: [cleanup] a child process outlived the case"
    assert "    Actual:   pid 4243 node worker.js\n" in (unclean.text or "")


def test_timeout_error_skips_and_timing(run_result: RunResult, tmp_path: Path) -> None:
    cases = _parse(run_result, tmp_path).findall("testsuite/testcase")
    error = cases[2].find("error")
    assert error is not None
    assert error.get("type") == "timeout"
    assert error.get("message") == "TIMEOUT: SUT did not finish the response within 5.0 s"
    assert "Traceback: boom" in (error.text or "")
    unsupported, xfail = cases[3].find("skipped"), cases[4].find("skipped")
    assert unsupported is not None
    assert xfail is not None
    assert unsupported.get("message") == "UNSUPPORTED: the SUT does not claim gemini:thought"
    assert xfail.get("message") == "expected failure: known bug #12: signature dropped"
    assert "  expectation: stream=FAIL (known bug #12: signature dropped)\n" in (xfail.text or "")
    assert cases[0].findtext("system-out") == (
        "incremental/reasoning-flush@openai-chat:reasoning_content/sse-per-event: 5.4 ms\n"
        "[timing] INFO: time to first reasoning token 3.2 ms\n"
    )
    assert cases[0].get("time") == "0.005"


def test_error_status_and_hostile_text(tmp_path: Path) -> None:
    bad = "crash \x00\x1b[31m <&> ]]>"
    run = RunResult(
        "s",
        [
            CaseResult("a/b@x", "a/b", "req", "cat", "s", status=Status.ERROR, error=bad, unexpected=True),
            CaseResult(
                "a/c@x",
                "a/c",
                "req",
                "cat",
                "s",
                stream=Verdict.FAIL,
                unexpected=True,
                findings=[Finding("k", Verdict.FAIL, message=bad, expected="<", actual="&")],
            ),
        ],
        sut_error="cannot start",
    )
    root = _parse(run, tmp_path)
    err = root.find("testsuite/testcase/error")
    assert err is not None
    assert err.get("type") == "error"
    assert err.get("message") == "ERROR: crash \\x00\\x1b[31m <&> ]]>"
    fail = root.findall("testsuite/testcase")[1].find("failure")
    assert fail is not None
    assert "    Expected: <\n    Actual:   &\n" in (fail.text or "")
    assert root.findtext("testsuite/system-err") == "cannot start"
    assert root.get("errors") == "1"
    assert root.get("failures") == "1"


def test_passing_run_has_no_failures(tmp_path: Path) -> None:
    run = RunResult("s", [CaseResult("a@x", "a", "r", "c", "s", findings=[Finding("k", Verdict.PASS)])])
    root = _parse(run, tmp_path)
    assert (root.get("failures"), root.get("errors"), root.get("skipped")) == ("0", "0", "0")
    assert root.find("testsuite/testcase/failure") is None


def test_causes_as_suite_properties_and_swimlanes_linked(run_result: RunResult, tmp_path: Path) -> None:
    twin = CaseResult(  # the same cause as the FAIL case's duplication finding, other numbers and text
        "incremental/reasoning-flush@openai-chat:reasoning/one-chunk",
        "incremental/reasoning-flush",
        "r",
        "incremental",
        "ref-gw",
        stream=Verdict.FAIL,
        unexpected=True,
        findings=[Finding("duplication", Verdict.FAIL, message="reasoning text delivered 3 times: 'Hm'")],
    )
    run_result.results.append(twin)
    for r in run_result.results:
        if r.findings and r.findings[0].check == "incremental" and r.stream == Verdict.FAIL:
            r.findings[1] = Finding(
                "duplication", Verdict.FAIL, message="reasoning text delivered 2 times: 'Let me think'",
                evidence=(8, 9),
            )
    root = _parse(run_result, tmp_path)
    suite = root.find("testsuite")
    assert suite is not None
    props = [p.get("value", "") for p in suite.findall("properties/property")]
    assert props[0] == (
        "2 x [duplication] reasoning text delivered 2/3 times: '…': "
        "incremental/reasoning-flush@openai-chat:reasoning_content/one-chunk, "
        "incremental/reasoning-flush@openai-chat:reasoning/one-chunk"
    )
    assert len(props) == 4  # + incremental, TIMEOUT, cleanup: one case each
    fail = suite.findall("testcase")[1]
    text = fail.findtext("failure") or ""
    said = "[duplication] reasoning text delivered 2/3 times: '…'"
    assert f"    cause shared by 2 unexpected case(s): {said}" in text
    out = fail.findtext("system-out") or ""
    svg = tmp_path / "out" / "swimlanes"
    (link,) = [ln for ln in out.splitlines() if ln.startswith("[[ATTACHMENT|")]
    path = Path(link[len("[[ATTACHMENT|") : -2])
    assert path.parent == svg
    assert path.exists()
    assert 'data-checks="incremental duplication"' in path.read_text(encoding="utf-8")
    assert "ATTACHMENT" not in (suite.findall("testcase")[0].findtext("system-out") or "")  # passing
