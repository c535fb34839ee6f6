"""Amazon Bedrock: the Converse API and InvokeModel, both over the AWS event stream. ``_dialect`` holds the
variant table and ``DIALECT``; the request codec, the wire and the provider rules have a module each."""

from harness.dialects.bedrock_converse._dialect import DIALECT, BedrockDialect

__all__ = ["DIALECT", "BedrockDialect"]
