"""results.json: a versioned dump of a RunResult, and the loader that reads it back. Every other report and
``thinkwire diff`` can start from this file: it loses nothing of a case that did not pass, and keeps a passing
case compact (``_compact``), so a green run's file stays small."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from harness._errors import ThinkwireError
from harness.report._compact import (
    QUIET,
    compactable,
    quiet_checks,
    reproduce_line,
    reproduce_template,
)
from harness.runner import RunResult
from harness.verdict import Axis, CaseResult, Finding, Status, Verdict

__all__ = [
    "FORMAT",
    "SCHEMA_PATH",
    "VERSION",
    "ResultsError",
    "from_json",
    "load_results",
    "to_json",
    "write_json",
]

FORMAT = "thinkwire-results"
VERSION = 5
READS = (1, 2, 3, 4, 5)
"""Versions ``from_json`` reads. 2 added ``timeline_summary`` (a passing case's timeline, summarised
unless the run kept every timeline); a version-1 file is a version-2 file without it. 3 added
``run_info`` (what the run was: ``harness.runner._run_info``); an older file reads with it empty. 4 keeps
a passing case compact (``checks`` instead of its PASS and N/A findings, no timeline; its requirement,
category and reproduce line from the run's ``scenarios`` and ``reproduce``); an older file's cases all read
whole. 5 names what a timeline entry did ``act`` (a summary row's too) and a Notice event's word ``code``,
both ``kind`` before; an older file's are read under the new names (:func:`_entry_v5`)."""
SCHEMA_PATH = Path(__file__).parent / "schema" / "results.schema.json"


class ResultsError(ThinkwireError):
    """A results file cannot be read. The message names the file and the field; re-run to regenerate it."""


def to_json(run: RunResult) -> dict[str, Any]:
    """The results document (plain JSON types): ``{"format": "thinkwire-results", "version": 5, ...}``.

    ``from_json(to_json(run)) == compact_run(run)``, and renders every report as ``run`` does. The shape is
    the published schema ``harness/report/schema/results.schema.json``, copied to
    ``docs/results.schema.json``.
    """
    quiet = [r for r in run.results if compactable(r)]
    shared = _Shared(run.sut, reproduce_template(quiet), {})
    for r in quiet:
        shared.scenarios.setdefault(r.scenario_id, {"requirement": r.requirement, "category": r.category})
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "sut": run.sut,
        "strict": run.strict,
        "duration_s": run.duration_s,
        "sut_error": run.sut_error,
        "gate_timeout": run.gate_timeout,
        "repeat": run.repeat,
        "interrupted": run.interrupted,
        "concurrency": run.concurrency,
        "concurrency_note": run.concurrency_note,
        "left_out": dict(run.left_out),
        "warnings": list(run.warnings),
        "run_info": _plain(run.run_info),
        "exit_code": run.exit_code,
        "counts": run.counts(),
    }
    if quiet:
        doc["scenarios"] = shared.scenarios
        doc["reproduce"] = shared.reproduce
    doc["results"] = [_passed(r, shared) if compactable(r) else _case(r) for r in run.results]
    return doc


class _Shared(NamedTuple):
    """What a compact case takes from its run unless it says otherwise."""

    sut: str
    reproduce: str  # the reproduce template ("" for none)
    scenarios: dict[str, dict[str, str]]  # scenario id -> its requirement and category


def _passed(r: CaseResult, shared: _Shared) -> dict[str, Any]:
    """A compactable case: id, verdicts, duration, axes and the names of its PASS and N/A checks by axis;
    its other findings whole; what differs from the run's (``_Shared``) or from the default, and nothing
    else."""
    checks = {axis.value: {v.value: names for v, names in by.items()} for axis, by in quiet_checks(r).items()}
    out: dict[str, Any] = {
        "case_id": r.case_id, "scenario_id": r.scenario_id, "status": r.status.value,
        "stream": r.stream.value, "cleanup": r.cleanup.value, "unexpected": r.unexpected,
        "duration_s": r.duration_s, "axes": dict(r.axes), "checks": checks.get("stream", {}),
    }  # fmt: skip
    if "cleanup" in checks:
        out["cleanup_checks"] = checks["cleanup"]
    scenario = shared.scenarios[r.scenario_id]
    said: dict[str, Any] = {  # the run's value of each: written only where the case's differs
        "sut": shared.sut, "requirement": scenario["requirement"], "category": scenario["category"],
        "reproduce": reproduce_line(shared.reproduce, r.case_id),
        "findings": [], "error": "", "expected": {}, "expected_reason": "", "repeats": [], "alone": "",
        "gate_wait_s": None,
    }  # fmt: skip
    mine = {
        "sut": r.sut, "requirement": r.requirement, "category": r.category, "reproduce": r.reproduce,
        "findings": [_finding(f) for f in r.findings if f.verdict not in QUIET], "error": r.error,
        "expected": dict(r.expected), "expected_reason": r.expected_reason, "repeats": list(r.repeats),
        "alone": r.alone, "gate_wait_s": r.gate_wait_s,
    }  # fmt: skip
    out.update((k, v) for k, v in mine.items() if v != said[k])
    return out


"""A compact case's fields written even when empty: they differ from the run's (None: they do not)."""


def _case(r: CaseResult) -> dict[str, Any]:
    return {
        "case_id": r.case_id,
        "scenario_id": r.scenario_id,
        "requirement": r.requirement,
        "category": r.category,
        "sut": r.sut,
        "status": r.status.value,
        "stream": r.stream.value,
        "cleanup": r.cleanup.value,
        "unexpected": r.unexpected,
        "expected": dict(r.expected),
        "expected_reason": r.expected_reason,
        "duration_s": r.duration_s,
        "error": r.error,
        "reproduce": r.reproduce,
        "axes": dict(r.axes),
        "findings": [_finding(f) for f in r.findings],
        "timeline": list(r.timeline),
        **({"timeline_summary": r.timeline_summary} if r.timeline_summary is not None else {}),
        "repeats": list(r.repeats),
        "flaky": r.flaky,
        "alone": r.alone,
        **({"gate_wait_s": r.gate_wait_s} if r.gate_wait_s is not None else {}),
    }


def _finding(f: Finding) -> dict[str, Any]:
    """A finding; its expected, actual, evidence and data only where they hold something (a whole
    catalog's passing findings are mostly empty there: about a sixth of results.json)."""
    out: dict[str, Any] = {
        "check": f.check, "verdict": f.verdict.value, "axis": f.axis.value, "message": f.message,
    }  # fmt: skip
    optional = {
        "expected": f.expected, "actual": f.actual, "evidence": list(f.evidence), "data": _plain(f.data),
    }  # fmt: skip
    out.update((k, v) for k, v in optional.items() if v)
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, str | int | float | bool) or v is None:
        return v
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple | set | frozenset):
        return [_plain(x) for x in v]
    if isinstance(v, bytes):
        return v.decode(errors="replace")
    return repr(v)


def write_json(run: RunResult, path: str | Path) -> Path:
    """Write results.json (indented, UTF-8); returns the path."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(dumps(to_json(run)), encoding="utf-8")
    return p


def dumps(doc: dict[str, Any]) -> str:
    """``doc`` as results.json's text: indented, a compact case on one line of its own."""
    head = json.dumps({**doc, "results": []}, indent=1, ensure_ascii=False)
    cases = [
        "  " + json.dumps(c, ensure_ascii=False)
        if "checks" in c
        else "\n".join("  " + line for line in json.dumps(c, indent=1, ensure_ascii=False).split("\n"))
        for c in doc["results"]
    ]
    body = "[\n" + ",\n".join(cases) + "\n ]" if cases else "[]"
    return head[: head.rindex("[]")] + body + "\n}\n"


def load_results(path: str | Path) -> RunResult:
    """Read a results.json written by ``write_json``; ``ResultsError`` names the file and what is wrong."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResultsError(f"{p}: no such file (write one with `thinkwire run --report DIR`)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{p}: cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ResultsError(f"{p}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return from_json(data, source=str(p))


def from_json(data: Any, *, source: str = "<results>") -> RunResult:
    """Rebuild a RunResult from ``to_json`` output; ``ResultsError`` names the offending field."""
    if not isinstance(data, dict):
        raise ResultsError(f"{source}: expected a JSON object, got {type(data).__name__}")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise ResultsError(f"{source}: field 'format': expected {FORMAT!r}, got {fmt!r}")
    version = data.get("version")
    if version not in READS or isinstance(version, bool):
        known = ", ".join(str(v) for v in READS[:-1]) + f" and {READS[-1]}"
        raise ResultsError(
            f"{source}: field 'version': this thinkwire reads versions {known}, got {version!r}"
        )
    g = _Getter(source, version)
    results = g.typed(data, "results", list, "")
    shared = _Shared(
        g.typed(data, "sut", str, ""), g.typed(data, "reproduce", str, "", default=""), g.scenarios(data)
    )
    return RunResult(
        sut=g.typed(data, "sut", str, ""),
        strict=g.typed(data, "strict", bool, "", default=False),
        duration_s=float(g.typed(data, "duration_s", (int, float), "", default=0.0)),
        sut_error=g.typed(data, "sut_error", str, "", default=""),
        gate_timeout=g.typed(data, "gate_timeout", (int, float, type(None)), "", default=None),
        repeat=g.typed(data, "repeat", int, "", default=1),
        interrupted=g.typed(data, "interrupted", str, "", default=""),
        concurrency=g.typed(data, "concurrency", int, "", default=1),
        concurrency_note=g.typed(data, "concurrency_note", str, "", default=""),
        left_out=g.typed(data, "left_out", dict, "", default={}),
        warnings=g.typed(data, "warnings", list, "", default=[]),
        run_info=g.typed(data, "run_info", dict, "", default={}),
        results=[g.case(item, f"results[{i}]", shared) for i, item in enumerate(results)],
    )


_SUMMARY_ROW: dict[str, Any] = {
    "side": str,
    "act": str,
    "what": str,
    "turn": int,
    "n": int,
    "bytes": int,
    "first_ms": (int, float),
    "last_ms": (int, float),
}


def _renamed(d: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """``d`` with its key ``old`` spelled ``new``, in the same place."""
    return {new if k == old else k: v for k, v in d.items()} if old in d else d


def _entry_v5(e: Any) -> Any:
    """A timeline entry of version 4 or older as version 5 has it: its ``kind`` is ``act``, a Notice
    event's ``kind`` is ``code``. The renderers read only the new names."""
    if not isinstance(e, dict):
        return e
    e = _renamed(e, "kind", "act")
    event = e.get("event")
    if isinstance(event, dict) and event.get("type") == "Notice":
        e["event"] = _renamed(event, "kind", "code")
    return e


class _Getter:
    def __init__(self, source: str, version: int = VERSION) -> None:
        self.source = source
        self.old = version < 5
        """A version-4-or-older file: its timelines say ``kind`` for ``act`` (and for a Notice's ``code``)."""

    def fail(self, where: str, problem: str) -> ResultsError:
        return ResultsError(f"{self.source}: field {where!r}: {problem}")

    def typed(self, obj: dict[str, Any], key: str, types: Any, prefix: str, default: Any = ...) -> Any:
        where = f"{prefix}.{key}" if prefix else key
        if key not in obj:
            if default is ...:
                raise self.fail(where, "missing")
            return default
        value = obj[key]
        bad_bool = isinstance(value, bool) and types in ((int, float), int, float)
        if not isinstance(value, types) or bad_bool:
            name = types.__name__ if isinstance(types, type) else " or ".join(k.__name__ for k in types)
            raise self.fail(where, f"expected {name}, got {type(value).__name__} {value!r:.60}")
        return value

    def enum(self, obj: dict[str, Any], key: str, cls: Any, prefix: str, default: Any = ...) -> Any:
        raw = self.typed(obj, key, str, prefix, default=default.value if default is not ... else ...)
        try:
            return cls(raw)
        except ValueError:
            valid = ", ".join(m.value for m in cls)
            raise self.fail(f"{prefix}.{key}", f"unknown value {raw!r} (valid: {valid})") from None

    def case(self, item: Any, where: str, shared: _Shared) -> CaseResult:
        if not isinstance(item, dict):
            raise self.fail(where, f"expected an object, got {type(item).__name__}")
        if "checks" in item:
            return self.passed(item, where, shared)
        t = self.typed
        findings = t(item, "findings", list, where, default=[])
        timeline = t(item, "timeline", list, where, default=[])
        if self.old:
            timeline = [_entry_v5(e) for e in timeline]
        for i, e in enumerate(timeline):
            self.entry(e, f"{where}.timeline[{i}]")
        return CaseResult(
            case_id=t(item, "case_id", str, where),
            scenario_id=t(item, "scenario_id", str, where, default=""),
            findings=[self.finding(f, f"{where}.findings[{i}]") for i, f in enumerate(findings)],
            timeline=timeline,
            timeline_summary=self.summary(item, where),
            flaky=t(item, "flaky", bool, where, default=False),
            **self.fields(item, where),
        )

    def fields(
        self, item: dict[str, Any], where: str, *, requirement: str = "", category: str = "", sut: str = "",
        reproduce: str = "",
    ) -> dict[str, Any]:  # fmt: skip
        """What a whole case and a compact one read alike; a compact one leaves out what its run's is
        (the defaults given)."""
        t = self.typed
        return {
            "requirement": t(item, "requirement", str, where, default=requirement),
            "category": t(item, "category", str, where, default=category),
            "sut": t(item, "sut", str, where, default=sut),
            "status": self.enum(item, "status", Status, where, default=Status.OK),
            "stream": self.enum(item, "stream", Verdict, where, default=Verdict.PASS),
            "cleanup": self.enum(item, "cleanup", Verdict, where, default=Verdict.PASS),
            "unexpected": t(item, "unexpected", bool, where, default=False),
            "expected": {str(k): str(v) for k, v in t(item, "expected", dict, where, default={}).items()},
            "expected_reason": t(item, "expected_reason", str, where, default=""),
            "duration_s": float(t(item, "duration_s", (int, float), where, default=0.0)),
            "error": t(item, "error", str, where, default=""),
            "reproduce": t(item, "reproduce", str, where, default=reproduce),
            "axes": {str(k): str(v) for k, v in t(item, "axes", dict, where, default={}).items()},
            "repeats": [str(x) for x in t(item, "repeats", list, where, default=[])],
            "alone": t(item, "alone", str, where, default=""),
            "gate_wait_s": t(item, "gate_wait_s", (int, float, type(None)), where, default=None),
        }

    def scenarios(self, data: dict[str, Any]) -> dict[str, dict[str, str]]:
        """The run's ``scenarios`` (version 4): scenario id -> its requirement and category."""
        out: dict[str, dict[str, str]] = {}
        for sid, said in self.typed(data, "scenarios", dict, "", default={}).items():
            at = f"scenarios.{sid}"
            if not isinstance(said, dict):
                raise self.fail(at, f"expected an object, got {type(said).__name__}")
            out[sid] = {k: self.typed(said, k, str, at, default="") for k in ("requirement", "category")}
        return out

    def passed(self, item: dict[str, Any], where: str, shared: _Shared) -> CaseResult:
        """A compact case (version 4): what it leaves out is its run's, or the default."""
        t = self.typed
        case_id = t(item, "case_id", str, where)
        scenario_id = t(item, "scenario_id", str, where)
        known = shared.scenarios.get(scenario_id)
        if known is None and not {"requirement", "category"} <= item.keys():
            raise self.fail(f"{where}.scenario_id", f"{scenario_id!r} is not in the run's scenarios")
        known = known or {}
        findings = []
        for axis, key in ((Axis.STREAM, "checks"), (Axis.CLEANUP, "cleanup_checks")):
            findings += self.names(t(item, key, dict, where, default={}), axis, f"{where}.{key}")
        kept = t(item, "findings", list, where, default=[])
        findings += [self.finding(f, f"{where}.findings[{i}]") for i, f in enumerate(kept)]
        return CaseResult(
            case_id=case_id,
            scenario_id=scenario_id,
            findings=findings,
            **self.fields(
                item,
                where,
                requirement=known.get("requirement", ""),
                category=known.get("category", ""),
                sut=shared.sut,
                reproduce=reproduce_line(shared.reproduce, case_id),
            ),
        )

    def names(self, by_verdict: dict[str, Any], axis: Axis, where: str) -> list[Finding]:
        """``{"PASS": [check, ...], "N/A": [...]}``: a finding per name, with its verdict and axis."""
        out = []
        for word in (v.value for v in QUIET):
            names = self.typed(by_verdict, word, list, where, default=[])
            for i, name in enumerate(names):
                if not isinstance(name, str) or not name:
                    raise self.fail(f"{where}.{word}[{i}]", f"expected a check name, got {name!r}")
                out.append(Finding(name, Verdict(word), axis))
        unknown = sorted(set(by_verdict) - {v.value for v in QUIET})
        if unknown:
            raise self.fail(f"{where}.{unknown[0]}", "only PASS and N/A checks are kept as names")
        return out

    def entry(self, e: Any, where: str) -> None:
        """A timeline entry as ``serialize_timeline`` writes it: the fields every renderer reads are
        checked here, so a bad value is one line naming it, not a traceback from a renderer."""
        if not isinstance(e, dict):
            raise self.fail(where, f"expected an object, got {type(e).__name__}")
        self.typed(e, "t_ms", (int, float), where)
        self.typed(e, "side", str, where)
        self.typed(e, "act", str, where)
        self.typed(e, "turn", int, where, default=0)
        for key in ("event", "info"):
            self.typed(e, key, dict, where, default=None)
        for key in ("text", "base64"):
            self.typed(e, key, str, where, default=None)

    def summary(self, item: dict[str, Any], where: str) -> dict[str, Any] | None:
        """``timeline_summary`` as ``summarise_timeline`` writes it (absent: None)."""
        summary: dict[str, Any] | None = self.typed(item, "timeline_summary", dict, where, default=None)
        if summary is None:
            return None
        at = f"{where}.timeline_summary"
        self.typed(summary, "entries", int, at)
        self.typed(summary, "duration_ms", (int, float), at)
        rows = self.typed(summary, "rows", list, at)
        if self.old:
            rows = [_renamed(r, "kind", "act") if isinstance(r, dict) else r for r in rows]
            summary = {**summary, "rows": rows}
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise self.fail(f"{at}.rows[{i}]", f"expected an object, got {type(row).__name__}")
            for key, types in _SUMMARY_ROW.items():
                self.typed(row, key, types, f"{at}.rows[{i}]")
        return summary

    def finding(self, item: Any, where: str) -> Finding:
        if not isinstance(item, dict):
            raise self.fail(where, f"expected an object, got {type(item).__name__}")
        t = self.typed
        evidence = t(item, "evidence", list, where, default=[])
        for i, e in enumerate(evidence):
            if not isinstance(e, int) or isinstance(e, bool):
                raise self.fail(f"{where}.evidence[{i}]", f"expected an integer, got {e!r}")
        return Finding(
            check=t(item, "check", str, where),
            verdict=self.enum(item, "verdict", Verdict, where),
            axis=self.enum(item, "axis", Axis, where, default=Axis.STREAM),
            message=t(item, "message", str, where, default=""),
            expected=t(item, "expected", str, where, default=""),
            actual=t(item, "actual", str, where, default=""),
            evidence=tuple(evidence),
            data=t(item, "data", dict, where, default={}),
        )
