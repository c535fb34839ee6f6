"""``thinkwire init`` against real systems it has never seen: the LiteLLM proxy (its ready-made profile,
whose config, master key and model routing the draft keeps) and the @anthropic-ai/sdk Node adapter. The
draft leaves unclaimed what never reached its upstream (Claude on Vertex, which neither addresses at its
own endpoint; the dialects they do not route), and a run with the draft has no FAIL on a variant it left
unclaimed. Each test needs its package (``nox -s ecosystem`` installs them) and is skipped without it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.cli import main
from harness.drivers import load_profile
from harness.runner import run
from harness.verdict import Verdict

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]
PROFILES = Path(__file__).resolve().parents[2] / "profiles"
CASES = ["wire-variants/reasoning-then-answer[*/frames]", "wire-variants/vertex-claude[*/frames]"]


def _init_then_run(profile: str, tmp_path: Path) -> tuple[set[str], list[str]]:
    """The draft's claimed variants, and the FAILing cases of a run with it that are on other variants."""
    out = tmp_path / f"{profile}.toml"
    assert main(["init", "--sut", str(PROFILES / f"{profile}.toml"), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    claimed = {line.split()[2].rstrip(":") for line in text.splitlines() if line.startswith("#   claimed ")}
    result = run(CASES, sut=load_profile(out), expectations=None)
    variant = {r.case_id: r.case_id.split("[")[1].split("/")[0] for r in result.results}
    assert any(r.stream == Verdict.PASS for r in result.results)
    failed = [r.case_id for r in result.results if r.stream == Verdict.FAIL]
    return claimed, [c for c in failed if variant[c] not in claimed]


def test_init_against_the_litellm_proxy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("litellm.proxy.proxy_cli", reason="the LiteLLM proxy: nox -s ecosystem installs it")
    monkeypatch.setenv("LITELLM_MASTER_KEY", "sk-thinkwire-local")
    claimed, failed_unclaimed = _init_then_run("litellm-proxy", tmp_path)
    assert {"openai-chat:reasoning_content", "anthropic-messages:thinking"} <= claimed
    assert "openai-responses:summary" in claimed
    assert not {"anthropic-messages:vertex", "gemini:thought", "bedrock-converse:converse"} & claimed
    assert failed_unclaimed == []


def test_init_against_the_node_anthropic_adapter(tmp_path: Path) -> None:
    modules = Path(os.environ.get("THINKWIRE_NODE_MODULES", "/nonexistent"))
    if not (modules / "@anthropic-ai" / "sdk").is_dir():
        pytest.skip("@anthropic-ai/sdk: nox -s ecosystem installs it and sets THINKWIRE_NODE_MODULES")
    claimed, failed_unclaimed = _init_then_run("node-anthropic", tmp_path)
    assert {"anthropic-messages:thinking", "anthropic-messages:adaptive"} <= claimed
    assert "anthropic-messages:vertex" not in claimed  # it asks at /v1/messages, never :streamRawPredict
    assert failed_unclaimed == []
