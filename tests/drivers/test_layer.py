"""Findings name the layer that raised: the innermost third-party package in the SUT's traceback,
with its version and file:line, and the package it was called under. Python frames are mapped to
installed distributions (a framework and an SDK made here with their dist-info, and the real openai
SDK's decoder); a Node adapter's error stack (and its causes') to node_modules packages."""

from __future__ import annotations

import json
import re
import shutil
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from harness.drivers import parse_profile
from harness.drivers._adapter_wire import Failed, parse_line
from harness.drivers._layer import Frame, js_frames, named_layer
from harness.runner import run
from harness.verdict import Status, Verdict

HERE = Path(__file__).parent
PLAIN = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
EVENT_ONLY = "sse-framing/perturbations[openai-chat:reasoning_content/frames/event-only]"
REPO = HERE.parents[1]

SDK = '''import json


def decode(data):
    return json.loads(data[len("data: "):])
'''
FRAMEWORK = '''from fakesdk.streaming import decode


def parse(body):
    return decode(body)
'''


def dist(site: Path, name: str, ver: str, files: dict[str, str]) -> None:
    """A package ``name`` installed in ``site`` as pip would: its files and a dist-info listing them."""
    for rel, text in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    info = site / f"{name}-{ver}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {ver}\n")
    (info / "top_level.txt").write_text(name + "\n")
    record = [*files, f"{info.name}/METADATA", f"{info.name}/top_level.txt", f"{info.name}/RECORD"]
    (info / "RECORD").write_text("".join(f"{r},,\n" for r in record))


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    dist(site, "fakesdk", "7.60.0", {"fakesdk/__init__.py": "", "fakesdk/streaming.py": SDK})
    dist(site, "fakefw", "1.6.0", {"fakefw/__init__.py": FRAMEWORK})
    monkeypatch.syspath_prepend(str(site))
    for name in ("fakefw", "fakesdk", "fakesdk.streaming"):
        monkeypatch.delitem(__import__("sys").modules, name, raising=False)
    return site


def python_sut(name: str) -> Any:
    return parse_profile({"kind": "python", "callable": f"_layer_suts:{name}", "sys_path": [str(HERE)]})


def failing(r: Any) -> dict[str, str]:
    return {f.check: f.message for f in r.failing()}


@pytest.mark.usefixtures("site")
def test_a_python_framework_over_a_raising_sdk_names_the_sdk() -> None:
    (r,) = run([PLAIN], sut=python_sut("after_upstream"), preflight=False).results
    assert r.status is Status.OK, r.error
    assert failing(r)["sut-error"] == (
        "turn 0: the SUT raised JSONDecodeError: Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1) (raised in fakesdk 7.60.0 streaming.py:5, under fakefw 1.6.0)"
    )


@pytest.mark.usefixtures("site")
def test_a_raise_before_the_upstream_names_the_sdk_too() -> None:
    (r,) = run([PLAIN], sut=python_sut("before_upstream"), preflight=False).results
    assert failing(r)["evidence"].endswith(
        "before calling the upstream (raised in fakesdk 7.60.0 streaming.py:5, under fakefw 1.6.0)"
    )


def test_the_real_openai_sdk_s_decoder_is_named() -> None:
    """The openai SDK's SSE decoder raises on a data-less ``event: ping`` block: json.loads in the
    standard library raised, and the innermost third-party frame is the SDK's."""
    (r,) = run([EVENT_ONLY], sut=str(REPO / "profiles" / "sdk-openai-chat.toml"), preflight=False).results
    assert r.stream is Verdict.FAIL
    said = failing(r)["sut-error"]
    assert re.search(rf"\(raised in openai {re.escape(version('openai'))} _streaming\.py:\d+\)$", said), said


def test_frames_of_no_package_name_nothing() -> None:
    assert named_layer([Frame(__file__, 1), Frame("/usr/lib/python3.11/json/decoder.py", 355)]) == ""


# -- JS stacks ---------------------------------------------------------------------------------------

STREAMING_JS = """'use strict';
function decode(data) {
  return JSON.parse(data.slice('data: '.length));
}
module.exports = { decode };
"""
FRAMEWORK_JS = """'use strict';
const { decode } = require('fakesdk/core/streaming.js');
function parse(body, wrap) {
  try { return decode(body); } catch (err) {
    if (wrap) throw new Error('agent run failed', { cause: err });
    throw err;
  }
}
module.exports = { parse };
"""


@pytest.fixture
def node_modules(tmp_path: Path) -> Path:
    nm = tmp_path / "node_modules"
    for name, ver, files in [
        ("fakesdk", "7.60.0", {"core/streaming.js": STREAMING_JS}),
        ("@fake/framework", "1.6.0", {"index.js": FRAMEWORK_JS}),
    ]:
        root = nm / name
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        (root / "package.json").write_text(json.dumps({"name": name, "version": ver, "main": "index.js"}))
    return nm


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("mode", ["direct", "wrapped"])
def test_a_node_framework_over_a_raising_sdk_names_the_sdk(node_modules: Path, mode: str) -> None:
    profile = parse_profile({
        "kind": "adapter", "name": f"node-layers-{mode}", "dialects": ["openai-chat"], "timeout": 10,
        "command": [str(shutil.which("node")), str(HERE / "_node_layers.cjs"), mode],
        "env": {"NODE_PATH": str(node_modules)},
    })
    (r,) = run([PLAIN], sut=profile, preflight=False).results
    assert r.status is Status.OK, r.error
    said = failing(r)["sut-error"]
    assert said.endswith("(raised in fakesdk 7.60.0 core/streaming.js:3, under @fake/framework 1.6.0)"), said


def test_js_frames_are_read_from_a_v8_stack_and_its_causes() -> None:
    stack = (
        "Error: agent run failed\n"
        "    at parse (/app/node_modules/@langchain/openai/dist/chat_models.js:40:11)\n"
        "    at async run (/app/adapter.mjs:9:3)\n"
        "Caused by: SyntaxError: Unexpected end of JSON input\n"
        "    at JSON.parse (<anonymous>)\n"
        "    at Stream.iterator (file:///app/node_modules/openai/core/streaming.js:110:22)\n"
        "    at node:internal/streams/readable:1:1\n"
    )
    assert js_frames(stack) == [
        Frame("/app/node_modules/openai/core/streaming.js", 110),
        Frame("/app/node_modules/@langchain/openai/dist/chat_models.js", 40),
        Frame("/app/adapter.mjs", 9),
    ]
    # no package.json there: the version is said to be unknown, the package and line are still named
    assert named_layer(js_frames(stack)) == (
        "raised in openai (version unknown) core/streaming.js:110, under @langchain/openai (version unknown)"
    )


def test_an_adapter_may_send_its_frames_as_a_list() -> None:
    line = {"id": "c1/0", "error": {"type": "Error", "message": "boom", "frames": [
        {"file": "/x/node_modules/sdk/a.js", "line": 3}, {"file": 7}, {"file": "/x/main.go", "line": True},
    ]}}
    failed = parse_line(1, json.dumps(line))
    assert isinstance(failed, Failed)
    assert failed.frames == (Frame("/x/node_modules/sdk/a.js", 3),)
