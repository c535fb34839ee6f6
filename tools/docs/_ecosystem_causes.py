"""Reviewed causes of the ecosystem FAILs that issue 40's cases brought (and of a LiteLLM leak they made
visible), each with the source line of the installed package; ``_ecosystem_results`` maps them onto case
globs in its KNOWN table.

Rule: data only, every line checked in the pinned version before it is written here.
"""

from __future__ import annotations

__all__ = [
    "DEEPSEEK_EMPTY",
    "EMPTY_DS",
    "LITELLM_RESPONSES_CLOSE",
    "PYDANTIC_EMPTY",
    "RESPONSES_CANCEL",
]

EMPTY_DS = ("tools-passback/deepseek-empty-reasoning*",)
"""DeepSeek V4's tool-call turn with an empty reasoning_content (the key must still go back)."""

DEEPSEEK_EMPTY = (
    "langchain-deepseek 1.1.1 never writes reasoning_content back: its _get_request_payload "
    "(langchain_deepseek/chat_models.py:350-383) keeps the messages langchain-openai makes, whose "
    "assistant branch copies content, tool_calls and function_call only (langchain_openai/"
    "chat_models/base.py:492); DeepSeek V4 needs the key on the tool-call turn even when the "
    "reasoning is empty (400)"
)

PYDANTIC_EMPTY = (
    "pydantic-ai 2.68.0's OpenAIChatModel (with the generic OpenAIProvider, this profile's, as for every "
    "chat case here) makes no ThinkingPart of an empty reasoning_content (pydantic_ai/models/openai/"
    "_chat_model.py:748 'if not reasoning: continue', streaming _chat_streaming.py:257), and its 'auto' "
    "send-back backfills only a field some mapped assistant message already carries (_chat_model.py:"
    "1178-1193; the 'field' backfill of :1151-1174 needs a profile's openai_chat_thinking_field): the "
    "tool-call turn goes back without reasoning_content and DeepSeek V4 answers 400 (its DeepSeekProvider "
    "sets that field, providers/deepseek.py:62-70, for the model names it knows)"
)

RESPONSES_CANCEL = (
    "errors-cancellation/client-cancel[[]anthropic-messages:*",
    "errors-cancellation/cancel-then-continue[[]anthropic-messages:*",
)
"""A client cancel on litellm.responses() over Anthropic (fnmatch: "[[]" is a literal "[")."""

LITELLM_RESPONSES_CLOSE = (
    "litellm.responses() bridges a provider without a Responses API (here Anthropic) to chat and "
    "returns a LiteLLMCompletionStreamingIterator (litellm 1.108.7 responses/"
    "litellm_completion_transformation/handler.py:111 and 157), which defines no close() (streaming_"
    "iterator.py:107; nor does its base, responses/streaming_iterator.py): a caller that stops reading "
    "cannot close the chat stream it wraps (litellm_custom_stream_wrapper, :122), and the upstream "
    "response stays open after the cancel"
)
