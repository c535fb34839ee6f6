"""The strict Gemini upstream reads a replayed ``contents[]`` as the API parses it (dialects/gemini/_parts):
each rule fires on the input Google rejects, with Google's message, and on nothing the real API accepts
(recorded requests that got a 200, the forms the SDK and Google's own answers produce)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from google.genai import types as genai_types

from harness._json import loads
from harness.dialects import get_dialect
from harness.dialects._gemini_names import camel
from harness.dialects.gemini._parts import (
    CONTENT_FIELDS,
    FUNCTION_CALL_FIELDS,
    FUNCTION_RESPONSE_FIELDS,
    PART_FIELDS,
    contents_problem,
)
from harness.events import Message, TextBlock, ToolCallBlock
from harness.recording import read_cassette
from harness.recording._corpus import locate, open_corpus

USER: dict[str, Any] = {"role": "user", "parts": [{"text": "weather in Paris and Rome?"}]}
CALL = {
    "functionCall": {"id": "c1", "name": "get_weather", "args": {"city": "Paris"}},
    "thoughtSignature": "U0lH",
}
CALL2 = {"functionCall": {"id": "c2", "name": "get_weather", "args": {"city": "Rome"}}}
ANSWER = {"functionResponse": {"id": "c1", "name": "get_weather", "response": {"result": "sunny"}}}
ANSWER2 = {"functionResponse": {"id": "c2", "name": "get_weather", "response": {"result": "rain"}}}


def model(*parts: Any) -> dict[str, Any]:
    return {"role": "model", "parts": list(parts)}


def user(*parts: Any) -> dict[str, Any]:
    return {"role": "user", "parts": list(parts)}


REJECTED: list[tuple[str, list[Any], str, str]] = [
    # (id, contents, rule, Google's message or its start)
    (
        "unknown-part-field",
        [user({"text": "hi", "cache_control": {"type": "ephemeral"}})],
        "gemini/unknown-field",
        "Invalid JSON payload received. Unknown name \"cache_control\" at 'contents[0].parts[0]': "
        "Cannot find field.",
    ),
    (
        "unknown-content-field",
        [{"role": "user", "content": "hi", "parts": [{"text": "hi"}]}],
        "gemini/unknown-field",
        "Invalid JSON payload received. Unknown name \"content\" at 'contents[0]': Cannot find field.",
    ),
    (
        "unknown-function-response-field",
        [USER, model(CALL), user({"functionResponse": {"name": "get_weather", "content": "sunny"}})],
        "gemini/unknown-field",
        'Invalid JSON payload received. Unknown name "content" at '
        "'contents[2].parts[0].function_response': Cannot find field.",
    ),
    (
        "text-and-function-call",
        [USER, model({"text": "Let me look.", **CALL})],
        "gemini/two-data-fields",
        "Invalid value at 'contents[1].parts[0]' (oneof), oneof field 'data' is already set. "
        "Cannot set 'functionCall'",
    ),
    (
        "empty-part",
        [user({"text": "hi"}, {})],
        "gemini/part-without-data",
        "* GenerateContentRequest.contents[0].parts[1].data: required oneof field 'data' must have one "
        "initialized field\n",
    ),
    (
        "thought-flag-only",
        [USER, model({"thought": True}, {"text": "It is sunny."})],
        "gemini/part-without-data",
        "* GenerateContentRequest.contents[1].parts[0].data",
    ),
    ("role-assistant", [USER, {"role": "assistant", "parts": [{"text": "Hi"}]}], "gemini/invalid-role", ""),
    ("role-tool", [USER, model(CALL), {"role": "tool", "parts": [ANSWER]}], "gemini/invalid-role", ""),
    ("role-system", [{"role": "system", "parts": [{"text": "Be brief."}]}, USER], "gemini/invalid-role", ""),
    (
        "history-opens-with-a-call",
        [model(CALL), user(ANSWER)],
        "gemini/call-turn-first",
        "Please ensure that function call turn comes immediately after a user turn or after a function "
        "response turn.",
    ),
    (
        "response-without-call",
        [USER, model({"text": "Hello"}), user(ANSWER)],
        "gemini/response-without-call",
        "Please ensure that function response turn comes immediately after a function call turn.",
    ),
    (
        "response-opens-history",
        [user(ANSWER)],
        "gemini/response-without-call",
        "Please ensure that function response turn comes immediately after a function call turn.",
    ),
    (
        "one-response-for-two-calls",
        [USER, model(CALL, CALL2), user(ANSWER)],
        "gemini/response-count",
        "Please ensure that the number of function response parts is equal to the number of function call "
        "parts of the function call turn.",
    ),
    (
        "two-responses-for-one-call",
        [USER, model(CALL), user(ANSWER, ANSWER2)],
        "gemini/response-count",
        "Please ensure that the number of function response parts",
    ),
]

ACCEPTED: list[tuple[str, list[Any]]] = [
    ("plain", [USER]),
    ("null-text-beside-a-call", [USER, model({"text": None, **CALL})]),
    ("null-text-alone-undocumented", [USER, model({"text": None}, {"text": "Sunny."})]),
    ("role-unset-means-user", [{"parts": [{"text": "hi"}]}]),
    ("role-function-of-older-docs", [USER, model(CALL), {"role": "function", "parts": [ANSWER]}]),
    ("snake-case-names", [USER, model({"function_call": CALL["functionCall"], "thought_signature": "U0lH"})]),
    ("thought-part", [USER, model({"text": "thinking", "thought": True}, {"text": "Sunny."})]),
    ("text-with-signature", [USER, model({"text": "Sunny.", "thoughtSignature": "U0lH"})]),
    (
        "empty-text-with-signature",
        [USER, model({"text": "Sunny."}, {"text": "", "thoughtSignature": "U0lH"})],
    ),
    ("bare-signature-part", [USER, model({"text": "Sunny."}, {"thoughtSignature": "U0lH"})]),
    ("signature-on-second-call", [USER, model(CALL2, CALL), user(ANSWER2, ANSWER)]),
    ("parallel-calls-answered", [USER, model(CALL, CALL2), user(ANSWER, ANSWER2), model({"text": "Done."})]),
    ("responses-one-content-each", [USER, model(CALL, CALL2), user(ANSWER), user(ANSWER2)]),
    (
        "response-name-matches-no-call",
        [USER, model(CALL), user({"functionResponse": {"name": "x", "response": {}}})],
    ),
    ("calls-after-model-text", [USER, model({"text": "Let me look."}), model(CALL), user(ANSWER)]),
    ("unanswered-call-then-user-text", [USER, model(CALL), USER]),
    (
        "function-call-id-and-extras",
        [USER, model({"functionCall": {**CALL["functionCall"], "willContinue": False}})],
    ),
    (
        "part-metadata-and-media-fields",
        [user({"text": "hi", "partMetadata": {"k": "v"}, "mediaResolution": {}})],
    ),
    ("sentinel-signature", [USER, model({**CALL2, "thoughtSignature": "skip_thought_signature_validator"})]),
]


@pytest.mark.parametrize(
    ("contents", "rule", "message"), [r[1:] for r in REJECTED], ids=[r[0] for r in REJECTED]
)
def test_the_rule_fires_with_googles_message(contents: list[Any], rule: str, message: str) -> None:
    problem = contents_problem(contents)
    assert problem is not None
    assert problem.rule == rule
    assert problem.message.startswith(message or "Please use a valid role: user, model.")


@pytest.mark.parametrize("contents", [r[1] for r in ACCEPTED], ids=[r[0] for r in ACCEPTED])
def test_nothing_fires_on_what_the_api_accepts(contents: list[Any]) -> None:
    assert contents_problem(contents) is None


def _recorded_gemini_requests() -> list[tuple[str, dict[str, Any]]]:
    root = Path(__file__).resolve().parents[2]
    paths = sorted((root / "recordings").glob("gemini-*.jsonl"))
    corpus = open_corpus(locate())  # the fidelity corpus where present (tests/fidelity needs it)
    paths += (
        sorted(corpus.path(e.name) for e in corpus.manifest.entries if e.name.startswith("gemini-"))
        if corpus
        else []
    )
    out = []
    for p in paths:
        for n, ex in enumerate(read_cassette(p).exchanges):
            if ex.status == 200 and ex.request_body:
                out.append((f"{p.name}#{n}", loads(ex.request_body)))
    return out


def test_every_recorded_request_google_answered_200_passes() -> None:
    requests = _recorded_gemini_requests()
    assert requests, "no recorded Gemini request found"
    for where, body in requests:
        assert contents_problem(body["contents"]) is None, where


def test_the_field_tables_are_the_installed_sdks() -> None:
    def names(model: type[genai_types._common.BaseModel]) -> frozenset[str]:
        return frozenset(camel(f) for f in model.model_fields)

    assert names(genai_types.Part) == PART_FIELDS
    assert names(genai_types.FunctionCall) == FUNCTION_CALL_FIELDS
    assert names(genai_types.FunctionResponse) == FUNCTION_RESPONSE_FIELDS
    assert names(genai_types.Content) == CONTENT_FIELDS


def test_what_the_sdk_sends_for_a_tool_loop_passes() -> None:
    """The google-genai SDK's own serialisation of a tool loop (camelCase, by alias, unset left out)."""
    history = [
        genai_types.Content(role="user", parts=[genai_types.Part.from_text(text="weather?")]),
        genai_types.Content(
            role="model",
            parts=[
                genai_types.Part(text="plan", thought=True),
                genai_types.Part(
                    function_call=genai_types.FunctionCall(id="c1", name="get_weather", args={"city": "P"}),
                    thought_signature=b"SIG",
                ),
            ],
        ),
        genai_types.Content(
            role="user",
            parts=[genai_types.Part.from_function_response(name="get_weather", response={"result": "sunny"})],
        ),
    ]
    contents = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in history]
    assert contents_problem(contents) is None


def test_the_strict_upstream_answers_googles_400_body() -> None:
    rules = get_dialect("gemini").provider_rules()
    emitted = [Message("assistant", (TextBlock("Hi"),))]
    request = {"contents": [USER, {"role": "assistant", "parts": [{"text": "Hi"}]}, USER]}
    for name in ("gemini-2.5", "gemini-3", "gemini-3-signatures"):
        rejection = rules[name].validate(request, emitted)
        assert rejection is not None, name
        assert (rejection.status, rejection.rule, rejection.family) == (400, "gemini/invalid-role", "request")
        assert loads(rejection.body) == {
            "error": {
                "code": 400,
                "message": "Please use a valid role: user, model.",
                "status": "INVALID_ARGUMENT",
            }
        }
        assert rejection.rule in rules[name].request_rules
    assert rules["lenient"].validate(request, emitted) is None


def test_an_unknown_name_carries_its_field_violations() -> None:
    rules = get_dialect("gemini").provider_rules()["gemini-3"]
    request = {"contents": [USER, model({**CALL, "id": "c1"}), user(ANSWER)]}
    calls = [Message("assistant", (ToolCallBlock("c1", "get_weather", "{}", "U0lH"),))]
    rejection = rules.validate(request, calls)
    assert rejection is not None
    error = loads(rejection.body)["error"]
    message = (
        "Invalid JSON payload received. Unknown name \"id\" at 'contents[1].parts[0]': Cannot find field."
    )
    assert error["message"] == message
    assert error["details"] == [
        {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            "fieldViolations": [{"field": "contents[1].parts[0]", "description": message}],
        }
    ]
