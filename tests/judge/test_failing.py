"""One rule for "failing" (``is_failure`` / ``CaseResult.fails``), and every place that asks it gives
the same answer: the expectations (unexpected, written), the JUnit XML, the outcome word, the kept
timelines, the console's expected failures."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.catalog import Expectations, write_expectations
from harness.catalog._expectations import Expectation
from harness.report._common import outcome
from harness.report._junit import junit_xml
from harness.runner import RunResult
from harness.runner._case_run import failed
from harness.verdict import CaseResult, Status, Verdict, is_failure

STREAM = [Verdict.PASS, Verdict.NON_STRICT, Verdict.INFO, Verdict.UNSUPPORTED, Verdict.FAIL]
CLEANUP = [Verdict.PASS, Verdict.UNCLEAN, Verdict.FAIL, Verdict.NOT_APPLICABLE]
COMBOS = list(itertools.product(Status, STREAM, CLEANUP))


def case(status: Status, stream: Verdict, cleanup: Verdict) -> CaseResult:
    ids = ("s/x[a:b/frames]", "s/x", "MUST", "s", "sut")
    return CaseResult(*ids, status=status, stream=stream, cleanup=cleanup)


@pytest.mark.parametrize("verdict", list(Verdict))
def test_is_failure(verdict: Verdict) -> None:
    bad = (Verdict.FAIL, Verdict.UNCLEAN)
    assert is_failure(verdict, strict=False) == (verdict in bad)
    assert is_failure(verdict, strict=True) == (verdict in (*bad, Verdict.NON_STRICT))


@pytest.mark.parametrize("strict", [False, True])
def test_every_place_that_asks_agrees(strict: bool, tmp_path: Path) -> None:
    for status, stream, cleanup in COMBOS:
        r = case(status, stream, cleanup)
        fails = status != Status.OK or is_failure(stream, strict) or is_failure(cleanup, strict)
        assert r.fails(strict) == fails
        Expectations().apply(r, strict=strict)
        assert r.unexpected == fails, (status, stream, cleanup)
        run = RunResult(sut="sut", results=[r], strict=strict)
        testcase = ET.fromstring(junit_xml(run)).find("testsuite/testcase")
        assert testcase is not None
        marked = {child.tag for child in testcase} & {"failure", "error"}
        assert bool(marked) == fails, (status, stream, cleanup, strict)
        assert failed(r) == r.fails(strict=True)  # kept timelines: failing under either reading
        word = outcome(r)
        if not strict:
            failing = ("FAIL", "UNCLEAN", "ERROR", "TIMEOUT", "NOT_RUN")
            assert (word in failing) == fails, (status, stream, cleanup)
    written = [case(*c) for c in COMBOS]
    n = write_expectations(written, tmp_path / "x.toml")
    assert n == sum(r.fails(strict=True) for r in written)


def test_an_expected_failure_is_not_unexpected_and_its_word_is_xfail() -> None:
    r = case(Status.OK, Verdict.FAIL, Verdict.PASS)
    Expectations({r.case_id: Expectation(stream="FAIL", reason="known")}).apply(r, strict=False)
    assert not r.unexpected
    assert outcome(r) == "XFAIL"
    r = case(Status.OK, Verdict.NON_STRICT, Verdict.PASS)
    Expectations().apply(r, strict=True)
    assert r.unexpected
    assert outcome(r) == "NON_STRICT"
