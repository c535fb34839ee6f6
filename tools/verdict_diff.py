"""Diff the verdicts of two sets of thinkwire results, case by case, so a refactor can prove it changed no
verdict. Each argument is a results.json or a report directory holding one."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def load(path: Path) -> dict[str, dict[str, str]]:
    """Case id -> {"status": ..., "stream": ..., "cleanup": ..., "check:<name>": verdict}."""
    file = path / "results.json" if path.is_dir() else path
    try:
        data: dict[str, Any] = json.loads(file.read_text())
    except (OSError, ValueError) as exc:
        raise SystemExit(f"verdict_diff: {file}: cannot read results: {exc}") from None
    cases: dict[str, dict[str, str]] = {}
    for result in data.get("results", []):
        row = {"status": result["status"], "stream": result["stream"], "cleanup": result["cleanup"]}
        for finding in result.get("findings", []):
            row[f"check:{finding['check']}"] = finding["verdict"]
        for key in ("checks", "cleanup_checks"):  # a passing case in version 4: names by verdict
            for verdict, names in result.get(key, {}).items():
                row.update((f"check:{name}", verdict) for name in names)
        cases[result["case_id"]] = row
    return cases


def diff(before: dict[str, dict[str, str]], after: dict[str, dict[str, str]]) -> list[str]:
    lines: list[str] = []
    for case in sorted(before.keys() | after.keys()):
        if case not in after:
            lines.append(f"{case}: only before")
            continue
        if case not in before:
            lines.append(f"{case}: only after")
            continue
        a, b = before[case], after[case]
        for key in sorted(a.keys() | b.keys()):
            if a.get(key) != b.get(key):
                lines.append(f"{case}: {key} {a.get(key, '-')} -> {b.get(key, '-')}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """For every case present in either set it compares the status, both axes and every check's verdict. It
    prints one line per difference and exits 1 when there is any, 0 when the verdicts are identical."""
    parser = argparse.ArgumentParser(prog="python -m tools.verdict_diff", description=__doc__)
    parser.add_argument("before", nargs="+", type=Path, help="results.json files or report dirs")
    parser.add_argument("--after", nargs="+", type=Path, required=True, help="the same, after the change")
    args = parser.parse_args(argv)
    if len(args.before) != len(args.after):
        parser.error("give as many --after sets as before sets")
    total = 0
    for before, after in zip(args.before, args.after, strict=True):
        a, b = load(before), load(after)
        lines = diff(a, b)
        for line in lines:
            print(line)
        print(f"{before} -> {after}: {len(a)} / {len(b)} cases, {len(lines)} difference(s)")
        total += len(lines)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
