"""The record of one wire variant, :class:`Variant`: what it carries, its premise, its paths, the provider
whose wire it is, who sends it and the request forms that turn it on, and (on Chat) its stream's shape.
Every lookup by a variant's name reads its row; the other tables are views derived from the rows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from harness.dialects._chat_shape import Shape

__all__ = ["DOCS", "Caps", "Senders", "Variant", "by_name"]

DOCS = {
    "deepseek": "https://api-docs.deepseek.com/guides/thinking_mode",
    "vllm": "https://docs.vllm.ai/en/latest/features/reasoning_outputs.html",
    "openrouter": "https://openrouter.ai/docs/use-cases/reasoning-tokens",
    "anthropic": "https://docs.claude.com/en/docs/build-with-claude/extended-thinking",
    "gemini": "https://ai.google.dev/gemini-api/docs/thought-signatures",
    "openai": "https://platform.openai.com/docs/guides/reasoning",
    "gemini-interactions": "https://ai.google.dev/gemini-api/docs/interactions/thinking",
    "bedrock": "https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference.html",
    "ollama": "https://github.com/ollama/ollama/blob/main/docs/api.md",
    "pi": "https://github.com/badlogic/pi-mono",
}
"""Docs links several variants' senders cite, by provider."""


class Caps(StrEnum):
    """What a variant can carry; hypothesis only generates turns within a variant's caps."""

    REASONING = "reasoning"  # visible reasoning text
    SIGNATURE = "signature"  # opaque signature / encrypted content
    CALL_SIGNATURE = "call-signature"  # a signature on a tool call (Gemini's thoughtSignature)
    REDACTED = "redacted"  # redacted reasoning blocks
    MULTI_REASONING = "multi-reasoning"  # several reasoning blocks in one message
    INTERLEAVED = "interleaved"  # reasoning after text or a tool call in one message
    TOOLS = "tools"
    USAGE = "usage"  # reasoning token counts
    ERRORS = "errors"  # mid-stream error frames


@dataclass(frozen=True, slots=True)
class Senders:
    """Who sends one variant: ``providers`` (claimable: names of ``PROVIDERS``, what a profile's
    ``providers = [...]`` claims), ``servers`` (other software known to send the same form, for the
    reader), the request field that turns the form on (``trigger``, "" when the form is the default or
    not known) and a docs link. No providers: any SUT whose ``providers`` are not narrowed claims it."""

    providers: tuple[str, ...]
    servers: tuple[str, ...] = ()
    trigger: str = ""
    docs: str = ""


@dataclass(frozen=True, slots=True)
class Variant:
    """One way a dialect carries reasoning. ``name`` is the slug used in case ids; ``catalog_id`` is the
    row of wire-formats.md section 12 (``CC-RC``...)."""

    name: str
    catalog_id: str
    dialect: str
    description: str
    caps: frozenset[Caps]
    premise: frozenset[Caps] = frozenset()
    """What a case must carry to run on this variant: what the variant plays that its siblings do not
    (``anthropic-messages:redacted``: a redacted block; without one its case is another variant's)."""
    paths: tuple[str, ...] = ()
    """The path suffixes of the variant's own endpoint, where its siblings use others (Vertex's
    ``:streamRawPredict``, Bedrock InvokeModel's, Ollama's ``/api/generate``); () for the dialect's."""
    provider: str = ""
    """The provider a lenient case on this variant plays (its wire's; "": the dialect's)."""
    model: str = ""
    """The model a case is called by when only some of the provider's models send this form ("": the
    provider's default, or its strict rules')."""
    senders: Senders = Senders(())
    forms: tuple[str, ...] = ()
    """The request-forms rows (``_request_forms.ROWS`` by name) that govern this variant."""
    asks: Mapping[str, Any] = field(default_factory=dict)
    """What a client that wants this form adds to its request (MiniMax's ``reasoning_split``)."""
    shape: Shape | None = None
    """Chat Completions: the stream's shape (where reasoning rides, the role chunk, usage ...)."""
    like: str = ""
    """A sibling whose cases this variant plays too: a scenario that narrows its variants to a list naming
    ``like`` runs on this one as well (a file-declared variant joins the catalog where its sibling is)."""
    rules: str = ""
    """The strict provider rules a case on this variant plays when its scenario names none (a file's
    ``[strict]`` rule); "": lenient."""
    source: str = ""
    """Where the row was declared: "" for a built-in row, else the TOML file (``--variants-dir``)."""


def by_name(rows: Iterable[Variant]) -> dict[str, Variant]:
    """A dialect's variants keyed by name, from its rows (the only place a variant's facts are written)."""
    return {v.name: v for v in rows}
