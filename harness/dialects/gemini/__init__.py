"""Google's Gemini API, generateContent and streamGenerateContent. ``_dialect`` holds the variant table and
``DIALECT``; the wire, the replayed contents and the provider rules have a module each."""

from harness.dialects.gemini._dialect import DIALECT, GeminiDialect

__all__ = ["DIALECT", "GeminiDialect"]
