"""The GitHub Action (``action.yml``): its ``run:`` steps executed in order with bash, as the runner
executes a composite action, against the reference gateway.

The runner substitutes ``${{ inputs.x }}`` and ``${{ steps.id.outputs.y }}`` into a composite action's
steps (there is no ``INPUT_*`` environment for composite actions), gives every step fresh
``GITHUB_OUTPUT`` / ``GITHUB_ENV`` files, one ``GITHUB_STEP_SUMMARY`` and ``GITHUB_ACTION_PATH`` (the
action's checkout), runs a step without ``if:`` only while every step before it succeeded, and runs
``shell: bash`` as ``bash --noprofile --norc -eo pipefail FILE``. This test does the same with a dict
of inputs; ``uses:`` steps are not run (they are GitHub's), only checked to be what is expected.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / "action.yml"
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


@dataclass
class Job:
    """What one use of the action left behind."""

    steps_run: list[str] = field(default_factory=list)
    uses: list[dict[str, Any]] = field(default_factory=list)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    status: int = 0  # the action's: the first failing step's exit status (0: every step succeeded)
    summary: str = ""
    log: str = ""


def _value(expr: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    """One expression of the two kinds a composite action's steps may use here; anything else fails the
    test (the action would then need something this test does not render)."""
    m = re.fullmatch(r"inputs\.([\w-]+)", expr)
    if m:
        return inputs[m[1]]
    m = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
    if m:
        return outputs.get(m[1], {}).get(m[2], "")
    raise AssertionError(f"action.yml uses an expression this test cannot render: {expr!r}")


def _render(text: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    return _EXPR.sub(lambda m: _value(m[1], inputs, outputs), text)


def _condition(cond: str | None, failed: bool, inputs: dict[str, str], outputs: dict[str, Any]) -> bool:
    """``if:``: none means success(); terms joined by ``&&``: always(), success(), failure(), and
    ``X != 'lit'`` / ``X == 'lit'``."""
    if cond is None:
        return not failed
    result = True
    for term in (t.strip() for t in cond.split("&&")):
        if term == "always()":
            continue
        if term in ("success()", "failure()"):
            result &= failed == (term == "failure()")
            continue
        m = re.fullmatch(r"(\S+)\s*(!=|==)\s*'(.*)'", term)
        assert m, f"action.yml uses a condition this test cannot evaluate: {term!r}"
        value = _value(m[1], inputs, outputs)
        result &= (value != m[3]) if m[2] == "!=" else (value == m[3])
    return result and (not failed or "always()" in cond or "failure()" in cond)


def _outputs(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        assert "<<" not in line, "multi-line outputs: not rendered by this test"
        key, _, value = line.partition("=")
        out[key] = value
    return out


def run_action(inputs: dict[str, str], tmp: Path, *, install: bool) -> Job:
    """The action's steps with ``inputs`` (the action's defaults filled in), in ``tmp`` as the
    workspace. ``install``: run the install step (else it is skipped: thinkwire is importable here)."""
    meta = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert meta["runs"]["using"] == "composite"
    given = {name: str(spec.get("default", "")) for name, spec in meta["inputs"].items()}
    assert set(inputs) <= set(given), f"unknown inputs: {set(inputs) - set(given)}"
    given.update(inputs)
    job = Job()
    summary = tmp / "step_summary.md"
    summary.touch()
    base_env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_WORKSPACE": str(tmp),
    }
    for n, step in enumerate(meta["runs"]["steps"]):
        if not _condition(step.get("if"), job.status != 0, given, job.outputs):
            continue
        name = step.get("name", f"step {n}")
        if "uses" in step:
            job.uses.append({"uses": step["uses"], "with": {
                k: _render(str(v), given, job.outputs) for k, v in step.get("with", {}).items()
            }})
            continue
        assert step["shell"] == "bash", name
        if name == "Install thinkwire" and not install:
            assert step["run"].strip() == (
                'python3 -m pip install --disable-pip-version-check --quiet "$GITHUB_ACTION_PATH"'
            )
            continue
        files = {key: tmp / f"{n}.{key.lower()}" for key in ("GITHUB_OUTPUT", "GITHUB_ENV")}
        for f in files.values():
            f.touch()
        script = tmp / f"{n}.sh"
        script.write_text(_render(step["run"], given, job.outputs), encoding="utf-8")
        env = {**base_env, **{k: str(f) for k, f in files.items()}}
        env.update({k: _render(str(v), given, job.outputs) for k, v in step.get("env", {}).items()})
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=tmp, env=env, capture_output=True, text=True, timeout=300, check=False,
        )
        job.steps_run.append(name)
        job.log += f"--- {name} (exit {done.returncode})\n{done.stdout}{done.stderr}"
        if "id" in step:
            job.outputs[step["id"]] = _outputs(files["GITHUB_OUTPUT"])
        if done.returncode and not job.status:
            job.status = done.returncode
    job.summary = summary.read_text(encoding="utf-8")
    return job


@pytest.fixture(autouse=True)
def _thinkwire_importable() -> None:
    """The install step is skipped below (a pip install per test would dominate its time): thinkwire
    is installed in this environment already, with its ``thinkwire`` command."""
    assert importlib.util.find_spec("harness") is not None
    assert shutil.which("thinkwire", path=str(Path(sys.executable).parent)) is not None


def test_a_passing_run_writes_the_job_summary_and_uploads_the_report(tmp_path: Path) -> None:
    job = run_action({"cases": "timing/*\ncleanup/*", "report-dir": "out/report"}, tmp_path, install=False)
    assert job.status == 0, job.log
    assert job.steps_run == ["Run thinkwire", "Job summary", "Exit with thinkwire's status"]
    assert job.outputs["run"] == {"artifact-name": "thinkwire-report", "exit-code": "0"}
    report = tmp_path / "out" / "report"
    assert job.summary == (report / "summary.md").read_text(encoding="utf-8")
    assert job.summary.startswith("## thinkwire: ✅ passed\n\n**12** cases against `reference-gateway`")
    assert (report / "junit.xml").read_text(encoding="utf-8").count("<testcase") == 12
    assert job.uses == [
        {
            "uses": "actions/upload-artifact@v6",
            "with": {"name": "thinkwire-report", "path": "out/report", "if-no-files-found": "warn"},
        }
    ]


def test_a_failing_shard_still_summarises_uploads_and_exits_with_thinkwires_status(tmp_path: Path) -> None:
    inputs = {"cases": "timing/* cleanup/*", "shard": "1/2", "args": "--fault drop-reasoning"}
    job = run_action(inputs, tmp_path, install=False)
    assert job.outputs["run"]["exit-code"] == "1", job.log
    assert job.status == 1  # the action's status is thinkwire's...
    assert job.steps_run == ["Run thinkwire", "Job summary", "Exit with thinkwire's status"]  # ...after these
    assert "thinkwire exited 1" in job.log
    report = tmp_path / "thinkwire-report"
    assert job.summary == (report / "summary.md").read_text(encoding="utf-8")
    assert "FAIL" in job.summary
    assert job.uses[0]["with"]["name"] == "thinkwire-report-shard-1-of-2"
    info = json.loads((report / "results.json").read_text(encoding="utf-8"))["run_info"]
    assert (info["shard"]["index"], info["shard"]["total"]) == (1, 2)
    assert info["options"]["faults"] == ["drop-reasoning"]


def test_bad_input_is_exit_2_with_a_summary_line(tmp_path: Path) -> None:
    job = run_action({"shard": "4/3"}, tmp_path, install=False)
    assert job.status == 2, job.log
    assert "--shard: share 4 of 3 does not exist" in job.log
    assert job.summary == "thinkwire wrote no report (see the log of the step 'Run thinkwire')\n"
    assert job.uses[0]["uses"] == "actions/upload-artifact@v6"


def test_the_sample_workflow_merges_what_the_shard_jobs_upload() -> None:
    """.github/workflows/thinkwire-shards.yml (shown in docs/ci-gate.md): its merge job downloads the
    artifacts the action names for shards, and merges them with thinkwire merge."""
    flow = yaml.safe_load((ROOT / ".github/workflows/thinkwire-shards.yml").read_text(encoding="utf-8"))
    shard_steps = flow["jobs"]["shard"]["steps"]
    (ours,) = [s for s in shard_steps if s.get("uses") == "./"]
    assert ours["with"]["shard"] == "${{ matrix.shard }}/3"
    assert flow["jobs"]["shard"]["strategy"]["matrix"]["shard"] == [1, 2, 3]
    merge = flow["jobs"]["merge"]
    assert merge["needs"] == "shard"
    assert merge["if"] == "always()"  # a shard with failures must still be merged and reported
    (download,) = [s for s in merge["steps"] if "actions/download-artifact@" in str(s.get("uses"))]
    assert fnmatch.fnmatch("thinkwire-report-shard-2-of-3", download["with"]["pattern"])
    runs = [s["run"] for s in merge["steps"] if "run" in s]
    assert f"thinkwire merge {download['with']['path']}/* --report thinkwire-report" in runs


def test_a_running_gateway_is_tested_at_the_upstream_address_it_is_configured_with(tmp_path: Path) -> None:
    """sut-url with upstream-listen: the mock binds the address a gateway that is already running (here
    tests/suts/relay.py, started outside thinkwire) was configured with, and the run passes."""
    from tests.suts._relay import free_port, start_relay, stop

    upstream = free_port()
    proc, port = start_relay(f"http://127.0.0.1:{upstream}", tmp_path)
    try:
        inputs = {
            "sut-url": f"http://127.0.0.1:{port}", "upstream-listen": f"127.0.0.1:{upstream}",
            "cases": "timing/*", "report-dir": "out",
        }  # fmt: skip
        job = run_action(inputs, tmp_path, install=False)
    finally:
        stop(proc)
    assert job.status == 0, job.log
    assert f"--upstream-listen 127.0.0.1:{upstream}" in job.log
    assert f"mock upstream listening on 127.0.0.1:{upstream}" in job.log
    info = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["run_info"]
    assert info["upstream"] == {"listen": f"127.0.0.1:{upstream}", "url": f"http://127.0.0.1:{upstream}"}
