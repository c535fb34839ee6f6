"""What the last re-run of the ecosystem profiles changed, and why: every verdict row that moved against the
expectations recorded before it, with its cause. It is data only; ``_ecosystem_results`` prints it under
the page's introduction, so that no row changes silently."""

from __future__ import annotations

__all__ = ["CHANGES", "COUNTS", "LATER", "NOT_RERUN", "RERUN"]

RERUN = (
    "the re-runs after issue 35 (the mock answers by the request; BOM on Anthropic seen; init) and issue 40 "
    "(the catalog of 2026's second half: each new FAIL below has its source line)"
)

COUNTS = (
    "Case counts moved beside: a variant a profile does not claim (Claude on Vertex, in each Anthropic "
    "profile's unsupported_variants) is now left out of its run, not run and counted (3 to 7 cases each, "
    "PASS before: they reached /v1/messages, not Vertex's endpoint), and the corpus cases "
    "(recorded/corpus-*) run where the fidelity corpus is found"
)

NOT_RERUN = (
    "litellm-sdk-completion and litellm-sdk-responses, not re-run after issue 35 (a run hung: after one "
    "case every case ran to its 30 s deadline), were re-run this time after a fix in thinkwire's adapter "
    "(harness/sdks/_litellm.py): LiteLLM's one shared module-level HTTP client deadlocked. A stream "
    "LiteLLM leaves open (its chat-to-Responses bridge on a mid-stream error: the traceback keeps it in a "
    "reference cycle, and its close() closes no response there) was closed by the garbage collector "
    "under httpcore's pool lock, on a thread already holding that lock inside handle_request "
    "(encode/httpcore#990), so that client never served again. The adapter now gives each LiteLLM call "
    "a client of its own and closes it after its case (never while the case is observed: LiteLLM's own "
    "leaks stay visible); the fix moved no verdict (476 of 476 cases compared one by one)"
)

LATER = (
    "The cases merged later in the same session (issue 40: Responses bridges, long silent reasoning, the "
    "Gemini Interactions dialect, models that think by default, OpenRouter in front of OpenAI and Gemini) "
    "were run on every profile; no earlier row moved, and each new non-passing row carries a reviewed "
    "cause: wire-variants/responses-reasoning-text (4 each on langchain-openai-responses, langgraph- "
    "react-openai-responses, litellm-proxy, litellm-sdk-completion, node-ai-sdk, pydantic-ai-openai- "
    "responses) FAILs for the cause its profile's other reasoning_text rows give; tools- "
    "passback/openrouter-openai-encrypted and openrouter-gemini-signature (on litellm-proxy, litellm-sdk- "
    "completion, both pydantic-ai chat profiles, node-ai-sdk and node-openai-chat) lose the "
    "reasoning_details for the cause their profile's openrouter-signature-only rows give (OpenRouter- "
    "Gemini: 400 missing signature, FAIL; OpenRouter-OpenAI: the encrypted item dropped, NON_STRICT); "
    "langchain-openai-chat FAILs 26 new rows, keepalive, thinking-by-default and the OpenRouter variants "
    "among them, for its one recorded cause (ChatOpenAI reads OpenAI's own fields only); litellm-proxy's "
    "4 keepalive rows are NON_STRICT (no byte for about 3.9 s of upstream silence; its profile names no "
    "keepalive interval, so the case's scaled 1.5 s read timeout is a SHOULD). Two thinkwire gaps the run "
    "showed were fixed first: the proxy's config lacked the two new OpenRouter model names ('Invalid "
    "model name', 8 cases), and langchain-deepseek and langgraph-react-deepseek now leave out "
    "OpenRouter's two new variants as they leave out its reasoning_details one"
)

_FRAGMENTS = (
    "tools-passback/openrouter-detail-fragments (issue 40, streamed and not) FAIL: OpenRouter's 400 "
    "openrouter/invalid-signature, the merged reasoning_details never come back"
)
_EMPTY_DS = (
    "tools-passback/deepseek-empty-reasoning (issue 40, streamed and not) FAIL: DeepSeek V4's 400 "
    "(reasoning_content missing on the tool-call turn)"
)
_ISSUE40 = "Issue 40's other new cases PASS here"
_INVALID = (
    "tools-passback/invalid-tool-input[anthropic-messages:thinking] stays FAIL; its recorded evidence now "
    "names what LiteLLM raised before calling the upstream (BadRequestError: it failed to parse the tool "
    "call's arguments) instead of 'answered without calling the upstream'"
)

# A cause is a fix in thinkwire, a new premise or a new check; no real bug is lost without a word.
CHANGES: tuple[tuple[str, str], ...] = (
    (
        "litellm-proxy",
        "9 rows, all on openai-responses tool loops, none lost: responses-reasoning-item, "
        "responses-encrypted-content, xai-encrypted-reasoning and invalid-tool-input (streamed and not) "
        "PASS -> FAIL, responses-phase NON_STRICT -> FAIL (its phase cause stays). The mock now answers "
        "a Responses request as the real API does: no encrypted_content without "
        "include[reasoning.encrypted_content]; LiteLLM's bridge never asks for it yet replays reasoning "
        "items without their id, relying on that content (request-contract, cause below). They passed "
        "before only because the mock sent encrypted_content unasked. "
        + _FRAGMENTS
        + " (LiteLLM keeps no reasoning_details: cause below). "
        + _ISSUE40,
    ),
    (
        "langchain-openai-responses",
        "no verdict changed, after a fix in thinkwire's adapter: 9 tools-passback cases (PASS) read "
        "UNSUPPORTED at first, the mock no longer sending encrypted_content unasked; the adapter now asks "
        "include=['reasoning.encrypted_content'] as langchain-openai documents for tool loops, and they "
        "PASS again. The same for langgraph-react-openai-responses (the same ChatOpenAI settings)",
    ),
    (
        "pydantic-ai-openai-chat",
        "no verdict changed, after a fix in thinkwire's adapter: its 22 gemini-openai and minimax-details "
        "FAILs (the package's) read UNSUPPORTED at first, the adapter never asking for those forms; it "
        "now passes thinkwire's request body as extra_body (reasoning_split, include_thoughts), as those "
        "providers' users do, and they FAIL as before. "
        + _EMPTY_DS
        + ": pydantic-ai makes nothing of an empty reasoning_content and its generic provider backfills "
        "nothing (cause below); " + _FRAGMENTS + " (pydantic-ai reads no reasoning_details). " + _ISSUE40,
    ),
    (
        "pydantic-ai-anthropic",
        "the 4 sse-framing/bom cases, placed on Anthropic again, PASS -> FAIL: a real bug (pydantic-ai "
        "asserts the first event is message_start, which the anthropic SDK skipped behind the BOM; "
        "cause below). tools-passback/anthropic-omitted-thinking (streamed and not) FAILed on thinkwire's "
        "400 (type enabled to claude-opus-4-7); the adapter asks adaptive with display omitted, both PASS. "
        + _ISSUE40,
    ),
    (
        "pydantic-ai-agent-openai-chat",
        "no verdict changed: the same 22 gemini-openai and minimax-details rows, the same adapter fix "
        "(the Agent shares its chat settings). "
        "The same 4 issue-40 FAILs as pydantic-ai-openai-chat (deepseek-empty-reasoning, "
        "openrouter-detail-fragments), the same causes",
    ),
    (
        "node-ai-sdk",
        "no verdict changed, after two fixes in thinkwire's adapter. Its 22 gemini-openai and "
        "minimax-details FAILs (the package's: @ai-sdk/openai-compatible reads neither reasoning_details "
        "nor <thought>) read UNSUPPORTED at first: the mock no longer sends those forms unasked, and the "
        "adapter never asked; it now asks as those providers' users do (reasoning_split, "
        "include_thoughts, through the provider options the SDK spreads into the body), and they FAIL "
        "as before. tools-passback/anthropic-omitted-thinking (streamed and not) FAILed on thinkwire's "
        "400 (type enabled to claude-opus-4-7); asked adaptive with display omitted, both PASS. "
        "tools-passback/xai-encrypted-reasoning (streamed and not) PASS -> UNSUPPORTED, no bug lost: "
        "@ai-sdk/openai sends reasoning.summary only for a model it knows to reason (o-series, gpt-5 "
        "and later, or forceReasoning: dist/index.js:6287 and 6465 of @ai-sdk/openai), and drops "
        "reasoningSummary for the grok model id with a warning (index.js:6529); the mock now answers "
        "that request as the real API does, with no summary text, so the case's premise (reasoning "
        "reaching the client) is absent. Before, the mock sent the summary unasked. "
        + _FRAGMENTS
        + " (@ai-sdk/openai-compatible reads no reasoning_details). "
        + _ISSUE40,
    ),
    (
        "node-openai-chat",
        "no verdict changed; the recorded reasons of its Azure rows now end with the line that raised. "
        "tools-passback/openrouter-detail-fragments (issue 40) streamed FAIL: the stream accumulator "
        "replaces reasoning_details by each chunk's value (Object.assign, cause below), so the fragments "
        "never merge; non-streamed PASS. " + _ISSUE40,
    ),
    (
        "langchain-openai-chat",
        "8 rows, all issue 40's new cases, all ChatOpenAI reading OpenAI's own fields only (as for its "
        "other third-party-field cases, cause below): deepseek-empty-reasoning and "
        "openrouter-detail-fragments (streamed and not) FAIL on the provider's 400 (neither "
        "reasoning_content nor reasoning_details goes back), no-think-replay on reasoning_content and "
        "reasoning (streamed and not) FAIL on delivery (the reasoning never reaches the client). " + _ISSUE40,
    ),
    (
        "langchain-deepseek",
        _EMPTY_DS + ": langchain-deepseek never writes reasoning_content back "
        "(langchain_deepseek/chat_models.py:350-383, cause below). The same 2 rows for "
        "langgraph-react-deepseek (ChatDeepSeek in the graph). " + _ISSUE40,
    ),
    (
        "litellm-sdk-completion",
        "re-run for the first time since issue 35 (see below). 2 new FAILs: " + _FRAGMENTS + " (cause "
        "as for the proxy). 9 openai-responses tool-loop rows read UNSUPPORTED, none lost: "
        "responses-reasoning-item, responses-encrypted-content and xai-encrypted-reasoning (streamed and "
        "not) and invalid-tool-input (streamed) PASS -> UNSUPPORTED, responses-phase (streamed and not) "
        "NON_STRICT -> UNSUPPORTED. The mock now answers a Responses request as the real API does (no "
        "encrypted_content unasked); LiteLLM's chat-to-Responses bridge never asks for it, and for an "
        "in-process wrapper that never asks the loop's premise is absent (N/A, issue 35) where a gateway "
        "FAILs it: the same bridge code FAILs these rows on litellm-proxy (request-contract, and the "
        "phase cause), so the bug stays recorded. The 4 sse-framing/bom cases placed on Anthropic again "
        "PASS. " + _INVALID + ". " + _ISSUE40,
    ),
    (
        "litellm-sdk-responses",
        "re-run for the first time since issue 35. tools-passback/anthropic-omitted-thinking (streamed "
        "and not) PASS -> UNSUPPORTED, no bug lost: the adapter asks Responses' reasoning summaries "
        "(summary auto) and LiteLLM maps them for claude-opus-4-7 to adaptive thinking with display "
        "'summarized' (llms/anthropic/chat/transformation.py:1574-1580), so the real API sends summarised "
        "text and the case's premise (omitted display) is absent; before, the mock sent omitted blocks "
        "unasked. The 4 sse-framing/bom cases placed on Anthropic again PASS. "
        "errors-cancellation/cancel-then-continue (new) on Anthropic: stream PASS, cleanup UNCLEAN, the "
        "leak its client-cancel row records (now with its cause: the iterator responses() returns there "
        "has no close()); on the interleaved variant UNCLEAN in one of two runs and clean in the other "
        "(the open response is closed whenever Python's collector happens to run): recorded UNCLEAN by "
        "hand, as 2 of 3 runs saw it (a regeneration keeps the row only when its run sees it). "
        + _INVALID
        + ". "
        + _ISSUE40,
    ),
    (
        "node-anthropic",
        "tools-passback/anthropic-omitted-thinking (streamed and not): its case now runs under "
        "claude-opus-4-7 (adaptive only), and thinkwire asked type enabled for it (its chat-door default "
        "and the adapter): a 400 that was thinkwire's, fixed in thinkwire (adaptive, display omitted); "
        "both PASS. The 4 sse-framing/bom cases placed on Anthropic again PASS (the Node SDK's decoder "
        "strips the BOM). " + _ISSUE40,
    ),
)
"""(profile, what changed and why), in the order of the page. Re-run: every profile; the profiles not
named here changed no verdict."""
