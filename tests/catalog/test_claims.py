"""Claims scope the catalog (``_claims``): a quick run claims its front door's dialect only, ``--dialects``
says more, ``providers`` selects variants, ``modes`` a stream-only system, a Python callable declares
its own; what is not claimed is left out (counted by reason, never a verdict); a shadowing
``models."*"`` is warned about."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import harness
from harness import FlagError, ProfileError, run
from harness.catalog._claims import scope, setting_warnings
from harness.drivers import load_profile, parse_profile
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


def test_providers_leave_out_the_variants_no_provider_sends() -> None:
    """The alias spellings only older servers send (``alias-*``) are claimed by no provider: a SUT that
    narrows ``providers`` is not judged on them, and the summary's reason says so."""
    cases = load_cases(["wire-variants/reasoning-then-answer"])
    narrowed = parse_profile({"kind": "url", "url": "http://x", "providers": ["openai"]})
    kept, left = scope(cases, narrowed)
    aliases = {c.variant for c in cases if c.variant.startswith("alias-")}
    assert aliases == {"alias-string", "alias-object", "alias-summary"}
    assert not aliases & {c.variant for c in kept}
    assert {c.variant for c in kept if c.dialect == "openai-responses"} >= {"summary", "reasoning_text"}
    said = [why for why in left if "alias-string" in why]
    assert said == [
        "openai-responses:alias-string: no provider sends it (sent by open-responses servers), so none of "
        "the claimed ones does (providers = ['openai'])"
    ]
    everyone = parse_profile({"kind": "url", "url": "http://x"})  # providers not narrowed: judged
    assert aliases <= {c.variant for c in scope(cases, everyone)[0]}


def test_parses_claims_the_markup_a_sut_splits(tmp_path: Path) -> None:
    """``parses`` names in-content reasoning markup; one it does not name is owed verbatim. Without the
    key (every profile written before it existed) every markup is claimed, as it was judged then; a quick
    ``--sut-cmd`` / ``--sut-url`` run claims neither and is judged by what it did."""
    from harness.drivers import MARKUP

    assert list(MARKUP) == ["think-tags", "mm-think", "harmony", "thought-tags"]
    old = parse_profile({"kind": "url", "url": "http://x"})
    assert old.parses is None
    assert not any(old.relays_markup("openai-chat", v) for v in ("think-tags", "mm-think", "gemini-openai"))
    relay = parse_profile({"kind": "url", "url": "http://x", "parses": []})
    assert all(relay.relays_markup("openai-chat", v.split(":")[1]) for vs in MARKUP.values() for v in vs)
    assert not relay.relays_markup("openai-chat", "reasoning_content")  # structured: nothing to parse
    quick = command_profile("gw --port {port}", "openai-chat")  # a quick run: no profile speaks for it
    assert (quick.parses, quick.markup_claim("openai-chat", "think-tags")) == (None, "either")
    assert quick.markup_claim("openai-chat", "reasoning") == ""
    assert url_profile("http://x", "openai-chat").markup_claim("openai-chat", "harmony") == "either"
    think = parse_profile({"kind": "url", "url": "http://x", "parses": ["think-tags"]})
    assert not think.relays_markup("openai-chat", "think-split")
    assert think.relays_markup("openai-chat", "mm-think")
    bad = tmp_path / "gw.toml"
    bad.write_text('kind = "url"\nurl = "http://x"\nparses = ["think"]\n')
    with pytest.raises(ProfileError, match=r"gw.toml: field 'parses': unknown markup 'think' \(did you mean"):
        load_profile(bad)
    bad.write_text('kind = "url"\nurl = "http://x"\nparses = "think-tags"\n')
    fix = r"field 'parses': expected a list.*e\.g\. parses = \[\"think-tags\"\]"
    with pytest.raises(ProfileError, match=fix):
        load_profile(bad)


def test_markup_names_every_variant_that_carries_reasoning_in_the_content() -> None:
    """Read literally (no markup split), the variants of ``MARKUP`` deliver their reasoning inside the
    answer text, and no other variant of any dialect does: the table stays complete as dialects grow."""
    from harness.dialects import all_variants
    from harness.drivers import MARKUP
    from harness.events import End, ReasoningDelta, TextDelta
    from harness.judge._view import relayed_events

    turn = (ReasoningDelta("Mulling it over."), TextDelta("Hi."), End("stop"))
    inline = set()
    for v in all_variants():
        read = relayed_events(v.dialect, v.name, turn)
        if "Mulling" in "".join(e.text for e in read if isinstance(e, TextDelta)):
            inline.add(f"{v.dialect}:{v.name}")
    assert inline == {v for vs in MARKUP.values() for v in vs}


def test_relayed_gates_wait_for_the_reasoning_as_content() -> None:
    from harness.catalog._claims import relayed_gates
    from harness.upstream import Gate

    (case,) = load_cases(["incrementality/gated-reasoning[openai-chat:think-tags/frames]"])
    conv = case.conversation("m")
    gates = [s for sc in conv.scripts for s in sc.steps if isinstance(s, Gate)]
    assert gates
    assert all(g.reasoning and g.text is None for g in gates)
    relay = parse_profile({"kind": "url", "url": "http://x", "parses": []})
    moved = [s for sc in relayed_gates(case, relay, conv).scripts for s in sc.steps if isinstance(s, Gate)]
    assert [(g.reasoning, g.text, g.as_content) for g in moved] == [(g.reasoning, None, True) for g in gates]
    quick = command_profile("gw --port {port}", "openai-chat")  # no claim either way: the same gates
    assert relayed_gates(case, quick, conv).scripts == relayed_gates(case, relay, conv).scripts
    parser = parse_profile({"kind": "url", "url": "http://x", "parses": ["think-tags"]})
    assert relayed_gates(case, parser, conv) is conv


def test_observed_parses_claims_what_discovery_saw_split() -> None:
    from harness.catalog._claims import observed_parses
    from harness.runner._probe import VariantProbe

    def seen(variant: str, evidence: str, claimed: bool = True) -> VariantProbe:
        return VariantProbe("openai-chat", variant, "c", claimed, evidence)

    split = "upstream reached; the client got reasoning '[tw-1] Hm', text 'Hello!' (status 200)"
    verbatim = "upstream reached; the client got no reasoning, text '<think>[tw-1] Hm' (status 200)"
    assert observed_parses([seen("think-tags", verbatim), seen("mm-think", verbatim)]) == "parses = []"
    probes = [seen("think-tags", verbatim), seen("think-split", split), seen("harmony", split),
              seen("mm-think", split, claimed=False), seen("reasoning", split)]  # fmt: skip
    assert observed_parses(probes) == 'parses = ["think-tags", "harmony"]'
