"""The "who sends what" page is generated from the senders table and is current; every variant has a
row, and every provider it names is one a profile can claim."""

from __future__ import annotations

from pathlib import Path

from harness.dialects import all_variants
from harness.dialects._providers import provider_names
from harness.dialects._senders import SENDERS
from tools.docs._senders_page import render

PAGE = Path(__file__).resolve().parents[2] / "docs" / "who-sends-what.md"


def test_the_page_is_current() -> None:
    assert PAGE.read_text(encoding="utf-8") == render(), (
        "run: python -m tools.docs._senders_page docs/who-sends-what.md"
    )


def test_every_variant_has_a_row_and_only_known_providers() -> None:
    variants = {(v.dialect, v.name) for v in all_variants()}
    assert variants == set(SENDERS)
    known = set(provider_names())
    for key, row in SENDERS.items():
        assert set(row.providers) <= known, key
        assert row.docs.startswith("https://") or not row.providers, key
