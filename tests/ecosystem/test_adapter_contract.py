"""The framework adapter contract: ``SUTRequest`` carries the scenario's tool definitions, the profile's
request shaping and a per-conversation ``state`` the adapter owns across turns, so a framework's own
history (not thinkwire's serializer) carries passback. A framework whose history drops
``reasoning_content`` on the tool-call turn (langchain-deepseek's bug) is caught; a correct one
passes; ``sys_path`` and the declared front door work."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from harness.drivers import PythonDriver, load_profile, parse_profile
from harness.runner import run
from harness.verdict import Verdict

HERE = str(Path(__file__).parent)
PASSBACK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"
PASSBACK_NONSTREAM = (
    "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames/nonstream]"
)


def seen() -> list[dict[str, Any]]:
    import _toy_framework  # the module the driver imported through sys_path

    return _toy_framework.SEEN


@pytest.fixture(autouse=True)
def _clear() -> None:
    seen().clear()


def toy(name: str, *, x_trace: bool = False) -> Any:
    data: dict[str, Any] = {"kind": "python", "callable": f"_toy_framework:{name}", "sys_path": [HERE]}
    if x_trace:
        data["request"] = {"headers": {"x-trace": "{model}"}}
    return parse_profile(data)


def test_framework_history_in_state_passes_passback() -> None:
    result = run([PASSBACK, PASSBACK_NONSTREAM], sut=toy("correct_framework", x_trace=True))
    for r in result.results:
        assert r.stream is Verdict.PASS, [(f.check, f.message) for f in r.findings]
    turns = [s for s in seen() if s["turn"] == 1]
    assert turns  # the second turn ran, on the adapter's own history
    assert [t.name for t in seen()[-1]["tools"]] == ["get_weather"]
    assert seen()[-1]["headers"]["x-trace"]


def test_framework_dropping_reasoning_on_tool_turn_fails_passback() -> None:
    result = run([PASSBACK, PASSBACK_NONSTREAM], sut=toy("lossy_framework"))
    for r in result.results:
        assert r.stream is Verdict.FAIL
        assert any(f.check == "passback" and "rejected" in f.message for f in r.findings)


def test_sys_path_and_declared_front_door(tmp_path: Path) -> None:
    pkg = tmp_path / "adapters"
    pkg.mkdir()
    (pkg / "tw_toy_adapter.py").write_text(
        textwrap.dedent(
            """
            from harness.events import End, ReasoningDelta, TextDelta

            def adapter(request):
                yield ReasoningDelta(request.front_door)
                yield TextDelta("x")
                yield End("stop")

            adapter.thinkwire_front_door = "openai-responses"
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "toy.toml").write_text(
        'kind = "python"\ncallable = "tw_toy_adapter:adapter"\nsys_path = ["adapters"]\n', encoding="utf-8"
    )
    profile = load_profile(tmp_path / "toy.toml")
    assert profile.sys_path == (str(pkg.resolve()),)
    driver = PythonDriver(profile)
    driver.start("http://127.0.0.1:1")
    try:
        assert driver.front_door == "openai-responses"
    finally:
        driver.stop()
