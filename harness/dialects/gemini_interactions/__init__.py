"""Google's Gemini Interactions API, in beta. ``_dialect`` holds the variants and ``DIALECT``; the wire is
``_wire``'s and the strict provider rules are ``_rules``'."""

from harness.dialects.gemini_interactions._dialect import DIALECT, InteractionsDialect

__all__ = ["DIALECT", "InteractionsDialect"]
