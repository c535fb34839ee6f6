"""Routing tokens: what a case's token is, how it is derived from the case id, and how one is found in bytes
or taken out of text. These are pure functions with no table, the ground floor every layer names tokens
with."""

from __future__ import annotations

import hashlib
import re

__all__ = ["ROUTE_HEADER", "TOKEN_RE", "token_for", "tokens_in", "unsalted"]

ROUTE_HEADER = "x-thinkwire-case"
"""The request header that may name a conversation (a token, or a case id where the server knows
the catalog), read before the body."""

TOKEN_RE = re.compile(rb"tw-[0-9a-f]{8}(?![0-9A-Za-z])")
"""A routing token in raw bytes: plain ASCII, so it reads the same inside any JSON string."""


def token_for(name: str) -> str:
    """The routing token of the case (or conversation) called ``name``: the same in every run.

    A token is ``tw-`` and 8 hex digits of a hash of the case id, so serial and concurrent runs send the
    same bytes. It travels in the content gateways forward: the user message text, and the salt of the
    reasoning and answer the mock emits. ``x-thinkwire-case`` may name a conversation too, where headers
    pass through.
    """
    return "tw-" + hashlib.blake2s(name.encode(), digest_size=4).hexdigest()


def tokens_in(data: bytes) -> list[str]:
    """Every distinct routing token in ``data``, in order of first appearance."""
    if b"tw-" not in data:  # most bodies: one substring scan, no regex
        return []
    return list(dict.fromkeys(m.group().decode() for m in TOKEN_RE.finditer(data)))


def unsalted(text: str, token: str) -> str:
    """``text`` without the salt ``token`` put in it (``harness.catalog._salt``: ``[token] `` before a
    turn's reasoning, `` [token]`` after its text): what two cases of one scenario compare."""
    if not token or token not in text:
        return text
    return text.replace(f"[{token}] ", "").replace(f" [{token}]", "")
