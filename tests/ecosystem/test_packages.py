"""The ready-made ecosystem profiles against a few cases each: the known bugs are caught and the correct
paths pass. Each test needs its package (``nox -s ecosystem`` installs them) and is skipped without it,
so ``.ci/run`` stays green on a machine without the heavy installs."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from harness.drivers import load_profile
from harness.runner import run
from harness.verdict import Verdict
from tools.docs._ecosystem_results import KNOWN, PACKAGES, _matrix, known

# third-party packages warn at import: not what is under test. (No filter for unclosed event loops,
# sockets or transports: the adapters close what they open, and a leak fails here.)
pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]
PROFILES = Path(__file__).resolve().parents[2] / "profiles"
DS = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"
ANTH = "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]"
THINK = "wire-variants/reasoning-then-answer[openai-chat:think-tags/frames]"
THINK_NONSTREAM = "wire-variants/reasoning-then-answer[openai-chat:think-tags/frames/nonstream]"
RT = "wire-variants/reasoning-then-answer[openai-responses:reasoning_text/frames]"
SUMMARY_TOOLS = "tools-passback/responses-reasoning-item[openai-responses:summary/frames]"
ADAPTIVE = "tools-passback/anthropic-adaptive[anthropic-messages:adaptive/frames]"  # 400 to thinking enabled
KIMI = "tools-passback/kimi-reasoning-content[openai-chat:reasoning_content/frames]"

CASES = [
    # (profile, module, case, verdict): the bugs of the issue, and the correct paths beside them
    ("langchain-deepseek", "langchain_deepseek", DS, Verdict.FAIL),
    ("litellm-sdk-completion", "litellm", DS, Verdict.PASS),
    ("litellm-sdk-completion", "litellm", ANTH, Verdict.PASS),
    ("litellm-sdk-completion", "litellm", ADAPTIVE, Verdict.PASS),
    ("litellm-sdk-completion", "litellm", KIMI, Verdict.PASS),
    ("litellm-sdk-responses", "litellm", ADAPTIVE, Verdict.PASS),
    ("litellm-sdk-completion", "litellm", THINK, Verdict.FAIL),
    ("litellm-sdk-completion", "litellm", THINK_NONSTREAM, Verdict.PASS),
    ("litellm-sdk-completion", "litellm", RT, Verdict.FAIL),
    ("langchain-openai-responses", "langchain_openai", RT, Verdict.FAIL),
    ("langchain-openai-responses", "langchain_openai", SUMMARY_TOOLS, Verdict.PASS),
    ("pydantic-ai-openai-responses", "pydantic_ai", RT, Verdict.FAIL),
    ("pydantic-ai-openai-chat", "pydantic_ai", DS, Verdict.PASS),
    ("pydantic-ai-anthropic", "pydantic_ai", ANTH, Verdict.PASS),
    ("pydantic-ai-anthropic", "pydantic_ai", ADAPTIVE, Verdict.PASS),
]


@pytest.mark.slow
@pytest.mark.parametrize(("profile", "module", "case", "verdict"), CASES)
def test_profile_verdict(
    profile: str, module: str, case: str, verdict: Verdict, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip(module)
    monkeypatch.setenv("LITELLM_MASTER_KEY", "sk-test")
    monkeypatch.setenv("THINKWIRE_NODE_MODULES", "/nonexistent/node_modules")  # set by nox -s ecosystem
    result = run([case], sut=load_profile(PROFILES / f"{profile}.toml"), expectations=None)
    (r,) = result.results
    assert r.stream is verdict, [(f.check, f.verdict, f.message) for f in r.findings]


THREE_TURNS = "tools-passback/deepseek-three-turns[openai-chat:reasoning_content/frames]"
NODE_CASES = [
    # (profile, npm package, case, verdict): what the review of the Node adapters settled
    (
        "node-anthropic",
        "@anthropic-ai/sdk",
        "wire-variants/reasoning-tokens[anthropic-messages:thinking/frames]",
        Verdict.PASS,
    ),  # the adapter reads usage.output_tokens_details.thinking_tokens
    ("node-anthropic", "@anthropic-ai/sdk", ADAPTIVE, Verdict.PASS),  # thinking adaptive + output_config
    ("node-ai-sdk", "ai", ADAPTIVE, Verdict.PASS),  # providerOptions.anthropic thinking adaptive + effort
    ("node-ai-sdk", "ai", THINK, Verdict.PASS),  # extractReasoningMiddleware where tags are inline
    ("node-ai-sdk", "ai", SUMMARY_TOOLS, Verdict.PASS),  # store: false: the item goes back, not a reference
    (
        "node-ai-sdk",
        "ai",
        THREE_TURNS,
        Verdict.FAIL,
    ),  # @ai-sdk/deepseek: V3.2 reasoning lost after a user turn
    # the SDK splits no tags and its profile claims parses = []: <think> relayed verbatim is a relay's PASS
    ("node-openai-chat", "openai", THINK, Verdict.PASS),
]


@pytest.mark.slow
@pytest.mark.parametrize(("profile", "package", "case", "verdict"), NODE_CASES)
def test_node_profile_verdict(profile: str, package: str, case: str, verdict: Verdict) -> None:
    modules = os.environ.get("THINKWIRE_NODE_MODULES", "")  # nox -s ecosystem sets it
    if not modules or not (Path(modules) / package / "package.json").exists():
        pytest.skip(f"{package} not installed (THINKWIRE_NODE_MODULES)")
    result = run([case], sut=load_profile(PROFILES / f"{profile}.toml"), expectations=None)
    (r,) = result.results
    assert r.stream is verdict, [(f.check, f.verdict, f.message) for f in r.findings]


def test_every_profile_of_the_table_exists_with_its_expectations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LITELLM_MASTER_KEY", "sk-test")
    monkeypatch.setenv("THINKWIRE_NODE_MODULES", "/nonexistent/node_modules")  # set by nox -s ecosystem
    for name, requirement in PACKAGES:
        profile = load_profile(PROFILES / f"{name}.toml")
        assert profile.expectations
        assert Path(profile.expectations).exists(), name
        assert "==" in requirement or re.fullmatch(r"npm:(@[\w.-]+/)?[\w.-]+@\d[\w.]*", requirement)  # pinned


def test_known_findings_match_by_glob() -> None:
    assert known("langchain-deepseek", DS) is not None
    assert known("langchain-deepseek", THINK) is None
    assert known("litellm-proxy", THINK) is not None
    assert known("node-openai-chat", THINK) is None  # parses = []: relayed markup passes (issue 45)
    assert known("node-ai-sdk", THINK) is None  # its adapter reads <think> tags with the SDK's middleware
    assert set(KNOWN) <= {name for name, _ in PACKAGES}  # every finding belongs to a profile that runs


def test_passback_rows_name_their_own_cause_before_the_broader_globs() -> None:
    def cause(profile: str, case_id: str) -> str:
        return (known(profile, case_id) or ("",))[0]

    mm = "tools-passback/minimax-interleaved-thinking[openai-chat:think-tags/frames"
    assert "parse_content_for_reasoning" in cause("litellm-proxy", mm + "/nonstream]")  # "[[]": a literal "["
    assert "streaming path leaves" in cause("litellm-proxy", mm + "]")
    assert "_thinking_part.py:75" in cause("pydantic-ai-openai-chat", mm + "/nonstream]")
    sig = "tools-passback/openrouter-signature-only[openai-chat:reasoning_details/frames"
    assert "ChatCompletionStream.js:292" in cause("node-openai-chat", sig + "]")
    assert known("node-openai-chat", sig + "/nonstream]") is None  # the message goes back as it came
    assert "dist/index.js:271" in cause("node-ai-sdk", sig + "]")


def test_matrix_counts_by_category() -> None:
    class R:
        def __init__(self, cid: str, v: Verdict) -> None:
            from harness.verdict import Status

            self.case_id, self.stream, self.status = cid, v, Status.OK

    lines = _matrix([R("a/x", Verdict.PASS), R("a/y", Verdict.FAIL), R("b/z", Verdict.PASS)])
    assert lines[2].startswith("| a | 1 | 0 | 0 | 0 | 1 |")
    assert lines[3].startswith("| b | 1 |")


def test_a_partial_run_replaces_only_its_sections() -> None:
    from tools.docs._ecosystem_results import _merge_sections

    old = "# T\n\nintro\n\n## litellm-proxy (x)\n\nold proxy\n\n## langchain-deepseek (y)\n\nold ds\n"
    new = "# T\n\nintro\n\n## langchain-deepseek (y)\n\nnew ds\n"
    text = "\n".join(_merge_sections(old, new, {"langchain-deepseek"}))
    assert "old proxy" in text
    assert "new ds" in text
    assert "old ds" not in text
    assert text.index("litellm-proxy") < text.index("langchain-deepseek")
