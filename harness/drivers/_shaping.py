"""Request shaping: the headers and body fields a profile adds to every request thinkwire sends a SUT. It is
separate from the profile loader because the shaping is resolved per case, from the case's dialect and
variant."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness._errors import ProfileError, closest
from harness._json import JSONDecodeError, loads

__all__ = [
    "DEFAULTS",
    "RequestShape",
    "Shaping",
    "ToolSpec",
    "merge",
    "parse_request_table",
    "request_variant",
    "shaping",
    "tool_specs",
    "tools_json",
]

_SHAPE_KEYS = ("headers", "body", "tools", "defaults")

DEFAULTS: Mapping[tuple[str, str], Mapping[str, Any]] = {
    # (front door, upstream dialect) -> body fields. An OpenAI-compatible gateway asks a reasoning
    # model for its thinking only when told to (LiteLLM maps these onto each provider's own field).
    ("openai-chat", "anthropic-messages"): {"thinking": {"type": "enabled", "budget_tokens": 2048}},
    ("openai-chat", "bedrock-converse"): {"thinking": {"type": "enabled", "budget_tokens": 2048}},
    ("openai-chat", "openai-responses"): {"reasoning_effort": {"effort": "medium", "summary": "auto"}},
    ("openai-chat", "gemini"): {"reasoning_effort": "medium"},
    # Anthropic's adaptive variant plays the models that refuse thinking.type enabled (Opus 4.7+): the
    # OpenAI-format effort asks them for adaptive thinking (LiteLLM maps it onto thinking adaptive with
    # display summarized and output_config.effort for the models its cost map marks adaptive)
    ("openai-chat", "anthropic-messages:adaptive"): {"reasoning_effort": "medium"},
    # the omitted variant plays display omitted, the default of those adaptive-only models (its case runs
    # under claude-opus-4-7): a client asks for adaptive thinking, display omitted (type enabled is a 400)
    ("openai-chat", "anthropic-messages:omitted"): {"thinking": {"type": "adaptive", "display": "omitted"}},
    # the unasked variant plays a Claude model that thinks by default (claude-mythos-preview): its client
    # names no thinking setting at all, so a gateway in front meets thinking blocks it never asked for
    ("openai-chat", "anthropic-messages:unasked"): {},
    # a chat gateway in front of a chat upstream: the client asks for the variant's form, as a client of
    # that provider would (harness/dialects/_request_forms.py: MiniMax keeps <think> in the content
    # without reasoning_split; Gemini's OpenAI endpoint sends no thoughts without include_thoughts)
    ("openai-chat", "openai-chat:minimax-details"): {"reasoning_split": True},
    ("openai-chat", "openai-chat:gemini-openai"): {
        "extra_body": {"google": {"thinking_config": {"include_thoughts": True}}}
    },
}
"""Body fields thinkwire adds by default, per (front door, case ``dialect:variant``, else ``dialect``); a
profile overrides them."""


OWN_FORM: frozenset[tuple[str, str]] = frozenset(
    {("anthropic-messages", "adaptive"), ("anthropic-messages", "omitted"), ("anthropic-messages", "unasked")}
)
"""Case variants whose model accepts only its own request form: Anthropic's adaptive-only models (Opus
4.7+) answer ``thinking.type: enabled`` with a 400
(https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking); the unasked variant's form
is a request that names no thinking."""


def request_variant(front_door: str, front_variant: str, dialect: str, variant: str) -> str:
    """The variant whose request form thinkwire's client asks in: the case's own where the front door
    speaks the case's dialect and the case's model takes only its own form (:data:`OWN_FORM`), so an
    adaptive case never gets the manual ``thinking: enabled`` form; else the front door's."""
    if front_door == dialect and (dialect, variant) in OWN_FORM:
        return variant
    return front_variant


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool a scenario's upstream calls: its name and a JSON schema of its arguments."""

    name: str
    description: str
    parameters: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class RequestShape:
    """One ``[request]`` (sub-)table."""

    headers: Mapping[str, str] = field(default_factory=dict)
    body: Mapping[str, Any] = field(default_factory=dict)
    tools: bool | None = None  # send the scenario's tool definitions (None: inherit; default False)
    defaults: bool | None = None  # apply thinkwire's DEFAULTS (None: inherit; default True)


@dataclass(frozen=True, slots=True)
class Shaping:
    """What to add to one request: headers, body fields, whether to send the tool definitions."""

    headers: Mapping[str, str]
    body: Mapping[str, Any]
    tools: bool
    unasked: tuple[str, ...] = ()
    """thinkwire's default fields that ask for reasoning, dropped by the profile (``defaults = false``)
    and not given by it: the client's request did not ask, so a SUT that forwards it is not at fault."""


def merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def _template(value: Any, values: Mapping[str, str]) -> Any:
    from harness.drivers._templates import fill

    if isinstance(value, str):
        return fill(value, values)
    if isinstance(value, Mapping):
        return {k: _template(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_template(v, values) for v in value]
    return value


def _shape(raw: Any, where: str, source: str, *, nested: bool) -> RequestShape:
    def err(fld: str, problem: str, hint: str = "") -> ProfileError:
        return ProfileError(source, f"{where}.{fld}" if fld else where, problem, hint)

    if not isinstance(raw, Mapping):
        raise err("", f"expected a table, got {raw!r}", 'e.g. [request] headers = { "x-key" = "..." }')
    for key in raw:
        if key in _SHAPE_KEYS:
            continue
        if nested:
            continue  # [request.<dialect>]: checked by the caller
        raise err(key, "unknown field", closest(key, _SHAPE_KEYS))
    headers = raw.get("headers", {})
    if not isinstance(headers, Mapping) or not all(isinstance(v, str) for v in headers.values()):
        hint = 'e.g. headers = { "x-key" = "k" }'
        raise err("headers", f"expected a table of strings, got {headers!r}", hint)
    body = raw.get("body", {})
    if not isinstance(body, Mapping):
        raise err("body", f"expected a table, got {body!r}", 'e.g. body = { reasoning_effort = "high" }')
    for fld in ("tools", "defaults"):
        if fld in raw and not isinstance(raw[fld], bool):
            raise err(fld, f"expected true or false, got {raw[fld]!r}")
    return RequestShape(
        {str(k): str(v) for k, v in headers.items()}, dict(body), raw.get("tools"), raw.get("defaults")
    )


def parse_request_table(raw: Any, source: str) -> dict[str, RequestShape]:
    """The profile's ``request`` table -> ``{"*": shape, "<dialect>": shape, ...}`` (validated).

    A profile's ``[request]`` table holds ``headers``, ``body`` and ``tools`` for every case, and
    ``[request.<dialect>]`` sub-tables for the cases whose upstream speaks ``<dialect>``. Strings are
    templated with ``{model}``, ``{dialect}``, ``{variant}``, ``{provider}``, ``{front_door}``, the
    run-wide placeholders and ``{env:NAME}``; ``_templates`` checks them when the profile loads, and an
    unknown placeholder or a missing variable is a ProfileError naming it.
    """
    from harness.dialects import dialect_names

    top = _shape(raw, "request", source, nested=True)
    out = {"*": top}
    for key, value in raw.items():
        if key in _SHAPE_KEYS:
            continue
        if key not in dialect_names():
            known = (*_SHAPE_KEYS, *dialect_names())
            raise ProfileError(source, f"request.{key}", "unknown field or dialect", closest(key, known))
        out[key] = _shape(value, f"request.{key}", source, nested=False)
    return out


def shaping(
    table: Mapping[str, RequestShape],
    *,
    front_door: str,
    dialect: str,
    variant: str,
    model: str,
    values: Mapping[str, str] | None = None,
) -> Shaping:
    """The headers/body/tools for one case's requests (``values``: the run-wide placeholders and the
    case's ``provider``).

    What is sent, lowest first: thinkwire's :data:`DEFAULTS` for the front door and the case's
    ``dialect:variant``, else its dialect, since an adaptive-only model is asked differently; then
    ``[request]``; then ``[request.<dialect>]``. Body tables merge key by key, so a user overrides a
    default by naming it; ``defaults = false`` drops the defaults. Tool definitions come from the
    scenario's scripted tool calls, :func:`tool_specs`, and are sent in the front door's own form.
    """
    layers = [table.get("*", RequestShape()), table.get(dialect, RequestShape())]
    use_defaults = next((s.defaults for s in reversed(layers) if s.defaults is not None), True)
    tools = next((s.tools for s in reversed(layers) if s.tools is not None), False)
    default = DEFAULTS.get((front_door, f"{dialect}:{variant}"), DEFAULTS.get((front_door, dialect), {}))
    body: dict[str, Any] = dict(default) if use_defaults else {}
    headers: dict[str, str] = {}
    for layer in layers:
        body = merge(body, layer.body)
        headers.update(layer.headers)
    values = {
        **(values or {}),
        "model": model,
        "dialect": dialect,
        "variant": variant,
        "front_door": front_door,
    }
    unasked = () if use_defaults else tuple(k for k in default if k not in body)
    return Shaping(_template(headers, values), _template(body, values), tools, unasked)


def _schema_of(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int | float):
        return {"type": "number"}
    if isinstance(value, list):
        return {"type": "array"}
    if isinstance(value, Mapping):
        return {"type": "object"}
    return {"type": "string"}


def tool_specs(turns: Sequence[Any]) -> tuple[ToolSpec, ...]:
    """The tools a case's upstream calls (from its scripted tool calls), each with a JSON schema of
    the arguments it is called with: what a client declares so its framework accepts the calls."""
    from harness.events import ToolCallDelta

    found: dict[str, dict[str, Any]] = {}
    for spec in turns:
        for ev in spec.events():
            if not isinstance(ev, ToolCallDelta) or not ev.name:
                continue
            props = found.setdefault(ev.name, {})
            try:
                args = loads(ev.arguments or "{}")
            except (JSONDecodeError, ValueError):
                args = {}
            if isinstance(args, Mapping):
                for key, value in args.items():
                    props.setdefault(str(key), _schema_of(value))
    return tuple(
        ToolSpec(
            name,
            f"the {name} tool",
            {"type": "object", "properties": props, "required": sorted(props)},
        )
        for name, props in found.items()
    )


def tools_json(front_door: str, tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """The tool definitions in a front door's request form."""
    if front_door == "openai-responses":
        return [
            {
                "type": "function",
                "name": t.name,
                "description": t.description,
                "parameters": dict(t.parameters),
            }
            for t in tools
        ]
    if front_door == "anthropic-messages":
        return [
            {"name": t.name, "description": t.description, "input_schema": dict(t.parameters)} for t in tools
        ]
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": dict(t.parameters)},
        }
        for t in tools
    ]
