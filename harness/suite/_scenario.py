"""Scenario files (TOML under ``scenarios/``; the path is the stable id) -> validated :class:`Scenario`.

Rule: every mistake is a :class:`~harness._errors.ScenarioError` naming the file, the field, the bad
value and the closest valid keys; nothing half-loaded escapes this module. A scenario's ``expect``
verdicts are held against each case's findings by :func:`expect_findings` (the runner calls it).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from harness._errors import ScenarioError, closest
from harness.events import (
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)
from harness.suite._scenario_expect import expect_findings, expected_verdicts
from harness.upstream import (
    Disconnect,
    Emit,
    Gate,
    HttpError,
    MalformedFrame,
    MidStreamError,
    Pause,
    Raw,
    Stall,
    Step,
    UnknownEvent,
)

__all__ = [
    "CATEGORIES",
    "ProviderHttpError",
    "Scenario",
    "TurnSpec",
    "catalog_dir",
    "expect_findings",
    "load_catalog",
    "load_scenario",
    "parse_scenario",
]

CATEGORIES = (
    "wire-variants",
    "sse-framing",
    "incrementality",
    "ordering-duplication",
    "tools-passback",
    "errors-cancellation",
    "cleanup",
    "timing",
)

SUT_KINDS = ("gateway", "url", "python", "cli", "adapter")
MODES = ("stream", "nonstream")

_TOP_KEYS = {
    "description": str,
    "requirement": str,
    "category": str,
    "seeds": list,
    "dialects": list,
    "variants": (list, str),
    "exclude_variants": list,
    "requires": list,
    "chunkings": list,
    "perturbations": list,
    "modes": list,
    "profile": (str, dict),
    "gate_timeout": (float, int),
    "parity": bool,
    "sut_kinds": list,
    "turns": list,
    "expect": dict,
}
_REQUIRED = ("description", "requirement", "category", "dialects", "turns")
_TURN_KEYS = {"user", "tool_result", "steps", "cancel", "terminator", "model", "replay"}
_STEP_KEYS = (
    "reasoning",
    "text",
    "signature",
    "redacted",
    "tool_call",
    "usage",
    "end",
    "gate",
    "pause",
    "error",
    "http_error",
    "disconnect",
    "stall",
    "malformed",
    "unknown_event",
    "raw",
)
_EXPECT_KEYS = {"outcome", "stream", "cleanup", "findings"}
_GATE_KEYS = {"reasoning", "text", "events", "timeout"}


@dataclass(frozen=True, slots=True)
class ProviderHttpError:
    """An HTTP error whose body is rendered in the case's dialect (``Dialect.error_body``) when the
    scenario expands into cases; a literal ``body`` in the file becomes a plain ``HttpError``."""

    status: int
    message: str
    code: str | None = None


@dataclass(frozen=True, slots=True)
class TurnSpec:
    """One upstream request/response of the conversation, and what the client does around it."""

    steps: tuple[Step | ProviderHttpError, ...]
    user: str | None = None  # a new user message starts this turn (None: a tool continuation)
    tool_result: str = "18°C, clear"
    cancel: Gate | None = None  # the client aborts once it observed this
    terminator: str = "normal"
    replay: tuple[str, int] | None = None  # (cassette path, exchange): serve recorded bytes instead

    def events(self) -> tuple[Event, ...]:
        return tuple(ev for s in self.steps if isinstance(s, Emit) for ev in s.events)

    @property
    def faulted(self) -> bool:
        return any(
            isinstance(s, HttpError | ProviderHttpError | MidStreamError | Disconnect | Stall)
            for s in self.steps
        )


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    path: str
    description: str
    requirement: str
    category: str
    dialects: tuple[str, ...]
    turns: tuple[TurnSpec, ...]
    seeds: tuple[str, ...] = ()
    variants: tuple[str, ...] | None = None  # None: every variant of each dialect
    exclude_variants: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    chunkings: tuple[str, ...] = ("frames",)
    perturbations: tuple[str, ...] = ("none",)
    modes: tuple[str, ...] = ("stream",)
    profile: Mapping[str, str] = field(default_factory=dict)  # dialect -> profile ("*" for all)
    gate_timeout: float = 1.0
    parity: bool = False
    sut_kinds: tuple[str, ...] = SUT_KINDS
    outcome: str = "answer"  # what the client must end with: "answer" or "error"
    expect: Mapping[str, str] = field(default_factory=dict)  # axis/check -> verdict

    def profile_for(self, dialect: str) -> str:
        return self.profile.get(dialect, self.profile.get("*", "lenient"))


def catalog_dir() -> Path:
    """The bundled catalog: ``scenarios/`` of a source checkout, else the copy inside the wheel."""
    here = Path(__file__).resolve().parents[2] / "scenarios"
    if here.is_dir():
        return here
    return Path(str(resources.files("harness") / "_data" / "scenarios"))


def load_catalog(root: Path | None = None, extra: Sequence[str | Path] = ()) -> list[Scenario]:
    """The catalog (``root``, default the bundled one) and a team's own scenario directories
    (``extra``: each file's id is its path relative to its directory). An id found twice is a
    ScenarioError naming both files."""
    root = root or catalog_dir()
    out = [load_scenario(p, root) for p in sorted(root.rglob("*.toml"))]
    seen = {s.id: s.path for s in out}
    for d in extra:
        folder = Path(d)
        if not folder.is_dir():
            raise ScenarioError(str(folder), "<dir>", "is not a directory of scenario files",
                                "pass a directory holding *.toml scenarios (--scenarios DIR)")
        for path in sorted(folder.rglob("*.toml")):
            scenario = load_scenario(path, folder)
            if scenario.id in seen:
                raise ScenarioError(
                    str(path), "<id>", f"id {scenario.id!r} is taken by {seen[scenario.id]}",
                    "rename the file or move it to another subdirectory",
                )
            seen[scenario.id] = scenario.path
            out.append(scenario)
    return out


def load_scenario(path: Path, root: Path | None = None) -> Scenario:
    root = root or path.parent
    try:
        sid = path.relative_to(root).with_suffix("").as_posix()
    except ValueError:
        sid = path.stem
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(str(path), "<file>", f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise ScenarioError(str(path), "<file>", f"cannot be read: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            str(path),
            "<file>",
            f"is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})",
            "save it as UTF-8",
        ) from None
    return parse_scenario(data, sid=sid, file=str(path))


def parse_scenario(data: Mapping[str, Any], *, sid: str, file: str) -> Scenario:
    def err(fld: str, problem: str, hint: str = "") -> ScenarioError:
        return ScenarioError(file, fld, problem, hint)

    for key, value in data.items():
        if key not in _TOP_KEYS:
            raise err(key, "unknown field", closest(key, _TOP_KEYS))
        want: Any = _TOP_KEYS[key]
        if (
            not isinstance(value, want)
            or (want is list and isinstance(value, str))
            or (isinstance(value, bool) and want is not bool)
        ):
            raise err(key, f"expected {_tname(want)}, got {type(value).__name__} {value!r}")
    for key in _REQUIRED:
        if key not in data:
            raise err(key, "missing required field")
    if "MUST" not in data["requirement"]:
        raise err("requirement", f"{data['requirement']!r} has no MUST", "state one MUST sentence")
    if data["category"] not in CATEGORIES:
        raise err("category", f"unknown category {data['category']!r}", closest(data["category"], CATEGORIES))

    from harness.dialects import Caps, dialect_names, get_dialect

    dialects = tuple(_strs(data["dialects"], "dialects", err))
    if not dialects:
        raise err("dialects", "empty list", "name at least one dialect")
    known_variants: set[str] = set()
    for d in dialects:
        if d not in dialect_names():
            raise err("dialects", f"unknown dialect {d!r}", closest(d, dialect_names()))
        known_variants.update(get_dialect(d).variants)
    variants: tuple[str, ...] | None = None
    raw_variants = data.get("variants", "*")
    if raw_variants != "*":
        if isinstance(raw_variants, str):
            raise err("variants", f"expected a list or '*', got {raw_variants!r}")
        variants = tuple(_strs(raw_variants, "variants", err))
        for v in variants:
            if v not in known_variants:
                raise err(
                    "variants", f"unknown variant {v!r} for {', '.join(dialects)}", closest(v, known_variants)
                )
    exclude = tuple(_strs(data.get("exclude_variants", []), "exclude_variants", err))
    for v in exclude:
        if v not in known_variants:
            raise err("exclude_variants", f"unknown variant {v!r}", closest(v, known_variants))
    requires = tuple(_strs(data.get("requires", []), "requires", err))
    caps = [c.value for c in Caps]
    for c in requires:
        if c not in caps:
            raise err("requires", f"unknown capability {c!r}", closest(c, caps))
    chunkings = tuple(_strs(data.get("chunkings", ["frames"]), "chunkings", err))
    for c in chunkings:
        _check_chunking(c, err)
    perturbations = tuple(_strs(data.get("perturbations", ["none"]), "perturbations", err))
    for p in perturbations:
        _check_perturbation(p, err)
    modes = tuple(_strs(data.get("modes", ["stream"]), "modes", err))
    for m in modes:
        if m not in MODES:
            raise err("modes", f"unknown mode {m!r}", closest(m, MODES))
    kinds = tuple(_strs(data.get("sut_kinds", list(SUT_KINDS)), "sut_kinds", err))
    for k in kinds:
        if k not in SUT_KINDS:
            raise err("sut_kinds", f"unknown SUT kind {k!r}", closest(k, SUT_KINDS))

    raw_profile = data.get("profile", "lenient")
    profile: dict[str, str] = (
        {"*": raw_profile}
        if isinstance(raw_profile, str)
        else {str(k): str(v) for k, v in raw_profile.items()}
    )
    for d in dialects:
        name = profile.get(d, profile.get("*", "lenient"))
        names = list(get_dialect(d).profiles())
        if name not in names:
            raise err("profile", f"unknown provider profile {name!r} for dialect {d!r}", closest(name, names))
    for d in profile:
        if d != "*" and d not in dialects:
            raise err(f"profile.{d}", "names a dialect the scenario does not use", closest(d, dialects))

    gate_timeout = _number(data.get("gate_timeout", 1.0), "gate_timeout", err, positive=True)
    turns_raw = data["turns"]
    if not turns_raw:
        raise err("turns", "empty list", "give at least one [[turns]] table")
    turns = tuple(_turn(t, i, gate_timeout, err) for i, t in enumerate(turns_raw))
    if turns[0].user is None:
        from dataclasses import replace

        turns = (replace(turns[0], user="Hello?"), *turns[1:])

    expect = data.get("expect", {})
    for key in expect:
        if key not in _EXPECT_KEYS:
            raise err(f"expect.{key}", "unknown field", closest(key, _EXPECT_KEYS))
    outcome = str(expect.get("outcome", "answer"))
    if outcome not in ("answer", "error"):
        raise err("expect.outcome", f"unknown outcome {outcome!r}", "use 'answer' or 'error'")
    expected = expected_verdicts(expect, err)

    return Scenario(
        id=sid,
        path=file,
        description=data["description"].strip(),
        requirement=data["requirement"].strip(),
        category=data["category"],
        dialects=dialects,
        turns=turns,
        seeds=tuple(_strs(data.get("seeds", []), "seeds", err)),
        variants=variants,
        exclude_variants=exclude,
        requires=requires,
        chunkings=chunkings,
        perturbations=perturbations,
        modes=modes,
        profile=profile,
        gate_timeout=gate_timeout,
        parity=bool(data.get("parity", False)),
        sut_kinds=kinds,
        outcome=outcome,
        expect=expected,
    )


def _tname(t: Any) -> str:
    if isinstance(t, tuple):
        return " or ".join(x.__name__ for x in t)
    return str(t.__name__)


def _strs(values: Sequence[Any], fld: str, err: Any) -> list[str]:
    for v in values:
        if not isinstance(v, str):
            raise err(fld, f"expected a list of strings, found {v!r}")
    return list(values)


def _check_chunking(name: str, err: Any) -> None:
    try:
        from harness.codec import get_chunker
    except ImportError:
        if name not in ("frames", "whole"):
            raise err("chunkings", f"unknown chunking {name!r}", "valid: 'frames', 'whole'") from None
        return
    try:
        get_chunker(name)
    except ValueError as exc:
        raise err("chunkings", f"unknown chunking {name!r}", str(exc)) from None


def _check_perturbation(name: str, err: Any) -> None:
    try:
        from harness.codec import PERTURBATIONS
    except ImportError:
        if name != "none":
            raise err("perturbations", f"unknown perturbation {name!r}", "valid: 'none'") from None
        return
    if name not in PERTURBATIONS:
        raise err("perturbations", f"unknown perturbation {name!r}", closest(name, PERTURBATIONS))


def _gate(raw: Any, fld: str, default_timeout: float, err: Any) -> Gate:
    if not isinstance(raw, dict) or not raw:
        raise err(fld, f'expected a table like {{ reasoning = "..." }}, got {raw!r}')
    for key in raw:
        if key not in _GATE_KEYS:
            raise err(f"{fld}.{key}", "unknown gate condition", closest(key, _GATE_KEYS))
    for key in ("reasoning", "text"):
        if key in raw:
            _s(raw[key], f"{fld}.{key}", err)
    return Gate(
        reasoning=raw.get("reasoning"),
        text=raw.get("text"),
        events=_int(raw["events"], f"{fld}.events", err, low=1) if "events" in raw else None,
        timeout=_number(raw.get("timeout", default_timeout), f"{fld}.timeout", err, positive=True),
    )


def _turn(raw: Any, i: int, gate_timeout: float, err: Any) -> TurnSpec:
    where = f"turns[{i}]"
    if not isinstance(raw, dict):
        raise err(where, f"expected a table, got {raw!r}")
    for key in raw:
        if key not in _TURN_KEYS:
            raise err(f"{where}.{key}", "unknown field", closest(key, _TURN_KEYS))
    steps_raw = raw.get("steps")
    if not isinstance(steps_raw, list) or not steps_raw:
        raise err(
            f"{where}.steps", "missing or empty", 'list the upstream events, e.g. { reasoning = "..." }'
        )
    steps: list[Step | ProviderHttpError] = []
    pending: list[Event] = []
    tool_index = 0
    has_tools = False
    ended = False

    def flush() -> None:
        if pending:
            steps.append(Emit(tuple(pending)))
            pending.clear()

    for j, st in enumerate(steps_raw):
        sw = f"{where}.steps[{j}]"
        if not isinstance(st, dict):
            raise err(sw, f"expected a table, got {st!r}")
        keys = [k for k in st if k in _STEP_KEYS]
        extra = [k for k in st if k not in _STEP_KEYS and k not in ("block", "index")]
        if extra:
            raise err(f"{sw}.{extra[0]}", "unknown step field", closest(extra[0], _STEP_KEYS))
        if len(keys) != 1:
            raise err(sw, f"a step has exactly one of {', '.join(_STEP_KEYS)}; found {keys or 'none'}")
        key = keys[0]
        val = st[key]
        item = str(st.get("block", ""))
        if key == "reasoning":
            pending.append(ReasoningDelta(_s(val, sw, err), item=item))
        elif key == "text":
            pending.append(TextDelta(_s(val, sw, err), item=item))
        elif key == "signature":
            pending.append(ReasoningSignature(_s(val, sw, err), item=item))
        elif key == "redacted":
            pending.append(RedactedReasoning(_s(val, sw, err), item=item))
        elif key == "tool_call":
            if not isinstance(val, dict) or "name" not in val:
                raise err(f"{sw}.tool_call", "expected { id = ..., name = ..., arguments = ... }")
            idx = _int(st.get("index", val.get("index", tool_index)), f"{sw}.index", err, low=0)
            pending.append(
                ToolCallDelta(
                    idx, str(val.get("id", f"call_{idx}")), str(val["name"]), str(val.get("arguments", "{}"))
                )
            )
            tool_index = idx + 1
            has_tools = True
        elif key == "usage":
            if not isinstance(val, dict):
                raise err(f"{sw}.usage", "expected a table of token counts")
            allowed = {"input_tokens", "output_tokens", "reasoning_tokens", "total_tokens"}
            for k in val:
                if k not in allowed:
                    raise err(f"{sw}.usage.{k}", "unknown token count", closest(k, allowed))
            counts = {k: _int(v, f"{sw}.usage.{k}", err, low=0) for k, v in val.items()}
            pending.append(
                Usage(
                    counts.get("input_tokens"),
                    counts.get("output_tokens"),
                    counts.get("reasoning_tokens"),
                    counts.get("total_tokens"),
                )
            )
        elif key == "end":
            pending.append(End(_s(val, sw, err)))
            ended = True
        elif key == "error":
            flush()
            msg = val if isinstance(val, str) else dict(val).get("message", "upstream error")
            code = None if isinstance(val, str) else dict(val).get("code")
            steps.append(MidStreamError(StreamError(str(msg), None if code is None else str(code))))
            ended = True
        else:
            flush()
            steps.append(_fault(key, val, sw, gate_timeout, err))
            if key in ("http_error", "disconnect", "stall"):
                ended = True
    if not ended:
        pending.append(End("tool_calls" if has_tools else "stop"))
    flush()
    if any(isinstance(s, HttpError | ProviderHttpError) for s in steps[1:]):
        raise err(f"{where}.steps", "http_error must be the first step")
    user = raw.get("user")
    cancel = _gate(raw["cancel"], f"{where}.cancel", gate_timeout, err) if "cancel" in raw else None
    term = str(raw.get("terminator", "normal"))
    if term not in ("normal", "missing", "doubled"):
        raise err(f"{where}.terminator", f"unknown terminator {term!r}", "use normal, missing or doubled")
    replay = None
    if "replay" in raw:
        rp = raw["replay"]
        if not isinstance(rp, dict) or not isinstance(rp.get("cassette"), str):
            raise err(f"{where}.replay", 'expected { cassette = "recordings/NAME.jsonl", exchange = 0 }')
        replay = (rp["cassette"], _int(rp.get("exchange", 0), f"{where}.replay.exchange", err, low=0))
    return TurnSpec(
        tuple(steps),
        None if user is None else str(user),
        str(raw.get("tool_result", "18°C, clear")),
        cancel,
        term,
        replay,
    )


def _int(val: Any, fld: str, err: Any, *, low: int | None = None, high: int | None = None) -> int:
    """An integer, as a TOML integer (``"429"`` or ``true`` are not numbers), within [low, high]."""
    rng = (
        f" from {low} to {high}"
        if low is not None and high is not None
        else (f" >= {low}" if low is not None else "")
    )
    if not isinstance(val, int) or isinstance(val, bool):
        raise err(
            fld,
            f"expected an integer{rng}, got {type(val).__name__} {val!r}",
            f"write it unquoted, e.g. {low or 1}",
        )
    if (low is not None and val < low) or (high is not None and val > high):
        raise err(fld, f"expected an integer{rng}, got {val!r}")
    return val


def _number(val: Any, fld: str, err: Any, *, positive: bool = False) -> float:
    """A number of seconds: a TOML integer or float, not a string or boolean; >= 0 (``positive``: > 0)."""
    want = "a number of seconds" + (" > 0" if positive else " >= 0")
    if not isinstance(val, int | float) or isinstance(val, bool):
        raise err(fld, f"expected {want}, got {type(val).__name__} {val!r}", "write it unquoted, e.g. 1.5")
    if val < 0 or (positive and val == 0) or val != val:
        raise err(fld, f"expected {want}, got {val!r}")
    return float(val)


def _s(val: Any, fld: str, err: Any) -> str:
    if not isinstance(val, str):
        raise err(fld, f"expected a string, got {val!r}")
    return val


def _fault(key: str, val: Any, sw: str, gate_timeout: float, err: Any) -> Step | ProviderHttpError:
    if key == "gate":
        return _gate(val, f"{sw}.gate", gate_timeout, err)
    if key == "pause":
        return Pause(_number(val, f"{sw}.pause", err))
    if key == "http_error":
        if not isinstance(val, dict) or "status" not in val:
            raise err(f"{sw}.http_error", 'expected { status = 400, message = "..." } or { status, body }')
        status = _int(val["status"], f"{sw}.http_error.status", err, low=400, high=599)
        if "body" in val:
            return HttpError(status, str(val["body"]).encode())
        return ProviderHttpError(
            status,
            str(val.get("message", "upstream error")),
            None if val.get("code") is None else str(val["code"]),
        )
    if key == "disconnect":
        where = val if isinstance(val, str) else "after-bytes"
        valid = ("now", "after-bytes", "inside-frame", "inside-utf8")
        if where not in valid:
            raise err(f"{sw}.disconnect", f"unknown position {where!r}", closest(where, valid))
        after = _int(val, f"{sw}.disconnect", err, low=0) if not isinstance(val, str) else 0
        return Disconnect(where, after)  # type: ignore[arg-type]
    if key == "stall":
        if val is True:
            return Stall(3.0)
        return Stall(_number(val, f"{sw}.stall", err, positive=True))
    if key == "malformed":
        return MalformedFrame() if val is True else MalformedFrame(str(val))
    if key == "unknown_event":
        return UnknownEvent() if val is True else UnknownEvent(str(val))
    if key == "raw":
        if isinstance(val, str):
            return Raw((val.encode(),))
        return Raw(tuple(str(v).encode() for v in val))
    raise err(sw, f"unknown step {key!r}", closest(key, _STEP_KEYS))  # pragma: no cover
