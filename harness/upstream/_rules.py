"""The say of the script's provider rules on a request, sans-IO: its validation, the provider's exact error,
and its passback comparison against what the upstream emitted earlier. An unknown rules name is an
:class:`UnknownName`, never a silent lenient one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness._errors import UnknownName
from harness.dialects import Fidelity, ProviderRules, Rejection, get_dialect
from harness.events import Message
from harness.upstream._forms import read_as
from harness.upstream._script import Script

__all__ = ["check_fidelity", "validate_request"]


def _rules(script: Script) -> ProviderRules:
    """The script's provider rules (an unknown name is an UnknownName)."""
    known = get_dialect(script.dialect).provider_rules()
    if script.provider_rules not in known:
        raise UnknownName(f"{script.dialect} provider rules", script.provider_rules, known)
    return known[script.provider_rules]


def _on_path(rules: ProviderRules, path: str) -> ProviderRules:
    """The rules that hold on ``path``: a provider whose contract belongs to its own paths (Claude on
    Vertex: ``:rawPredict``, ``:streamRawPredict``) says which rules hold elsewhere through ``on_path``."""
    scoped = getattr(rules, "on_path", None)
    if path and callable(scoped):
        chosen = scoped(path)
        if isinstance(chosen, ProviderRules):
            return chosen
    return rules


def validate_request(
    script: Script, body: Mapping[str, Any] | None, emitted: Sequence[Message], *, path: str = ""
) -> Rejection | None:
    """The script's provider rules check the request first (an unknown name is an UnknownName), as
    they hold on the request's ``path`` (empty: the rules' own)."""
    return _on_path(_rules(script), path).validate(read_as(script, body or {}, path), emitted)


def check_fidelity(
    script: Script, body: Mapping[str, Any] | None, emitted: Sequence[Message]
) -> Fidelity | None:
    """What the rules found comparing the passed-back reasoning with what it emitted (None: the
    rules make no such comparison, or the request carries nothing to compare)."""
    rules = _rules(script)
    return rules.fidelity(read_as(script, body or {}), emitted) if emitted else None
