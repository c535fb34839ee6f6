"""The OpenAI Responses dialect, over SSE here and over a WebSocket in ``websocket``. ``_dialect`` holds the
variant table and ``DIALECT``; the emitter, the observer, the input items and the provider rules have a
module each."""

from harness.dialects.openai_responses._dialect import DIALECT, VARIANTS, OpenAIResponsesDialect

__all__ = ["DIALECT", "VARIANTS", "OpenAIResponsesDialect"]
