"""SUT adapters for the official Python SDKs and the frameworks that wrappers are built on, used by the kind
``python`` profiles in ``profiles/``. Each adapter lets the SDK do the HTTP and the SSE parsing, which is
what is under test, and only maps the SDK's typed events onto canonical events. SDKs are imported lazily."""

from __future__ import annotations

from harness.sdks._anthropic import anthropic_messages
from harness.sdks._openai import openai_chat, openai_responses

__all__ = ["anthropic_messages", "openai_chat", "openai_responses"]
