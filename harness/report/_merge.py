"""``thinkwire merge DIR... --report OUT``: the shards of one ``run --shard I/N`` joined into the report an
unsharded run would have written. A merge never guesses, so it refuses any set of shards that is not
exactly one run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness.report._json import ResultsError
from harness.runner import RunResult
from harness.verdict import CaseResult

__all__ = ["JUNIT", "merge_shards"]

JUNIT = "junit.xml"
"""The JUnit XML file ``merge`` writes into the report dir."""


def merge_shards(shards: Sequence[tuple[str, RunResult]]) -> RunResult:
    """(label, result) of every shard of one run -> one RunResult; raises ResultsError (one line: which
    shard or case, and why) when they are not all the shards of one run, each complete.

    Refused, one line each with exit 2: shards whose ``run_info`` differs other than in ``shard``, a shard
    missing or given twice, a case missing from its shard or present in two. Otherwise the merged results
    are the shards' own, in the selection's order, rendered by ``write_reports`` and ``write_junit`` as
    ``run --report`` renders them.
    """
    if not shards:
        raise ResultsError("no shard given")
    infos = [(label, _shard_info(label, r)) for label, r in shards]
    first_label, first = shards[0]
    for label, r in shards[1:]:
        where = _first_difference(_without_shard(first.run_info), _without_shard(r.run_info))
        if where is not None:
            key, a, b = where
            raise ResultsError(
                f"{label}: run_info differs from {first_label}'s at {key}: {b!r} vs {a!r} "
                "(shards of one run need the same thinkwire, cases, SUT and settings)"
            )
    total = infos[0][1]["total"]
    _check_indices(infos, total)
    by_id = _check_cases(shards, infos)
    return _joined(shards, by_id, total)


def _shard_info(label: str, r: RunResult) -> dict[str, Any]:
    info = r.run_info.get("shard") if r.run_info else None
    if not isinstance(info, dict):
        raise ResultsError(f"{label}: not a shard (its run_info has no shard: run it with --shard I/N)")
    return info


def _without_shard(info: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in info.items() if k != "shard"}


def _first_difference(a: Any, b: Any, path: str = "run_info") -> tuple[str, Any, Any] | None:
    """The first dotted key where ``a`` and ``b`` differ, with both values (None when equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            found = _first_difference(a.get(k), b.get(k), f"{path}.{k}")
            if found is not None:
                return found
        return None
    return None if a == b else (path, a, b)


def _check_indices(infos: Sequence[tuple[str, dict[str, Any]]], total: int) -> None:
    seen: dict[int, str] = {}
    for label, info in infos:
        if info["total"] != total:
            raise ResultsError(
                f"{label}: shard {info['index']}/{info['total']}, but {infos[0][0]} is one of {total}"
            )
        if info["index"] in seen:
            raise ResultsError(f"duplicate shard {info['index']}/{total}: {seen[info['index']]} and {label}")
        seen[info["index"]] = label
    missing = [f"{i}/{total}" for i in range(1, total + 1) if i not in seen]
    if missing:
        raise ResultsError(f"missing shard(s) {', '.join(missing)} (given: {len(seen)} of {total})")


def _check_cases(
    shards: Sequence[tuple[str, RunResult]], infos: Sequence[tuple[str, dict[str, Any]]]
) -> dict[str, CaseResult]:
    """Every shard's results are exactly its share, no case in two; returns the results by case id."""
    by_id: dict[str, CaseResult] = {}
    owner: dict[str, str] = {}
    for (label, r), (_, info) in zip(shards, infos, strict=True):
        share = info["cases"]
        for c in r.results:
            if c.case_id in owner:
                raise ResultsError(f"duplicate case {c.case_id}: in {owner[c.case_id]} and in {label}")
            if c.case_id not in share:
                raise ResultsError(f"{label}: case {c.case_id} is not in its shard's share")
            owner[c.case_id], by_id[c.case_id] = label, c
        absent = [cid for cid in share if cid not in by_id]
        if absent:
            why = f" (interrupted by {r.interrupted})" if r.interrupted else ""
            raise ResultsError(
                f"{label}: {len(absent)} of its {len(share)} case(s) missing{why}, e.g. {absent[0]}"
            )
    selected = shards[0][1].run_info.get("cases")
    if isinstance(selected, int) and selected != len(by_id):
        raise ResultsError(f"missing cases: the shards hold {len(by_id)} of the {selected} selected")
    return by_id


def _joined(shards: Sequence[tuple[str, RunResult]], by_id: dict[str, CaseResult], total: int) -> RunResult:
    runs = [r for _, r in shards]
    place = {cid: pos for r in runs for cid, pos in r.run_info["shard"]["cases"].items()}
    gates = [r.gate_timeout for r in runs if r.gate_timeout is not None]
    first = runs[0]
    return RunResult(
        sut=first.sut,
        results=sorted(by_id.values(), key=lambda c: place[c.case_id]),
        strict=first.strict,
        duration_s=max(r.duration_s for r in runs),  # the shards ran side by side
        sut_error=next((r.sut_error for r in runs if r.sut_error), ""),
        gate_timeout=max(gates) if gates else None,
        repeat=first.repeat,
        interrupted=next((r.interrupted for r in runs if r.interrupted), ""),
        concurrency=max(r.concurrency for r in runs),
        concurrency_note=next((r.concurrency_note for r in runs if r.concurrency_note), ""),
        left_out=dict(first.left_out),  # scoped before the split: every shard says the same
        warnings=list(first.warnings),
        run_info={**first.run_info, "shard": None, "merged": total},
    )
