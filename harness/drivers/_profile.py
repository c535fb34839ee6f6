"""SUT profiles: the TOML file a user writes once to tell thinkwire how to start and address a SUT.

Rule: placeholders (``_templates``: ``{upstream}``, ``{port}``, ``{tmp}``, ``{python}``,
``{profile_dir}``, ``{env:NAME}`` everywhere; the per-case ``{model}``, ``{dialect}``, ``{variant}``,
``{provider}``... where a case is known) are checked when the profile loads (an unknown one is a
ProfileError naming it) and filled in commands, env, URLs, config files and request shaping; model
names are templates of their own (``{dialect}``, ``{variant}``, ``{provider}``, ``{default_model}``).
The ``[request]`` table (headers and body fields added to every request to the SUT) is parsed and
templated by ``_shaping``; ``sys_path`` (paths relative to the profile) is prepended to ``sys.path``
before a python SUT's callable is imported.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness._errors import ProfileError, closest
from harness.dialects._carrier_spec import CarrierSpec
from harness.dialects._providers import Provider, provider_names, provider_of
from harness.drivers._shaping import RequestShape, parse_request_table
from harness.drivers._templates import CASE, RUN, check, fill

__all__ = [
    "KINDS",
    "SUTProfile",
    "build_options",
    "load_profile",
    "observer_options",
    "parse_profile",
    "substitute",
]

KINDS = ("gateway", "url", "python", "cli", "adapter")

_KEYS: dict[str, Any] = {
    "name": str,
    "kind": str,
    "command": (list, str),
    "env": dict,
    "url": str,
    "ready": str,
    "ready_timeout": (int, float),
    "timeout": (int, float),
    "front_door": str,
    "front_variant": str,
    "path": str,
    "models": dict,
    "dialects": list,
    "unsupported_variants": list,
    "reasoning_fields": list,
    "callable": str,
    "session_dir": str,
    "files": dict,
    "expectations": str,
    "faults": list,
    "keep_alive": bool,
    "inline_think": bool,
    "warmup": bool,
    "gate_timeout": (int, float),
    "max_bytes": int,
    "usage": bool,
    "request": dict,
    "sys_path": list,
    "echo_fields": list,
    "carriers": dict,
    "providers": list,
    "scenarios": list,
}


_WANT = {
    "command": 'a list of words or a string (e.g. command = ["gw", "--port", "{port}"])',
    "timeout": "a number of seconds",
    "ready_timeout": "a number of seconds",
}
_LISTS_OF_STR = (
    "command", "dialects", "unsupported_variants", "reasoning_fields", "faults", "providers", "scenarios"
)
_TABLES_OF_STR = ("env", "models", "files")


@dataclass(frozen=True, slots=True)
class SUTProfile:
    name: str
    kind: str
    command: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    url: str = "http://127.0.0.1:{port}"
    ready: str | None = None
    ready_timeout: float = 15.0
    timeout: float = 20.0
    front_door: str = "openai-chat"
    front_variant: str = "reasoning"
    path: str = "/v1/chat/completions"
    models: Mapping[str, str] = field(default_factory=dict)
    dialects: tuple[str, ...] | None = None
    unsupported_variants: tuple[str, ...] = ()
    reasoning_fields: tuple[str, ...] | None = None
    callable: str | None = None
    session_dir: str = "{tmp}/session"
    files: Mapping[str, str] = field(default_factory=dict)
    expectations: str | None = None
    faults: tuple[str, ...] = ()
    keep_alive: bool = True  # gateway: one process for the whole run (else one per case)
    # The SUT's documented contract is to forward reasoning as inline <think> tags in content: the
    # front-door observer then splits a leading tag, and such cases are NON_STRICT, never PASS.
    # Default: structured reasoning (a tag in content is content: the observer never repairs).
    inline_think: bool = False
    warmup: bool | None = None  # a warm-up request before the first case (None: gateway/url SUTs)
    gate_timeout: float | None = None  # gates' timeout (None: derived from the warm-up's latency)
    max_bytes: int | None = None  # what one case may read from the SUT (None: 64 MiB)
    reports_usage: bool = True  # profile key ``usage``: the SUT reports token usage (CLIs: false)
    request: Mapping[str, RequestShape] = field(default_factory=dict)  # "*"/dialect -> headers, body
    echo_fields: tuple[str, ...] | None = None  # openai-chat: the carriers the SUT reads reasoning back from
    carriers: tuple[CarrierSpec, ...] = ()  # openai-chat: carriers the profile declares ([carriers.<name>])
    providers: tuple[str, ...] | None = None  # the providers whose semantics it claims (None: every one)
    scenarios: tuple[str, ...] = ()  # a team's own scenario directories (absolute once loaded from a file)
    sys_path: tuple[str, ...] = ()  # python SUTs: import paths (absolute once loaded from a file)
    source: str = "<flags>"
    profile_dir: str = ""  # the profile file's directory ({profile_dir}; "" = the working directory)

    def run_values(self, **values: str) -> dict[str, str]:
        """The run-wide placeholder values (``_templates.RUN``), with ``values`` added."""
        import os
        import sys

        return {"python": sys.executable, "profile_dir": self.profile_dir or os.getcwd(), **values}

    def model_for(self, dialect: str, variant: str, provider: Provider | None = None) -> str:
        """The model name a case is called by: ``models`` keyed by the case's provider, else its
        dialect, else ``*``; without any, the provider's realistic default name."""
        provider = provider or provider_of(dialect, variant)
        template = self.models.get(
            provider.name, self.models.get(dialect, self.models.get("*", "{default_model}"))
        )
        return template.format(
            dialect=dialect, variant=variant, provider=provider.name, default_model=provider.model
        )

    def claims_provider(self, provider: str) -> bool:
        """Whether the SUT claims ``provider``'s semantics (its passback rules); default: every one."""
        return self.providers is None or provider in self.providers

    def claims(self, dialect: str, variant: str) -> bool:
        if self.dialects is not None and dialect not in self.dialects:
            return False
        return (
            f"{dialect}:{variant}" not in self.unsupported_variants
            and variant not in self.unsupported_variants
        )


def substitute(template: str, values: Mapping[str, str]) -> str:
    """``template`` with its placeholders filled from ``values`` and the environment (``_templates``)."""
    return fill(template, values)


def load_profile(path: Path) -> SUTProfile:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(str(path), "<file>", f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise ProfileError(str(path), "<file>", f"cannot be read: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ProfileError(
            str(path),
            "<file>",
            f"is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})",
            "save it as UTF-8",
        ) from None
    profile = parse_profile(data, source=str(path))
    object.__setattr__(profile, "profile_dir", str(path.resolve().parent))
    if profile.expectations and not Path(profile.expectations).is_absolute():
        object.__setattr__(profile, "expectations", str(path.parent / profile.expectations))
    for key in ("sys_path", "scenarios"):  # relative to the profile
        paths = tuple(str((path.parent / p).resolve()) for p in getattr(profile, key))
        object.__setattr__(profile, key, paths)
    return profile


def parse_profile(data: Mapping[str, Any], *, source: str = "<flags>") -> SUTProfile:
    def err(fld: str, problem: str, hint: str = "") -> ProfileError:
        return ProfileError(source, fld, problem, hint)

    for key, value in data.items():
        if key not in _KEYS:
            raise err(key, "unknown field", closest(key, _KEYS))
        want = _KEYS[key]
        # bool is an int to isinstance: ``timeout = true`` must not pass as 1 second
        if not isinstance(value, want) or (isinstance(value, bool) and want is not bool):
            raise err(key, f"expected {_WANT.get(key, _tname(want))}, got {_shown(value)}")
        if key in _LISTS_OF_STR:
            for v in value:
                if not isinstance(v, str):
                    raise err(key, f"expected a list of strings, found {_shown(v)}", f'e.g. {key} = ["..."]')
        if key in _TABLES_OF_STR:
            for k, v in value.items():
                if not isinstance(v, str | int | float) or isinstance(v, bool):
                    raise err(f"{key}.{k}", f"expected a string, got {_shown(v)}", f'e.g. {key}.{k} = "..."')
        if key in ("timeout", "ready_timeout") and not value > 0:
            raise err(key, f"expected a number of seconds > 0, got {value!r}", f"e.g. {key} = 30")
    kind = data.get("kind")
    if kind is None:
        raise err("kind", "missing", f"one of {', '.join(KINDS)}")
    if kind not in KINDS:
        raise err("kind", f"unknown kind {kind!r}", closest(kind, KINDS))
    command = data.get("command", ())
    if isinstance(command, str):
        import shlex

        try:
            command = shlex.split(command)
        except ValueError as exc:  # an unclosed quote or a trailing backslash
            raise err(
                "command",
                f"{command!r} cannot be split into words: {exc}",
                "close the quote or escape it, or give a list of words",
            ) from None
    if kind in ("gateway", "cli", "adapter") and not command:
        raise err(
            "command",
            f"a {kind} profile needs a command",
            'e.g. command = ["my-gateway", "--port", "{port}"]',
        )
    if kind == "url" and "url" not in data:
        raise err(
            "url", "a url profile needs the URL of the running SUT", 'e.g. url = "http://127.0.0.1:8080"'
        )
    if kind == "python" and not data.get("callable"):
        raise err("callable", 'a python profile needs callable = "module:function"')
    if data.get("callable") and ":" not in data["callable"]:
        raise err("callable", f"{data['callable']!r} is not module:function")
    from harness.dialects import dialect_names

    if not all(isinstance(p, str) for p in data.get("sys_path", [])):
        raise err("sys_path", "expected a list of directories", 'e.g. sys_path = ["adapters"]')
    _check_templates(data, kind, err)
    request = parse_request_table(data["request"], source) if "request" in data else {}
    front = str(data.get("front_door", "pi-json" if kind == "cli" else "openai-chat"))
    if front not in dialect_names():
        raise err("front_door", f"unknown dialect {front!r}", closest(front, dialect_names()))
    carriers = _carriers(data, front, source)
    for d in data.get("dialects", []) or []:
        if d not in dialect_names():
            raise err("dialects", f"unknown dialect {d!r}", closest(d, dialect_names()))
    if "front_variant" in data:
        from harness.dialects import get_dialect

        variants = list(get_dialect(front).variants)
        if data["front_variant"] not in variants:
            raise err(
                "front_variant",
                f"unknown variant {data['front_variant']!r} of front door {front}",
                closest(data["front_variant"], variants),
            )
    _check_models(data, err)
    return SUTProfile(
        name=str(data.get("name", kind)),
        kind=kind,
        command=tuple(str(c) for c in command),
        env={str(k): str(v) for k, v in dict(data.get("env", {})).items()},
        url=str(data.get("url", "http://127.0.0.1:{port}")),
        ready=data.get("ready"),
        ready_timeout=float(data.get("ready_timeout", 15.0)),
        timeout=float(data.get("timeout", 20.0)),
        front_door=front,
        front_variant=str(data.get("front_variant", "v2" if front == "pi-json" else "reasoning")),
        path=str(data.get("path", "/v1/chat/completions")),
        models={str(k): str(v) for k, v in dict(data.get("models", {})).items()},
        dialects=tuple(data["dialects"]) if "dialects" in data else None,
        unsupported_variants=tuple(data.get("unsupported_variants", ())),
        reasoning_fields=tuple(data["reasoning_fields"]) if "reasoning_fields" in data else None,
        callable=data.get("callable"),
        session_dir=str(data.get("session_dir", "{tmp}/session")),
        files={str(k): str(v) for k, v in dict(data.get("files", {})).items()},
        expectations=data.get("expectations"),
        faults=tuple(data.get("faults", ())),
        keep_alive=bool(data.get("keep_alive", True)),
        inline_think=bool(data.get("inline_think", False)),
        warmup=data.get("warmup"),
        gate_timeout=float(data["gate_timeout"]) if "gate_timeout" in data else None,
        max_bytes=int(data["max_bytes"]) if "max_bytes" in data else None,
        reports_usage=bool(data.get("usage", kind != "cli")),
        request=request,
        echo_fields=tuple(data["echo_fields"]) if "echo_fields" in data else None,
        carriers=carriers,
        providers=tuple(data["providers"]) if "providers" in data else None,
        scenarios=tuple(data.get("scenarios", ())),
        sys_path=tuple(data.get("sys_path", ())),
        source=source,
    )


def _check_templates(data: Mapping[str, Any], kind: str, err: Any) -> None:
    """Every placeholder known where it is used: per-case ones only in request shaping and in a CLI's
    command, env and session dir (a gateway is started once per run)."""
    per_case = (*RUN, *CASE) if kind == "cli" else RUN
    for key in ("command", "env", "files", "session_dir"):
        if key in data:
            check(data[key], per_case, err, key)
    for key in ("url", "ready"):
        if key in data:
            check(data[key], RUN, err, key)
    if "request" in data:
        check(data["request"], (*RUN, *CASE), err, "request")


def _check_models(data: Mapping[str, Any], err: Any) -> None:
    """``models`` keys are dialects, providers or ``*``; templates use known placeholders only;
    ``providers`` names known providers."""
    from harness.dialects import dialect_names

    keys = (*dialect_names(), *provider_names(), "*")
    for key, template in dict(data.get("models", {})).items():
        if key not in keys:
            raise err(f"models.{key}", "names no dialect or provider", closest(str(key), keys))
        try:
            str(template).format(dialect="d", variant="v", provider="p", default_model="m")
        except (KeyError, IndexError, ValueError) as exc:
            raise err(
                f"models.{key}",
                f"bad template {template!r} ({type(exc).__name__}: {exc})",
                "the placeholders are {dialect}, {variant}, {provider} and {default_model}",
            ) from None
    for name in data.get("providers", ()):
        if name not in provider_names():
            raise err("providers", f"unknown provider {name!r}", closest(str(name), provider_names()))


def _carriers(data: Mapping[str, Any], front: str, source: str) -> tuple[CarrierSpec, ...]:
    """The declared carriers; ``echo_fields`` may name them or a built-in (``reasoning_fields`` may
    also name any plain string field)."""
    from harness.dialects._carrier_spec import parse_carriers
    from harness.dialects._chat_carriers import CARRIERS

    keys = [k for k in ("carriers", "echo_fields") if k in data]
    if keys and front != "openai-chat":
        raise ProfileError(source, keys[0], f"only an openai-chat front door has carriers (this is {front})")
    specs = parse_carriers(data["carriers"], source, CARRIERS) if "carriers" in data else ()
    known = (*CARRIERS, *(c.name for c in specs))
    for name in data.get("echo_fields", ()):
        if name not in known:
            raise ProfileError(source, "echo_fields", f"unknown carrier {name!r}", closest(str(name), known))
    return specs


def _tname(t: Any) -> str:
    names = {
        "str": "a string",
        "list": "a list",
        "dict": "a table",
        "bool": "true or false",
        "int": "an integer",
        "float": "a number",
    }
    types = t if isinstance(t, tuple) else (t,)
    return " or ".join(dict.fromkeys(names.get(x.__name__, x.__name__) for x in types))


def _shown(value: Any) -> str:
    """``str ('20')``: the type a value has and the value, for "expected X, got Y"."""
    return f"{type(value).__name__} ({value!r})"


def build_options(profile: SUTProfile) -> dict[str, Any]:
    """Options for the front door's request builder, from the profile (the echo carriers)."""
    opts: dict[str, Any] = {} if profile.echo_fields is None else {"echo_fields": profile.echo_fields}
    if profile.carriers:
        opts["carriers"] = profile.carriers
    return opts


def observer_options(profile: SUTProfile) -> dict[str, Any]:
    """Options for the front door's observer, from the profile."""
    opts: dict[str, Any] = {}
    if profile.reasoning_fields is not None:
        opts["reasoning_fields"] = profile.reasoning_fields
    if profile.front_door == "openai-chat":
        opts["inline_think"] = profile.inline_think
        if profile.carriers:
            opts["carriers"] = profile.carriers
    return opts
