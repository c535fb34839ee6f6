"""What the last re-run of the ecosystem profiles changed, and why: every verdict row that moved against the
expectations recorded before it, with its cause. It is data only; ``_ecosystem_results`` prints it under
the page's introduction, so that no row changes silently."""

from __future__ import annotations

__all__ = ["CHANGES", "COUNTS", "DEFAULTS_SCHEMA", "LATER", "MERGED", "NOT_RERUN", "RERUN"]

RERUN = (
    "the re-run after issues 45 to 49 (a relay judged as a relay with a `parses` claim, a premise gate that "
    "demotes only the checks needing the premise, delivery judging only reasoning the upstream sent, "
    "keepalive silences scaled to 1.2 s, the variant as one record); every profile re-run, every row that "
    "moved against the expectations recorded before it listed here"
)

COUNTS = (
    "No case count moved: each profile ran as many cases as before (the same claims; no profile names "
    "`providers`, so the alias-* Responses variants stay claimed and keep their verdicts). Per profile, "
    "PASS/FAIL before -> after: litellm-proxy 319/175 -> 351/143, litellm-sdk-completion 325/166 -> 359/132 "
    "(NON_STRICT 7 -> 9, UNSUPPORTED 9 -> 7), langchain-openai-chat 19/217 -> 79/157, langchain-deepseek "
    "and langgraph-react-deepseek 72/50 -> 104/18, pydantic-ai-openai-chat and pydantic-ai-agent-openai-chat "
    "141/85 -> 177/49, node-ai-sdk 400/146 -> 432/114, node-openai-chat 145/77 -> 209/13; the Responses, "
    "Anthropic and LiteLLM Responses profiles unchanged"
)

NOT_RERUN = (
    "Every profile was re-run (none left out). Of the checks this session changed, three moved no row here: "
    "no delivery FAIL on withheld reasoning was recorded in any profile; no profile claims a keepalive "
    "interval, so none has a keepalive case N/A; and litellm-proxy's 4 keepalive rows stay NON_STRICT under "
    "the scaled silence (the client got no byte for about 1.1 s of a 1.2 s upstream silence, against the "
    "case's 0.8 s read timeout, where it was about 3.9 s of 4.0 s against 1.5 s)"
)

LATER = (
    "No real bug was lost: every row that went from FAIL to PASS had failed channel-separation alone "
    "('reasoning delivered as answer text'), checked row by row on the recorded reasons; each is markup "
    "the package delivers byte for byte and sends back as it came, which issue 45 judges as a relay's "
    "delivery. Where the same markup rows also failed another check, the row still FAILs and now names "
    "that check's cause: the Gemini OpenAI-compatible tool loops (gemini-openai-thought-signature, "
    "gemini-parallel-calls) lose the tool call's thought signature on litellm-proxy, litellm-sdk-completion "
    "(streamed), node-ai-sdk, langchain-deepseek and langgraph-react-deepseek (Gemini's 400, causes below), "
    "where before the markup reason hid it"
)

_RELAY = (
    "FAIL -> PASS, none a bug lost: in-band markup it relays verbatim (issue 45), which thinkwire judged as "
    "reasoning it had leaked, because the profile claimed every markup; the profile now claims what the "
    "package parses"
)
_SIGNATURE = (
    "; the 4 Gemini tool-loop rows (gemini-openai-thought-signature, gemini-parallel-calls, streamed and "
    "not) stay FAIL, their recorded reason now the lost thought signature (Gemini's 400), which the markup "
    "reason used to cover"
)
_THINK_STAYS = (
    " Its 17 streamed <think> rows stay FAIL (claimed and left in content, cause below) and the non-streamed "
    "minimax-interleaved-thinking row NON_STRICT"
)

# A cause is a fix in thinkwire, a new premise or a new check; no real bug is lost without a word.
CHANGES: tuple[tuple[str, str], ...] = (
    (
        "litellm-proxy",
        "32 rows (mm-think 12, harmony 12, gemini-openai 8) " + _RELAY + ': parses = ["think-tags"] '
        "(LiteLLM splits a leading <think> out of a non-streamed message only, "
        "common_utils.py:2540-2547)" + _SIGNATURE + "." + _THINK_STAYS,
    ),
    (
        "litellm-sdk-completion",
        "36 rows. 34 (mm-think 12, harmony 12, gemini-openai 10) " + _RELAY + ': parses = ["think-tags"], as '
        "for the proxy; among them the non-streamed Gemini tool loops (2), whose passback passes (the SDK's "
        "message keeps the tool call's extra fields); their 2 streamed rows stay FAIL on the lost signature. "
        "tools-passback/responses-phase (streamed and not) UNSUPPORTED -> NON_STRICT: the premise gate now "
        "demotes only the checks that need the premise (encrypted_content, which LiteLLM's bridge never asks "
        "for), and passback-fidelity judges what it can: the commentary phase never comes back (its known "
        "cause). The other 7 Responses tool-loop rows stay UNSUPPORTED, their passback and request-contract "
        "judged and passing; the bridge's missing include stays a FAIL on litellm-proxy." + _THINK_STAYS,
    ),
    (
        "langchain-openai-chat",
        "60 rows (think-tags 16, think-split 12, mm-think 12, harmony 12, gemini-openai 8) "
        + _RELAY
        + ": parses = [] (ChatOpenAI has no tag parser); its 4 Gemini tool-loop rows stay FAIL under its "
        "one recorded cause (the signature, a third-party field, never goes back)",
    ),
    (
        "langchain-deepseek",
        "32 rows (mm-think 12, harmony 12, gemini-openai 8) " + _RELAY + ": parses = [] (ChatDeepSeek "
        "parses no markup)" + _SIGNATURE + ". The same 32 rows, claim and 4 FAILs on "
        "langgraph-react-deepseek (ChatDeepSeek in the graph)",
    ),
    (
        "pydantic-ai-openai-chat",
        "36 rows (mm-think 12, harmony 12, gemini-openai 12) " + _RELAY + ': parses = ["think-tags"] '
        "(DEFAULT_THINKING_TAGS, the one pair it splits); the Gemini tool loops PASS too (pydantic-ai sends "
        "the signature back). The same 36 rows on pydantic-ai-agent-openai-chat." + _THINK_STAYS,
    ),
    (
        "node-ai-sdk",
        "32 rows (mm-think 12, harmony 12, gemini-openai 8) " + _RELAY + ': parses = ["think-tags"] (the '
        "adapter wraps the think variants in extractReasoningMiddleware, as the SDK documents)" + _SIGNATURE,
    ),
    (
        "node-openai-chat",
        "64 rows (think-tags 16, think-split 12, mm-think 12, harmony 12, gemini-openai 12) "
        + _RELAY
        + ": parses = [] (content is a string it hands on); the Gemini tool loops PASS (its accumulator "
        "keeps the tool call's extra_content). The same 64 rows, for the same reason, in "
        "docs/sdk-results.md for the Python openai SDK",
    ),
)
"""(profile, what changed and why), in the order of the page. Re-run: every profile; the profiles not
named here changed no verdict."""

MERGED = (
    "Then the merged tree was re-run once more, every profile (litellm-proxy again after its config named "
    "the models of the two new chat variants, tw-chat-flat-mirror and tw-chat-openrouter-items: 12 of its "
    "cases had been answered 'Invalid model name' by the proxy, thinkwire's config gap). 23 rows on "
    "litellm-proxy, litellm-sdk-completion, node-ai-sdk, node-openai-chat and the two pydantic-ai chat "
    "profiles went NON_STRICT -> FAIL (and 4 on sdk-openai-chat, docs/sdk-results.md) under issue 46 item 5, "
    "silent loss the provider's documentation says must come back: openrouter-openai-encrypted (11 rows: "
    "the encrypted details OpenRouter-over-OpenAI needs), vllm-reasoning-field (6: reasoning sent back in "
    "reasoning_content, which vLLM >= 0.20 drops) and minimax-interleaved-thinking (6: MiniMax's reasoning "
    "not sent back as it came). Each keeps its recorded cause with its source line, the finding now citing "
    "the provider's doc. The new variants' cases (flat-mirror, openrouter-items) PASS on every profile but "
    "langchain-openai-chat, whose 10 FAIL under its one recorded cause (ChatOpenAI reads OpenAI's own "
    "fields only)"
)
"""What moved when the merged tree (issue 46's silent-loss rule and new variants) was re-run after the
re-run above."""

DEFAULTS_SCHEMA = (
    "Then every profile was re-run on the tree with issue 46's last items (a Claude model that thinks by "
    "default, the front doors' SDK schema) and issue 47's refactors (dialect roles, the runner's path, one "
    "meaning per word). No recorded row moved. The two new cases, tools-passback/anthropic-unasked-thinking "
    "(streamed and not: claude-mythos-preview thinks although the client names no thinking), PASS on "
    "litellm-proxy, litellm-sdk-completion, pydantic-ai-anthropic, node-ai-sdk and node-anthropic (on "
    "litellm-proxy after its config named tw-anthropic-claude-mythos-preview: the first run was answered "
    "'Invalid model name', thinkwire's config gap) and are UNSUPPORTED on litellm-sdk-responses, whose "
    "bridge asks for thinking itself, so the model's default never applies (the premise names it; every "
    "other check judged and passed). The schema rules moved nothing here: no profile exposes a Responses or "
    "Anthropic front door to the front-door-grammar check (they are Python or adapter SUTs, or the proxy's "
    "chat door)"
)
"""What moved when every profile was re-run after issue 46's defaults and schema items."""
