"""Claims scope the catalog (``_claims``): a quick run claims its front door's dialect only, ``--dialects``
says more, ``providers`` selects variants, ``modes`` a stream-only system, a Python callable declares
its own; what is not claimed is left out (counted by reason, never a verdict); a shadowing
``models."*"`` is warned about."""

from __future__ import annotations

from dataclasses import replace

import pytest

import harness
from harness import FlagError, ProfileError, run
from harness.catalog._claims import scope, setting_warnings
from harness.drivers import parse_profile
from harness.runner import RunOptions, load_cases
from harness.runner._sut import command_profile, url_profile

CASES = load_cases(["tools-passback/*", "wire-variants/reasoning-then-answer"])


def dialects(cases: list) -> set[str]:  # type: ignore[type-arg]
    return {c.dialect for c in cases}


def test_a_quick_run_claims_its_front_doors_dialect_only() -> None:
    quick = (command_profile("gw --port {port}", "openai-chat"), url_profile("http://x", "openai-chat"))
    for profile in quick:
        kept, left = scope(CASES, profile)
        assert dialects(kept) == {"openai-chat"}
        assert sum(left.values()) == len(CASES) - len(kept) > 0
        assert all(
            "dialect not claimed (claimed: openai-chat)" in why
            or why.startswith("front door openai-chat: the case is for openai-responses")  # the bridge cases
            for why in left
        )
        assert any(why.startswith("anthropic-messages:") for why in left)


def test_dialects_flag_says_more_and_is_checked() -> None:
    more = ("openai-chat,anthropic-messages",)
    opts = RunOptions(sut=command_profile("gw", "openai-chat"), dialects=more)
    profile = opts.resolve().profile
    assert profile.dialects == ("openai-chat", "anthropic-messages")
    assert dialects(scope(CASES, profile)[0]) == {"openai-chat", "anthropic-messages"}
    assert "--dialects" in opts.reproduce_flags()
    with pytest.raises(FlagError, match=r"--dialects: unknown dialect 'antropic-messages'"):
        RunOptions(dialects=("antropic-messages",))


def test_providers_select_variants() -> None:
    profile = replace(command_profile("gw", "openai-chat"), providers=("deepseek",))
    kept, left = scope(CASES, profile)
    assert {c.variant for c in kept} == {"reasoning_content"}
    assert any("reasoning_details: sent by openrouter, none of them claimed" in why for why in left)
    opts = RunOptions(sut=command_profile("gw", "openai-chat"), providers=("openrouter",))
    flagged = opts.resolve().profile
    assert {c.variant for c in scope(CASES, flagged)[0]} >= {"reasoning_details", "reasoning"}


def test_modes_declare_a_stream_only_system() -> None:
    profile = parse_profile({"kind": "url", "url": "http://x", "modes": ["stream"]})
    kept, left = scope(CASES, profile)
    assert kept
    assert all(c.stream for c in kept)
    assert any("nonstream mode not claimed" in why for why in left)
    with pytest.raises(ProfileError, match=r"modes.*'streaming'.*stream"):
        parse_profile({"kind": "url", "url": "http://x", "modes": ["streaming"]})


def test_front_variant_flag_pins_the_echo_carrier() -> None:
    profile = RunOptions(sut=url_profile("http://x"), front_variant="reasoning_content").resolve().profile
    assert (profile.front_variant, profile.front_variant_pinned) == ("reasoning_content", True)
    assert not url_profile("http://x").front_variant_pinned
    with pytest.raises(FlagError, match=r"--front-variant: unknown variant 'reasoning_contnet'"):
        RunOptions(sut=url_profile("http://x"), front_variant="reasoning_contnet").resolve()


@pytest.mark.parametrize(
    ("door", "variant", "path"),
    [
        ("openai-chat", "reasoning", "/v1/chat/completions"),
        ("anthropic-messages", "thinking", ""),  # "": the dialect's own path, /v1/messages
        ("openai-responses", "summary", ""),
    ],
)
def test_a_quick_front_door_asks_in_its_own_variant_at_its_own_path(
    door: str, variant: str, path: str
) -> None:
    """``--front-door anthropic-messages`` without a profile asked in chat's ``reasoning`` variant (a
    harness error on every case) and posted to /v1/chat/completions."""
    for profile in (command_profile("gw --port {port}", door), url_profile("http://x", door)):
        assert (profile.front_variant, profile.path, profile.front_variant_pinned) == (variant, path, False)


def test_a_callable_declares_its_claims_where_it_is_defined() -> None:
    @harness.claims(dialects=["anthropic-messages"], providers=["anthropic"], modes=["stream"])
    def sut(request: object) -> list[object]:
        return []

    profile = RunOptions(sut=sut).resolve().profile
    assert (profile.dialects, profile.providers, profile.modes) == (
        ("anthropic-messages",), ("anthropic",), ("stream",),
    )
    kept, _ = scope(CASES, profile)
    assert kept
    assert all(c.dialect == "anthropic-messages" and c.stream for c in kept)
    sut.thinkwire_dialects = ("anthropic",)  # type: ignore[attr-defined]
    with pytest.raises(ProfileError, match=r"thinkwire_dialects.*unknown dialect 'anthropic'"):
        RunOptions(sut=sut).resolve()


def test_what_is_left_out_is_in_the_result_and_never_a_verdict() -> None:
    result = run(["tools-passback/anthropic-*"], sut=command_profile("no-such-gateway", "openai-chat"))
    assert result.results == []  # nothing claimed: no SUT started, no verdict
    assert sum(result.left_out.values()) == len(load_cases(["tools-passback/anthropic-*"]))
    assert result.exit_code == 0


def test_a_shadowing_star_model_is_warned_about() -> None:
    pinned = parse_profile({"kind": "url", "url": "http://x", "models": {"*": "gpt-4o"}})
    (warning,) = setting_warnings(pinned)
    assert "models.\"*\" = 'gpt-4o' shadows the per-provider model names of deepseek" in warning
    assert "(deepseek-v4-flash)" in warning
    templated = parse_profile({"kind": "url", "url": "http://x", "models": {"*": "gw/{default_model}"}})
    assert setting_warnings(templated) == []
    assert setting_warnings(parse_profile({"kind": "url", "url": "http://x"})) == []


def test_the_summary_lists_what_was_left_out_and_the_warnings() -> None:
    import io
    import json

    import jsonschema

    from harness.report import SCHEMA_PATH, from_json, render_markdown, to_json
    from harness.report._console import print_summary
    from harness.runner import RunResult

    result = RunResult(sut="gw", left_out={"gemini: dialect not claimed (claimed: openai-chat)": 4},
                       warnings=['models."*" = \'x\' shadows ...'])
    out = io.StringIO()
    print_summary(result, out)
    assert "left out (4 case(s), not run, no verdict)" in out.getvalue()
    assert "4 gemini: dialect not claimed" in out.getvalue()
    assert "warning: models.\"*\"" in out.getvalue()
    md = render_markdown(result)
    assert "**Left out**" in md
    assert "- 4 gemini: dialect not claimed" in md
    assert "**Warning:**" in md
    doc = to_json(result)
    jsonschema.validate(doc, json.loads(SCHEMA_PATH.read_text()))
    back = from_json(json.loads(json.dumps(doc)))
    assert (back.left_out, back.warnings) == (result.left_out, result.warnings)


def test_the_preflight_canary_is_a_claimed_case() -> None:
    from harness.runner._preflight import canary_case

    whole = parse_profile({"kind": "url", "url": "http://x", "modes": ["nonstream"], "providers": ["kimi"]})
    canary = canary_case(whole)
    assert not canary.stream
    assert canary.dialect == "openai-chat"
    assert canary.variant == "reasoning_content"
    assert canary_case(url_profile("http://x", "anthropic-messages")).dialect == "anthropic-messages"
