"""The OpenAI Chat Completions dialect and the many servers that speak it: DeepSeek, OpenRouter, vLLM,
Gemini's and Azure's compatible endpoints and more. ``_variants`` holds the variant rows, ``_dialect``
``DIALECT``; the wire, the reasoning reader, the request history and the provider rules have a module each."""

from harness.dialects.openai_chat._dialect import DIALECT, OpenAIChatDialect

__all__ = ["DIALECT", "OpenAIChatDialect"]
