"""Every code snippet in README.md and docs/*.md runs in a test (issue 26, item 9), as docs/pytest.md's
examples already do (tests/examples, kept in sync by tests/test_docs.py):

- ``python``: executed (the README's quick example against an in-repo ``mypkg.adapter``);
- ``sh``: checked by ``bash -n``; every ``thinkwire`` command parsed by thinkwire's own argument
  parser, and the cheap ones run (``list``; ``serve``'s dialect/variant/profile resolved); ``pip`` and
  ``nox`` lines name what this repository has (a path, its extras, its sessions);
- ``toml``: loaded by the loader it is written for (scenario, SUT profile, expectations);
- ``yaml`` (the CI recipe): its ``run:`` commands checked like ``sh`` lines;
- inline ``thinkwire ...`` commands in the prose: parsed.

A fenced block in a language this file does not know fails, so a new kind of snippet gets a check.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.catalog import load_expectations
from harness.catalog._scenario import parse_scenario
from harness.cli import build_parser, main
from harness.drivers import parse_profile

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```\n", re.S | re.M)
INCLUDED = re.compile(r"<!-- include: \S+ -->\n```\w+\n.*?```\n<!-- end include -->", re.S)
KNOWN = {"python", "sh", "toml", "yaml", ""}  # "": output, diagrams and messages, not code


@dataclass(frozen=True)
class Snippet:
    doc: str
    line: int
    lang: str
    body: str

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def snippets() -> list[Snippet]:
    out = []
    for md in DOCS:
        text = INCLUDED.sub(lambda m: "\n" * m.group(0).count("\n"), md.read_text(encoding="utf-8"))
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append(Snippet(md.relative_to(ROOT).as_posix(), line, m.group("lang"), m.group("body")))
    return out


ALL = snippets()


def of(lang: str) -> list[Any]:
    return [pytest.param(s, id=s.id) for s in ALL if s.lang == lang]


def test_the_docs_have_snippets_and_every_language_has_a_check() -> None:
    assert len(ALL) >= 20
    assert {s.lang for s in ALL} <= KNOWN, {s.id: s.lang for s in ALL if s.lang not in KNOWN}


# -- command lines -----------------------------------------------------------------------------------
def commands(script: str) -> list[list[str]]:
    """The simple commands of a shell script: continuations joined, comments dropped, split at
    ``&&``, ``||``, ``;``, ``|`` and ``&``; ``VAR=value`` prefixes and ``.venv/bin/`` dropped."""
    out = []
    for raw in script.replace("\\\n", " ").splitlines():
        lex = shlex.shlex(raw, posix=True, punctuation_chars=";&|")
        lex.whitespace_split, lex.commenters = True, "#"
        words: list[str] = []
        for tok in [*lex, ";"]:
            if tok and set(tok) <= set(";&|"):
                while words and re.fullmatch(r"\w+=.*", words[0]):
                    words.pop(0)
                if words:
                    words[0] = words[0].removeprefix(".venv/bin/")
                    out.append(words)
                words = []
            else:
                words.append(tok)
    return out


TOOLS = {"nox"}  # what the docs install from the package index besides thinkwire
CHECKOUT = "thinkwire"  # the CI recipe's checkout path of this repository
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SESSIONS = set(re.findall(r"^def (\w+)\(session", (ROOT / "noxfile.py").read_text(), re.M))


def check_command(words: list[str]) -> str:
    """Check one documented command; what was done with it (``parsed``, ``ran``...)."""
    cmd, args = words[0], words[1:]
    if cmd == "thinkwire":
        ns = build_parser().parse_args(args)  # a bad flag is SystemExit(2): the test fails
        if ns.command == "list":
            assert main(args) == 0
            return "ran"
        if ns.command == "serve":
            from harness.upstream import demo_conversation

            demo_conversation(ns.dialect, ns.variant, ns.provider_rules)  # unknown names are a FlagError
        if ns.command == "run":
            check_run(ns)
        return "parsed"
    if "install" in args and (cmd == "pip" or args[:2] == ["-m", "pip"]):
        for target in [a for a in args[args.index("install") + 1 :] if not a.startswith("-")]:
            if target in TOOLS:
                continue
            path, _, extras = target.partition("[")
            # thinkwire is not on the package index: a checkout of this repository ("." here, or
            # "./thinkwire" where the CI recipe checks it out)
            assert path in (".", f"./{CHECKOUT}"), target
            assert set(filter(None, extras.rstrip("]").split(","))) <= set(PROJECT["optional-dependencies"])
        return "pip"
    if cmd == "python3" and args[:2] == ["-m", "nox"]:
        assert set(args[args.index("-s") + 1 :]) <= SESSIONS, args
        return "nox sessions exist"
    return "shell"


def check_run(ns: Any) -> None:
    """What a documented ``run`` names in this repository exists: the catalog cases its ``--cases``
    select (not a placeholder like ``your/id*``, nor the cases of a user's own profile or scenario
    directories) and a ``profiles/`` SUT profile, which must load."""
    from harness.drivers import load_profile
    from harness.runner import load_cases

    users = bool(getattr(ns, "scenarios", None)) or (
        bool(ns.sut) and ns.sut.endswith(".toml") and not (ROOT / ns.sut).exists()
    )
    for pattern in ns.cases or ():
        if not pattern.startswith("your/") and not users:
            assert load_cases([pattern]), f"--cases {pattern!r} selects no case"
    if ns.sut and ns.sut.startswith("profiles/"):
        load_profile(ROOT / ns.sut)


@pytest.mark.parametrize("snippet", of("sh"))
def test_shell_snippets_parse_and_their_commands_are_thinkwire_s(snippet: Snippet) -> None:
    proc = subprocess.run(["bash", "-n"], input=snippet.body, text=True, capture_output=True)
    assert proc.returncode == 0, proc.stderr
    done = [check_command(words) for words in commands(snippet.body)]
    assert any(d != "shell" for d in done), done


def yaml_runs(text: str) -> list[str]:
    """The ``run:`` commands of a workflow: one-line ones and folded (``run: >``) blocks."""
    out, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)(?:- )?run: (.*)$", line)
        if not m:
            continue
        if m.group(2).strip() != ">":
            out.append(m.group(2))
            continue
        indent, block = len(m.group(1)), []
        for nxt in lines[i + 1 :]:
            if len(nxt) - len(nxt.lstrip()) <= indent:
                break
            block.append(nxt.strip())
        out.append(" ".join(block))
    return out


@pytest.mark.parametrize("snippet", of("yaml"))
def test_the_ci_recipe_installs_from_the_repository_and_runs_valid_commands(snippet: Snippet) -> None:
    data = yaml.safe_load(snippet.body)
    if "services" in data and "jobs" not in data:  # a compose file: thinkwire's image, from the checkout
        check_compose(data["services"])
        return
    action = re.search(r"uses: your-org/thinkwire@\S+.*\n\s+with:\n((?:\s{10}.*\n)+)", snippet.body)
    if action:  # the Action (action.yml): its inputs, not a pip install
        inputs = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"]
        given = yaml.safe_load(textwrap.dedent(action.group(1)))
        assert given
        assert set(given) <= set(inputs), set(given) - set(inputs)
        return
    runs = yaml_runs(snippet.body)
    done = [check_command(words) for run in runs for words in commands(run)]
    assert "pip" in done
    assert "parsed" in done
    assert re.search(rf"uses: actions/checkout@\S+.*\n\s+with: {{[^}}]*path: {CHECKOUT}\b", snippet.body)


def check_compose(services: dict[str, Any]) -> None:
    """Every service built here builds thinkwire's checkout (its Dockerfile); the command of a service
    running thinkwire's entrypoint parses as thinkwire's; every service shares the host's network."""
    assert (ROOT / "Dockerfile").exists()
    done = []
    for service in services.values():
        assert service.get("network_mode") == "host", service
        if "build" not in service:
            continue
        assert service["build"] == f"./{CHECKOUT}", service
        if "entrypoint" not in service:
            done.append(check_command(["thinkwire", *service["command"]]))
    assert "parsed" in done, services


INLINE = re.compile(r"`(thinkwire [^`]+)`")


def test_inline_thinkwire_commands_in_the_prose_parse() -> None:
    found = []
    for md in DOCS:
        for span in INLINE.findall(md.read_text(encoding="utf-8")):
            # not command lines: a name ("thinkwire record"), an elided one ("run --repeat 5 ..."), a
            # synopsis ("[--port N]"), output ("thinkwire serve: stopped ...")
            if len(span.split()) < 3 or "..." in span or "[" in span or re.match(r"thinkwire \w+:", span):
                continue
            for words in commands(span):
                if words[0] == "thinkwire":
                    found.append(span)
                    build_parser().parse_args(words[1:])
    assert len(found) >= 8, found


# -- TOML: each is loaded by what reads it -----------------------------------------------------------
URL_PROFILE = {"kind": "url", "url": "http://127.0.0.1:8080"}


@pytest.mark.parametrize("snippet", of("toml"))
def test_toml_snippets_load(
    snippet: Snippet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tomllib.loads(snippet.body)
    for name in re.findall(r"\{env:(\w+)\}", snippet.body):  # the user's own variables
        monkeypatch.setenv(name, f"doc-{name.lower()}")
    if "cases" in data:
        path = tmp_path / "x.expectations.toml"
        path.write_text(snippet.body, encoding="utf-8")
        assert load_expectations(path).entries
    elif "requirement" in data:
        scenario = parse_scenario(data, sid="doc/example", file=snippet.id)
        assert scenario.turns
    elif "kind" in data:
        assert parse_profile(data, source=snippet.id).kind == data["kind"]
    else:  # a fragment of a profile: the tables it shows, on a profile that has the rest
        parse_profile({**URL_PROFILE, **data}, source=snippet.id)


def test_the_documented_scenario_mistake_reads_as_documented(tmp_path: Path) -> None:
    """writing-a-scenario.md shows the one line a typo in a step gives: that is the line."""
    text = (ROOT / "docs" / "writing-a-scenario.md").read_text(encoding="utf-8")
    (shown,) = [
        s.body.strip()
        for s in ALL
        if s.doc.endswith("writing-a-scenario.md") and s.lang == "" and s.body.startswith("scenarios/x.toml:")
    ]
    assert shown.startswith("scenarios/x.toml: field 'turns[0].steps[2].txt'")
    good = (
        'description = "d"\nrequirement = "The SUT MUST do it."\ncategory = "wire-variants"\n'
        'dialects = ["openai-chat"]\n[[turns]]\n'
        'steps = [{ reasoning = "a" }, { text = "b" }, { txt = "c" }]\n'
    )
    with pytest.raises(Exception) as info:
        parse_scenario(tomllib.loads(good), sid="x", file="scenarios/x.toml")
    assert str(info.value) == shown
    assert "did you mean 'text'?" in text


# -- python -----------------------------------------------------------------------------------------
def test_python_snippets_compile() -> None:
    for s in ALL:
        if s.lang == "python":
            compile(s.body, s.id, "exec")


@pytest.mark.parametrize("module", ["langchain_deepseek", "pydantic_ai"])
def test_framework_adapter_snippets_define_an_adapter(module: str) -> None:
    """The framework adapters import their framework (installed by ``nox -s ecosystem``; the full
    versions are harness/sdks/*, run by tests/ecosystem): executed where it is installed."""
    pytest.importorskip(module)
    (s,) = [s for s in ALL if s.lang == "python" and f"from {module}" in s.body]
    ns: dict[str, Any] = {}
    exec(compile(s.body, s.id, "exec"), ns)
    assert callable(ns["adapter"])


def test_the_readme_quick_example_runs(thinkwire_run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's pytest example, as written, with ``mypkg`` the in-repo tests/examples/mypkg."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "examples"))
    (s,) = [s for s in ALL if s.doc == "README.md" and s.lang == "python"]
    ns: dict[str, Any] = {}
    exec(compile(s.body, s.id, "exec"), ns)
    ns["test_my_wrapper"](thinkwire_run)
