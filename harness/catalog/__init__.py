"""The catalog: scenario files, the cases they expand into, and the expectations a user holds them to.

A new scenario is a TOML file under ``scenarios/``; this package reads it (``_scenario*``), expands its
axes into cases (``_case``), and loads, selects and promotes them (``_catalog``, ``_promote``).
"""

from harness.catalog._case import Case, expand, expand_all, select
from harness.catalog._catalog import load_catalog
from harness.catalog._expectations import Expectation, Expectations, load_expectations, write_expectations
from harness.catalog._scenario import CATEGORIES, Scenario, TurnSpec, catalog_dir, load_scenario

__all__ = [
    "CATEGORIES",
    "Case",
    "Expectation",
    "Expectations",
    "Scenario",
    "TurnSpec",
    "catalog_dir",
    "expand",
    "expand_all",
    "load_catalog",
    "load_expectations",
    "load_scenario",
    "select",
    "write_expectations",
]
