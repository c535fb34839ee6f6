"""The scenario loader: every kind of mistake names the file, the field, the bad value and a fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import ScenarioError
from harness.catalog import expand, load_catalog, load_scenario
from harness.upstream import Emit, Gate

GOOD = """
description = "d"
requirement = "The SUT MUST do it."
category = "wire-variants"
dialects = ["openai-chat"]
variants = ["reasoning_content"]

[[turns]]
user = "hi"
steps = [ { reasoning = "r" }, { gate = { reasoning = "r" } }, { text = "t" } ]
"""


def write(tmp_path: Path, text: str, name: str = "x/case.toml") -> Path:
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def test_good_scenario_loads_with_id_from_path(tmp_path: Path) -> None:
    s = load_scenario(write(tmp_path, GOOD), tmp_path)
    assert s.id == "x/case"
    steps = s.turns[0].steps
    assert isinstance(steps[0], Emit)
    assert isinstance(steps[1], Gate)
    assert isinstance(steps[2], Emit)
    assert [c.id for c in expand(s)] == ["x/case[openai-chat:reasoning_content/frames]"]


BAD = [
    (
        "unknown top-level field",
        GOOD.replace("category =", 'catgory = "x"\ncategory ='),
        "catgory",
        "category",
    ),
    ("missing required", GOOD.replace('description = "d"\n', ""), "description", "missing"),
    ("no MUST", GOOD.replace("MUST do", "should do"), "requirement", "MUST"),
    ("bad category", GOOD.replace('"wire-variants"', '"wire-variant"'), "category", "wire-variants"),
    ("unknown dialect", GOOD.replace('["openai-chat"]', '["openai-chatt"]'), "dialects", "openai-chat"),
    (
        "unknown variant",
        GOOD.replace('["reasoning_content"]', '["reasoning_contnt"]'),
        "variants",
        "reasoning_content",
    ),
    ("wrong type", GOOD.replace('["openai-chat"]', '"openai-chat"'), "dialects", "expected a list"),
    ("unknown step", GOOD.replace("{ text = ", "{ txt = "), "turns[0].steps[2].txt", "text"),
    (
        "two keys in one step",
        GOOD.replace('{ text = "t" }', '{ text = "t", reasoning = "r" }'),
        "turns[0].steps[2]",
        "exactly one",
    ),
    (
        "bad gate",
        GOOD.replace("gate = { reasoning", "gate = { reasonin"),
        "turns[0].steps[1].gate.reasonin",
        "reasoning",
    ),
    ("unknown provider rules", '\nprovider_rules = "deepsek-v4"\n' + GOOD, "provider_rules", "deepseek-v4"),
    ("bad mode", '\nmodes = ["streaming"]\n' + GOOD, "modes", "stream"),
    ("unknown chunking", '\nchunkings = ["per-byte"]\n' + GOOD, "chunkings", "per-byte"),
    ("unknown turn field", GOOD.replace('user = "hi"', 'usr = "hi"'), "turns[0].usr", "user"),
    (
        "empty steps",
        GOOD.replace(
            'steps = [ { reasoning = "r" }, { gate = { reasoning = "r" } }, { text = "t" } ]', "steps = []"
        ),
        "turns[0].steps",
        "missing or empty",
    ),
    (
        "http_error not first",
        GOOD.replace('{ text = "t" }', "{ http_error = { status = 500 } }"),
        "turns[0].steps",
        "first step",
    ),
    ("unknown expect key", '\nexpect = { outcom = "error" }\n' + GOOD, "expect.outcom", "outcome"),
]


@pytest.mark.parametrize(("label", "text", "field", "hint"), BAD, ids=[b[0] for b in BAD])
def test_bad_scenarios_name_file_field_and_fix(
    tmp_path: Path, label: str, text: str, field: str, hint: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, tmp_path)
    err = info.value
    assert err.file == str(path)
    assert err.field == field, str(err)
    assert hint in str(err), str(err)


def test_invalid_toml_names_file(tmp_path: Path) -> None:
    path = write(tmp_path, "description = \n")
    with pytest.raises(ScenarioError, match="not valid TOML") as info:
        load_scenario(path, tmp_path)
    assert str(path) in str(info.value)


def test_bundled_catalog_loads_and_is_large() -> None:
    scenarios = load_catalog()
    cases = [c for s in scenarios for c in expand(s)]
    assert len(cases) >= 300
    assert len({c.id for c in cases}) == len(cases), "case ids must be unique"
    seeds = {seed for s in scenarios for seed in s.seeds}
    assert {
        "pi-thinking-delta",
        "inline-think-leading-only",
        "inline-think-structured-wins",
        "reasoning-delta-alias",
        "anthropic-thinking-signature",
        "responses-summary-requested",
        "deepseek-reasoning-content-passback",
        "deepseek-replay-400",
    } <= seeds


@pytest.mark.parametrize(
    "globs",
    [
        ["wire-variants/reasoning-then-answer"],
        ["wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"],
        ["*[openai-chat:reasoning_content/*"],
        ["keepalive/*", "recorded/*"],
        ["?ire-variants/*"],
        ["recorded/corpus-*"],
        ["wire-variants"],
    ],
)
def test_a_selection_reads_only_the_files_it_can_match_and_selects_the_same_cases(globs: list[str]) -> None:
    from harness.catalog import expand_all, load_catalog, select
    from harness.runner import load_cases

    whole = [c.id for c in select(expand_all(load_catalog()), globs)]
    assert [c.id for c in load_cases(globs)] == whole
    read = {s.id for s in load_catalog(only=globs)}
    assert {c.split("[")[0] for c in whole} <= read
    if not any(g.startswith(("*", "?")) for g in globs):
        assert len(read) < len(load_catalog())  # the other files were not read


def test_the_canary_from_the_plainest_scenario_alone_is_the_whole_catalogs() -> None:
    from dataclasses import replace

    from harness.catalog import expand_all, load_catalog
    from harness.runner._builtin import builtin_profile
    from harness.runner._preflight import canary_case

    whole = expand_all(load_catalog())
    other = replace(builtin_profile("reference-sdk"), dialects=("cohere",))  # none of the plainest scenario
    for profile in (builtin_profile("reference"), builtin_profile("reference-cli"), other):
        assert canary_case(profile).id == canary_case(profile, whole).id
