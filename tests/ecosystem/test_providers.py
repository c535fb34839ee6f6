"""Provider-aware cases: each case knows which provider its upstream plays (``SUTRequest.provider``)
and is called by that provider's realistic model name, so a wrapper that keys passback on the model
name is exercised as in production; ``models`` keys may name providers; ``providers = [...]`` claims
providers' semantics, and the passback rules of the others are UNSUPPORTED with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness._errors import ProfileError
from harness.dialects import dialect_names, get_dialect
from harness.dialects._providers import PROVIDERS, provider_of
from harness.drivers import parse_profile
from harness.runner import load_cases, run
from harness.verdict import Verdict

HERE = str(Path(__file__).parent)
KIMI = "tools-passback/kimi-reasoning-content[openai-chat:reasoning_content/frames]"
DEEPSEEK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"


def toy(name: str, **extra: Any) -> Any:
    data: dict[str, Any] = {"kind": "python", "callable": f"_toy_framework:{name}", "sys_path": [HERE]}
    data.update(extra)
    return parse_profile(data)


def seen() -> list[dict[str, Any]]:
    import _toy_framework

    return _toy_framework.SEEN


def verdicts(result: Any) -> dict[str, Verdict]:
    return {r.case_id: r.stream for r in result.results}


def test_name_keyed_wrapper_is_caught_on_the_kimi_case() -> None:
    seen().clear()
    result = run([KIMI, DEEPSEEK], sut=toy("name_keyed_framework"))
    assert verdicts(result) == {KIMI: Verdict.FAIL, DEEPSEEK: Verdict.PASS}
    (kimi,) = [r for r in result.results if r.case_id == KIMI]
    assert any(f.check == "passback" and "rejected" in f.message for f in kimi.findings)
    by_provider = {s["provider"]: s["model"] for s in seen()}
    assert by_provider == {"kimi": "kimi-k2.6", "deepseek": "deepseek-v4-flash"}


def test_a_dialect_wide_deepseek_name_hides_the_bug_and_a_provider_key_finds_it() -> None:
    hidden = run([KIMI], sut=toy("name_keyed_framework", models={"openai-chat": "deepseek-v4-flash"}))
    assert verdicts(hidden) == {KIMI: Verdict.PASS}  # the false pass issue 22 reported
    found = run(
        [KIMI],
        sut=toy("name_keyed_framework", models={"openai-chat": "deepseek-v4-flash", "kimi": "kimi-k2.6"}),
    )
    assert verdicts(found) == {KIMI: Verdict.FAIL}


def test_model_templates_know_the_provider() -> None:
    profile = parse_profile({"kind": "url", "url": "http://x", "models": {"*": "{provider}/{default_model}"}})
    case = next(c for c in load_cases([KIMI]))
    assert profile.model_for(case.dialect, case.variant, case.provider) == "kimi/kimi-k2.6"


def test_unclaimed_provider_passback_is_unsupported_with_the_reason() -> None:
    result = run([KIMI, DEEPSEEK], sut=toy("name_keyed_framework", providers=["deepseek"]))
    assert verdicts(result) == {KIMI: Verdict.UNSUPPORTED, DEEPSEEK: Verdict.PASS}
    (kimi,) = [r for r in result.results if r.case_id == KIMI]
    (why,) = [f.message for f in kimi.findings if f.check == "support"]
    assert "kimi" in why
    assert "providers = [deepseek]" in why
    assert result.exit_code == 0


def test_unclaimed_providers_are_listed_in_the_summaries() -> None:
    import io

    from harness.report._console import print_summary
    from harness.report._markdown import render_markdown

    result = run([KIMI, DEEPSEEK], sut=toy("correct_framework", providers=["deepseek"]))
    out = io.StringIO()
    print_summary(result, out)
    assert "not claimed" in out.getvalue()
    assert KIMI in out.getvalue()
    assert "Not claimed** (profile `providers`): kimi's" in render_markdown(result)


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"providers": ["kimmi"]}, r"providers.*'kimmi'.*kimi"),
        ({"models": {"deepsek": "x"}}, r"models\.deepsek.*deepseek"),
        ({"models": {"*": "{provder}"}}, r"models\.\*.*\{provider\}"),
    ],
)
def test_provider_keys_are_checked(data: dict[str, Any], match: str) -> None:
    with pytest.raises(ProfileError, match=match):
        parse_profile({"kind": "url", "url": "http://x", **data})


def test_every_strict_provider_profile_plays_a_named_provider() -> None:
    for d in dialect_names():
        for name in get_dialect(d).provider_rules():
            if name != "lenient":
                assert any(name in p.rules for p in PROVIDERS.values()), f"{d}:{name} plays no provider"
    for d in dialect_names():
        for v in get_dialect(d).variants:
            assert provider_of(d, v).name in PROVIDERS
