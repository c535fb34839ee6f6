"""``thinkwire promote`` from a pip-installed wheel, as a new user has it: the wheel carries every cassette a
bundled scenario replays, no corpus data and no dev tooling (tools/); promote needs ``--out`` outside a checkout, refuses the
installed package (one line, exit 2), copies the cassette beside the scenario it writes, and ``thinkwire
run --scenarios-dir DIR`` picks the case up; the installed catalog still runs after it (exit 0)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)


def _wheel(tmp: Path, env: dict[str, str]) -> Path:
    out = tmp / "dist"
    pip = [sys.executable, "-m", "pip"]
    done = _run([*pip, "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)], tmp, env)
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = out.glob("thinkwire-*.whl")
    return wheel


def _venv(tmp: Path, wheel: Path, env: dict[str, str]) -> Path:
    """A venv holding the wheel; its dependencies come from this interpreter's site-packages (a .pth line:
    no download), which hold no ``harness`` of their own (this checkout's editable hook is a .pth file
    that a .pth-added directory does not run)."""
    venv = tmp / "venv"
    assert _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp, env).returncode == 0
    py = venv / "bin" / "python"
    purelib = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp, env)
    deps = sysconfig.get_paths()["purelib"]
    Path(purelib.stdout.strip(), "_thinkwire_test_deps.pth").write_text(deps + "\n")
    pip = [sys.executable, "-m", "pip", "--python", str(py)]
    done = _run([*pip, "install", "--no-deps", "--no-index", "-q", str(wheel)], tmp, env)
    assert done.returncode == 0, done.stderr[-3000:]
    return venv


@pytest.mark.slow  # about 30 s: a wheel build, a venv, four thinkwire processes
def test_promote_from_an_installed_wheel(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("THINKWIRE_CORPUS", "PYTHONPATH")}
    wheel = _wheel(tmp_path, env)
    names = zipfile.ZipFile(wheel).namelist()
    assert "harness/_data/recordings/corpus/corpus.toml" in names
    shipped = [n for n in names if "/corpus/" in n and n.endswith((".jsonl", ".yaml"))]
    assert not shipped, "corpus data in the wheel"
    # Dev tooling (the doc generators, the fidelity comparison, the detection matrix) lives in tools/,
    # which the wheel does not carry; the package ships only what a user path reaches.
    dev = [n for n in names if n.startswith("tools/") or "/docs/" in n or "fidelity/" in n or "_matrix" in n]
    assert not dev, f"dev tooling in the wheel: {dev[:5]}"
    assert {n.split("/")[0] for n in names if not n.startswith("thinkwire-")} == {"harness"}
    replayed = {p.name for p in (ROOT / "recordings").glob("*.jsonl")}
    assert {f"harness/_data/recordings/{n}" for n in replayed} <= set(names)

    venv = _venv(tmp_path, wheel, env)
    tw = str(venv / "bin" / "thinkwire")
    work = tmp_path / "work"
    work.mkdir()
    cassette = work / "ds.jsonl"
    cassette.write_bytes((ROOT / "recordings" / "dashscope-no-space.jsonl").read_bytes())
    where = _run([str(venv / "bin" / "python"), "-c", "import harness; print(harness.__file__)"], work, env)
    package = Path(where.stdout.strip()).parent
    assert str(package).startswith(str(venv)), package
    before = sorted(p.relative_to(package) for p in package.rglob("*") if "__pycache__" not in p.parts)

    refused = _run([tw, "promote", str(cassette), "--id", "recorded/my-ds"], work, env)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "--out DIR is required outside a checkout" in refused.stderr
    inside = _run([tw, "promote", str(cassette), "--id", "recorded/my-ds", "--out",
                   str(package / "_data" / "scenarios")], work, env)  # fmt: skip
    assert inside.returncode == 2, inside.stdout + inside.stderr
    assert inside.stderr.count("\n") == 1, inside.stderr
    assert "inside the installed thinkwire package" in inside.stderr

    mine = work / "mine"
    done = _run([tw, "promote", str(cassette), "--id", "recorded/my-ds", "--out", str(mine)], work, env)
    assert done.returncode == 0, done.stdout + done.stderr
    scenario = mine / "recorded" / "my-ds.toml"
    assert (mine / "recorded" / "my-ds.jsonl").read_bytes() == cassette.read_bytes()
    assert 'cassette = "my-ds.jsonl"' in scenario.read_text()
    after = sorted(p.relative_to(package) for p in package.rglob("*") if "__pycache__" not in p.parts)
    assert after == before, "promote wrote into the installed package"

    junit = work / "junit.xml"
    ref = ["--sut", "reference", "--scenarios-dir", str(mine), "--cases", "recorded/my-ds*"]
    ref += ["--junit", str(junit)]
    run = _run([tw, "run", *ref, "-q"], work, env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    xml = junit.read_text()
    assert 'name="recorded/my-ds[openai-chat:' in xml, xml[:2000]
    assert "<failure" not in xml
    again = _run([tw, "run", "--sut", "reference", "--cases", "recorded/*", "-q"], work, env)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert "10 recorded/corpus-*: no fidelity corpus" in again.stdout


def test_promote_out_copies_the_cassette_and_the_case_replays_it(tmp_path: Path) -> None:
    """In-process, from a checkout: --out DIR gets the scenario and its cassette side by side, the case
    built from it replays the copy (found beside the scenario file), and nothing lands in the catalog."""
    from harness import FlagError
    from harness.catalog._case import _replayed
    from harness.catalog._promote import promote
    from harness.runner import load_cases

    cassette = tmp_path / "elsewhere" / "ds.jsonl"
    cassette.parent.mkdir()
    cassette.write_bytes((ROOT / "recordings" / "dashscope-no-space.jsonl").read_bytes())
    out = tmp_path / "mine"
    target = promote(cassette, "team/ds", out=out)
    assert target == (out / "team" / "ds.toml").resolve()
    assert (out / "team" / "ds.jsonl").read_bytes() == cassette.read_bytes()
    assert not (ROOT / "scenarios" / "team").exists()
    (case, *_) = load_cases(["team/ds*"], scenarios=[out])
    cassette.unlink()  # the case must read the copy, not the original
    spec = case.scenario.turns[0]
    assert spec.replay == ("ds.jsonl", 0)
    assert _replayed(spec.replay, case.scenario.path, "lenient", "m").stream
    with pytest.raises(FlagError, match="inside the installed thinkwire package"):
        promote(out / "team" / "ds.jsonl", "team/again", out=ROOT / "harness" / "_data" / "scenarios")
