"""One word per idea (issue 38): "profile" is the SUT's profile only; what a strict provider enforces is
its "provider rules". The old spellings users wrote (a scenario's ``profile``, ``serve --profile``) keep
working for now, each with a one-line warning; the old names are gone from the code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import harness
from harness import ScenarioError
from harness._cli_parser import build_parser
from harness.catalog import expand, load_scenario

ROOT = Path(harness.__file__).parent

SCENARIO = """
description = "d"
requirement = "The SUT MUST do it."
category = "tools-passback"
dialects = ["openai-chat"]
variants = ["reasoning_content"]
{rules}

[[turns]]
user = "hi"
steps = [ {{ reasoning = "r" }}, {{ text = "t" }} ]
"""


def _write(tmp_path: Path, rules: str) -> Path:
    p = tmp_path / "x" / "case.toml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(SCENARIO.format(rules=rules))
    return p


def test_provider_rules_field_names_the_strict_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = load_scenario(_write(tmp_path, 'provider_rules = "deepseek-v4"'), tmp_path)
    assert s.rules_for("openai-chat") == "deepseek-v4"
    assert [c.provider_rules for c in expand(s)] == ["deepseek-v4"]
    assert capsys.readouterr().err == ""


def test_the_old_profile_field_still_works_with_one_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, 'profile = { openai-chat = "kimi" }')
    s = load_scenario(path, tmp_path)
    assert s.rules_for("openai-chat") == "kimi"
    assert [c.provider_rules for c in expand(s)] == ["kimi"]
    err = capsys.readouterr().err
    assert err == f"thinkwire: warning: {path}: profile is deprecated; use provider_rules\n"


def test_the_old_field_is_checked_as_the_new_one(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as bad:
        load_scenario(_write(tmp_path, 'profile = "deepsek-v4"'), tmp_path)
    assert "profile" in str(bad.value)  # the field as written
    assert "deepseek-v4" in str(bad.value)  # the fix
    with pytest.raises(ScenarioError, match="the old name of provider_rules"):
        load_scenario(_write(tmp_path, 'profile = "kimi"\nprovider_rules = "kimi"'), tmp_path)


def test_serve_profile_flag_is_a_deprecated_alias(capsys: pytest.CaptureFixture[str]) -> None:
    ns = build_parser().parse_args(["serve", "--profile", "deepseek-v4"])
    assert ns.provider_rules == "deepseek-v4"
    assert capsys.readouterr().err == "thinkwire: warning: --profile is deprecated; use --provider-rules\n"
    assert build_parser().parse_args(["serve"]).provider_rules == "lenient"


OLD_NAMES = {"ProviderProfile", "LenientProfile"}


def test_no_provider_profile_name_in_harness() -> None:
    """Guard: the provider side's old class names appear nowhere in the package (names, attributes,
    imports, strings), and no dialect module is named ``*_profiles.py``."""
    found = []
    files = sorted(ROOT.rglob("*.py"))
    assert len(files) > 50  # the walk found the package
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Name):
                names = [node.id]
            elif isinstance(node, ast.Attribute):
                names = [node.attr]
            elif isinstance(node, ast.ClassDef | ast.FunctionDef):
                names = [node.name]
            elif isinstance(node, ast.alias):
                names = [node.name.rsplit(".", 1)[-1], node.asname or ""]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names = [w for w in OLD_NAMES if w in node.value]
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
            found += [f"{where}: {n}" for n in names if n in OLD_NAMES]
    assert found == []
    profiles = [p.name for p in (ROOT / "dialects").rglob("*_profiles.py")]
    assert profiles == []
    assert not (ROOT / "upstream" / "_profile.py").exists()
