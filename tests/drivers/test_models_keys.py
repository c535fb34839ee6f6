"""``models`` keys: a provider, a dialect, ``provider:``/``dialect:`` to say which, ``*``; a bare name
that is both (gemini) is refused, since the provider covers Gemini's OpenAI endpoint too."""

from __future__ import annotations

import pytest

from harness._errors import ProfileError
from harness.dialects._providers import provider_of
from harness.drivers import parse_profile

BASE = {"kind": "url", "url": "http://127.0.0.1:1"}


def test_provider_and_dialect_keys_are_told_apart() -> None:
    p = parse_profile({**BASE, "models": {"dialect:gemini": "native", "provider:gemini": "any-endpoint"}})
    native = provider_of("gemini", "thought")
    compat = provider_of("openai-chat", "gemini-openai")
    assert native.name == compat.name == "gemini"
    assert p.model_for("gemini", "thought", native) == "any-endpoint"  # the provider key wins
    q = parse_profile({**BASE, "models": {"dialect:gemini": "native", "*": "other"}})
    assert q.model_for("gemini", "thought", native) == "native"
    assert q.model_for("openai-chat", "gemini-openai", compat) == "other"


def test_a_bare_name_that_is_both_is_an_error() -> None:
    with pytest.raises(ProfileError, match="provider:gemini"):
        parse_profile({**BASE, "models": {"gemini": "g"}})
