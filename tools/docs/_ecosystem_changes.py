"""What the last re-run of the ecosystem profiles changed, and why: every verdict row that moved against the
expectations recorded before it, with its cause. It is data only; ``_ecosystem_results`` prints it under
the page's introduction, so that no row changes silently."""

from __future__ import annotations

__all__ = ["CHANGES", "COUNTS", "NOT_RERUN", "RERUN"]

RERUN = "the re-run after issue 35 (the mock answers by the request; BOM on Anthropic seen; init)"

COUNTS = (
    "Case counts moved beside: a variant a profile does not claim (Claude on Vertex, in each Anthropic "
    "profile's unsupported_variants) is now left out of its run, not run and counted (3 to 7 cases each, "
    "PASS before: they reached /v1/messages, not Vertex's endpoint), and the corpus cases "
    "(recorded/corpus-*) run where the fidelity corpus is found"
)

NOT_RERUN = (
    "litellm-sdk-completion and litellm-sdk-responses were not re-run: litellm-sdk-completion's run hung "
    "(after one case every case ran to its 30 s deadline: a SUT thread deadlocked on httpcore's pool lock, "
    "an abandoned response stream finalised by the garbage collector inside handle_request, "
    "encode/httpcore#990), so their rows stand as recorded before"
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
        "before only because the mock sent encrypted_content unasked",
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
        "providers' users do, and they FAIL as before",
    ),
    (
        "pydantic-ai-anthropic",
        "the 4 sse-framing/bom cases, placed on Anthropic again, PASS -> FAIL: a real bug (pydantic-ai "
        "asserts the first event is message_start, which the anthropic SDK skipped behind the BOM; "
        "cause below). tools-passback/anthropic-omitted-thinking (streamed and not) FAILed on thinkwire's "
        "400 (type enabled to claude-opus-4-7); the adapter asks adaptive with display omitted, both PASS",
    ),
    (
        "pydantic-ai-agent-openai-chat",
        "no verdict changed: the same 22 gemini-openai and minimax-details rows, the same adapter fix "
        "(the Agent shares its chat settings)",
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
        "reaching the client) is absent. Before, the mock sent the summary unasked",
    ),
    (
        "node-openai-chat",
        "no verdict changed; the recorded reasons of its Azure rows now end with the line that raised",
    ),
    (
        "node-anthropic",
        "tools-passback/anthropic-omitted-thinking (streamed and not): its case now runs under "
        "claude-opus-4-7 (adaptive only), and thinkwire asked type enabled for it (its chat-door default "
        "and the adapter): a 400 that was thinkwire's, fixed in thinkwire (adaptive, display omitted); "
        "both PASS. The 4 sse-framing/bom cases placed on Anthropic again PASS (the Node SDK's decoder "
        "strips the BOM)",
    ),
)
"""(profile, what changed and why), in the order of the page. Re-run: every profile but litellm-sdk-completion
and litellm-sdk-responses (litellm-sdk-completion's run hung: every case after one ran to its 30 s
deadline, the SUT thread stuck in httpcore's pool lock, encode/httpcore#990), whose rows stand as recorded
before; the profiles not named here changed no verdict."""
