"""The catalog as a pytest module, for ``thinkwire run -j N`` (pytest-xdist spreads scenarios over
workers). One test per scenario, so that parity pairs stay in one ``run()``; each worker pickles its
results into ``THINKWIRE_RESULTS_DIR`` and the controller merges them into one report."""

from __future__ import annotations

import os
import pickle
import uuid
from pathlib import Path
from typing import Any

import pytest

__all__: list[str] = []


def _scenario_ids() -> list[str]:
    from harness.suite import load_cases

    patterns = [p for p in os.environ.get("THINKWIRE_CASES", "").split("\n") if p]
    seen: dict[str, None] = {}
    for case in load_cases(patterns or None):
        seen.setdefault(case.scenario.id, None)
    return list(seen)


@pytest.fixture(scope="session")
def sut_pool() -> Any:
    """One SUT per worker, kept alive across scenarios (stopped at the end of the worker)."""
    pool: dict[str, Any] = {}
    yield pool
    for driver in pool.values():
        driver.stop()


@pytest.mark.parametrize("scenario_id", _scenario_ids())
def test_scenario(scenario_id: str, thinkwire_upstream: Any, sut_pool: Any) -> None:
    from harness.suite import load_cases, run

    patterns = [p for p in os.environ.get("THINKWIRE_CASES", "").split("\n") if p]
    cases = [c for c in load_cases(patterns or None) if c.scenario.id == scenario_id]
    sut = os.environ.get("THINKWIRE_SUT") or None
    faults = [f for f in os.environ.get("THINKWIRE_FAULTS", "").split(",") if f]
    result = run(
        cases,
        sut=sut,
        faults=faults,
        strict=os.environ.get("THINKWIRE_STRICT") == "1",
        expectations=os.environ.get("THINKWIRE_EXPECTATIONS") or None,
        upstream=thinkwire_upstream,
        drivers=sut_pool,
        timeout=float(os.environ["THINKWIRE_TIMEOUT"]) if os.environ.get("THINKWIRE_TIMEOUT") else None,
    )
    out = Path(os.environ["THINKWIRE_RESULTS_DIR"]) / f"{uuid.uuid4().hex}.pickle"
    out.write_bytes(pickle.dumps(result))
