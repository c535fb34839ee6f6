"""What the last re-run of the ecosystem profiles changed, and why: every verdict row that moved against
the expectations recorded before it, with its cause (a fix in thinkwire, a new premise, a new check).

Rule: data only; ``_ecosystem_results`` prints it under the page's introduction, so that no row changes
silently and no real bug is lost without a word.
"""

from __future__ import annotations

__all__ = ["CHANGES", "RERUN"]

RERUN = "the re-run after issue 35 (the mock answers by the request; BOM on Anthropic seen; init)"

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
        "node-ai-sdk",
        "no verdict changed, after two fixes in thinkwire's adapter. Its 22 gemini-openai and "
        "minimax-details FAILs (the package's: @ai-sdk/openai-compatible reads neither reasoning_details "
        "nor <thought>) read UNSUPPORTED at first: the mock no longer sends those forms unasked, and the "
        "adapter never asked; it now asks as those providers' users do (reasoning_split, "
        "include_thoughts, through the provider options the SDK spreads into the body), and they FAIL "
        "as before. tools-passback/anthropic-omitted-thinking (streamed and not) FAILed on thinkwire's "
        "400 (type enabled to claude-opus-4-7); asked adaptive with display omitted, both PASS",
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
"""(profile, what changed and why), in the order of the page. Re-run: litellm-proxy and the three Node
profiles; the Python framework profiles were not (litellm-sdk-completion's run hung: every case after
one ran to its 30 s deadline, the SUT thread stuck in httpcore's pool lock), so their rows stand as
recorded before."""
