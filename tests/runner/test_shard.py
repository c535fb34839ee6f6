"""``--shard I/N``: the split is stable, covers the selection exactly once, is balanced, keeps parity
twins together, and bad input is one line (exit 2)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from harness._errors import FlagError
from harness.cli import main
from harness.runner import RunOptions, load_cases
from harness.runner._shard import Shard, load_durations, parse_shard, split, stable_hash


@pytest.fixture(scope="module")
def catalog() -> list:  # type: ignore[type-arg]
    return load_cases()


@pytest.mark.parametrize("n", [2, 3, 7])
def test_the_shares_of_the_whole_catalog_are_a_partition_and_balanced(catalog: list, n: int) -> None:  # type: ignore[type-arg]
    shares = [split(catalog, Shard(i, n)) for i in range(1, n + 1)]
    ids = [c.id for share in shares for c in share]
    assert Counter(ids) == Counter(c.id for c in catalog)  # every case once: union is the set, no overlap
    sizes = [len(s) for s in shares]
    assert max(sizes) - min(sizes) <= 2, sizes  # parity twins travel together: a unit is at most 2 cases
    for share in shares:  # in the selection's order
        mine = {c.id for c in share}
        assert [c.id for c in share] == [c.id for c in catalog if c.id in mine]


def test_parity_twins_share_a_shard(catalog: list) -> None:  # type: ignore[type-arg]
    where = {c.id: i for i in (1, 2, 3) for c in split(catalog, Shard(i, 3))}
    twins = [c for c in catalog if c.scenario.parity and not c.stream]
    assert twins
    for c in twins:
        assert where[c.id] == where[c.with_stream(True).id], c.id
    assert len({where[c.id] for c in twins}) > 1  # ...yet not all in one shard


def test_the_split_is_a_spread_not_a_slice(catalog: list) -> None:  # type: ignore[type-arg]
    """Each shard holds cases from the whole catalog: from its first and last quarter, and from every
    category big enough that a spread cannot miss it (20 cases or more: the chance a stable hash puts
    none of them in one of three shards is under 1 in 2,000). A small category, such as cleanup's 4
    cases, may sit in two shards only."""
    order = {c.id: i for i, c in enumerate(catalog)}
    sizes = Counter(c.scenario.category for c in catalog)
    big = {cat for cat, n in sizes.items() if n >= 20}
    assert len(big) >= 5
    for i in (1, 2, 3):
        shard = split(catalog, Shard(i, 3))
        at = sorted(order[c.id] for c in shard)
        assert at[0] < len(catalog) // 4, (i, at[0])
        assert at[-1] > 3 * len(catalog) // 4, (i, at[-1])
        assert big <= {c.scenario.category for c in shard}, i


def test_the_split_is_the_same_in_another_process(catalog: list) -> None:  # type: ignore[type-arg]
    """Python's str hash is salted per process: a split that used it would differ between machines."""
    # the same catalog in both processes: the corpus cases come from $THINKWIRE_CORPUS when it is set
    corpus = {k: v for k, v in os.environ.items() if k == "THINKWIRE_CORPUS"}
    code = (
        "from harness.runner import load_cases\n"
        "from harness.runner._shard import Shard, split\n"
        "print('\\n'.join(c.id for c in split(load_cases(), Shard(2, 3))))\n"
    )
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
        env={"PYTHONHASHSEED": "12345", "PATH": "", **corpus},
    )
    assert other.stdout.split("\n")[:-1] == [c.id for c in split(catalog, Shard(2, 3))]
    assert stable_hash("a") == 0xCA978112CA1BBDCA  # sha256("a")'s first 8 bytes: fixed forever


def test_durations_balance_the_time_not_the_count(catalog: list) -> None:  # type: ignore[type-arg]
    cases = catalog[:60]
    slow = {c.id: (10.0 if k < 6 else 0.1) for k, c in enumerate(cases)}
    shares = [split(cases, Shard(i, 3), durations=slow) for i in (1, 2, 3)]
    times = [sum(slow[c.id] for c in s) for s in shares]
    assert max(times) - min(times) <= 10.0 + 0.2, times
    assert [sum(slow[c.id] == 10.0 for c in s) for s in shares] == [2, 2, 2]  # the slow ones spread
    assert sorted(c.id for s in shares for c in s) == sorted(slow)
    by_count = [split(cases, Shard(i, 3)) for i in (1, 2, 3)]
    assert [len(s) for s in by_count] == [20, 20, 20]


def test_cases_the_sut_does_not_claim_even_out_the_counts(catalog: list) -> None:  # type: ignore[type-arg]
    cases = catalog[:30]
    unclaimed = {c.id for c in cases[:9]}
    shares = [split(cases, Shard(i, 3), claimed=lambda c: c.id not in unclaimed) for i in (1, 2, 3)]
    assert not any(c.scenario.parity for c in cases)  # (units of one case each)
    assert [len(s) for s in shares] == [10, 10, 10]
    assert sorted(c.id for s in shares for c in s) == sorted(c.id for c in cases)
    assert [sum(c.id in unclaimed for c in s) for s in shares] != [9, 0, 0]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0/3", "--shard: share 0 of 3 does not exist: I must be 1..N, got '0/3'"),
        ("4/3", "--shard: share 4 of 3 does not exist: I must be 1..N, got '4/3'"),
        ("x", "--shard: expected I/N (share I of N, 1 <= I <= N), got 'x' (e.g. --shard 1/3)"),
        ("1/0", "--shard: share 1 of 0 does not exist: I must be 1..N, got '1/0'"),
    ],
)
def test_bad_shards_are_one_line_exit_2(value: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(FlagError, match="^" + re.escape(message) + "$"):
        parse_shard("--shard", value)
    assert main(["run", "-q", "--cases", "timing/*", "--shard", value]) == 2
    err = capsys.readouterr().err
    assert err == f"thinkwire: error: {message}\n"
    assert RunOptions(shard="2/3").shard == Shard(2, 3)


def test_bad_durations_are_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "results.json"
    bad.write_text(json.dumps({"results": [{"case_id": "a"}]}))
    with pytest.raises(FlagError, match=r"field 'results\[0\]': needs a case_id and a duration_s$"):
        load_durations("--durations", bad)
    argv = ["run", "-q", "--cases", "timing/*", "--shard", "1/2"]
    assert main([*argv, "--durations", str(tmp_path / "no")]) == 2
    assert "--durations: " in capsys.readouterr().err
    assert main(["run", "-q", "--cases", "timing/*", "--durations", str(bad)]) == 2
    assert capsys.readouterr().err == (
        "thinkwire: error: --durations: balances shards, so it needs --shard I/N (e.g. --shard 1/3)\n"
    )
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"results": [{"case_id": "a", "duration_s": 1.5}]}))
    assert load_durations("--durations", good) == {"a": 1.5}
