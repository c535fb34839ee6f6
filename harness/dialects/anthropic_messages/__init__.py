"""The Anthropic Messages dialect (first party and Vertex). ``_dialect`` holds the variant table
and the DIALECT; the stream both ways is ``_wire``'s, the provider rules ``_rules``'s. Bedrock's
InvokeModel path reuses the wire."""

from harness.dialects.anthropic_messages._dialect import DIALECT, AnthropicMessagesDialect, signed_only

__all__ = ["DIALECT", "AnthropicMessagesDialect", "signed_only"]
