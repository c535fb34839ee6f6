"""Cohere's v2 chat API. ``_dialect`` holds the variant table and ``DIALECT``; the stream both ways is
``_wire``'s."""

from harness.dialects.cohere._dialect import DIALECT, CohereDialect

__all__ = ["DIALECT", "CohereDialect"]
