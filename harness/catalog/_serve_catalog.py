"""``thinkwire serve --catalog``: the whole catalog, or the cases ``--cases`` selects, as one shared mock
upstream for other test suites. It builds the cases; the serving itself is ``harness.upstream``'s."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness._errors import FlagError, closest
from harness.catalog._case import Case, expand, expand_all, select
from harness.catalog._catalog import load_catalog
from harness.dialects import get_dialect
from harness.events import Message
from harness.upstream import (
    Conversation,
    MockUpstream,
    SharedCase,
    SharedCatalog,
    demo_conversation,
    serve_forever,
    without_gates,
)

__all__ = ["scenario_conversation", "serve_catalog", "shared_cases"]


def shared_cases(patterns: Sequence[str] | None = None, root: Path | None = None) -> list[SharedCase]:
    """The cases ``patterns`` select (all when None) from the catalog at ``root`` (the bundled one
    when None), as the shared mock serves them.

    Every case is served as its conversation would be in a run, with its salted content, its provider
    rules' strict validation, its chunking and faults, but without gates. What ``GET /_thinkwire/cases``
    lists for a case is what a client needs to call it: the upstream path, the dialect and variant,
    streaming or not, the first user message. The catalog is ``--scenarios-dir DIR``, or the bundled one.
    """
    cases = select(expand_all(load_catalog(root)), patterns)
    return [SharedCase(c.id, without_gates(c.conversation()), _info(c)) for c in cases]


def _info(case: Case) -> dict[str, Any]:
    first = case.turns[0].user or ""
    spec = get_dialect(case.dialect).build_request(
        [Message.user(first)], model="mock-model", stream=case.stream, variant=case.variant
    )
    return {
        "dialect": case.dialect,
        "variant": case.variant,
        "stream": case.stream,
        "path": spec.path,
        "provider_rules": case.provider_rules,
        "turns": len(case.turns),
        "user": first,
        "requirement": case.scenario.requirement,
    }


def serve_catalog(
    patterns: Sequence[str] | None = None, root: Path | None = None, **lifecycle: Any
) -> int:
    """Serve the selected cases until SIGTERM / SIGINT (``lifecycle``: ``serve_forever``'s port,
    port file and grace); a selection with no case is a FlagError naming the flag."""
    cases = shared_cases(patterns, root)
    if not cases:
        where = f" in {root}" if root is not None else ""
        raise FlagError(f"--cases {' '.join(patterns or ())}: no case matches{where} (see thinkwire list)")
    catalog = SharedCatalog(cases)

    def share(up: MockUpstream) -> None:
        up.share(catalog)

    name = f"{len(cases)} case(s), any per request (control plane: /_thinkwire/cases, journal, reset)"
    return serve_forever(Conversation((), name=name), setup=share, **lifecycle)


def scenario_conversation(scenario: str, dialect: str, variant: str | None, rules: str) -> Conversation:
    """``thinkwire serve --scenario``: the conversation of the scenario's first case in ``dialect``
    (and ``variant``); an unknown scenario or a dialect it has no case for is a FlagError."""
    demo_conversation(dialect, variant, rules)  # the flags, checked
    catalog = {s.id: s for s in load_catalog()}
    if scenario not in catalog:
        raise FlagError(f"--scenario {scenario!r}: no such scenario; {closest(scenario, catalog)}")
    cases = expand(catalog[scenario])
    matches = [c for c in cases if c.dialect == dialect and (variant is None or c.variant == variant)]
    if not matches:
        have = sorted({f"{c.dialect}:{c.variant}" for c in cases})
        raise FlagError(
            f"--scenario {scenario!r} has no case for {dialect}"
            + (f":{variant}" if variant else "")
            + f"; it has {', '.join(have) or 'none'}: pass --dialect / --variant accordingly"
        )
    return matches[0].conversation()
