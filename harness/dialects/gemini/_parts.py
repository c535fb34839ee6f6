"""The replayed ``contents[]`` of a Gemini request, read as the API parses it: every content and part against
google-genai's ``types.Content`` and ``types.Part``, in either name casing, and the first problem the real
API answers 400 ``INVALID_ARGUMENT`` with Google's own message. It is apart from the signature rules
because every Gemini rule set runs it first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from harness.dialects._gemini_names import camel
from harness.dialects._values import mapping

__all__ = [
    "CONTENT_FIELDS",
    "DATA_FIELDS",
    "FUNCTION_CALL_FIELDS",
    "FUNCTION_RESPONSE_FIELDS",
    "PART_FIELDS",
    "PartProblem",
    "contents_problem",
]

PART_FIELDS = frozenset(
    {
        "audioMetadata", "audioTranscription", "codeExecutionResult", "documentMetadata", "executableCode",
        "fileData", "functionCall", "functionResponse", "inlineData", "mediaProcessing", "mediaResolution",
        "partMetadata", "speechMetadata", "spreadsheetMetadata", "text", "thought", "thoughtSignature",
        "toolCall", "toolResponse", "videoMetadata",
    }
)  # fmt: skip
"""google-genai 3.6 ``types.Part`` fields (lowerCamelCase; tests/dialects/test_gemini_parts.py compares
with the installed SDK). The SDK's set is a superset of the Developer API's ``Part``
(https://ai.google.dev/api/caching#Part): a field only Vertex knows is accepted, never refused."""
FUNCTION_CALL_FIELDS = frozenset({"args", "id", "name", "partialArgs", "willContinue"})
"""google-genai ``types.FunctionCall``."""
FUNCTION_RESPONSE_FIELDS = frozenset({"id", "name", "parts", "response", "scheduling", "willContinue"})
"""google-genai ``types.FunctionResponse``."""
CONTENT_FIELDS = frozenset({"parts", "role"})
"""google-genai ``types.Content``."""
_CALL_FIELDS = {"functionCall": FUNCTION_CALL_FIELDS, "functionResponse": FUNCTION_RESPONSE_FIELDS}

DATA_FIELDS = (
    "text", "inlineData", "functionCall", "functionResponse", "fileData", "executableCode",
    "codeExecutionResult",
)  # fmt: skip
"""The members of ``Part``'s ``data`` oneof (https://ai.google.dev/api/caching#Part: "data: Union type,
can be only one of"; the SDK: "Using multiple fields within the same Part instance is considered
invalid"). ``toolCall``/``toolResponse`` are left out: whether they share the oneof is not documented."""

ROLES = ("user", "model")
LENIENT_ROLES = ("", "function")
"""Unset and empty mean user (``Content.role``: "If not set, the service will default to 'user'");
``function`` is the role older docs gave function responses: its 400 today is not documented."""

UNKNOWN_NAME = "Invalid JSON payload received. Unknown name \"{name}\" at '{where}': Cannot find field."
"""Google's protobuf-JSON parser on a field the message lacks, one line per field (reported verbatim:
github.com/gera2ld/ai.nvim/issues/13 at ``contents[0].parts``, google-gemini/gemini-cli#13972 at
``contents[7].parts[0].function_response``), with one ``google.rpc.BadRequest`` field violation each."""
ONEOF_SET = "Invalid value at '{where}' (oneof), oneof field 'data' is already set. Cannot set '{name}'"
"""Two members of the ``data`` oneof in one part (reported verbatim against generativelanguage:
github.com/googleapis/google-cloud-dart/issues/26, text then inlineData). The field violation that
goes with it is **(guess)**, shaped as the unknown-name one."""
NO_DATA = (
    "* GenerateContentRequest.{where}.data: required oneof field 'data' must have one initialized field\n"
)
"""A part without any data field, one line per part (reported verbatim through gateways:
github.com/QuantumNous/new-api/issues/632, songquanpeng/one-api/issues/2243). A part carrying a
``thoughtSignature`` is exempt: Google itself streams a bare ``{"thoughtSignature": ...}`` part
(wire-formats.md section 5.1, GEM-SIG-EMPTY) and asks for it back "in the exact part"."""
BAD_ROLE = "Please use a valid role: user, model."
"""(reported verbatim: github.com/the-open-agent/openagent/issues/1666, router-for-me/CLIProxyAPI#2791)."""
RESPONSE_AFTER_CALL = (
    "Please ensure that function response turn comes immediately after a function call turn."
)
"""(reported verbatim: langchain-ai/langchain#27799, GoogleCloudPlatform/generative-ai#368)."""
RESPONSE_COUNT = (
    "Please ensure that the number of function response parts is equal to the number of function call "
    "parts of the function call turn."
)
"""(reported verbatim, many times: google-gemini/gemini-cli#4217, #5443, #16415)."""
CALL_AFTER_USER = (
    "Please ensure that function call turn comes immediately after a user turn or after a function "
    "response turn."
)
"""(reported verbatim: google-gemini/gemini-cli#11814, "when the sent conversation history starts with
a function call"; only that case is enforced here)."""


@dataclass(frozen=True, slots=True)
class PartProblem:
    """One problem of ``contents``: the rule, Google's message, the ``google.rpc.BadRequest`` field
    violations that go with it (``(field, description)``), and the finding's difference."""

    rule: str
    message: str
    violations: tuple[tuple[str, str], ...]
    difference: tuple[str, Any, Any]


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def _unknown(obj: Mapping[str, Any], known: frozenset[str], where: str) -> list[tuple[str, str, str]]:
    """(name, path, line) for every key of ``obj`` that is not a field of its message."""
    return [
        (str(k), where, UNKNOWN_NAME.format(name=k, where=where))
        for k in obj
        if not isinstance(k, str) or camel(k) not in known
    ]


def _unknown_names(contents: Sequence[Any]) -> PartProblem | None:
    found: list[tuple[str, str, str]] = []
    for n, c in enumerate(contents):
        found += _unknown(mapping(c), CONTENT_FIELDS, f"contents[{n}]")
        for m, p in _parts_of(c):
            where = f"contents[{n}].parts[{m}]"
            found += _unknown(p, PART_FIELDS, where)
            for key, value in p.items():
                name = camel(key) if isinstance(key, str) else ""
                if name in _CALL_FIELDS and isinstance(value, Mapping):
                    found += _unknown(value, _CALL_FIELDS[name], f"{where}.{_snake(name)}")
    if not found:
        return None
    name, where, _ = found[0]
    lines = tuple((w, line) for _, w, line in found)
    message = "\n".join(line for _, line in lines)
    return PartProblem("gemini/unknown-field", message, lines, (f"{where}.{name}", name, None))


def _oneof(contents: Sequence[Any]) -> PartProblem | None:
    for n, m, part in _parts(contents):
        # the data fields the part sets; a JSON null sets nothing (protobuf JSON reads it as the default)
        keys = [
            k for k, v in part.items() if isinstance(k, str) and camel(k) in DATA_FIELDS and v is not None
        ]
        if len(keys) > 1:
            where = f"contents[{n}].parts[{m}]"
            message = ONEOF_SET.format(where=where, name=keys[1])
            return PartProblem(
                "gemini/two-data-fields", message, ((where, message),), (f"{where}.{keys[1]}", keys, keys[:1])
            )
    return None


def _no_data(contents: Sequence[Any]) -> PartProblem | None:
    empty = [
        (n, m)
        for n, m, part in _parts(contents)
        # a data field given as null is left to the API (its answer is not documented)
        if not any(camel(str(k)) in (*DATA_FIELDS, "thoughtSignature") for k in part)
    ]
    if not empty:
        return None
    n, m = empty[0]
    message = "".join(NO_DATA.format(where=f"contents[{a}].parts[{b}]") for a, b in empty)
    diff: tuple[str, Any, Any] = (f"contents[{n}].parts[{m}]", {}, "one data field")
    return PartProblem("gemini/part-without-data", message, (), diff)


def _parts_of(content: Any) -> list[tuple[int, Mapping[str, Any]]]:
    parts = mapping(content).get("parts")
    return [(m, p) for m, p in enumerate(parts if isinstance(parts, list) else ()) if isinstance(p, Mapping)]


def _parts(contents: Sequence[Any]) -> list[tuple[int, int, Mapping[str, Any]]]:
    return [(n, m, p) for n, c in enumerate(contents) for m, p in _parts_of(c)]


def _role(contents: Sequence[Any]) -> PartProblem | None:
    for n, c in enumerate(contents):
        role = mapping(c).get("role")
        if role is not None and role not in ROLES and role not in LENIENT_ROLES:
            diff = (f"contents[{n}].role", role, "user or model")
            return PartProblem("gemini/invalid-role", BAD_ROLE, (), diff)
    return None


def _count(content: Any, field: str) -> int:
    return sum(1 for _, p in _parts_of(content) if any(camel(str(k)) == field for k in p))


def _function_turns(contents: Sequence[Any]) -> PartProblem | None:
    """A function-response turn (a run of contents holding functionResponse parts) needs the content
    right before it to be a function-call turn with as many calls; a history may not open with calls."""
    first = contents[0] if contents else None
    if isinstance(first, Mapping) and first.get("role") == "model" and _count(first, "functionCall"):
        diff: tuple[str, Any, Any] = ("contents[0].role", "model", "user")
        return PartProblem("gemini/call-turn-first", CALL_AFTER_USER, (), diff)
    start = 0
    for answers, run in groupby([_count(c, "functionResponse") for c in contents], key=bool):
        responses = list(run)
        calls = _count(contents[start - 1], "functionCall") if start else 0
        if answers and not calls:
            diff = (f"contents[{start - 1}]" if start else "contents", None, "a function call turn")
            return PartProblem("gemini/response-without-call", RESPONSE_AFTER_CALL, (), diff)
        if answers and sum(responses) != calls:
            diff = (f"contents[{start}].parts[].functionResponse", sum(responses), calls)
            return PartProblem("gemini/response-count", RESPONSE_COUNT, (), diff)
        start += len(responses)
    return None


def contents_problem(contents: Sequence[Any]) -> PartProblem | None:
    """The first problem Google reports for ``contents`` (as sent: either name casing), in the order
    its parser and validator meet them: JSON field names, the data oneof, roles, function turns.

    A rule rejects only what Google is documented, or reported verbatim, to reject, and each names its
    source. Undocumented cases stay lenient, so the mock never refuses what the real API accepts: a
    ``thoughtSignature`` on any part, since Google returns it on function-call, text, empty and bare parts;
    a ``functionResponse`` whose name or id matches no call; the role ``function`` of older docs; a
    function-call turn after another model turn; and two data fields when one is ``toolCall`` or
    ``toolResponse``.
    """
    problems = (audit(contents) for audit in (_unknown_names, _oneof, _no_data, _role, _function_turns))
    return next((problem for problem in problems if problem is not None), None)
