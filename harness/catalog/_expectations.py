"""Per-SUT expectations, WPT-style: case id or glob to expected verdicts, with a reason or link, so a CI gate
can adopt the suite step by step. ``write_expectations`` regenerates one from a run.

File format (TOML)::

    [cases."openai-chat/tools/passback[openai-chat:reasoning_content/frames]"]
    stream = "FAIL"
    reason = "we drop reasoning_content on tool turns: issue #12"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness._errors import ProfileError, closest
from harness._fields import Field, Invalid, check_fields, load_toml, shown
from harness.verdict import CaseResult, Status, Verdict, is_failure

__all__ = ["Expectation", "Expectations", "load_expectations", "write_expectations"]


@dataclass(frozen=True, slots=True)
class Expectation:
    stream: str | None = None
    cleanup: str | None = None
    status: str | None = None
    reason: str = ""


class Expectations:
    def __init__(self, entries: Mapping[str, Expectation] | None = None, source: str = "") -> None:
        self.entries = dict(entries or {})
        self.source = source

    def lookup(self, case_id: str, scenario_id: str) -> Expectation | None:
        if case_id in self.entries:
            return self.entries[case_id]
        from harness.catalog._case import _glob

        for pattern, exp in self.entries.items():
            rx = _glob(pattern)
            if rx.fullmatch(case_id) or rx.fullmatch(scenario_id):
                return exp
        return None

    def apply(self, result: CaseResult, *, strict: bool) -> None:
        exp = self.lookup(result.case_id, result.scenario_id)
        if exp is None:
            result.unexpected = result.fails(strict)
            return
        result.expected = {
            k: v for k, v in (("stream", exp.stream), ("cleanup", exp.cleanup), ("status", exp.status)) if v
        }
        result.expected_reason = exp.reason
        mismatch = False
        if result.status != Status.OK:
            mismatch = exp.status != result.status.value
        else:
            for axis, actual in (("stream", result.stream), ("cleanup", result.cleanup)):
                want = result.expected.get(axis)
                if want is not None:
                    mismatch |= actual.value != want and is_failure(actual, strict)
                else:
                    mismatch |= is_failure(actual, strict)
        result.unexpected = mismatch


def _verdict(key: str, value: Any) -> None:
    valid = [v.value for v in Verdict] + [s.value for s in Status]
    if value not in valid:
        raise Invalid(f"unknown verdict {value!r}", closest(str(value), valid))


_FIELDS: dict[str, Field] = {
    "stream": Field(str, rule=_verdict),
    "cleanup": Field(str, rule=_verdict),
    "status": Field(str, rule=_verdict),
    "reason": Field(str),
    "link": Field(str),
}


def load_expectations(path: Path) -> Expectations:
    data = load_toml(path, ProfileError)
    extra = [k for k in data if k != "cases"]
    if extra:
        raise ProfileError(str(path), extra[0], "unknown top-level table", 'put entries under [cases."<id>"]')
    entries: dict[str, Expectation] = {}
    for key, table in data.get("cases", {}).items():
        where = f"cases.{key}"
        if not isinstance(table, dict):
            raise ProfileError(str(path), where, f"expected a table, got {shown(table)}")

        def err(fld: str, problem: str, hint: str = "", where: str = where) -> ProfileError:
            return ProfileError(str(path), f"{where}.{fld}", problem, hint)

        check_fields(table, _FIELDS, err)
        entries[key] = Expectation(
            table.get("stream"),
            table.get("cleanup"),
            table.get("status"),
            str(table.get("reason", table.get("link", ""))),
        )
    return Expectations(entries, str(path))


def write_expectations(results: Iterable[CaseResult], path: Path) -> int:
    """Record every non-passing case of a run as expected (``update-expectations``). Returns the count."""
    lines = ["# thinkwire expectations: known results of this SUT, keyed by case id.", ""]
    n = 0
    for r in results:
        if not r.fails(strict=True):  # (written for a strict run too: NON_STRICT is recorded)
            continue
        n += 1
        lines.append(f'[cases."{r.case_id}"]')
        if r.status != Status.OK:
            lines.append(f'status = "{r.status.value}"')
        else:
            lines.append(f'stream = "{r.stream.value}"')
            lines.append(f'cleanup = "{r.cleanup.value}"')
        reason = "; ".join(f"{f.check}: {f.message}" for f in r.failing())[:200].replace('"', "'")
        lines.append(f'reason = "{reason or r.error[:200]}"'.replace("\n", " "))
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return n
