"""Google's Gemini Interactions API (beta). ``_dialect`` holds the variants and the DIALECT; the wire is
``_wire``'s, the strict provider rules ``_rules``'."""

from harness.dialects.gemini_interactions._dialect import DIALECT, InteractionsDialect

__all__ = ["DIALECT", "InteractionsDialect"]
