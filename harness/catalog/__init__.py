"""The catalog: scenario files, the cases they expand into, and the expectations a user holds them to. It
decides what could be run, before anything runs; the run and the judging live in other packages. A new
scenario is a TOML file under ``scenarios/``."""

from typing import TYPE_CHECKING

from harness._lazy import lazy_names
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

# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.catalog._catalog import corpus_left_out, left_out
    from harness.catalog._claims import (
        judged_claims,
        left_out_reason,
        observed_parses,
        relayed_gates,
        scope,
        setting_warnings,
    )
    from harness.catalog._promote import promote
    from harness.catalog._scenario_expect import expect_findings
    from harness.catalog._serve_catalog import scenario_conversation, serve_catalog

_SHARED = {
    "corpus_left_out": "_catalog",
    "expect_findings": "_scenario_expect",
    "left_out": "_catalog",
    "judged_claims": "_claims",
    "left_out_reason": "_claims",
    "observed_parses": "_claims",
    "promote": "_promote",
    "relayed_gates": "_claims",
    "scenario_conversation": "_serve_catalog",
    "scope": "_claims",
    "serve_catalog": "_serve_catalog",
    "setting_warnings": "_claims",
}
__all__ += [
    "corpus_left_out",
    "expect_findings",
    "judged_claims",
    "left_out",
    "left_out_reason",
    "observed_parses",
    "promote",
    "relayed_gates",
    "scenario_conversation",
    "scope",
    "serve_catalog",
    "setting_warnings",
]
__getattr__ = lazy_names(__name__, _SHARED)
