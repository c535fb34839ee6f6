"""``run_info``: what a run was, written into results.json so that shards of one run can be told from shards
of two. Only what decides verdicts or names the run goes in."""

from __future__ import annotations

import hashlib
import importlib.metadata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.catalog import Case
from harness.drivers import SUTProfile
from harness.runner._options import ResolvedSUT, RunOptions
from harness.runner._shard import Shard

__all__ = ["catalog_hash", "run_info", "sut_version", "thinkwire_version"]


def run_info(
    selected: Sequence[Case], opts: RunOptions, sut: ResolvedSUT, shard: Shard | None, mine: Sequence[Case]
) -> dict[str, Any]:
    """The run's ``run_info``: ``selected`` are the cases before the shard was taken, ``mine`` the
    shard's own (in run order; their ids and places in ``selected`` let a merge restore the order).

    What only changes speed, such as ``concurrency`` and ``--durations``, or the machine, such as paths and
    times, stays out. Two machines running the same selection against the same SUT with the same settings
    then write equal ``run_info`` apart from ``shard``. A mock upstream at a fixed address
    (``--upstream-listen``) is there as ``upstream``: where it listened and the URL the SUT was told.
    """
    profile = sut.profile
    place = {c.id: i for i, c in enumerate(selected)}
    address = sut.address
    fixed = {} if address is None else {"upstream": address.info()}  # (absent: a free port, as before)
    return {
        "thinkwire": thinkwire_version(),
        "catalog": catalog_hash(selected),
        "cases": len(selected),
        "sut": {"name": profile.name, "kind": profile.kind, "version": sut_version(profile)},
        "options": {
            "strict": opts.strict,
            "faults": sorted(profile.faults),
            "timeout": profile.timeout,
            "gate_timeout": profile.gate_timeout,
            "max_bytes": profile.max_bytes,
            "preflight": opts.preflight,
            "repeat": opts.repeat,
            "expectations": _expectations_hash(sut),
        },
        "shard": None
        if shard is None
        else {"index": shard.index, "total": shard.total, "cases": {c.id: place[c.id] for c in mine}},
        **fixed,
    }


def catalog_hash(cases: Sequence[Case]) -> str:
    """sha256 over the cases' ids (sorted) and the bytes of each of their scenario files (by scenario
    id; a scenario built in Python, without a file, counts by its id and requirement)."""
    h = hashlib.sha256()
    for cid in sorted(c.id for c in cases):
        h.update(b"case\0" + cid.encode() + b"\0")
    scenarios = {c.scenario.id: c.scenario for c in cases}
    for sid in sorted(scenarios):
        s = scenarios[sid]
        try:
            body = Path(s.path).read_bytes() if s.path else s.requirement.encode()
        except OSError:
            body = s.requirement.encode()
        h.update(b"scenario\0" + sid.encode() + b"\0" + hashlib.sha256(body).digest())
    return "sha256:" + h.hexdigest()


def thinkwire_version() -> str:
    """This thinkwire's version, as installed ("unknown" when run from a tree that was not)."""
    try:
        return importlib.metadata.version("thinkwire")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def sut_version(profile: SUTProfile) -> str | None:
    """The SUT's version when thinkwire can know it: a built-in reference SUT is thinkwire's own; a
    Python callable's is its distribution's (``module:attr``); otherwise None."""
    origin = profile.origin
    if origin is not None and origin.form == "builtin":
        return thinkwire_version()
    target = profile.callable or (origin.value if origin is not None and origin.form == "callable" else "")
    top = target.split(":", 1)[0].split(".", 1)[0] if target else ""
    if not top:
        return None
    dists = importlib.metadata.packages_distributions().get(top, [])
    for dist in dists:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def _expectations_hash(sut: ResolvedSUT) -> str | None:
    """What the expectations say (not where the file is), hashed; None when there are none."""
    entries = sut.expectations.entries
    if not entries:
        return None
    text = "\n".join(f"{k}\0{entries[k]!r}" for k in sorted(entries))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
