"""``--shard i/N``: one machine's share of a run's cases, the same split computed on every machine. The split
is a pure function of the selected cases, N and optional durations, never of Python's salted ``hash()``,
the machine or the clock."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any

from harness._errors import FlagError
from harness.catalog import Case

__all__ = ["Shard", "load_durations", "parse_shard", "split", "stable_hash"]

_FORM = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True, slots=True)
class Shard:
    """Share ``index`` (1-based) of ``total``."""

    index: int
    total: int

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"


def parse_shard(flag: str, value: Any) -> Shard | None:
    """``"2/3"`` (or a Shard, or None) -> Shard; anything else a one-line FlagError naming ``flag``."""
    if value is None or isinstance(value, Shard):
        return value
    m = _FORM.match(value) if isinstance(value, str) else None
    if m is None:
        raise FlagError(f"{flag}: expected I/N (share I of N, 1 <= I <= N), got {value!r} (e.g. {flag} 1/3)")
    index, total = int(m[1]), int(m[2])
    if total < 1 or not 1 <= index <= total:
        raise FlagError(f"{flag}: share {index} of {total} does not exist: I must be 1..N, got {value!r}")
    return Shard(index, total)


def load_durations(flag: str, value: Any) -> Mapping[str, float] | None:
    """A results.json's case durations (``{case id: seconds}``), or a mapping as given; a file that
    cannot be read is a one-line FlagError naming the file and the field."""
    if value is None or isinstance(value, Mapping):
        return value
    path = Path(value)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FlagError(f"{flag}: {path}: no such file (give a results.json of an earlier run)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FlagError(f"{flag}: {path}: cannot read it as JSON: {exc}") from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise FlagError(f"{flag}: {path}: field 'results': missing (is it a thinkwire results.json?)")
    out: dict[str, float] = {}
    for i, r in enumerate(results):
        cid = r.get("case_id") if isinstance(r, dict) else None
        seconds = r.get("duration_s") if isinstance(r, dict) else None
        if not isinstance(cid, str) or not isinstance(seconds, int | float) or isinstance(seconds, bool):
            raise FlagError(f"{flag}: {path}: field 'results[{i}]': needs a case_id and a duration_s")
        out[cid] = float(seconds)
    return out


def stable_hash(text: str) -> int:
    """The same integer for the same text on every machine and in every process."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _unit_key(case: Case) -> str:
    """Cases with the same key go to the same shard: a parity scenario's stream and non-stream twins."""
    return case.with_stream(True).id if case.scenario.parity else case.id


def split(
    cases: Sequence[Case],
    shard: Shard,
    *,
    durations: Mapping[str, float] | None = None,
    claimed: Callable[[Case], bool] | None = None,
) -> list[Case]:
    """The cases of ``shard``, in their order in ``cases``. Without ``durations`` every case weighs 1
    and units are taken in the order of a stable hash of their key (a spread of the catalog, not a
    slice of it); with them, a unit weighs its cases' earlier seconds (a case not in the file: the
    median of those that are) and ties go by key. Cases ``claimed`` says the SUT does not claim
    (judged at once, without the SUT) are placed after the rest, by count, onto the bins holding the
    fewest cases: they take no SUT time, so they must not skew the balance of the others.

    The cases are those left after ``--cases`` and the SUT's claims, and durations come from a previous run
    with ``--durations results.json``. Cases a stream/non-stream parity check compares go together, since
    it compares two cases of one round. Units are placed greedily, heaviest first, into the lightest bin.
    """
    if shard.total == 1:
        return list(cases)
    is_claimed = claimed or (lambda _c: True)
    judged = [c for c in cases if is_claimed(c)]
    bins = _bins(judged, [0.0] * shard.total, durations)
    counts = [float(len(b)) for b in bins]  # the rest take no SUT time: they even out the case counts
    rest = _bins([c for c in cases if not is_claimed(c)], counts, None)
    mine = bins[shard.index - 1] | rest[shard.index - 1]
    return [c for c in cases if c.id in mine]


def _bins(cases: Sequence[Case], loads: list[float], durations: Mapping[str, float] | None) -> list[set[str]]:
    """The cases' units placed, heaviest first, each into the bin with the least load (``loads``:
    what each bin holds already; updated), ties to the lower bin; returns each bin's case ids."""
    n = len(loads)
    units: dict[str, list[str]] = {}
    for c in cases:
        units.setdefault(_unit_key(c), []).append(c.id)
    known = [durations[cid] for cid in (c.id for c in cases) if durations and cid in durations]
    fallback = median(known) if known else 1.0

    def weight(ids: list[str]) -> float:
        if durations is None:
            return float(len(ids))
        return sum(durations.get(cid, fallback) for cid in ids)

    if durations is None:
        order = sorted(units, key=lambda k: (-weight(units[k]), stable_hash(k), k))
    else:
        order = sorted(units, key=lambda k: (-weight(units[k]), k))
    bins: list[set[str]] = [set() for _ in range(n)]
    for key in order:
        lightest = min(range(n), key=lambda b: (loads[b], b))
        loads[lightest] += weight(units[key])
        bins[lightest].update(units[key])
    return bins
