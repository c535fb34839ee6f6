"""One error family: the tree drawn in ``_errors.py`` is the real one; every name lookup raises
UnknownName (a KeyError too) with a did-you-mean hint; the CLI prints it as one line and exits 2
before starting anything (``--fault`` names are checked once, up front)."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import psutil
import pytest

import harness
from harness import _errors
from harness._errors import ThinkwireError, UnknownName
from harness.cli import main
from harness.dialects import dialect_names, get_dialect
from harness.drivers import DRIVERS, KINDS, SUTProfile, make_driver
from harness.judge import CHECKS, PairCheck, case_checks, pair_checks
from harness.reference._core import parse_model
from harness.reference._faults import GATEWAY_FAULTS, check_faults
from harness.runner import builtin_profile
from harness.upstream import Script
from harness.upstream._rules import validate_request


def _drawn_tree() -> dict[str, str]:
    """class -> parent, read from the box drawing in the module docstring."""
    parents: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for line in (_errors.__doc__ or "").splitlines():
        m = re.match(r"^([ │]*)(?:[├└]── )?([A-Z]\w+)\b", line)
        if m is None:
            continue
        depth = len(m.group(1))
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack:
            parents[m.group(2)] = stack[-1][1]
        stack.append((depth, m.group(2)))
    return parents


def _real_tree() -> dict[str, str]:
    out: dict[str, str] = {}
    todo = [ThinkwireError]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub.__module__.startswith("harness."):
                out[sub.__name__] = cls.__name__
                todo.append(sub)
    return out


def test_the_drawn_error_tree_is_the_real_one() -> None:
    import harness.drivers
    import harness.report  # noqa: F401  (ResultsError)

    assert _drawn_tree() == _real_tree()
    assert _real_tree()["ProfileError"] == "ScenarioError"
    assert {"DriverError", "DriverTimeout", "ResultsError", "UnknownName"} <= set(_real_tree())


def test_unknown_name_is_a_key_error_with_a_plain_message() -> None:
    exc = UnknownName("dialect", "openai-chatt", dialect_names())
    assert isinstance(exc, ThinkwireError)
    assert isinstance(exc, KeyError)
    assert str(exc) == "unknown dialect 'openai-chatt': did you mean 'openai-chat' or 'openai-responses'?"
    assert (exc.noun, exc.name) == ("dialect", "openai-chatt")
    with pytest.warns(DeprecationWarning, match="UnknownName.noun"):
        assert exc.kind == "dialect"  # the old spelling, for one release
    where = UnknownName("check", "zzz", ["a"], where="x.toml")
    assert str(where) == "x.toml: unknown check 'zzz': valid: 'a'"
    assert harness.UnknownName is UnknownName


@pytest.mark.parametrize(
    ("lookup", "message"),
    [
        (lambda: get_dialect("antropic-messages"), "unknown dialect 'antropic-messages': did you mean"),
        (lambda: CHECKS.get("parityy"), "unknown check 'parityy': did you mean 'parity'"),
        (lambda: make_driver(SUTProfile("x", kind="gatway")), "unknown SUT kind 'gatway': did you mean"),
        (lambda: parse_model("openai-chat:reasonin/m"), "unknown openai-chat variant 'reasonin': did you"),
        (lambda: check_faults(["drop-reasonin"], GATEWAY_FAULTS), "unknown fault switch 'drop-reasonin'"),
        (
            lambda: validate_request(Script("openai-chat", (), provider_rules="deepseek"), {}, ()),
            "unknown openai-chat provider rules 'deepseek': did you mean",
        ),
        (
            lambda: builtin_profile("reference-sdk", ("leak-child",)),
            "--fault of the built-in SUT 'reference-sdk': unknown fault switch 'leak-child'",
        ),
    ],
)
def test_every_lookup_raises_unknown_name(lookup: object, message: str) -> None:
    with pytest.raises(UnknownName, match=re.escape(message)):
        lookup()  # type: ignore[operator]


@pytest.mark.parametrize("name", dialect_names())
def test_every_dialect_rejects_an_unknown_variant(name: str) -> None:
    d = get_dialect(name)
    with pytest.raises(UnknownName, match=rf"unknown {name} variant 'nope'"):
        d.emitter("nope")


def test_driver_kinds_and_profile_kinds_agree() -> None:
    assert set(DRIVERS) == set(KINDS)


def test_parity_is_registered_like_every_check(capsys: pytest.CaptureFixture[str]) -> None:
    parity = CHECKS.get("parity")
    assert isinstance(parity, PairCheck)
    assert pair_checks() == [parity]
    assert parity not in case_checks()
    assert len(case_checks()) + len(pair_checks()) == len(CHECKS)
    assert main(["list", "--checks"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == [c.name for c in case_checks()] + ["parity"]  # each once, from the registry


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("run", "--fault", "drop-reasonin"),
            "thinkwire: error: --fault of the built-in SUT 'reference': unknown fault switch "
            "'drop-reasonin': did you mean 'drop-reasoning'",
        ),
        (
            ("run", "--concurrency", "2", "--fault", "drop-reasonin"),
            "thinkwire: error: --fault of the built-in SUT 'reference': unknown fault switch 'drop-reasonin'",
        ),
        (
            ("run", "--sut", "reference-cli", "--fault", "nonstream-inline-think"),  # not a CLI switch
            "thinkwire: error: --fault of the built-in SUT 'reference-cli': unknown fault switch",
        ),
        (
            ("serve", "--dialect", "olama"),
            "thinkwire: error: --dialect 'olama': unknown dialect; did you mean 'ollama'",
        ),
    ],
)
def test_the_cli_prints_one_line_and_starts_nothing(args: tuple[str, ...], line: str) -> None:
    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    t0 = time.monotonic()
    done = _cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(line), done.stderr
    assert "Traceback" not in done.stderr
    assert {p.pid for p in me.children(recursive=True)} == before
    assert time.monotonic() - t0 < 30  # one error up front, not one per case
