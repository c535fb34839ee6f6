"""Which catalog cases a test runs: its own pattern narrowed by ``--thinkwire-cases`` (their intersection),
and, for ``thinkwire_case`` items, only the cases its SUT claims. A case outside the claims is deselected,
counted in one summary line per test; an unsupported variant is an item skipped with its reason."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from harness.catalog import Case

__all__ = ["LeftOut", "claim_reasons", "marker_kwargs", "narrowed", "run_settings", "test_patterns"]

_CATALOG = pytest.StashKey[dict[tuple[str, ...], list["Case"]]]()


@dataclasses.dataclass
class LeftOut:
    """The cases each test function leaves out because its SUT does not claim them: test node id ->
    case id -> reason; and what was deselected, for the summary."""

    reasons: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)
    deselected: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)

    def summary(self) -> list[str]:
        lines = []
        for test, by_reason in self.deselected.items():
            n = sum(by_reason.values())
            why = "; ".join(f"{count} x {reason}" for reason, count in by_reason.items())
            lines.append(f"thinkwire: {test}: {n} case(s) the SUT does not claim deselected ({why})")
        return lines


def marker_kwargs(node: Any) -> dict[str, Any]:
    """The keywords of every ``thinkwire`` marker on a test (its function's, its class's, its module's
    ``pytestmark``), the closest winning: a module names the SUT once, each test its cases."""
    merged: dict[str, Any] = {}
    for marker in reversed(list(node.iter_markers("thinkwire"))):
        merged |= marker.kwargs
    return merged


def test_patterns(kwargs: Mapping[str, Any]) -> list[str] | None:
    """The test's own case globs (the ``thinkwire`` markers' ``cases``)."""
    patterns = kwargs.get("cases")
    return [patterns] if isinstance(patterns, str) else (list(patterns) if patterns else None)


def run_settings(config: pytest.Config, kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """``run()``'s settings for a test: the markers' keywords with the session's options over them
    (``cases`` left out: see :func:`narrowed`)."""
    opts: dict[str, Any] = dict(kwargs)
    opts.pop("cases", None)
    if config.getoption("--thinkwire-strict"):
        opts["strict"] = True
    if config.getoption("--thinkwire-expectations"):
        opts["expectations"] = config.getoption("--thinkwire-expectations")
    if config.getoption("--thinkwire-scenarios"):
        opts["scenarios"] = config.getoption("--thinkwire-scenarios")
    return opts


def narrowed(
    config: pytest.Config,
    patterns: Sequence[str] | None,
    scenarios: Sequence[str] = (),
    *,
    option: bool = True,
) -> list[Case]:
    """The cases of ``patterns`` (every case when None) that ``--thinkwire-cases`` also selects (unless
    ``option`` is False)."""
    from harness.catalog import select
    from harness.runner import load_cases

    cache = config.stash.setdefault(_CATALOG, {})
    key = tuple(str(s) for s in scenarios)
    if key not in cache:
        cache[key] = load_cases(None, scenarios=list(scenarios))
    cases = select(cache[key], list(patterns) if patterns else None)
    given = config.getoption("--thinkwire-cases") if option else None
    return select(cases, given) if given else cases


def claim_reasons(
    cases: Sequence[Case], settings: Mapping[str, Any]
) -> tuple[dict[str, str], dict[str, str]]:
    """For the test's SUT (``sut`` of its marker): the cases it does not claim (case id -> why) and the
    claimed ones of a variant it lists as unsupported (case id -> why). Nothing without a ``sut``: the
    test names it in its call, and a case left out there skips its item with the reason."""
    if settings.get("sut") is None:
        return {}, {}
    from harness.catalog import left_out_reason
    from harness.runner import RunOptions

    names = {f.name for f in dataclasses.fields(RunOptions)}
    profile = RunOptions.build(**{k: v for k, v in settings.items() if k in names}).resolve().profile
    left, unsupported = {}, {}
    for case in cases:
        why = left_out_reason(case, profile)
        if why:
            left[case.id] = why
        elif not profile.claims(case.dialect, case.variant):
            unsupported[case.id] = (
                f"{case.dialect}:{case.variant} is an unsupported variant of the SUT (its claims say so)"
            )
    return left, unsupported
