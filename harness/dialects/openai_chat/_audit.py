"""The problems of a Chat Completions ``messages[]`` as openai-python types it,
``ChatCompletionMessageParam``: an assistant message with neither content nor tool calls, tool-call
arguments that are not a string, a tool message that answers no preceding ``tool_calls``, and tool calls
left unanswered. The problems are provider-neutral and live apart from the rules; each provider's wording
table says which it rejects."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["DEEPSEEK_WORDS", "OPENAI_WORDS", "ROLES", "ChatProblem", "Wording", "messages_problem"]

ROLES = frozenset({"developer", "system", "user", "assistant", "tool", "function"})
"""The ``role`` literals of openai-python's ``ChatCompletionMessageParam`` members (tests compare)."""


@dataclass(frozen=True, slots=True)
class ChatProblem:
    """One problem of ``messages``: the rule, the message index it is about, what the provider's
    wording needs (the path of the bad value, the unanswered ids, the bad value's JSON type) and the
    finding's difference ``(field, actual, expected)``."""

    rule: str
    index: int
    path: str
    difference: tuple[str, Any, Any]
    ids: tuple[str, ...] = ()
    got: str = ""


@dataclass(frozen=True, slots=True)
class Wording:
    """A provider's error object for one problem: ``message`` and ``param`` are format strings over
    ``index``, ``path``, ``ids`` (joined ``, ``) and ``got``; ``code`` as the provider sends it."""

    message: str
    param: str | None
    code: str | None

    def render(self, p: ChatProblem) -> tuple[str, str | None]:
        fields = {"index": p.index, "path": p.path, "ids": ", ".join(p.ids), "got": p.got}
        return self.message.format(**fields), None if self.param is None else self.param.format(**fields)


OPENAI_WORDS: dict[str, Wording] = {
    # "Invalid value for 'content': expected a string, got null." param messages.[N].content, code null
    # (reported verbatim: openai/openai-cookbook#503, run-llama/llama_index#17921, langchainjs#4153).
    "chat/assistant-without-content": Wording(
        "Invalid value for 'content': expected a string, got null.", "messages.[{index}].content", None
    ),
    # code invalid_type, param the path (reported verbatim for an object: aaif-goose/goose-mobile#20; the
    # article before another JSON type is (guess)).
    "chat/arguments-not-string": Wording(
        "Invalid type for '{path}': expected a string, but got {got} instead.", "{path}", "invalid_type"
    ),
    # The "preceeding" typo is OpenAI's (reported verbatim: TheR1D/shell_gpt#717, symgraph/GhidrAssist#45);
    # its param is (guess), in the style of the content error.
    "chat/tool-without-call": Wording(
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
        "'tool_calls'.",
        "messages.[{index}].role",
        None,
    ),
    # (reported verbatim: BloomLabsInc/genkit-plugins#225, agno-agi/agno#4345); param and the id
    # separator are (guess).
    "chat/unanswered-tool-calls": Wording(
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        "'tool_call_id'. The following tool_call_ids did not have response messages: {ids}",
        "messages.[{index}].role",
        None,
    ),
}
"""OpenAI's own words, in its error object (``type`` ``invalid_request_error``)."""

DEEPSEEK_WORDS: dict[str, Wording] = {
    # (reported verbatim, V3 to V4: FoundationAgents/OpenManus#23, qwersyk/Newelle#425)
    "chat/tool-without-call": Wording(
        "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
        None,
        "invalid_request_error",
    ),
    # (reported verbatim: TurixAI/TuriX-CUA#15, BigPizzaV3/CodexPlusPlus#308, gptme/gptme#3421)
    "chat/unanswered-tool-calls": Wording(
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        "'tool_call_id'. (insufficient tool messages following tool_calls message)",
        None,
        "invalid_request_error",
    ),
}
"""DeepSeek's words, in its error envelope (``param`` null, ``code`` ``invalid_request_error``); its
answers to the schema problems are not documented: accepted."""


def _json_type(value: Any) -> str:
    types = ((Mapping, "an object"), (list, "an array"), (bool, "a boolean"), (int | float, "a number"))
    return next((word for t, word in types if isinstance(value, t)), "")


def _schema(messages: Sequence[Any]) -> ChatProblem | None:
    """The per-message problems the SDK's types make (before any sequence rule)."""
    for i, m in enumerate(messages):
        if not isinstance(m, Mapping) or m.get("role") != "assistant":
            continue
        calls = m.get("tool_calls")
        if m.get("content") is None and not calls and not m.get("function_call") and not m.get("audio"):
            # ChatCompletionAssistantMessageParam: content "Required unless tool_calls or function_call
            # is specified" (openai/types/chat/chat_completion_assistant_message_param.py)
            diff = (f"messages[{i}].content", None, "a string, or tool_calls")
            return ChatProblem("chat/assistant-without-content", i, f"messages[{i}].content", diff)
        for j, c in enumerate(calls if isinstance(calls, list) else ()):
            fn = c.get("function") if isinstance(c, Mapping) else None
            args = fn.get("arguments") if isinstance(fn, Mapping) else ""
            got = _json_type(args)
            if got:  # Function.arguments: Required[str]; null stays lenient (undocumented)
                path = f"messages[{i}].tool_calls[{j}].function.arguments"
                return ChatProblem(
                    "chat/arguments-not-string", i, path, (path, args, "a JSON string"), got=got
                )
    return None


def _call_ids(m: Mapping[str, Any]) -> list[str]:
    calls = m.get("tool_calls")
    return [str(c.get("id")) for c in calls if isinstance(c, Mapping)] if isinstance(calls, list) else []


def _sequence(messages: Sequence[Any]) -> ChatProblem | None:
    """Every tool message answers the assistant ``tool_calls`` right before its run of tool messages;
    every call of that assistant message is answered in the run."""
    i = 0
    while i < len(messages):
        m = messages[i]
        role = _role(m)
        if role == "tool":
            diff = (f"messages[{i}].role", "tool", "an assistant message with tool_calls before it")
            return ChatProblem("chat/tool-without-call", i, f"messages[{i}].role", diff)
        at, ids = i, (_call_ids(m) if role == "assistant" and isinstance(m, Mapping) else [])
        i += 1
        answered: set[str] = set()
        while ids and i < len(messages) and _role(messages[i]) == "tool":
            answered.add(str(messages[i].get("tool_call_id")))
            i += 1
        missing = tuple(c for c in ids if c not in answered)
        if missing:
            gap: tuple[str, Any, Any] = (f"messages[{at}].tool_calls", list(missing), "an answer to each")
            return ChatProblem("chat/unanswered-tool-calls", at, f"messages[{at}].role", gap, ids=missing)
    return None


def _role(m: Any) -> Any:
    return m.get("role") if isinstance(m, Mapping) else None


def messages_problem(messages: Sequence[Any]) -> ChatProblem | None:
    """The first problem of ``messages``: the schema's, then the tool-call sequence's.

    A provider rejects a problem only where its 400 is documented or reported verbatim: its wording table
    has the entry, with the source. A problem without an entry is accepted, so the mock never refuses what
    the real API takes. Unknown roles, and a ``tool_call_id`` that names no call while every call is
    answered, are such problems: OpenAI's messages for them are not documented.
    """
    return _schema(messages) or _sequence(messages)
