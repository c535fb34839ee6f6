"""The detection matrix's rows for issue 46's classes: provider defaults as request-form rows, the front
door's SDK schema rules, the identity fields each strict provider compares, and the mirror and flagged-part
variants. Data only, apart from ``_matrix_rows``
so that each class of rows stays one concern; ``tools._matrix`` joins them."""

from __future__ import annotations

from tools._matrix_rows import Mutant

__all__ = ["SCHEMA_ROWS"]

_BRIDGE = (
    "ordering-duplication/responses-bridge[openai-chat:reasoning_content/frames]",
    "ordering-duplication/responses-bridge[anthropic-messages:thinking/frames]",
)
_ANTHROPIC = (
    "wire-variants/reasoning-then-answer[anthropic-messages:thinking/frames]",
    "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]",
)

SCHEMA_ROWS: tuple[Mutant, ...] = (
    # -- provider defaults as request-form rows: Bedrock's adaptive-only Claude omits the thinking text
    # unless display summarized is asked for (bedrock/display-summarized), as on Anthropic Messages
    Mutant(
        "no-display-summarized",
        "reference",
        "request-contract",  # the SUT did not ask for the summarized text its client wanted
        (
            "wire-variants/bedrock-adaptive[bedrock-converse:adaptive/frames]",
            "wire-variants/bedrock-adaptive[bedrock-converse:adaptive/frames/nonstream]",
        ),
        frozenset({"delivery"}),
        label="bedrock",
    ),
    # -- the Responses front door's SDK schema (dialects/openai_responses/_schema.py), one switch a rule
    Mutant("done-type-mismatch", "reference", "front-door-grammar", _BRIDGE, door="openai-responses"),
    Mutant(
        "completed-usage-no-reasoning-tokens",
        "reference",
        "front-door-grammar",
        (
            "sse-framing/bom[anthropic-messages:thinking/frames/bom]",
            "sse-framing/bom[openai-chat:reasoning_content/frames/bom]",
        ),
        door="openai-responses",
    ),
    # -- the per-event field rules of both front doors (dialects/_fields.py), one switch a rule family
    Mutant("door-no-sequence-number", "reference", "front-door-grammar", _BRIDGE, door="openai-responses"),
    Mutant("door-index-as-string", "reference", "front-door-grammar", _BRIDGE, door="openai-responses"),
    Mutant("door-done-new-id", "reference", "front-door-grammar", _BRIDGE, door="openai-responses"),
    Mutant("door-start-no-model", "reference", "front-door-grammar", _ANTHROPIC, door="anthropic-messages"),
    Mutant("door-stop-no-index", "reference", "front-door-grammar", _ANTHROPIC, door="anthropic-messages"),
    Mutant(
        "door-delta-no-output-tokens",
        "reference",
        "front-door-grammar",
        _ANTHROPIC,
        door="anthropic-messages",
    ),
    # -- every opaque identity field a strict provider compares on passback, altered (re-encoded as URL-safe
    # base64 by alter-encrypted) and caught by passback through the provider's own 400: one row a field
    *(
        Mutant("alter-encrypted", "reference", "passback", (case,), label=field)
        for field, case in (
            (
                "anthropic-signature",
                "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]",
            ),
            (
                "anthropic-redacted-data",
                "tools-passback/anthropic-redacted[anthropic-messages:redacted/frames]",
            ),
            (
                "bedrock-signature",
                "tools-passback/anthropic-thinking-blocks[bedrock-converse:converse/frames]",
            ),
            (
                "bedrock-redacted-content",
                "tools-passback/anthropic-redacted[bedrock-converse:converse/frames]",
            ),
            (
                "openrouter-signature",
                "tools-passback/openrouter-signature-only[openai-chat:reasoning_details/frames]",
            ),
            (
                "interactions-signature",
                "tools-passback/gemini-interactions-thought-signature[gemini-interactions:summaries/frames]",
            ),
        )
    ),
    # -- the order of the blocks, which Anthropic compares too: thinking first (anthropic/thinking-not-first;
    # before a tool_use, anthropic/missing-thinking)
    Mutant(
        "reasoning-last",
        "reference",
        "passback",
        (
            "tools-passback/no-think-replay-anthropic[anthropic-messages:thinking/frames]",
            "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]",
        ),
    ),
    # -- the flat mirror, a shipped variant (openai_chat/variants/flat-mirror.toml): read twice, doubled
    Mutant(
        "read-both-fields",
        "reference",
        "no-duplication",
        (
            "wire-variants/reasoning-then-answer[openai-chat:flat-mirror/frames]",
            "wire-variants/reasoning-then-answer[openai-chat:flat-mirror/frames/nonstream]",
        ),
        label="flat-mirror",
    ),
    # -- an encrypted part flagged among summary deltas (openai-chat:openrouter-items), shown as text
    Mutant(
        "encrypted-as-reasoning",
        "reference",
        "delivery",
        (
            "wire-variants/encrypted-among-summaries[openai-chat:openrouter-items/frames]",
            "wire-variants/encrypted-among-summaries[openai-chat:openrouter-items/frames/nonstream]",
        ),
    ),
)
