"""The agent loops of docs/agent-frameworks.md (pydantic-ai's ``Agent``; LangGraph's ReAct agent over two
chat models), each running the scenario's tools itself, against the cases their expectations files
settle: each case must give the verdict its profile's expectations file records (a case absent from it:
PASS). Each test needs its framework (``nox -s ecosystem`` installs it) and is skipped without it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from harness.drivers import load_profile
from harness.runner import run
from harness.verdict import Verdict
from tools.docs._ecosystem_results import _installed, known

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]
PROFILES = Path(__file__).resolve().parents[2] / "profiles"


def _passback(name: str, *variants: str) -> list[str]:
    return [f"tools-passback/{name}[openai-chat:{v}]" for v in variants]


RC = ("reasoning_content/frames", "reasoning_content/frames/nonstream")
AGENT_CASES = [
    # where pydantic-ai is right: the agent's own continuation carries the reasoning back
    *_passback("deepseek-reasoning-content", *RC),
    *_passback("deepseek-three-turns", *RC),
    *_passback("kimi-reasoning-content", RC[0]),
    *_passback("zai-preserved-thinking", *RC),
    *_passback("vllm-reasoning-field", "reasoning/frames", "reasoning/frames/nonstream"),
    "cleanup/tool-round-trip[openai-chat:reasoning_content/frames]",
    # a non-streamed case runs non-streamed (PASS); its streamed twin meets pydantic-ai's tag parser (FAIL)
    "wire-variants/reasoning-then-answer[openai-chat:think-tags/frames/nonstream]",
    "wire-variants/reasoning-then-answer[openai-chat:think-tags/frames]",
    # where it is not: OpenRouter's signed reasoning_details never comes back (400)
    *_passback("openrouter-signature-only", "reasoning_details/frames"),
]
GRAPH_CASES = [
    "cleanup/tool-round-trip[openai-chat:reasoning_content/frames]",
    # langchain-deepseek never writes reasoning_content back: the graph's own continuation meets the 400
    *_passback("deepseek-reasoning-content", *RC),
    *_passback("kimi-reasoning-content", RC[0]),
    *_passback("zai-preserved-thinking", RC[0]),
]
SUMMARY = ("summary/frames", "summary/frames/nonstream")
GRAPH_RESPONSES_CASES = [
    # where ChatOpenAI on the Responses API is right: the graph's message goes back with its reasoning item
    *(f"tools-passback/{n}[openai-responses:{v}]" for n in ("responses-reasoning-item",) for v in SUMMARY),
    *(f"tools-passback/{n}[openai-responses:{v}]" for n in ("responses-encrypted-content",) for v in SUMMARY),
    "tools-passback/invalid-tool-input[openai-responses:summary/frames]",
    "tools-passback/responses-phase[openai-responses:phase/frames]",
    # a non-streamed case runs non-streamed (PASS); streamed, langchain-openai drops the alias event (FAIL)
    "wire-variants/reasoning-then-answer[openai-responses:alias-summary/frames/nonstream]",
    "wire-variants/reasoning-then-answer[openai-responses:alias-summary/frames]",
]


def _expected(profile: str, case: str) -> Verdict:
    data = tomllib.loads((PROFILES / f"{profile}.expectations.toml").read_text(encoding="utf-8"))
    return Verdict(data.get("cases", {}).get(case, {}).get("stream", "PASS"))


def _check(profile: str, case: str) -> None:
    sut = load_profile(PROFILES / f"{profile}.toml")
    (r,) = run([case], sut=sut, expectations=None, keep_timelines=True).results
    assert r.status.value == "OK", (r.status, r.error)
    assert r.stream is _expected(profile, case), [(f.check, f.verdict, f.message) for f in r.findings]
    if case.startswith("tools-passback/"):  # the framework ran the tool and asked the model again itself
        seen = [(e["side"], e["act"]) for e in r.timeline]
        assert ("client", "tool") in seen, seen
        assert seen.count(("upstream", "request")) >= 2, seen


@pytest.mark.slow
@pytest.mark.parametrize("case", AGENT_CASES)
def test_pydantic_ai_agent(case: str) -> None:
    pytest.importorskip("pydantic_ai")
    _check("pydantic-ai-agent-openai-chat", case)


@pytest.mark.slow
@pytest.mark.parametrize("case", GRAPH_CASES)
def test_langgraph_react_agent(case: str) -> None:
    pytest.importorskip("langgraph.prebuilt")
    pytest.importorskip("langchain_deepseek")
    _check("langgraph-react-deepseek", case)


@pytest.mark.slow
@pytest.mark.parametrize("case", GRAPH_RESPONSES_CASES)
def test_langgraph_react_agent_on_responses(case: str) -> None:
    pytest.importorskip("langgraph.prebuilt")
    pytest.importorskip("langchain_openai")
    _check("langgraph-react-openai-responses", case)


def test_the_cases_settle_both_ways() -> None:
    """Each list holds cases the expectations file records as passing and as failing: the tests can
    tell a framework's fault from a pass."""
    for profile, cases in (
        ("pydantic-ai-agent-openai-chat", AGENT_CASES),
        ("langgraph-react-deepseek", GRAPH_CASES),
        ("langgraph-react-openai-responses", GRAPH_RESPONSES_CASES),
    ):
        verdicts = {_expected(profile, c) for c in cases}
        assert {Verdict.PASS, Verdict.FAIL} <= verdicts, (profile, verdicts)


def test_every_recorded_fail_names_its_source_line() -> None:
    """Each FAIL of the two expectations files carries a reviewed cause with a file:line."""
    for profile in (
        "pydantic-ai-agent-openai-chat",
        "langgraph-react-deepseek",
        "langgraph-react-openai-responses",
    ):
        data = tomllib.loads((PROFILES / f"{profile}.expectations.toml").read_text(encoding="utf-8"))
        for case, row in data["cases"].items():
            if row.get("stream") == "FAIL" or row.get("cleanup") in ("FAIL", "UNCLEAN"):
                cause = (known(profile, case) or ("",))[0]
                assert re.search(r"\.py:\d+", cause), (profile, case)


def test_a_profile_with_two_pins_is_installed_only_with_both() -> None:
    assert _installed("pytest==1 tomllib==1")  # (both importable here)
    assert not _installed("pytest==1 thinkwire-no-such-package==1")
