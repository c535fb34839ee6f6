"""``nox -s ecosystem``: run the catalog against each real gateway and framework wrapper, write each profile's
expectations file and docs/ecosystem-results.md. Whatever the package does is the result, and a FAIL is
recorded only after review."""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from tools.docs import _agent_causes as _agents
from tools.docs import _ecosystem_causes as _causes

__all__ = ["KNOWN", "NODE_PACKAGES", "PACKAGES", "main"]

# The packages: LiteLLM proxy and SDK, langchain-openai, langchain-deepseek, pydantic-ai, the agent loops
# of pydantic-ai's ``Agent`` and LangGraph's ReAct agent, and through the adapter protocol the Vercel AI
# SDK and the official openai and Anthropic Node SDKs, pinned here and in :data:`NODE_PACKAGES`.
PACKAGES: tuple[tuple[str, str], ...] = (
    ("litellm-proxy", "litellm[proxy]==1.108.7"),
    ("litellm-sdk-completion", "litellm==1.108.7"),
    ("litellm-sdk-responses", "litellm==1.108.7"),
    ("langchain-openai-chat", "langchain-openai==1.8.1"),
    ("langchain-openai-responses", "langchain-openai==1.8.1"),
    ("langchain-deepseek", "langchain-deepseek==1.1.1"),
    ("pydantic-ai-openai-chat", "pydantic-ai-slim[openai]==2.68.0"),
    ("pydantic-ai-openai-responses", "pydantic-ai-slim[openai]==2.68.0"),
    ("pydantic-ai-anthropic", "pydantic-ai-slim[anthropic]==2.68.0"),
    ("pydantic-ai-agent-openai-chat", "pydantic-ai-slim[openai]==2.68.0"),
    ("langgraph-react-deepseek", "langgraph==1.2.24 langchain-deepseek==1.1.1"),
    ("langgraph-react-openai-responses", "langgraph==1.2.24 langchain-openai==1.8.1"),
    ("node-ai-sdk", "npm:ai@6.0.325"),
    ("node-openai-chat", "npm:openai@6.30.1"),
    ("node-anthropic", "npm:@anthropic-ai/sdk@0.137.0"),
)
"""(profile, pinned requirements): what ``nox -s ecosystem`` installs and runs (``npm:``: a Node package,
installed with :data:`NODE_PACKAGES` into the directory ``THINKWIRE_NODE_MODULES`` names; several
requirements: separated by a space, the package under test first)."""

NODE_PACKAGES = (
    "ai@6.0.325",
    "@ai-sdk/openai-compatible@2.0.92",
    "@ai-sdk/deepseek@2.0.69",
    "@ai-sdk/anthropic@3.0.140",
    "@ai-sdk/openai@3.0.141",
    "@ai-sdk/google@3.0.141",
    "openai@6.30.1",
    "@anthropic-ai/sdk@0.137.0",
)
"""The Node packages of the adapters in ``adapters/node`` (the newest releases that run on Node 20: ai 7
and openai 7 need Node 22)."""

_MODULE = {"litellm": "litellm", "langchain": "langchain_openai", "pydantic": "pydantic_ai"}
_RT = ("*[openai-responses:reasoning_text*", "*[openai-responses:vllm-parts*")
_THINK = ("*[openai-chat:think-tags/*", "*[openai-chat:think-split/*")
_BRIDGE = (
    "LiteLLM's Responses->Chat bridge drops Responses reasoning_text (the reasoning never reaches the "
    "chat client)"
)
_LEAK = (
    "the streaming path leaves a leading <think>...</think> inside content (the non-streaming path splits it)"
)
_MM = "tools-passback/minimax-interleaved-thinking[[]"  # (fnmatch: "[[]" is a literal "[")
_DETAILS_ROWS = (
    "tools-passback/openrouter-detail-fragments*",
    "tools-passback/openrouter-server-tool-call*",
    "tools-passback/openrouter-signature-only*",
    "tools-passback/openrouter-openai-encrypted*",
    "tools-passback/openrouter-gemini-signature*",
    "tools-passback/vllm-reasoning-field*",
)
_LITELLM_FIELDS = (
    "LiteLLM 1.108.7 keeps neither reasoning_details nor 'reasoning' on the message it returns: "
    "non-streaming, fields its Message lacks go into provider_specific_fields "
    "(litellm_core_utils/llm_response_utils/convert_dict_to_response.py:788-789) and 'reasoning' becomes "
    "reasoning_content (litellm_core_utils/prompt_templates/common_utils.py:2230-2231); streaming, "
    "delta.reasoning becomes reasoning_content (llms/openrouter/chat/transformation.py:279) and "
    "stream_chunk_builder rebuilds reasoning_content only (litellm_core_utils/"
    "streaming_chunk_builder_utils.py:1565-1570). What goes back is reasoning_content (and "
    "provider_specific_fields as one nested key), so OpenRouter never gets its reasoning_details "
    "(signatures: its 400; server-tool records) and vLLM never the 'reasoning' field it reads"
)
_MD = ("*[[]openai-chat:minimax-details/*",)
"""MiniMax's reasoning_split: reasoning only in reasoning_details text entries, no string field."""
_LITELLM_MINIMAX = (
    "LiteLLM 1.108.7 never reads reasoning_details (the string occurs nowhere in the package): its "
    "minimax provider is the generic OpenAI config (llms/minimax/chat/transformation.py:13), whose "
    "stream mapping renames delta.reasoning only (llms/openai/chat/gpt_transformation.py:929-932) and "
    "whose message reading takes reasoning_content, reasoning or <think> tags in content "
    "(litellm_core_utils/prompt_templates/common_utils.py:2228-2233); non-streamed, reasoning_details "
    "lands in provider_specific_fields (convert_dict_to_response.py:788-789). MiniMax's split reasoning "
    "never reaches the client and never goes back"
)
_LITELLM_SPLIT = (
    "LiteLLM 1.108.7 splits MiniMax's <think>...</think> out of a non-streamed content into "
    "reasoning_content (litellm_core_utils/prompt_templates/common_utils.py:2232-2233, "
    "parse_content_for_reasoning) and sends it back in reasoning_content: the block MiniMax needs kept "
    "in content byte for byte never comes back"
)
_LITELLM_PHASE = (
    "LiteLLM 1.108.7's chat-to-Responses bridge has no 'phase': it reads none from the output message "
    "and writes an assistant message item of type, role and content only "
    "(completion_extras/litellm_responses_transformation/transformation.py:994-1001), so the "
    "commentary phase of gpt-5.3-codex is lost on the next turn"
)
_LITELLM_INCLUDE = (
    "LiteLLM 1.108.7's chat-to-Responses bridge replays a reasoning item without its id and relies on "
    "its encrypted_content (completion_extras/litellm_responses_transformation/transformation.py:"
    "733-745: 'the Responses API ... verifies the encrypted content on its own'), but the request it "
    "builds never asks for that content (transformation.py:1048-1085 maps the chat fields; no "
    "include[reasoning.encrypted_content] unless the client sends Responses' own include): the real API "
    "then sends reasoning items without encrypted_content and the tool turn's reasoning comes back as "
    "an id-less summary the API cannot use (seen since the mock answers by the request: the request-forms "
    "row openai-responses/encrypted-content)"
)
_RESPONSES_LOOP = tuple(
    f"tools-passback/{s}[openai-responses:*"
    for s in (
        "responses-reasoning-item", "responses-encrypted-content", "xai-encrypted-reasoning",
        "invalid-tool-input",
    )
)  # fmt: skip
_LITELLM_PASSBACK = (
    ((f"{_MM}openai-chat:think-tags/frames/nonstream]",), _LITELLM_SPLIT, ""),
    (_DETAILS_ROWS, _LITELLM_FIELDS, ""),
    (("tools-passback/responses-phase*",), _LITELLM_PHASE + "; and " + _LITELLM_INCLUDE, ""),
    (_RESPONSES_LOOP, _LITELLM_INCLUDE, ""),
    (_MD, _LITELLM_MINIMAX, "https://github.com/BerriAI/litellm/issues/31890"),
)
_OPENAI_COMPATIBLE = (
    "@ai-sdk/openai-compatible 2.0.92 reads reasoning from reasoning_content or reasoning only "
    "(dist/index.js:613, streaming :847: reasoning_details is not in its schemas) and writes an "
    "assistant message's reasoning back as reasoning_content only (dist/index.js:271): OpenRouter's "
    "reasoning_details (signatures: its 400; server-tool records) and the 'reasoning' field vLLM reads "
    "never come back (OpenRouter's own @openrouter/ai-sdk-provider is not this profile's package)"
)
_AI_SDK_MINIMAX = (
    "@ai-sdk/openai-compatible 2.0.92 reads reasoning from reasoning_content or reasoning only "
    "(dist/index.js:613, streaming :847; reasoning_details occurs nowhere in it): MiniMax's split "
    "reasoning (reasoning_details only) never reaches the client and never goes back"
)
_AI_SDK_TAGS = (
    "extractReasoningMiddleware (ai 6.0.325) takes MiniMax's <think>...</think> out of content into a "
    "reasoning part, and @ai-sdk/openai-compatible 2.0.92 sends that part back as reasoning_content "
    "(dist/index.js:271): the block MiniMax needs kept in content byte for byte never comes back"
)
_PYDANTIC_FIELDS = (
    "pydantic-ai 2.68.0's OpenAIChatModel reads reasoning from 'reasoning' or 'reasoning_content' only "
    "(pydantic_ai/models/openai/_chat_model.py:744, streaming _chat_streaming.py:253) and sends the "
    "ThinkingPart back in the field it came from: reasoning_details (OpenRouter's signatures: its 400; "
    "server-tool records) never comes back (its OpenRouterModel reads them: not this profile's class)"
)
_PYDANTIC_MINIMAX = (
    "pydantic-ai 2.68.0's OpenAIChatModel reads reasoning from 'reasoning' or 'reasoning_content' only "
    "(pydantic_ai/models/openai/_chat_model.py:744, streaming _chat_streaming.py:253; neither file "
    "mentions reasoning_details): MiniMax's split reasoning never reaches the user and never goes back"
)
_PYDANTIC_TAGS = (
    "pydantic-ai 2.68.0 re-renders a ThinkingPart read from <think> tags as "
    "'\\n'.join([start_tag, content, end_tag]) (pydantic_ai/_thinking_part.py:75) and joins it to the "
    "text with '\\n\\n' (models/openai/_chat_model.py:1007): MiniMax's block comes back with newlines "
    "it never sent, not byte for byte"
)
_OPENAI_NODE_ASSIGN = (
    "the openai Node SDK's stream accumulator Object.assign()s a delta's untyped fields onto the message "
    "(openai 6.30.1 lib/ChatCompletionStream.js:292-294): reasoning_details is replaced by each chunk's "
    "value, never accumulated, and OpenRouter's later chunks carry reasoning_details: [] (recorded: "
    "the corpus file openrouter-reasoning-stream.jsonl), so finalChatCompletion() gives back "
    "reasoning_details: [] (non-streaming passes: the message goes back as it came)"
)
# A FAIL caused by thinkwire, such as a carrier it cannot speak, a request field it cannot send, a cold
# start or an adapter bug, is fixed in thinkwire, never recorded. A package's documented scope is a
# profile's ``unsupported_variants`` with the reason beside it, never an expectation. Known upstream bugs
# here name the bug and, where one exists, its report.
KNOWN: dict[str, tuple[tuple[tuple[str, ...], str, str], ...]] = {
    "litellm-proxy": (*_LITELLM_PASSBACK, (_RT, _BRIDGE, ""), (_THINK, "LiteLLM: " + _LEAK, "")),
    "litellm-sdk-completion": (*_LITELLM_PASSBACK, (_RT, _BRIDGE, ""), (_THINK, "LiteLLM: " + _LEAK, "")),
    "langchain-deepseek": (
        (
            _causes.EMPTY_DS,
            _causes.DEEPSEEK_EMPTY,
            "",
        ),
        (
            ("tools-passback/*[openai-chat:reasoning_content*",),
            "langchain-deepseek never sends reasoning_content back on the tool-call "
            "turn (DeepSeek answers 400)",
            "",
        ),
    ),
    "langchain-openai-responses": (
        (_RT, "langchain-openai with the Responses API drops reasoning_text deltas", ""),
    ),
    "pydantic-ai-openai-responses": (
        (_RT, "pydantic-ai's ThinkingPart is empty for Responses reasoning_text", ""),
    ),
    "pydantic-ai-openai-chat": (
        (_causes.EMPTY_DS, _causes.PYDANTIC_EMPTY, ""),
        ((f"{_MM}openai-chat:think-tags/frames/nonstream]",), _PYDANTIC_TAGS, ""),
        (_DETAILS_ROWS, _PYDANTIC_FIELDS, ""),
        (_MD, _PYDANTIC_MINIMAX, ""),
        (_THINK, "pydantic-ai OpenAIChatModel: " + _LEAK, ""),
    ),
    "node-ai-sdk": (
        ((f"{_MM}openai-chat:think-tags/*",), _AI_SDK_TAGS, ""),
        (_DETAILS_ROWS, _OPENAI_COMPATIBLE, ""),
        (_MD, _AI_SDK_MINIMAX, ""),
        (
            _RT,
            "@ai-sdk/openai's Responses model reads reasoning summaries only: response.reasoning_text.* "
            "events and a reasoning item's content[] are not in its chunk and item schemas "
            "(@ai-sdk/openai dist/index.js: reasoning_summary_* handlers only; the reasoning item is "
            "{id, encrypted_content, summary}), so raw reasoning text never reaches the client",
            "",
        ),
        (
            ("tools-passback/deepseek-three-turns*",),
            "@ai-sdk/deepseek drops the reasoning of every assistant message before the last user message "
            "unless the model id is a V4 one (convert-to-deepseek-chat-messages: index <= "
            "lastUserMessageIndex && !isDeepSeekV4): under deepseek-reasoner (V3.2) the tool-call turn's "
            "reasoning_content is gone on the next user turn and DeepSeek answers 400",
            "",
        ),
        (
            ("errors-cancellation/mid-stream-error[openai-chat:reasoning_content*",),
            "@ai-sdk/deepseek misses an error on a chunk that also has choices (OpenRouter's mid-stream "
            "error shape, which the mock sends): its chunk union tries the chunk object first, which strips "
            "the top-level error, and finish_reason 'error' maps to 'other' (mapDeepSeekFinishReason): a "
            "clean end (@ai-sdk/openai-compatible checks 'error' in the chunk and passes)",
            "",
        ),
        (
            ("sse-framing/unterminated*",),
            "a stream cut before its terminator looks complete: @ai-sdk/provider-utils parseJsonEventStream "
            "never checks that [DONE] / message_stop / response.completed arrived and each provider's "
            "flush() enqueues a finish part",
            "",
        ),
    ),
    "node-openai-chat": (
        (
            ("tools-passback/openrouter-*/frames]",),
            _OPENAI_NODE_ASSIGN,
            "",
        ),
        (
            ("sse-framing/perturbations*event-only]",),
            "the openai Node SDK's SSEDecoder dispatches a data-less 'event: ping' block with data '' "
            "(openai/core/streaming.js decode: only a block with neither event nor data is skipped) and "
            "JSON.parse('') throws 'Unexpected end of JSON input' (the Python SDK does the same)",
            "",
        ),
        (
            ("sse-framing/unterminated*",),
            "a stream cut before its [DONE] looks complete: the openai Node SDK's Stream iterator ends at "
            "EOF and raises nothing (openai/core/streaming.js)",
            "",
        ),
    ),
    "langchain-openai-chat": (
        (
            ("*",),
            "ChatOpenAI reads OpenAI's own fields only (documented): reasoning in third-party fields never "
            "reaches its users, and reasoning_content is not passed back",
            "",
        ),
    ),
}
"""Reviewed findings per profile: (case-id globs, what the package does wrong, upstream report or "")."""

_ALIASES = ("*[openai-responses:alias-*",)
_ALIAS = "Open Responses vendor event names (response.reasoning.delta) are not read (as by the openai SDK)"
_BOM = (
    "the provider stream is parsed by the openai SDK's SSE decoder, which keeps a leading UTF-8 BOM: the "
    "first event is lost (see docs/sdk-results.md)"
)
_CUT = "a stream cut before its terminator looks complete (the openai SDK's decoder raises nothing at EOF)"
for _name in (
    "litellm-proxy",
    "litellm-sdk-completion",
    "litellm-sdk-responses",
    "langchain-openai-responses",
    "pydantic-ai-openai-responses",
    "node-ai-sdk",
):
    KNOWN[_name] = (*KNOWN.get(_name, ()), (_ALIASES, _ALIAS, ""))
for _name in ("litellm-proxy", "litellm-sdk-completion", "langchain-deepseek", "pydantic-ai-openai-chat"):
    KNOWN[_name] = (
        *KNOWN.get(_name, ()),
        (("sse-framing/bom*",), _BOM, ""),
        (("sse-framing/unterminated*",), _CUT, ""),
    )


# In-band markup (<mm:think>, harmony channels, <thought>) is judged as reasoning only where a profile's
# ``parses`` claims it (issue 45): each profile now says what it parses, and the markup it relays verbatim
# passes. What still fails on Gemini's OpenAI-compatible variant is the tool call's thought signature.
_GEMINI_LOOPS = ("tools-passback/gemini-*[openai-chat:gemini-openai/*",)
_LITELLM_SIGNATURE = (
    "LiteLLM 1.108.7 keeps Gemini's thought signature only as its own Gemini provider's "
    "provider_specific_fields: streamed, stream_chunk_builder rebuilds each tool call from id, type, "
    "function and provider_specific_fields (litellm_core_utils/streaming_chunk_builder_utils.py:646-660), "
    "so the OpenAI-compatible endpoint's tool_calls[].extra_content.google.thought_signature is gone; the "
    "proxy's answer reaches its client without it streamed or not (seen: the continuation lacks it). "
    "Gemini answers 400 missing signature (the SDK's non-streamed message keeps extra fields: "
    "types/utils.py:1356-1364, and passes)"
)
_AI_SDK_SIGNATURE = (
    "@ai-sdk/openai-compatible 2.0.92 reads a tool call's extra_content.google.thought_signature into "
    "provider metadata under the provider's own name (dist/index.js:628-636, streamed :765-766: here "
    "'gemini') but writes it back only from providerOptions.google (dist/index.js:246-262): under any "
    "other provider name the signature never comes back and Gemini answers 400 missing signature"
)
for _name in ("litellm-proxy", "litellm-sdk-completion"):
    KNOWN[_name] = ((_GEMINI_LOOPS, _LITELLM_SIGNATURE, ""), *KNOWN[_name])
KNOWN["node-ai-sdk"] = ((_GEMINI_LOOPS, _AI_SDK_SIGNATURE, ""), *KNOWN["node-ai-sdk"])
KNOWN["langchain-deepseek"] = ((_GEMINI_LOOPS, _agents.LANGCHAIN_SIGNATURE, ""), *KNOWN["langchain-deepseek"])
KNOWN["pydantic-ai-anthropic"] = (
    (
        ("sse-framing/bom[anthropic-messages:*",),
        "the anthropic SDK's SSE decoder keeps a leading UTF-8 BOM in the first field name "
        "('\\ufeffevent', anthropic 2.17.0 _streaming.py:424-431), so the event has no name and its "
        "Stream skips it (_streaming.py:98-99): message_start is lost, and pydantic-ai asserts that the "
        "first chunk is one (pydantic-ai-slim 2.68.0 models/anthropic/__init__.py:2523): AssertionError, "
        "the turn fails",
        "",
    ),
)
KNOWN["litellm-sdk-responses"] = (
    *KNOWN["litellm-sdk-responses"],
    (_causes.RESPONSES_CANCEL, _causes.LITELLM_RESPONSES_CLOSE, ""),
)
KNOWN["node-openai-chat"] = (
    *KNOWN["node-openai-chat"],
    (
        ("*[openai-chat:azure/*",),
        "the openai Node SDK's ChatCompletionStream reads choice.delta.content without checking that the "
        "choice has a delta (openai 6.30.1 lib/ChatCompletionStream.js:110): Azure's content-filter "
        "annotation chunk, a choice without delta, throws TypeError and ends the stream",
        "",
    ),
)

# The agent loops (docs/agent-frameworks.md): each FAIL with the source line of the installed package,
# the texts in tools/docs/_agent_causes.py.
_PY_FRAMING = (
    (("sse-framing/bom*",), _agents.PY_BOM, ""),
    (("sse-framing/perturbations*event-only]",), _agents.PY_EVENT_ONLY, ""),
    (("sse-framing/unterminated*",), _agents.PY_CUT, ""),
)
KNOWN["pydantic-ai-agent-openai-chat"] = (
    (_causes.EMPTY_DS, _causes.PYDANTIC_EMPTY, ""),
    ((f"{_MM}openai-chat:think-tags/frames/nonstream]",), _PYDANTIC_TAGS, ""),
    (_DETAILS_ROWS, _PYDANTIC_FIELDS, ""),
    (_MD, _PYDANTIC_MINIMAX, ""),
    (
        (
            "wire-variants/inline-think-not-leading*/nonstream]",
            "wire-variants/inline-think-structured-wins*/nonstream]",
        ),
        _agents.PYDANTIC_SPLIT,
        "",
    ),
    (_THINK, _agents.PYDANTIC_STREAM_TAGS, ""),
    *_PY_FRAMING,
)
KNOWN["langgraph-react-deepseek"] = (
    (("tools-passback/*[openai-chat:reasoning_content*",), _agents.DEEPSEEK_PASSBACK, ""),
    (_GEMINI_LOOPS, _agents.LANGCHAIN_SIGNATURE, ""),
    (("errors-cancellation/client-cancel*",), _agents.LANGGRAPH_CANCEL, ""),
    *_PY_FRAMING,
)
KNOWN["langgraph-react-openai-responses"] = (
    (("*[openai-responses:alias-summary*",), _agents.LC_ALIAS_SUMMARY, ""),
    ((*_RT, "*[openai-responses:alias-string*", "*[openai-responses:alias-object*"), _agents.LC_CONTENT, ""),
    (("errors-cancellation/client-cancel*",), _agents.LANGGRAPH_CANCEL, ""),
    (("sse-framing/perturbations*event-only]",), _agents.PY_EVENT_ONLY, ""),
    (("sse-framing/unterminated*",), _agents.PY_CUT_RESPONSES, ""),
)

_NODE_MODULES = re.compile(r"/\S*?/node_modules/")
_SITE_PACKAGES = re.compile(r"/\S*?/site-packages/")


def known(profile: str, case_id: str) -> tuple[str, str] | None:
    for globs, what, link in KNOWN.get(profile, ()):
        if any(fnmatch.fnmatchcase(case_id, g) for g in globs):
            return what, link
    return None


def _installed(requirement: str) -> bool:
    if " " in requirement:
        return all(_installed(r) for r in requirement.split())
    if requirement.startswith("npm:"):
        name = requirement[4:].rsplit("@", 1)[0]
        modules = os.environ.get("THINKWIRE_NODE_MODULES", "")
        return bool(modules) and (Path(modules) / name / "package.json").exists()
    stem = requirement.split("[")[0].split("=")[0]
    module = next((m for k, m in _MODULE.items() if stem.startswith(k)), stem.replace("-", "_"))
    if stem == "langchain-deepseek":
        module = "langchain_deepseek"
    return importlib.util.find_spec(module) is not None


def _cause(profile: str, case_id: str) -> str | None:
    hit = known(profile, case_id)
    return hit[0] if hit else None


def _matrix(results: list[Any]) -> list[str]:
    cols = ("PASS", "NON_STRICT", "INFO", "UNSUPPORTED", "FAIL", "UNCLEAN", "ERROR", "TIMEOUT")
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        v = r.status.value if r.status.value != "OK" else r.stream.value
        rows[r.case_id.split("/")[0]][v] += 1
    lines = ["| category | " + " | ".join(cols) + " |", "|---" + "|---:" * len(cols) + "|"]
    for cat in sorted(rows):
        lines.append(f"| {cat} | " + " | ".join(str(rows[cat][c]) for c in cols) + " |")
    return lines


def _findings(name: str, results: list[Any]) -> list[str]:
    groups: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for r in results:
        bad = r.failing()
        if not bad and r.status.value == "OK":
            continue
        f = bad[0] if bad else None
        hit = known(name, r.case_id)
        key = (hit[0] if hit else (f"{f.check}: {f.message}" if f else f"{r.status.value}: {r.error}"), "")
        groups[key].append((r, f, hit))
    lines: list[str] = []
    for (title, _), items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        r, f, hit = items[0]
        lines.append(f"- **{title}** ({len(items)} case(s))")
        if f is not None:
            excerpt = _NODE_MODULES.sub("node_modules/", f.actual or f.expected or f.message)
            excerpt = _SITE_PACKAGES.sub("site-packages/", excerpt)
            excerpt = excerpt[:200].replace("\n", " ")  # (no machine's install dir in the document)
            lines.append(f"  - check `{f.check}`: {f.message[:200]}; evidence: `{excerpt}`")
        if hit and hit[1]:
            lines.append(f"  - upstream report: {hit[1]}")
        elif hit:
            lines.append("  - upstream report: none found (reproduce line below)")
        lines.append(f"  - reproduce: `thinkwire run --sut profiles/{name}.toml --cases '{r.case_id}'`")
    return lines


def _verdicts(result: Any) -> dict[str, tuple[str, ...]]:
    return {r.case_id: (r.status.value, r.stream.value, r.cleanup.value) for r in result.results}


def _cpu() -> tuple[float, float]:
    """(thinkwire's own CPU seconds, the CPU seconds of the child processes it has reaped): the SUT's
    processes are children of this one, reaped when the run stops them (``os.times``)."""
    t = os.times()
    return time.process_time(), t.children_user + t.children_system


def _speed(path: Path, concurrent: Any, concurrent_cpu: tuple[float, float]) -> list[str]:
    """A gateway's catalog run once more with one case at a time (issue 24: serial and concurrent
    times side by side, and the verdicts compared case by case), with the CPU each run cost thinkwire
    and the SUT (``concurrent_cpu``: the concurrent run's, from :func:`_cpu`); other SUT kinds:
    nothing."""
    from harness.drivers import load_profile
    from harness.runner import run
    from tools.docs._sdk_results import claimed_cases

    profile = load_profile(path)
    if profile.kind != "gateway" or concurrent.concurrency in (None, 1):
        return []
    before = _cpu()
    serial = run(claimed_cases(profile), sut=profile, expectations=None, keep_timelines="none", concurrency=1)
    after = _cpu()
    a, b = _verdicts(serial), _verdicts(concurrent)
    differ = sorted(k for k in a if a[k] != b.get(k))
    ratio = serial.duration_s / concurrent.duration_s if concurrent.duration_s else 0.0
    sut_s, sut_c = after[1] - before[1], concurrent_cpu[1]
    line = (
        f"Serial against concurrent (same machine, one after the other): {serial.duration_s:.1f} s at "
        f"`--concurrency 1`, {concurrent.duration_s:.1f} s with {concurrent.concurrency} cases in flight "
        f"(the default): **{ratio:.2f}x**; verdicts differing case by case: "
        f"{len(differ)}"
        + (f" ({', '.join(differ[:5])}{' ...' if len(differ) > 5 else ''})" if differ else "")
    )
    cpu = (
        f"CPU seconds serial / concurrent: the SUT's processes {sut_s:.1f} / {sut_c:.1f} (its start "
        f"included), thinkwire's own {after[0] - before[0]:.1f} / {concurrent_cpu[0]:.1f}"
        + (
            f". A SUT that works on one core (one process, one event loop) cannot answer the catalog in "
            f"less wall time than its CPU time: {serial.duration_s:.1f} s / {sut_c:.1f} s is a ceiling of "
            f"{serial.duration_s / sut_c:.1f}x for it"
            if sut_c > 0
            else ""
        )
    )
    from harness.runner._concurrent import ASIDE_NOTE

    alone = [r.alone for r in concurrent.results if r.alone]
    aside = sum(1 for why in alone if why.endswith(ASIDE_NOTE))
    line += (
        f". {len(alone)} cases ran alone, {aside} of them on a second instance of the SUT alongside the "
        "others (when its start is short against the time the shared cases keep the first one busy)"
    )
    sys.stderr.write(line + "\n" + cpu + "\n")
    return [line + ".", "", cpu + ".", ""]


def main(argv: list[str]) -> int:
    from tools.docs._sdk_results import record_profile

    os.environ.setdefault("LITELLM_MASTER_KEY", "sk-thinkwire-local")
    root = Path(__file__).resolve().parents[2]
    out_doc = Path(argv[0]) if argv else root / "docs" / "ecosystem-results.md"
    only = set(argv[1:])
    lines = [
        "# Gateways and framework wrappers under thinkwire",
        "",
        "Generated by `nox -s ecosystem` (not part of `.ci/run`: heavy installs). Each package runs against",
        "thinkwire's mock upstream on 127.0.0.1 through its profile in `profiles/` and its adapter in",
        "`harness/sdks/` (the framework's own history carries passback). Every FAIL below was reviewed:",
        "those caused by thinkwire were fixed in thinkwire; what remains is the package's behaviour,",
        "recorded in `profiles/<name>.expectations.toml`.",
        "",
        *_changes(),
    ]
    for name, requirement in PACKAGES:
        if only and name not in only:
            continue
        lines += [f"## {name} (`{requirement}`)", ""]
        if not _installed(requirement):
            how = "npm install" if requirement.startswith("npm:") else "pip install"
            pins = " ".join(f'"{r.removeprefix("npm:")}"' for r in requirement.split())
            lines += [f"Not installed here: `{how} {pins}`.", ""]
            continue
        start = _cpu()
        result, n = record_profile(root / "profiles" / f"{name}.toml", name, _cause)
        spent = tuple(b - a for a, b in zip(start, _cpu(), strict=True))
        lines += [
            f"{len(result.results)} cases, {n} recorded as expected; run: "
            f"`thinkwire run --sut profiles/{name}.toml`.",
            "",
            *_matrix(result.results),
            "",
        ]
        lines += _speed(root / "profiles" / f"{name}.toml", result, (spent[0], spent[1]))
        found = _findings(name, result.results)
        lines += ["### Findings", "", *found, ""] if found else ["No finding.", ""]
        sys.stderr.write(f"{name}: {len(result.results)} cases, {n} expected\n")
    if only and out_doc.exists():  # keep the other packages' sections of the existing table
        lines = _merge_sections(out_doc.read_text(encoding="utf-8"), "\n".join(lines), only)
    out_doc.write_text("\n".join(lines), encoding="utf-8")
    return 0


def _changes() -> list[str]:
    """What the last re-run changed (``_ecosystem_changes``), under the introduction."""
    from tools.docs._ecosystem_changes import (
        CHANGES,
        COUNTS,
        DEFAULTS_SCHEMA,
        LATER,
        MERGED,
        NOT_RERUN,
        RERUN,
    )

    if not CHANGES:
        return []
    order = [name for name, _ in PACKAGES]
    rows = [f"- **{n}**: {why}." for n, why in sorted(CHANGES, key=lambda c: order.index(c[0]))]
    notes = [f"{note}." for note in (COUNTS, NOT_RERUN, LATER, MERGED, DEFAULTS_SCHEMA)]
    notes = [line for note in notes for line in (note, "")]
    return [f"What changed in {RERUN}:", "", *rows, "", *notes]


def _merge_sections(old: str, new: str, names: set[str]) -> list[str]:
    """The old document with the sections of ``names`` replaced by the new run's (and the new run's
    introduction, which says what the last re-run changed)."""

    def split(text: str) -> tuple[str, dict[str, str]]:
        head, *parts = text.split("\n## ")
        return head, {p.split(" ", 1)[0]: "## " + p for p in parts}

    _, old_parts = split(old)
    head, new_parts = split(new)
    order = [name for name, _ in PACKAGES]
    merged = {**old_parts, **{k: v for k, v in new_parts.items() if k in names}}
    body = [merged[n].rstrip("\n") for n in order if n in merged]
    return [head.rstrip("\n"), "", *("\n\n".join(body).split("\n")), ""]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
