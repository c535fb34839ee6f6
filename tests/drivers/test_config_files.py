"""Config-file SUTs: a profile's ``files`` are rendered into the SUT's ``{tmp}``, inline or from a
template file beside the profile, with every placeholder: once per run for a gateway (a process that
reads its upstream and port from the file only), per case for a Python SUT (``request.tmp``, with the
case's ``{model}`` and ``{dialect}``). A bad template is a profile error naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness._errors import ProfileError
from harness.drivers import load_profile
from harness.runner import run
from harness.verdict import Status, Verdict

HERE = Path(__file__).parent
PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
CHAT = "openai-chat:reasoning_content"

GATEWAY_TEMPLATE = """# rendered by thinkwire into {tmp}
[upstream]
base_url = "{upstream}"

[listen]
port = {port}
"""


def write_profile(tmp_path: Path, body: str, **templates: str) -> Path:
    for name, text in templates.items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "sut.toml"
    path.write_text(body)
    return path


def test_a_gateway_reads_its_config_file_rendered_from_a_template(tmp_path: Path) -> None:
    path = write_profile(
        tmp_path,
        f"""name = "config-gateway"
kind = "gateway"
command = ["{{python}}", {str(HERE / "_config_gateway.py")!r}, "{{tmp}}/conf/gateway.toml"]
files = {{ "conf/gateway.toml" = {{ template = "gateway.toml.in" }} }}
""",
        **{"gateway.toml.in": GATEWAY_TEMPLATE},
    )
    (r,) = run([PLAIN], sut=str(path), preflight=False).results
    assert r.status is Status.OK, r.error
    assert r.stream is Verdict.PASS, [(f.check, f.message) for f in r.failing()]


def test_a_python_sut_reads_its_per_case_config_from_request_tmp(tmp_path: Path) -> None:
    import _config_suts

    _config_suts.SEEN.clear()
    path = write_profile(
        tmp_path,
        f"""name = "config-python"
kind = "python"
callable = "_config_suts:from_file"
sys_path = [{str(HERE)!r}]
files = {{ "sut.toml" = {{ template = "sut.toml.in" }} }}
""",
        **{"sut.toml.in": 'base_url = "{upstream}"\nmodel = "{model}"\ndialect = "{dialect}"\n'},
    )
    (r,) = run([PLAIN], sut=str(path), preflight=False).results
    assert r.status is Status.OK, r.error
    assert r.stream is Verdict.PASS, [(f.check, f.message) for f in r.failing()]
    (tmp,) = _config_suts.SEEN
    assert tmp
    assert not Path(tmp).exists()  # the case's directory went with the case


@pytest.mark.parametrize(
    ("kind", "files", "template", "says"),
    [
        ("gateway", '{ "g.toml" = { template = "missing.in" } }', None,
         "'files.g.toml.template': cannot read the template"),
        ("gateway", '{ "g.toml" = { template = "g.in" } }', "u = {upstrem}",
         "files.g.toml.template ("),
        ("gateway", '{ "g.toml" = { template = "g.in" } }', "model = {model}",
         "{model} is known per case only"),
        ("gateway", '{ "g.toml" = { path = "g.in" } }', None, "a table { template = PATH }"),
        ("python", '{ "s.toml" = "m = {prompt}" }', None, "files.s.toml"),
    ],
)
def test_a_bad_file_is_a_profile_error_naming_it(
    tmp_path: Path, kind: str, files: str, template: str | None, says: str
) -> None:
    needs = 'command = ["gw"]' if kind == "gateway" else 'callable = "m:f"'
    path = write_profile(tmp_path, f'kind = "{kind}"\n{needs}\nfiles = {files}\n')
    if template is not None:
        (tmp_path / "g.in").write_text(template)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert says in str(info.value), str(info.value)
    assert str(path) in str(info.value)


def test_inline_files_still_work_for_a_python_sut(tmp_path: Path) -> None:
    content = json.dumps('base_url = "{upstream}"\nmodel = "{model}"\ndialect = "{dialect}"\n')
    path = write_profile(
        tmp_path,
        f"""kind = "python"
callable = "_config_suts:from_file"
sys_path = [{str(HERE)!r}]
files = {{ "sut.toml" = {content} }}
""",
    )
    (r,) = run([PLAIN], sut=str(path), preflight=False).results
    assert r.stream is Verdict.PASS, (r.error, [(f.check, f.message) for f in r.failing()])



