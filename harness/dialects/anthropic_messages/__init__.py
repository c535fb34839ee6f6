"""The Anthropic Messages dialect, first party and on Vertex: the variant table and ``DIALECT`` in
``_dialect``, the stream both ways in ``_wire``, the provider rules in ``_rules``. Bedrock's InvokeModel
path reuses this wire instead of keeping a copy of it."""

from harness.dialects.anthropic_messages._dialect import DIALECT, AnthropicMessagesDialect, signed_only

__all__ = ["DIALECT", "AnthropicMessagesDialect", "signed_only"]
