"""``harness.claims`` declares, where a Python SUT is defined, that it reports no token usage and which
variants it does not handle (issue 49): each reaches the resolved profile, and a bad name is one error."""

from __future__ import annotations

import dataclasses

import pytest

import harness
from harness import ProfileError
from harness.drivers import parse_profile, with_declared_claims
from harness.runner import RunOptions


def _sut(**claims: object) -> object:
    @harness.claims(**claims)  # type: ignore[arg-type]
    def sut(request: object) -> list[object]:
        return []

    return sut


def test_usage_and_unsupported_variants_reach_the_profile() -> None:
    sut = _sut(usage=False, unsupported_variants=["openai-chat:reasoning"], concurrent=True)
    profile = RunOptions(sut=sut).resolve().profile  # type: ignore[arg-type]
    assert profile.reports_usage is False
    assert profile.unsupported_variants == ("openai-chat:reasoning",)
    assert not profile.claims("openai-chat", "reasoning")
    assert profile.claims("openai-chat", "reasoning_content")
    assert sut.thinkwire_concurrent is True  # type: ignore[attr-defined]


def test_a_profile_adds_its_unsupported_variants_and_cannot_make_it_report_usage() -> None:
    base = parse_profile(
        {"kind": "python", "callable": "x:y", "unsupported_variants": ["gemini:thought"], "usage": True}
    )
    merged = with_declared_claims(base, _sut(usage=False, unsupported_variants=["openai-chat:reasoning"]))
    assert merged.unsupported_variants == ("gemini:thought", "openai-chat:reasoning")
    assert merged.reports_usage is False
    untouched = with_declared_claims(base, _sut())
    assert untouched == base
    said_usage = with_declared_claims(dataclasses.replace(base, reports_usage=False), _sut(usage=True))
    assert said_usage.reports_usage is False  # the profile says no usage: it stays off


def test_an_unknown_variant_is_one_error_naming_the_attribute() -> None:
    with pytest.raises(ProfileError) as bad:
        RunOptions(sut=_sut(unsupported_variants=["openai-chat:reasonin"])).resolve()  # type: ignore[arg-type]
    said = str(bad.value)
    assert "thinkwire_unsupported_variants" in said
    assert "'openai-chat:reasonin'" in said
    assert "openai-chat:reasoning" in said
    assert "\n" not in said
