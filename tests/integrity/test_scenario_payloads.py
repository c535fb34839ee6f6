"""Every opaque payload a scenario scripts (signatures, redacted blocks) is one the real SDKs and providers
accept: a case whose scripted data a real client rejects FAILs the client for thinkwire's mistake.

google-genai types ``Part.thought_signature`` as ``bytes`` read from base64 (``_common.BaseModel``:
``val_json_bytes='base64'``), and Gemini decodes the signatures it gets back whatever door they came
through (its OpenAI-compatible ``extra_content.google.thought_signature``, OpenRouter's
``reasoning.encrypted`` detail over Gemini, Interactions' ``signature``); botocore reads Bedrock's
``redactedContent`` blob from base64. Anthropic's and OpenAI's payloads are plain strings to their SDKs
and are not decoded here."""

from __future__ import annotations

import base64
import binascii
import importlib.util
import json

import pytest

from harness.catalog import Case, expand_all, load_catalog
from harness.events import ReasoningSignature, RedactedReasoning

_GEMINI_OVER_CHAT = ("gemini-openai", "openrouter-gemini")


def _decoded_payloads(case: Case) -> list[str]:
    """The case's scripted payloads that a real SDK or provider decodes as base64."""
    gemini = case.provider.name == "gemini" or case.variant in _GEMINI_OVER_CHAT
    out: list[str] = []
    for turn in case.scenario.turns:
        for ev in turn.events():
            if isinstance(ev, ReasoningSignature) and gemini:
                out.append(ev.value)
            elif isinstance(ev, RedactedReasoning) and case.dialect == "bedrock-converse":
                out.append(ev.data)
    return out


def canonical_base64_problem(value: str) -> str | None:
    """Why ``value`` is not canonical standard base64 (what a strict decoder and re-encoder round-trips),
    or None."""
    try:
        raw = base64.b64decode(value, validate=True)
    except binascii.Error as exc:
        return f"not valid base64 ({exc})"
    if base64.b64encode(raw).decode() != value:
        return "valid base64 but not canonical (padding or trailing bits differ when re-encoded)"
    return None


def _payload_cases() -> list[tuple[str, str, str]]:
    rows: set[tuple[str, str, str]] = set()
    for case in expand_all(load_catalog()):
        for value in _decoded_payloads(case):
            rows.add((case.scenario.path.rsplit("scenarios/", 1)[-1], case.dialect, value))
    return sorted(rows)


PAYLOADS = _payload_cases()


def test_the_catalog_scripts_decoded_payloads() -> None:
    # the premise of the test below: Gemini signatures and a Bedrock redacted blob are in the catalog
    dialects = {dialect for _, dialect, _ in PAYLOADS}
    assert {"gemini", "openai-chat", "bedrock-converse", "gemini-interactions"} <= dialects


@pytest.mark.parametrize(("path", "dialect", "value"), PAYLOADS)
def test_scripted_payload_is_canonical_base64(path: str, dialect: str, value: str) -> None:
    problem = canonical_base64_problem(value)
    assert problem is None, f"{path} ({dialect}): scripted payload {value[:40]!r}...: {problem}"


@pytest.mark.skipif(importlib.util.find_spec("google.genai") is None, reason="google-genai not installed")
@pytest.mark.parametrize(
    "value", sorted({v for _, d, v in PAYLOADS if d != "bedrock-converse"}), ids=lambda v: v[:16]
)
def test_google_genai_accepts_gemini_signature(value: str) -> None:
    from google.genai import types

    part = types.Part.model_validate_json(json.dumps({"text": "", "thoughtSignature": value}))
    assert part.thought_signature == base64.b64decode(value)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        # the three values the catalog scripted before this self-test existed
        ("Ev0BCvoBAXLI2nz6qN1bV0cKf3sHj8tY2wQmE5rUaP7dXiL4oG9vZ1cB3nS6kT0yRhJ2fW8eM4uA5xD7gC1pO3lK9qI6sV0tN2zY8bF4hE=",
         "not valid base64"),
        ("CiIB0e2Kb3a4gkvoY0QwJ4e/mock+sig==", "not canonical"),
        ("CiQB0e2Kb2mockOpenRouterGeminiThoughtSig+/w==", "not valid base64"),
    ],
)
def test_the_self_test_fails_on_the_old_scenario_values(value: str, problem: str) -> None:
    found = canonical_base64_problem(value)
    assert found is not None
    assert problem in found
