"""What a new user meets on a first run (issue 45's papercuts), each fixed: a mistyped flag gets a
did-you-mean, a profile's relative command paths are the profile's, a SUT that exits before it is ready
shows the end of its stderr without ``-v``, the install lines name what can be installed, the CI recipes
pin one version of each action, and the corpus is found beside the checkout thinkwire was installed
from."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.drivers import load_profile

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["run", "--concurency", "8"], "--concurency: did you mean --concurrency?"),
        (["run", "--sut-cmdd", "gw"], "--sut-cmdd: did you mean --sut-cmd?"),
        (["init", "--sut-url", "http://x", "--upstream-lisen", "1"], "did you mean --upstream-listen"),
        (["list", "--by-scenarioo"], "--by-scenarioo: did you mean --by-scenario?"),
    ],
)
def test_a_mistyped_flag_gets_a_did_you_mean(
    argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"thinkwire {argv[0]}: error: unrecognized arguments: " in err
    assert hint in err


def test_an_unknown_flag_near_nothing_gets_no_guess(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--zzz"])
    assert capsys.readouterr().err.splitlines()[-1] == "thinkwire run: error: unrecognized arguments: --zzz"


def test_relative_command_paths_are_the_profiles(tmp_path: Path) -> None:
    """``./gw.py``, ``bin/gw`` and ``python gw.py`` name files beside the profile, wherever thinkwire
    starts; a path the profile's ``files`` write into ``{tmp}`` (where the SUT runs) stays relative."""
    (tmp_path / "gw.py").write_text("")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "gw").write_text("")
    profile = tmp_path / "p.toml"
    for words, want in [
        ('"python3", "gw.py", "--port", "{port}"', ["python3", f"{tmp_path}/gw.py", "--port", "{port}"]),
        ('"{python}", "./gw.py", "openai-chat"', ["{python}", f"{tmp_path}/gw.py", "openai-chat"]),
        ('"bin/gw", "--x"', [f"{tmp_path}/bin/gw", "--x"]),
        ('"sh", "./start.sh"', ["sh", "./start.sh"]),  # (written by files below)
        ('"gw", "gw.py"', ["gw", f"{tmp_path}/gw.py"]),  # (a bare program: on PATH)
    ]:
        profile.write_text(
            f'kind = "gateway"\ncommand = [{words}]\nfiles = {{ "./start.sh" = "exec gw" }}\n',
            encoding="utf-8",
        )
        assert list(load_profile(profile).command) == want, words


def test_a_sut_that_exits_before_it_is_ready_shows_its_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gw = tmp_path / "gw.py"
    gw.write_text("import sys\nprint('starting', file=sys.stderr)\nsys.exit('gw: no config file gw.yaml')\n")
    profile = tmp_path / "gw.toml"
    profile.write_text(f'kind = "gateway"\ncommand = ["{sys.executable}", "gw.py", "--port", "{{port}}"]\n')
    assert main(["run", "--sut", str(profile), "--cases", "timing/*", "-q"]) == 2
    err = capsys.readouterr().err
    assert "SUT exited with code 1 before becoming ready" in err
    assert "its stderr ends:\n  | starting\n  | gw: no config file gw.yaml" in err


def test_install_lines_name_what_can_be_installed() -> None:
    """thinkwire is not on the package index: every ``pip install`` of it names a checkout or a git URL."""
    bad = re.compile(r"""pip install ['"]?thinkwire(\[[\w,]+\])?['"]?(?!\s*@)(\s|`|$)""")
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            assert not bad.search(line), f"{doc.name}:{n}: {line}"


def test_the_ci_recipes_pin_one_version_of_each_action() -> None:
    pins: dict[str, set[str]] = {}
    flows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    files = [ROOT / "docs" / "ci-gate.md", ROOT / "action.yml", *flows]
    for f in files:
        for action, version in re.findall(r"uses: (actions/[\w-]+)@(\S+)", f.read_text(encoding="utf-8")):
            pins.setdefault(action, set()).add(version)
    assert pins["actions/checkout"]
    assert {a: v for a, v in pins.items() if len(v) > 1} == {}


def test_the_corpus_is_looked_for_beside_the_checkout_thinkwire_was_installed_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pip install .`` runs thinkwire from site-packages: inside the checkout, its ../shared/corpus is
    still where the corpus is looked for; outside one, the reason does not say "not a checkout" of a
    checkout."""
    from harness.recording import _corpus

    monkeypatch.delenv("THINKWIRE_CORPUS", raising=False)
    monkeypatch.setattr(_corpus, "checkout_root", lambda: None)  # (as installed, non-editable)
    monkeypatch.chdir(ROOT / "docs")
    where = _corpus.locate()
    assert where.dir == ROOT.parent / "shared" / "corpus"
    monkeypatch.chdir(tmp_path)
    where = _corpus.locate()
    assert where.dir is None
    assert "neither thinkwire's files nor the working directory are in a checkout" in where.how


def test_show_given_a_scenario_id_names_its_cases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "tools-passback/deepseek-reasoning-content"]) == 2
    err = capsys.readouterr().err
    assert "matches 2 cases; name one: tools-passback/deepseek-reasoning-content[openai-chat:" in err


def test_a_mistyped_case_id_gets_a_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "tools-passback/deepseek-reasoning-contnet"]) == 2
    err = capsys.readouterr().err
    assert "did you mean tools-passback/deepseek-reasoning-content" in err
    assert main(["run", "--cases", "zzz*"]) == 2
    assert "did you mean" not in capsys.readouterr().err
