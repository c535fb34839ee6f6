"""SUT profiles: the TOML file a user writes once to tell thinkwire how to start and address a SUT. Every
field is checked by ``harness._fields`` from :data:`_FIELDS` when the file loads, so a bad profile fails
before any SUT starts."""

from __future__ import annotations

import os
import shlex
import warnings
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from harness._errors import ProfileError, closest
from harness._fields import Err, Field, Invalid, check_fields, load_toml, one_of
from harness.dialects import CarrierSpec, Provider, Reading, get_dialect, provider_names, provider_of
from harness.drivers._cli_keys import CLI_INPUTS, cli_input, continue_words, reasoning_from
from harness.drivers._cli_text import PLAIN_TEXT, REASONING_FROM
from harness.drivers._files import load_files
from harness.drivers._kinds import KIND_TABLE, KINDS, Abilities
from harness.drivers._shaping import RequestShape, parse_request_table
from harness.drivers._templates import CASE, RUN, check, fill

__all__ = [
    "CLI_INPUTS",
    "MARKUP",
    "MODES",
    "SUTOrigin",
    "SUTProfile",
    "build_options",
    "echo_pin",
    "load_profile",
    "local_paths",
    "parse_profile",
    "reading",
    "substitute",
]


MODES = ("stream", "nonstream")
"""What a profile's ``modes`` may claim: streamed answers, whole ones (a stream-only system claims
``["stream"]``; the other mode's cases are left out of its runs)."""

MARKUP: dict[str, tuple[str, ...]] = {
    "think-tags": ("openai-chat:think-tags", "openai-chat:think-split", "openai-chat:think-implicit"),
    "mm-think": ("openai-chat:mm-think",),
    "harmony": ("openai-chat:harmony",),
    "thought-tags": ("openai-chat:gemini-openai",),
}
"""What a profile's ``parses`` may claim: reasoning markup that rides inside the answer content, by name
(``<think>``, MiniMax's ``<mm:think>``, gpt-oss's raw harmony channels, the ``<thought>`` tags of Gemini's
OpenAI-compatible endpoint) -> the wire variants that carry it. Markup a SUT does not claim to parse is
content: relayed verbatim, it is judged as delivered content."""


def markup_of(dialect: str, variant: str) -> str:
    """The name of the markup ``dialect:variant`` carries its reasoning in ("" for a structured one)."""
    key = f"{dialect}:{variant}"
    return next((name for name, variants in MARKUP.items() if key in variants), "")


def _positive(key: str, value: Any) -> None:
    if not value > 0:
        raise Invalid(f"expected a number of seconds > 0, got {value!r}", f"e.g. {key} = 30")


def _keepalive_seconds(key: str, value: Any) -> None:
    if not isinstance(value, bool) and not value > 0:
        raise Invalid(
            f"expected true, false or a number of seconds > 0, got {value!r}",
            f"e.g. {key} = 15 (the longest the SUT stays silent toward its client)",
        )


def _interval(value: Any) -> float | None:
    """``stream_keepalive``'s interval: a number of seconds, or None for true, false or absent."""
    return None if value is None or isinstance(value, bool) else float(value)


def _module_function(key: str, value: Any) -> None:
    if ":" not in value:
        raise Invalid(f"{value!r} is not module:function")


def _model_templates(key: str, value: Any) -> None:
    """``models`` keys are dialects, providers (``dialect:``/``provider:`` say which, and must where a
    name is both: ``gemini``, ``ollama``, ``cohere``) or ``*``; templates use known placeholders only."""
    from harness.dialects import dialect_names

    dialects, providers = dialect_names(), provider_names()
    keys = (
        *dialects,
        *providers,
        *(f"dialect:{d}" for d in dialects),
        *(f"provider:{p}" for p in providers),
        "*",
    )
    for name, template in value.items():
        if name not in keys:
            raise Invalid("names no dialect or provider", closest(str(name), keys), sub=name)
        if name in dialects and name in providers:
            raise Invalid(
                f"names both the provider {name!r} (every endpoint that plays it) and the dialect {name!r} "
                "(its own wire only)",
                f'write "provider:{name}" or "dialect:{name}"',
                sub=name,
            )
        try:
            str(template).format(dialect="d", variant="v", provider="p", default_model="m")
        except (KeyError, IndexError, ValueError) as exc:
            raise Invalid(
                f"bad template {template!r} ({type(exc).__name__}: {exc})",
                "the placeholders are {dialect}, {variant}, {provider} and {default_model}",
                sub=name,
            ) from None


def _listen(key: str, value: Any) -> None:
    host, colon, port = value.rpartition(":")
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise Invalid(f"expected HOST:PORT with a port 0-65535, got {value!r}")


def _http_url(key: str, value: Any) -> None:
    if not value.startswith(("http://", "https://")):
        raise Invalid(f"expected an http:// or https:// URL, got {value!r}")


def _dialect_names() -> list[str]:
    from harness.dialects import dialect_names

    return dialect_names()


_SECONDS = "a number of seconds"
_SCALARS = (str, int, float)  # a table's values: a number is written out as a string

_FIELDS: dict[str, Field] = {
    "name": Field(str),
    "kind": Field(str, required=True, hint=f"one of {', '.join(KINDS)}", rule=one_of("kind", lambda: KINDS)),
    "command": Field(
        (list, str), items=str, want='a list of words or a string (e.g. command = ["gw", "--port", "{port}"])'
    ),
    "env": Field(dict, items=_SCALARS, items_want="a string"),
    "url": Field(str),
    "ready": Field(str),
    "ready_timeout": Field((int, float), want=_SECONDS, rule=_positive),
    "timeout": Field((int, float), want=_SECONDS, rule=_positive),
    "front_door": Field(str, rule=one_of("front door", lambda: [*_dialect_names(), PLAIN_TEXT])),
    "front_variant": Field(str),
    "path": Field(str),
    "models": Field(dict, items=_SCALARS, items_want="a string", rule=_model_templates),
    "dialects": Field(list, items=str, rule=one_of("dialect", _dialect_names)),
    "modes": Field(list, items=str, hint='e.g. modes = ["stream"]', rule=one_of("mode", lambda: MODES)),
    "unsupported_variants": Field(list, items=str),
    "reasoning_fields": Field(list, items=str),
    "callable": Field(str, rule=_module_function),
    "session_dir": Field(str),
    "files": Field(dict, items=(*_SCALARS, dict), items_want='a string or a table { template = "file" }'),
    "expectations": Field(str),
    "faults": Field(list, items=str),
    "keep_alive": Field(bool),
    "stream_keepalive": Field(
        (bool, int, float), want="true, false or a number of seconds", rule=_keepalive_seconds
    ),
    "inline_think": Field(bool),
    "parses": Field(
        list,
        items=str,
        hint='e.g. parses = ["think-tags"] ([]: it parses none)',
        rule=one_of("markup", lambda: MARKUP),
    ),
    "warmup": Field(bool),
    "gate_timeout": Field((int, float)),
    "max_bytes": Field(int),
    "usage": Field(bool),
    "request": Field(dict),
    "sys_path": Field(
        list, items=str, items_want="a list of directories", hint='e.g. sys_path = ["adapters"]'
    ),
    "echo_fields": Field(list, items=str),
    "carriers": Field(dict),
    "providers": Field(list, items=str, rule=one_of("provider", provider_names)),
    "scenarios": Field(list, items=str),
    "variants_dir": Field(str, hint='e.g. variants_dir = "variants" (docs/writing-a-variant.md)'),
    "input": Field(str, hint='e.g. input = "rpc"', rule=one_of("CLI input", lambda: CLI_INPUTS)),
    "continue": Field(list, items=str, hint='e.g. continue = ["-c"]'),
    "reasoning_from": Field(
        str, hint='e.g. reasoning_from = "stderr"', rule=one_of("reasoning source", lambda: REASONING_FROM)
    ),
    "reasoning_start": Field(str),
    "reasoning_end": Field(str),
    "upstream_listen": Field(str, hint='e.g. upstream_listen = "127.0.0.1:18080"', rule=_listen),
    "upstream_url": Field(str, hint='e.g. upstream_url = "http://127.0.0.1:18080"', rule=_http_url),
}


@dataclass(frozen=True, slots=True)
class SUTOrigin:
    """How the user named a SUT, kept as data so that a reproduce line can name it again: a built-in
    (``value`` its name, with ``faults``), a profile ``file``, a ``command`` line (``--sut-cmd``, with
    its ``front_door`` and ``ready`` URL), a ``url`` (``--sut-url``), a ``callable`` (``module:attr``)."""

    form: Literal["builtin", "file", "command", "url", "callable"]
    value: str
    faults: tuple[str, ...] = ()
    front_door: str = ""
    ready: str = ""

    @property
    def given_url(self) -> str:
        """The URL the user gave (``--sut-url``), else ""."""
        return self.value if self.form == "url" else ""


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
    front_variant_pinned: bool = False  # given (profile or --front-variant): the client echoes in its form
    path: str = "/v1/chat/completions"
    models: Mapping[str, str] = field(default_factory=dict)
    dialects: tuple[str, ...] | None = None  # the upstream dialects it claims (None: every one)
    modes: tuple[str, ...] | None = None  # "stream", "nonstream" (None: both)
    unsupported_variants: tuple[str, ...] = ()
    reasoning_fields: tuple[str, ...] | None = None
    callable: str | None = None
    session_dir: str = "{tmp}/session"
    files: Mapping[str, str] = field(default_factory=dict)
    expectations: str | None = None
    faults: tuple[str, ...] = ()
    keep_alive: bool = True  # gateway: one process for the whole run (else one per case)
    # It keeps its client's stream alive while the upstream is silent (keepalives); false: a claim that
    # it does not, and the cases with a client read timeout (keepalive/silent-reasoning) are UNSUPPORTED.
    stream_keepalive: bool = True
    # The longest it claims to stay silent toward its client (profile ``stream_keepalive = SECONDS``);
    # None: it names no interval, so a silence only shows it sent nothing in that case (NON_STRICT).
    keepalive_every: float | None = None
    # The SUT's documented contract is to forward reasoning as inline <think> tags in content: the
    # front-door observer then splits a leading tag, and such cases are NON_STRICT, never PASS.
    # Default: structured reasoning (a tag in content is content: the observer never repairs).
    inline_think: bool = False
    # The in-content reasoning markup it claims to parse (``MARKUP``'s names): a claimed one must be split
    # out of the content, an unclaimed one relayed verbatim. None (no ``parses`` key, as in every profile
    # written before the key existed): every markup, the claim those profiles were judged by.
    parses: tuple[str, ...] | None = None
    warmup: bool | None = None  # a warm-up request before the first case (None: the kind's default)
    gate_timeout: float | None = None  # gates' timeout (None: derived from the warm-up's latency)
    max_bytes: int | None = None  # what one case may read from the SUT (None: 64 MiB)
    reports_usage: bool = True  # profile key ``usage``: the SUT reports token usage (CLIs: false)
    request: Mapping[str, RequestShape] = field(default_factory=dict)  # "*"/dialect -> headers, body
    echo_fields: tuple[str, ...] | None = None  # openai-chat: the carriers the SUT reads reasoning back from
    carriers: tuple[CarrierSpec, ...] = ()  # openai-chat: carriers the profile declares ([carriers.<name>])
    providers: tuple[str, ...] | None = None  # the providers whose semantics it claims (None: every one)
    scenarios: tuple[str, ...] = ()  # a team's own scenario directories (absolute once loaded from a file)
    variants_dir: tuple[str, ...] = ()  # its variant files' directory (absolute once loaded from a file)
    sys_path: tuple[str, ...] = ()  # python SUTs: import paths (absolute once loaded from a file)
    source: str = "<flags>"  # the name errors give the profile (its file, or the flag that made it)
    origin: SUTOrigin | None = None  # how the user named it (None: a profile built in Python)
    profile_dir: str = ""  # the profile file's directory ({profile_dir}; "" = the working directory)
    input: str = "argv"  # cli: "argv" (one prompt in the command) or "rpc" (pi RPC-mode JSONL on stdin)
    continue_words: tuple[str, ...] = ()  # cli ``continue``: words that make the CLI go on with its session
    reasoning_from: str = ""  # a plain-text cli: where it prints reasoning ("stderr" or "stdout")
    reasoning_markers: tuple[str, str] = ("", "")  # around the reasoning it prints on stdout
    # The mock upstream's fixed address (HOST:PORT) for a SUT configured with it, and the URL the SUT is
    # told ({upstream}; default http://HOST:PORT); None: a free port on 127.0.0.1 (--upstream-listen).
    upstream_listen: str | None = None
    upstream_url: str | None = None

    @property
    def abilities(self) -> Abilities:
        """What the SUT can do: its kind's record (ask it; never compare ``kind``), less what its front
        door cannot show (a plain-text CLI prints no tool calls)."""
        abilities = KIND_TABLE[self.kind]
        return replace(abilities, shows_tool_calls=False) if self.front_door == PLAIN_TEXT else abilities

    @property
    def caps(self) -> Abilities:
        """Deprecated spelling of :attr:`abilities` ("caps" is what a wire variant carries)."""
        warnings.warn("SUTProfile.caps is deprecated; use .abilities", DeprecationWarning, stacklevel=2)
        return self.abilities

    def run_values(self, **values: str) -> dict[str, str]:
        """The run-wide placeholder values (``_templates.RUN``), with ``values`` added."""
        import os
        import sys

        return {"python": sys.executable, "profile_dir": self.profile_dir or os.getcwd(), **values}

    def model_for(self, dialect: str, variant: str, provider: Provider | None = None) -> str:
        """The model name a case is called by: ``models`` keyed by the case's provider, else its
        dialect (``provider:``/``dialect:`` keys first), else ``*``; without any, the provider's
        realistic default name."""
        provider = provider or provider_of(dialect, variant)
        m = self.models
        template = next(
            (
                m[k]
                for k in (f"provider:{provider.name}", provider.name, f"dialect:{dialect}", dialect, "*")
                if k in m
            ),
            "{default_model}",
        )
        return template.format(
            dialect=dialect, variant=variant, provider=provider.name, default_model=provider.model
        )

    def claims_provider(self, provider: str) -> bool:
        """Whether the SUT claims ``provider``'s semantics (its passback rules); default: every one."""
        return self.providers is None or provider in self.providers

    def markup_claim(self, dialect: str, variant: str) -> str:
        """What the SUT claims of ``dialect:variant``'s in-content reasoning markup: "" (the variant has
        none), ``parses`` (it splits it out), ``relays`` (its client is owed the content verbatim) or
        ``either``: a quick ``--sut-cmd`` / ``--sut-url`` run, which no profile speaks for, is judged by
        what it did (split correctly, or relayed intact). A profile without ``parses`` claims every markup."""
        markup = markup_of(dialect, variant)
        if not markup:
            return ""
        if self.parses is None:
            quick = self.origin is not None and self.origin.form in ("command", "url")
            return "either" if quick else "parses"
        return "parses" if markup in self.parses else "relays"

    def relays_markup(self, dialect: str, variant: str) -> bool:
        """Whether ``dialect:variant`` carries its reasoning in markup this SUT claims not to parse (a
        ``parses`` that does not name it): its client is then owed the content verbatim, markup and all."""
        return self.markup_claim(dialect, variant) == "relays"

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


def _base(source: str) -> Path:
    """The directory a profile's relative paths start from: its file's, else the working directory."""
    path = Path(source)
    return path.parent if path.is_file() else Path.cwd()


def local_paths(
    words: Sequence[str], base: Path, *, existing: bool = False, written: Collection[str] = ()
) -> tuple[str, ...]:
    """``words`` of a command with their relative paths made absolute against ``base``: the first word
    when it has a ``/`` (a program path, as a shell reads it), a word starting with ``./`` or ``../``,
    and a later word naming a file in ``base`` (``python gw.py``). A word with a placeholder, a flag,
    an absolute path and a bare program name (``python``) stay as they are.

    ``existing``: only paths that exist in ``base`` (a profile's: a path it does not name there may be
    a file it writes into ``{tmp}``, ``written``, where the SUT runs, as before)."""

    def local(word: str, first: bool) -> bool:
        if "{" in word or word.startswith(("/", "-")) or word in written:
            return False
        if word.startswith(("./", "../")) or (first and "/" in word):
            return not existing or (base / word).exists()
        return not first and (base / word).is_file()

    return tuple(os.path.normpath(base / w) if local(w, n == 0) else w for n, w in enumerate(words))


def load_profile(path: Path) -> SUTProfile:
    data = load_toml(path, ProfileError)
    profile = parse_profile(data, source=str(path))
    object.__setattr__(profile, "origin", SUTOrigin("file", str(path)))
    object.__setattr__(profile, "profile_dir", str(path.resolve().parent))
    if profile.command:  # relative to the profile, not to {tmp} where the SUT runs
        words = local_paths(profile.command, path.resolve().parent, existing=True, written=profile.files)
        object.__setattr__(profile, "command", words)
    if profile.expectations and not Path(profile.expectations).is_absolute():
        object.__setattr__(profile, "expectations", str(path.parent / profile.expectations))
    for key in ("sys_path", "scenarios", "variants_dir"):  # relative to the profile
        paths = tuple(str((path.parent / p).resolve()) for p in getattr(profile, key))
        object.__setattr__(profile, key, paths)
    return profile


def parse_profile(data: Mapping[str, Any], *, source: str = "<flags>") -> SUTProfile:
    """Placeholders from ``_templates`` are checked here, and an unknown one is a ProfileError naming it.
    ``{upstream}``, ``{port}``, ``{tmp}``, ``{python}``, ``{profile_dir}`` and ``{env:NAME}`` work
    everywhere; the per-case ``{model}``, ``{dialect}``, ``{variant}``, ``{provider}`` only where a case is
    known. They are filled in commands, env, URLs, config files and request shaping. Model names are
    templates of their own, with ``{dialect}``, ``{variant}``, ``{provider}`` and ``{default_model}``.

    The ``[request]`` table is parsed and templated by ``_shaping``. ``sys_path``, paths relative to the
    profile, is prepended to ``sys.path`` before a python SUT's callable is imported. What each kind needs
    and can do is its row of ``_kinds.KIND_TABLE``."""

    def err(fld: str, problem: str, hint: str = "") -> ProfileError:
        return ProfileError(source, fld, problem, hint)

    check_fields(data, _FIELDS, err)
    abilities = KIND_TABLE[data["kind"]]
    command = _command(data.get("command", ()), err)
    if not (command if abilities.needs == "command" else data.get(abilities.needs)):
        raise err(abilities.needs, f"a {data['kind']} profile needs {abilities.what}", abilities.example)
    _check_templates(data, abilities, err)
    front = str(data.get("front_door", abilities.front_door))
    _check_front_door(data, front, err)
    carriers = _carriers(data, front, source)
    request = parse_request_table(data["request"], source) if "request" in data else {}
    return SUTProfile(
        name=str(data.get("name", data["kind"])),
        kind=data["kind"],
        command=tuple(command),
        env={str(k): str(v) for k, v in dict(data.get("env", {})).items()},
        url=str(data.get("url", "http://127.0.0.1:{port}")),
        ready=data.get("ready"),
        ready_timeout=float(data.get("ready_timeout", 15.0)),
        timeout=float(data.get("timeout", 20.0)),
        front_door=front,
        front_variant=str(data.get("front_variant", _default_front_variant(front))),
        front_variant_pinned="front_variant" in data,
        path=str(data.get("path", _default_path(front))),
        models={str(k): str(v) for k, v in dict(data.get("models", {})).items()},
        dialects=tuple(data["dialects"]) if "dialects" in data else None,
        modes=tuple(data["modes"]) if "modes" in data else None,
        unsupported_variants=tuple(data.get("unsupported_variants", ())),
        reasoning_fields=tuple(data["reasoning_fields"]) if "reasoning_fields" in data else None,
        callable=data.get("callable"),
        session_dir=str(data.get("session_dir", "{tmp}/session")),
        files=load_files(dict(data.get("files", {})), _base(source), err, abilities.file_placeholders),
        expectations=data.get("expectations"),
        faults=tuple(data.get("faults", ())),
        keep_alive=bool(data.get("keep_alive", True)),
        stream_keepalive=data.get("stream_keepalive", True) is not False,
        keepalive_every=_interval(data.get("stream_keepalive")),
        inline_think=bool(data.get("inline_think", False)),
        parses=tuple(data["parses"]) if "parses" in data else None,
        warmup=data.get("warmup"),
        gate_timeout=float(data["gate_timeout"]) if "gate_timeout" in data else None,
        max_bytes=int(data["max_bytes"]) if "max_bytes" in data else None,
        reports_usage=bool(data.get("usage", abilities.usage)),
        request=request,
        echo_fields=tuple(data["echo_fields"]) if "echo_fields" in data else None,
        carriers=carriers,
        providers=tuple(data["providers"]) if "providers" in data else None,
        scenarios=tuple(data.get("scenarios", ())),
        variants_dir=(data["variants_dir"],) if "variants_dir" in data else (),
        sys_path=tuple(data.get("sys_path", ())),
        source=source,
        input=cli_input(data, abilities, front, err),
        continue_words=continue_words(data, abilities, err),
        reasoning_from=reasoning_from(data, front, err),
        reasoning_markers=(str(data.get("reasoning_start", "")), str(data.get("reasoning_end", ""))),
        upstream_listen=data.get("upstream_listen"),
        upstream_url=data.get("upstream_url"),
    )


def _command(command: list[str] | str, err: Err) -> list[str]:
    """The command's words; a string is split as a shell would (an unclosed quote is an error)."""
    if not isinstance(command, str):
        return [str(c) for c in command]
    try:
        return shlex.split(command)
    except ValueError as exc:  # an unclosed quote or a trailing backslash
        raise err(
            "command",
            f"{command!r} cannot be split into words: {exc}",
            "close the quote or escape it, or give a list of words",
        ) from None


def _default_front_variant(front: str) -> str:
    """The variant thinkwire's client asks in when the profile names none: ``reasoning`` where the front
    door has it (OpenAI chat), else the front door's own default (Anthropic's ``thinking``, pi's ``v2``)."""
    from harness.dialects import get_dialect

    if front == PLAIN_TEXT:
        return ""
    d = get_dialect(front)
    return "reasoning" if "reasoning" in d.variants else d.default_variant


def _default_path(front: str) -> str:
    """The path thinkwire's client posts to when the profile names none: OpenAI chat's
    ``/v1/chat/completions``; for any other front door "", the dialect's own (``/v1/messages``...)."""
    return "/v1/chat/completions" if front == "openai-chat" else ""


def _check_front_door(data: Mapping[str, Any], front: str, err: Err) -> None:
    """The front door's variant is one of its variants."""
    from harness.dialects import get_dialect

    if front == PLAIN_TEXT and not KIND_TABLE[data["kind"]].prompted:
        raise err("front_door", f"only a cli prints plain text (this is {data['kind']})", 'kind = "cli"')
    if "front_variant" in data:
        variants = list(get_dialect(front).variants) if front != PLAIN_TEXT else []
        if data["front_variant"] not in variants:
            raise err(
                "front_variant",
                f"unknown variant {data['front_variant']!r} of front door {front}",
                closest(data["front_variant"], variants),
            )


def _check_templates(data: Mapping[str, Any], abilities: Abilities, err: Err) -> None:
    """Every placeholder known where it is used: per-case ones only in request shaping and in the
    command, env and session dir of a SUT started per case (a gateway is started once per run)."""
    per_case = (*RUN, *CASE) if abilities.started_per_case else RUN
    for key in ("command", "env", "session_dir"):  # (files: checked as they are loaded)
        if key in data:
            check(data[key], per_case, err, key)
    for key in ("url", "ready"):
        if key in data:
            check(data[key], RUN, err, key)
    if "request" in data:
        check(data["request"], (*RUN, *CASE), err, "request")


def _carriers(data: Mapping[str, Any], front: str, source: str) -> tuple[CarrierSpec, ...]:
    """The declared carriers; ``echo_fields`` may name them or a built-in (``reasoning_fields`` may
    also name any plain string field)."""
    from harness.dialects import CALL_SIGNATURES, CARRIERS, parse_carriers

    keys = [k for k in ("carriers", "echo_fields") if k in data]
    if keys and front != "openai-chat":
        raise ProfileError(source, keys[0], f"only an openai-chat front door has carriers (this is {front})")
    specs = parse_carriers(data["carriers"], source, CARRIERS) if "carriers" in data else ()
    known = (*CARRIERS, CALL_SIGNATURES, *(c.name for c in specs))
    for name in data.get("echo_fields", ()):
        if name not in known:
            raise ProfileError(source, "echo_fields", f"unknown carrier {name!r}", closest(str(name), known))
    return specs


def build_options(profile: SUTProfile) -> dict[str, Any]:
    """Options for the front door's request builder, from the profile (the echo carriers)."""
    opts: dict[str, Any] = {} if profile.echo_fields is None else {"echo_fields": profile.echo_fields}
    if profile.carriers:
        opts["carriers"] = profile.carriers
    return opts


def echo_pin(profile: SUTProfile) -> str:
    """Why the front door's client sends reasoning back in a fixed carrier, as a finding says it; ""
    when it echoes the carriers the SUT streamed it in (the default)."""
    if profile.echo_fields is not None:
        return f"pinned by the profile's echo_fields = {list(profile.echo_fields)}"
    if profile.front_variant_pinned:
        return f"pinned by front_variant = {profile.front_variant!r}"
    return ""


def reading(profile: SUTProfile) -> Reading:
    """How the front door's observer reads the SUT's reasoning, from the profile: its text carriers,
    its declared ones, and whether inline tags count (only where the door's dialect offers a choice)."""
    choice = profile.front_door != PLAIN_TEXT and get_dialect(profile.front_door).multi_carrier
    return Reading(
        reasoning_fields=profile.reasoning_fields,
        inline_think=profile.inline_think and choice,
        carriers=profile.carriers,
    )
