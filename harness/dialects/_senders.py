"""Who sends what: for every wire variant, the providers and servers whose answers take that form, the
request field that turns it on, and where it is documented. The facts live in each variant's row
(``Variant.senders``); this module is the view the claims, the catalog and the generated page read."""

from __future__ import annotations

from harness.dialects._registry import all_variants, find_variant
from harness.dialects._variant import Senders

# ``providers`` are names of ``_providers.PROVIDERS``: what a profile's ``providers = [...]`` claims, so a
# SUT claiming none of a variant's providers is not judged on it. tools/docs/_senders_page.py renders
# the page, and a test keeps every row's senders known providers.
__all__ = ["Senders", "senders_of"]  # and SENDERS, the whole view (module __getattr__)


def senders_of(dialect: str, variant: str) -> Senders:
    """Who sends ``dialect:variant`` (no one known: an empty row)."""
    row = find_variant(dialect, variant)
    return Senders(()) if row is None else row.senders


def __getattr__(name: str) -> dict[tuple[str, str], Senders]:
    """``SENDERS``: (dialect, variant) -> who sends it, a view of the rows built when asked."""
    if name == "SENDERS":
        return {(v.dialect, v.name): v.senders for v in all_variants()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
