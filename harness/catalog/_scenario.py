"""Scenario files, TOML under ``scenarios/`` whose path is the stable id, read into a validated
:class:`Scenario`. Nothing half-loaded escapes this module."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from harness._errors import ScenarioError, closest
from harness._fields import Err, Field, Invalid, Rule, check_fields, load_toml, one_of
from harness.catalog._scenario_expect import expected_verdicts
from harness.catalog._scenario_turns import ProviderHttpError, TurnSpec, parse_turns
from harness.dialects import LENIENT
from harness.drivers import KINDS as SUT_KINDS
from harness.upstream import Pause

__all__ = [
    "CATEGORIES",
    "MODES",
    "SUT_KINDS",
    "ProviderHttpError",
    "Scenario",
    "TurnSpec",
    "catalog_dir",
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

MODES = ("stream", "nonstream")


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
    provider_rules: Mapping[str, str] = field(default_factory=dict)  # dialect -> rules name ("*" for all)
    gate_timeout: float = 1.0
    parity: bool = False
    sut_kinds: tuple[str, ...] = SUT_KINDS
    front_doors: tuple[str, ...] = ()  # the SUT's front door must be one of them (empty: any)
    outcome: str = "answer"  # what the client must end with: "answer", "error" or "either"
    expect: Mapping[str, str] = field(default_factory=dict)  # axis/check -> verdict
    client_read_timeout: float | None = None
    """The read timeout of the SUT's client (a proxy's or an SDK's, in seconds): while the upstream is
    silent for longer, the SUT must keep its client's stream alive (the keepalive check)."""

    def rules_for(self, dialect: str) -> str:
        return self.provider_rules.get(dialect, self.provider_rules.get("*", LENIENT))

    def for_kind(self, kind: str) -> bool:
        """Is the scenario written for SUTs of ``kind``? Its file may say (``sut_kinds``: data that
        names kinds, the one place a kind's name is compared outside the drivers)."""
        return kind in self.sut_kinds


# Every mistake in a file is a :class:`~harness._errors.ScenarioError` naming the file, the field, the bad
# value and the closest valid keys. ``harness._fields`` checks the top-level table, ``_scenario_turns`` the
# turns and ``_scenario_expect`` the expected verdicts.
def catalog_dir() -> Path:
    """The bundled catalog: ``scenarios/`` of a source checkout, else the copy inside the wheel."""
    here = Path(__file__).resolve().parents[2] / "scenarios"
    if here.is_dir():
        return here
    return Path(str(resources.files("harness") / "_data" / "scenarios"))


def load_scenario(path: Path, root: Path | None = None) -> Scenario:
    root = root or path.parent
    try:
        sid = path.relative_to(root).with_suffix("").as_posix()
    except ValueError:
        sid = path.stem
    return parse_scenario(load_toml(path, ScenarioError), sid=sid, file=str(path))


def _chunking(key: str, value: Any) -> None:
    from harness.codec import get_chunker

    for name in value:
        try:
            get_chunker(name)
        except ValueError as exc:
            raise Invalid(f"unknown chunking {name!r}", str(exc)) from None


def _must(key: str, value: Any) -> None:
    if "MUST" not in value:
        raise Invalid(f"{value!r} has no MUST", "state one MUST sentence")


def _not_empty(what: str) -> Rule:
    def rule(key: str, value: Any) -> None:
        if not value:
            raise Invalid("empty list", what)

    return rule


def _both(*rules: Rule) -> Rule:
    def rule(key: str, value: Any) -> None:
        for r in rules:
            r(key, value)

    return rule


def _dialect_names() -> list[str]:
    from harness.dialects import dialect_names

    return dialect_names()


def _caps() -> list[str]:
    from harness.dialects import Caps

    return [c.value for c in Caps]


def _perturbations() -> list[str]:
    from harness.codec import PERTURBATIONS

    return list(PERTURBATIONS)


def _seconds_over_zero(key: str, value: Any) -> None:
    if not value > 0 or value != value:
        raise Invalid(f"expected a number of seconds > 0, got {value!r}")


_FIELDS: dict[str, Field] = {
    "description": Field(str, required=True),
    "requirement": Field(str, required=True, rule=_must),
    "category": Field(str, required=True, rule=one_of("category", lambda: CATEGORIES)),
    "seeds": Field(list, items=str),
    "dialects": Field(
        list,
        required=True,
        items=str,
        rule=_both(_not_empty("name at least one dialect"), one_of("dialect", _dialect_names)),
    ),
    "variants": Field((list, str), items=str, want="a list of variants or '*'"),
    "exclude_variants": Field(list, items=str),
    "requires": Field(list, items=str, rule=one_of("capability", _caps)),
    "chunkings": Field(list, items=str, rule=_chunking),
    "perturbations": Field(list, items=str, rule=one_of("perturbation", _perturbations)),
    "modes": Field(list, items=str, rule=one_of("mode", lambda: MODES)),
    "provider_rules": Field((str, dict), items=str),
    "profile": Field((str, dict), items=str),  # the old name of provider_rules (deprecated)
    "gate_timeout": Field((float, int), want="a number of seconds > 0", rule=_seconds_over_zero),
    "parity": Field(bool),
    "sut_kinds": Field(list, items=str, rule=one_of("SUT kind", lambda: SUT_KINDS)),
    "front_doors": Field(
        list,
        items=str,
        rule=_both(_not_empty("name at least one front door"), one_of("dialect", _dialect_names)),
    ),
    "turns": Field(list, required=True, rule=_not_empty("give at least one [[turns]] table")),
    "expect": Field(dict),
    "client_read_timeout": Field((float, int), want="a number of seconds > 0", rule=_seconds_over_zero),
}
"""The top-level fields of a scenario file (``harness._fields`` checks types, then the rules)."""


def parse_scenario(data: Mapping[str, Any], *, sid: str, file: str) -> Scenario:
    def err(fld: str, problem: str, hint: str = "") -> ScenarioError:
        return ScenarioError(file, fld, problem, hint)

    check_fields(data, _FIELDS, err)
    dialects = tuple(data["dialects"])
    variants, exclude = _variants(data, dialects, err)
    gate_timeout = float(data.get("gate_timeout", 1.0))
    read_timeout = float(data["client_read_timeout"]) if "client_read_timeout" in data else None
    turns = parse_turns(data["turns"], gate_timeout, err, read_timeout)
    expect = data.get("expect", {})
    expected = expected_verdicts(expect, err)
    return Scenario(
        id=sid,
        path=file,
        description=data["description"].strip(),
        requirement=data["requirement"].strip(),
        category=data["category"],
        dialects=dialects,
        turns=turns,
        seeds=tuple(data.get("seeds", ())),
        variants=variants,
        exclude_variants=exclude,
        requires=tuple(data.get("requires", ())),
        chunkings=tuple(data.get("chunkings", ("frames",))),
        perturbations=tuple(data.get("perturbations", ("none",))),
        modes=tuple(data.get("modes", ("stream",))),
        provider_rules=_rules(data, dialects, err, file),
        gate_timeout=gate_timeout,
        parity=bool(data.get("parity", False)),
        sut_kinds=tuple(data.get("sut_kinds", SUT_KINDS)),
        front_doors=tuple(data.get("front_doors", ())),
        outcome=_outcome(expect, err),
        expect=expected,
        client_read_timeout=_read_timeout(data, turns, err),
    )


def _read_timeout(data: Mapping[str, Any], turns: tuple[TurnSpec, ...], err: Err) -> float | None:
    """``client_read_timeout``, which only a scenario whose upstream stays silent for longer (a
    ``pause`` step) can put to the test."""
    if "client_read_timeout" not in data:
        return None
    timeout = float(data["client_read_timeout"])
    longest = max((s.seconds for t in turns for s in t.steps if isinstance(s, Pause)), default=0.0)
    if longest <= timeout:
        raise err(
            "client_read_timeout",
            f"no pause step is longer than the client's read timeout ({timeout:g}s; longest pause: "
            f"{longest:g}s)",
            "script a silence the timeout would cut: { silence = true } (longer than the timeout)",
        )
    return timeout


def _variants(
    data: Mapping[str, Any], dialects: tuple[str, ...], err: Err
) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """``variants`` (None: ``"*"``, every variant) and ``exclude_variants``, each a variant of one of
    the scenario's dialects."""
    from harness.dialects import get_dialect

    known = {v for d in dialects for v in get_dialect(d).variants}
    raw = data.get("variants", "*")
    if isinstance(raw, str) and raw != "*":
        raise err("variants", f"expected a list or '*', got {raw!r}")
    variants = None if raw == "*" else tuple(raw)
    for v in variants or ():
        if v not in known:
            raise err("variants", f"unknown variant {v!r} for {', '.join(dialects)}", closest(v, known))
    exclude = tuple(data.get("exclude_variants", ()))
    for v in exclude:
        if v not in known:
            raise err("exclude_variants", f"unknown variant {v!r}", closest(v, known))
    return variants, exclude


def _rules(data: Mapping[str, Any], dialects: tuple[str, ...], err: Err, file: str) -> dict[str, str]:
    """``provider_rules``: one name for every dialect, or a table dialect (or ``"*"``) -> name; each
    the name of provider rules of its dialect. ``profile``, its old name, still works (one warning)."""
    from harness.dialects import get_dialect

    key = "provider_rules"
    if "profile" in data:
        if key in data:
            raise err("profile", "the old name of provider_rules, given beside it", "keep provider_rules")
        key = "profile"
        sys.stderr.write(f"thinkwire: warning: {file}: profile is deprecated; use provider_rules\n")
    raw: str | Mapping[str, str] = data.get(key, LENIENT)
    rules = {"*": raw} if isinstance(raw, str) else dict(raw)
    for d in dialects:
        name = rules.get(d, rules.get("*", LENIENT))
        names = list(get_dialect(d).provider_rules())
        if name not in names:
            problem = f"unknown provider rules {name!r} for dialect {d!r}"
            raise err(key, problem, closest(name, names))
    for d in rules:
        if d != "*" and d not in dialects:
            raise err(f"{key}.{d}", "names a dialect the scenario does not use", closest(d, dialects))
    return rules


def _outcome(expect: Mapping[str, Any], err: Err) -> str:
    outcome = str(expect.get("outcome", "answer"))
    if outcome not in ("answer", "error", "either"):
        raise err(
            "expect.outcome",
            f"unknown outcome {outcome!r}",
            "use 'answer', 'error' or 'either' (a retrying SUT answers, another surfaces the error)",
        )
    return outcome
