"""Profile templating: every placeholder works in headers, body, env, files and command ({upstream}
included, {profile_dir}); an unknown placeholder, or a per-case one where only run-wide ones exist, is a
ProfileError naming it (exit 2), never sent literally."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from harness._errors import ProfileError
from harness.drivers import load_profile, parse_profile
from harness.drivers._templates import fill
from harness.runner import run
from harness.verdict import Verdict

GATEWAY = str(Path(__file__).with_name("_tb_gateway.py"))
PLAIN = "wire-variants/reasoning-then-answer[anthropic-messages:thinking/frames]"


@pytest.mark.parametrize(
    ("data", "field", "problem"),
    [
        (
            {"kind": "url", "url": "http://x", "request": {"headers": {"x": "{upstrem}"}}},
            "request.headers.x",
            "unknown placeholder {upstrem}",
        ),
        ({"kind": "gateway", "command": ["gw", "{model}"]}, "command[1]", "{model} is known per case"),
        ({"kind": "gateway", "command": ["gw"], "env": {"A": "{porty}"}}, "env.A", "did you mean 'port'"),
        ({"kind": "gateway", "command": ["gw"], "files": {"c.yaml": "x: {tmpp}"}}, "files.c.yaml", "{tmpp}"),
        ({"kind": "url", "url": "http://{host}"}, "url", "unknown placeholder {host}"),
    ],
)
def test_unknown_placeholders_name_the_field(data: dict[str, Any], field: str, problem: str) -> None:
    with pytest.raises(ProfileError) as info:
        parse_profile(data, source="p.toml")
    assert field in str(info.value)
    assert problem in str(info.value)


def test_cli_command_may_use_per_case_placeholders() -> None:
    parse_profile({"kind": "cli", "command": ["agent", "{model}", "{provider}", "{prompt}", "{session}"]})


def test_fill_is_one_pass_with_escaped_braces() -> None:
    assert fill("{a}-{b}-{{a}}", {"a": "{b}", "b": "B"}) == "{b}-B-{a}"


def test_profile_dir_and_upstream_everywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the toy gateway needs its key header; here the header carries {upstream} too and the env and the
    # command read files relative to {profile_dir}: a routing header a gateway could use as is
    monkeypatch.setenv("TB_KEY", "k-test")
    (tmp_path / "gw.py").write_text(Path(GATEWAY).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "p.toml").write_text(
        "\n".join(
            [
                'kind = "gateway"',
                f'command = ["{sys.executable}", "{{profile_dir}}/gw.py", "ok", "{{port}}", "{{upstream}}"]',
                'env = { TB_KEY = "{env:TB_KEY}", SEEN = "{upstream}|{profile_dir}" }',
                'files = { "seen.txt" = "{upstream}" }',
                'dialects = ["anthropic-messages"]',
                "timeout = 10",
                "[request]",
                'headers = { authorization = "Bearer {env:TB_KEY}", x-upstream = "{upstream}/{provider}" }',
            ]
        ),
        encoding="utf-8",
    )
    profile = load_profile(tmp_path / "p.toml")
    assert profile.profile_dir == str(tmp_path.resolve())
    result = run([PLAIN], sut=profile)
    (r,) = result.results
    assert r.stream is Verdict.PASS, r.error
    from harness.drivers._shaping import shaping

    shape = shaping(
        profile.request,
        front_door="openai-chat",
        dialect="openai-chat",
        variant="reasoning",
        model="m",
        values=profile.run_values(upstream="http://127.0.0.1:9", provider="kimi"),
    )
    assert shape.headers["x-upstream"] == "http://127.0.0.1:9/kimi"
    assert shape.headers["authorization"] == "Bearer k-test"
