"""The reviewed causes of the agent loops' findings in docs/agent-frameworks.md, each naming the source line
of the installed package. It is data only, read by :mod:`tools.docs._ecosystem_results`."""

from __future__ import annotations

__all__ = [
    "DEEPSEEK_PASSBACK",
    "LANGCHAIN_SIGNATURE",
    "LANGGRAPH_CANCEL",
    "LC_ALIAS_SUMMARY",
    "LC_CONTENT",
    "PYDANTIC_SPLIT",
    "PYDANTIC_STREAM_TAGS",
    "PY_BOM",
    "PY_CUT",
    "PY_CUT_RESPONSES",
    "PY_EVENT_ONLY",
]

# The loops are pydantic-ai's ``Agent`` and LangGraph's ReAct agent over ``ChatDeepSeek`` and over
# ``ChatOpenAI`` on the Responses API; openai 3.63.0 is the Python SDK all three run over. A text says what
# the package does and where, by package, version and file:line. Which cases it explains is the globs
# beside it in ``_ecosystem_results.KNOWN``.
PY_BOM = (
    "the openai SDK's SSEDecoder keeps a leading UTF-8 BOM (openai 3.63.0 _streaming.py:391-435): the "
    "first line's field name is '\\ufeffdata', a field it ignores (:435), so the first event is lost"
)
PY_EVENT_ONLY = (
    "the openai SDK's SSEDecoder dispatches a data-less 'event: ping' block with data '' (openai 3.63.0 "
    "_streaming.py:395 skips only a block with neither event nor data) and Stream.__stream__ parses it "
    "(sse.json(), :95 sync, :216 async; json.loads('') at :300): a JSONDecodeError ends the stream"
)
PY_CUT = (
    "a stream cut before its [DONE] looks complete: the openai SDK's Stream.__stream__ leaves its loop "
    "at EOF and raises nothing (openai 3.63.0 _streaming.py:71 sync, :187 async)"
)
PYDANTIC_STREAM_TAGS = (
    "pydantic-ai 2.68.0 opens a ThinkingPart in streamed content only when a content delta is exactly "
    "'<think>' ('a single token', pydantic_ai/_parts_manager.py:228; the end tag likewise, :214): a "
    "<think> sent with other text in one chunk, or split over chunks, stays in the answer text (the "
    "non-streamed path splits it: _thinking_part.py:13)"
)
PYDANTIC_SPLIT = (
    "pydantic-ai 2.68.0's non-streamed OpenAIChatModel splits every <think>...</think> out of content "
    "wherever it stands (map_chat_content, pydantic_ai/models/openai/_citations.py:182 -> "
    "_thinking_part.py:22-37): a tag pair inside the answer becomes reasoning, beside the reasoning_content "
    "the message also has"
)
DEEPSEEK_PASSBACK = (
    "langchain-deepseek 1.1.1 reads reasoning_content into the AIMessage's additional_kwargs "
    "(langchain_deepseek/chat_models.py:406-409, streaming :448-455) but never writes it back: its "
    "_get_request_payload (:350-383) keeps the messages langchain-openai's _convert_message_to_dict "
    "makes, whose assistant branch (langchain_openai/chat_models/base.py:492) copies content, tool_calls "
    "and function_call only. The graph's tool-call continuation goes out without it (DeepSeek and Kimi "
    "answer 400)"
)
LANGCHAIN_SIGNATURE = (
    "the tool call's extra_content.google.thought_signature (Gemini's OpenAI-compatible endpoint) never "
    "comes back: langchain-openai, which ChatDeepSeek builds on, writes each tool call back as type, id, "
    "name and arguments only (_lc_tool_call_to_openai_tool_call, langchain_openai/chat_models/base.py:"
    "4303-4311; 'extra_content' occurs in neither package), so Gemini answers 400 missing signature"
)
LANGGRAPH_CANCEL = (
    "LangGraph 1.2.24's sync stream() runs the model node on a BackgroundExecutor whose exit cancels "
    "only tasks not yet started and waits for the running ones (langgraph/pregel/_executor.py:101-115): "
    "when the client goes away the running model node reads the upstream to its end"
)
LC_CONTENT = (
    "reasoning_text in a reasoning item's content[] never reaches the client. Streamed: langchain-openai "
    "1.8.1's Responses chunk converter has branches for response.reasoning_summary_part.added and "
    "response.reasoning_summary_text.delta only (langchain_openai/chat_models/base.py:5717, :5733) and "
    "returns None for response.reasoning_text.delta and the Open Responses response.reasoning.delta "
    "(:5747-5748). Non-streamed: langchain-core 1.8.3 makes reasoning blocks from summary[] only and "
    "moves content[] into extras (langchain_core/messages/block_translators/openai.py:618-657)"
)
LC_ALIAS_SUMMARY = (
    "streamed, the Open Responses event response.reasoning_summary.delta is not one langchain-openai "
    "1.8.1's Responses chunk converter reads (it reads response.reasoning_summary_text.delta, "
    "langchain_openai/chat_models/base.py:5733; other events return None at :5747-5748): the summary "
    "never reaches the client (non-streamed it does)"
)
PY_CUT_RESPONSES = (
    "a stream cut before response.completed looks complete: the openai SDK's Stream.__stream__ leaves "
    "its loop at EOF and raises nothing (openai 3.63.0 _streaming.py:71 sync, :187 async), and nothing "
    "above it asks for the terminal event"
)
